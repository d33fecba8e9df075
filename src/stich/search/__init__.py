"""Search support: tools that bots use to look ahead (the exact solver, the fast kernel)."""
