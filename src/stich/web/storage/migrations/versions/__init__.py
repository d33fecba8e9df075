"""Migration scripts, one per schema version, oldest first."""
