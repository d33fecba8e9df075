"""Playing cards drawn as SVG by the project itself, in pure Python and without external assets.

Four packs (:data:`PACKS`): ``french`` (Doppelkopf), ``german`` (Dobbm, and
a choice for Doppelkopf), ``tarock`` (Industrie und Glück, Tapp Tarock and
Droggn) and ``cego`` (Dappen).  :func:`card_svg` draws one card (or the
``back``) as a standalone SVG document in the viewBox ``0 0 240 360``;
:func:`default_pack` says which pack a game is shown with.  The web server
serves the drawings through :mod:`stich.web.api.cards`.

Modules: ``svg`` (writing SVG text), ``suits`` (suit signs), ``pips`` (pip
layouts), ``courts`` (court figures), ``faces`` (suit cards and indices),
``scenes`` and ``animals`` (trump vignettes), ``trumps`` (tarock and Cego
trumps, the Fool), ``backs``, ``packs`` (pack contents, names, game
defaults) and ``render`` (lookup, errors, caching).
"""

from stich.web.card_art.packs import GAME_PACKS, PACKS, Pack, card_name, default_pack
from stich.web.card_art.render import ART_VERSION, BACK, CardArtError, card_svg, find_card, find_pack, index_label

__all__ = [
    "ART_VERSION",
    "BACK",
    "GAME_PACKS",
    "PACKS",
    "CardArtError",
    "Pack",
    "card_name",
    "card_svg",
    "default_pack",
    "find_card",
    "find_pack",
    "index_label",
]
