"""The WSGI layers both APIs share (volapi.middleware.stack composes them)."""
