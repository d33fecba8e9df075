"""Rules that several Tarock-family games share word for word.

Only a rule that the dossiers of the games state the same way lives here
(docs/decisions/0029-shared-tarock-rules.md); what merely looks alike, and
every rule one game words its own way, stays in that game's package.  The
games import from here; this package imports no game.
"""
