"""volapi: a block-volume service whose every state change is one compare-and-swap."""
