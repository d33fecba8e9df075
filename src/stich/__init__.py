"""stich: an engine and play platform for Doppelkopf and the Tapp/Tarock family."""

__version__ = "0.1.0"
