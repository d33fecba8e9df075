"""The game-independent rules machine: options, games, states, actions, records."""
