"""Alembic migrations of the web server's database, applied by :func:`stich.web.storage.db.Database.migrate` at start."""
