"""What the Tapp Tarock players know: the heuristic, the world sampler and the heuristic's compiled card play."""
