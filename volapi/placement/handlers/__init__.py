"""Placement API handlers, one module per resource; ``handler.py`` maps
paths and methods to them."""
