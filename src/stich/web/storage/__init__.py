"""Persistence: the database (:mod:`.db`, every query the server makes), its tables (:mod:`.models`)
and the Alembic migrations (``migrations/``, applied at start).

May import: :mod:`stich.web.guards` (the name rule that makes ``name_key``) and the base modules
(``identity``, ``protocol``, ``settings``).  Never the runtime or the API: they call storage.
"""
