"""The authority: the tables in memory and the one path by which a move reaches a table, opening
and joining tables, bots and hints, and the lobby's summaries. No HTTP and no SQL here: the
database is reached through its runner (server/db), and what happens is published as events
(authority/events.py) for the features and the cluster to react to."""
