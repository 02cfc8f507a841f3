"""View builders: objects to the dicts Cinder's API returns."""
