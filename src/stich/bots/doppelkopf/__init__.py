"""What the Doppelkopf players know: the heuristic, the world sampler, the exact solver and the compiled kernel's adapter."""
