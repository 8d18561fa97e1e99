"""Several server processes on one PostgreSQL database: notices between them (fanout.py), the
leases of bots and clocks (leases.py), and what a process does with a notice (cluster.py)."""
