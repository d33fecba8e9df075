"""What the Tarock-family games' players share: trick reading, the compiled trick kernel's adapter and its rollouts, greedy card play."""
