"""JSON schemas of placement request bodies and query strings."""
