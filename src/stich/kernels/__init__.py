"""The compiled (numba) kernels: array-level trick play, playouts and exact solvers, free of any game object.

Each module here is imported only through its adapter in the AI layer
(:mod:`stich.bots.doppelkopf.kernel`, :mod:`stich.bots.tarock_family.kernel`,
the compiled policies under ``stich.bots.<game>.policy``), which turns a
game's state into the arrays these functions read and checks first that
numba is importable.
"""
