"""What the Dobbm players know: the heuristic, the world sampler and the heuristic's compiled card play."""
