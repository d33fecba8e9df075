"""The stich web platform: an authoritative game server (FastAPI, WebSockets, SQLAlchemy + Alembic).

Start it with ``stich serve``; build the app in code with
:func:`stich.web.app.create_app`.  ``docs/web.md`` documents the architecture,
the REST API, the WebSocket messages and the security model.
"""
