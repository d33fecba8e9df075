"""What the Dappen players know: the heuristic and the world sampler."""
