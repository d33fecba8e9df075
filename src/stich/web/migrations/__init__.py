"""Alembic migrations of the web server's database, applied by :func:`stich.web.db.Database.migrate` at start."""
