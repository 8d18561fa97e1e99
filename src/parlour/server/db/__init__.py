"""The database: every SQL statement the server makes, run through one runner (db/runner.py),
the stores, the schema (models.py) and its migrations. SQLite by default, PostgreSQL by URL."""
