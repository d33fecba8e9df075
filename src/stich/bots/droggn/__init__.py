"""What the Droggn players know: the heuristic and the world sampler."""
