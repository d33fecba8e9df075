"""The stich web platform: an authoritative game server (FastAPI, WebSockets, SQLAlchemy + Alembic).

Start it with ``stich serve``; build the app in code with
:func:`stich.web.app.create_app`.  ``docs/web.md`` documents the architecture,
the REST API, the WebSocket messages and the security model.

The folders, from the top down (imports go only downwards; decision 0042 and the
``web-layers`` import-linter contract): ``app``/``workers``/``server`` (the composition
root), :mod:`.api` (routes), :mod:`.cluster` (several workers), :mod:`.runtime` (the live
tables), :mod:`.storage` (database), :mod:`.guards` (limits and checks), :mod:`.deals`
and :mod:`.card_art`, and the base: :mod:`.identity`, :mod:`.protocol`, :mod:`.settings`.
"""
