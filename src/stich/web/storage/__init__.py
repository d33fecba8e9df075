"""Persistence: the database (:mod:`.db`, every query the server makes), its tables (:mod:`.models`)
and the Alembic migrations (``migrations/``, applied at start), and the ratings' update and reads (:mod:`.ratings`, decision 0055).

May import: :mod:`stich.web.guards` (the name rule that makes ``name_key``), :mod:`stich.web.deals`
(the rating rules of :mod:`stich.web.deals.ratings`) and the base modules
(``identity``, ``protocol``, ``settings``).  Never the runtime or the API: they call storage.
"""
