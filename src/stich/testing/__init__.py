"""Test helpers shipped with the package, for stich's own games and for new ones."""
