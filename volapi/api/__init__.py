"""The Cinder v3-compatible volume API (pecan); ``app.setup_app`` builds it."""
