"""A differential test of volapi's placement API against OpenStack
Placement 16.0.0: both serve the same scripted requests, each on a fresh
PostgreSQL database, and every difference a client could see is reported.

    python -m tools.placement_diff [--db-url URL] [--venv DIR]

``servers`` installs Placement in a scratch virtualenv and serves both
applications; ``scenario`` is the request sequence; ``compare`` says how
two responses differ; ``allowed`` lists the accepted differences.
"""
