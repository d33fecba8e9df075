"""Duplicate tournaments, the web-free part: standings from deal outcomes, and the same standings recomputed from records.

Every table of a tournament plays the same deals (deal ``n`` from the same
committed seed) in the same seats, so a seat's cards in deal ``n`` are the
same at every table whose dealer matches.  :mod:`stich.tournaments.standings`
ranks the entrants (the DDV's list scoring for Doppelkopf, a plain sum for
the other games) and compares each player with everyone who held the same
cards; :mod:`stich.tournaments.replay` rebuilds those outcomes from the
downloaded records (``stich tournament standings FILE``).  Decision 0057.
"""
