"""Run a request again when the database was unreachable before it wrote.

A transaction that could not reach the database is retried by db.api's
``retrying`` when it is wrapped in it (every compare-and-swap is). The
reads a request makes before or without one are not: rather than wrap each,
this layer runs the whole request again when it ended in an outage 503
(``Retry-After``) and no COMMIT was sent while it ran, so nothing it did
can have taken effect twice. It stops after REPLAY_WITHIN seconds; then the
503 goes to the client.
"""
import io
import time

from db import connectivity
from volapi import request_text

REPLAY_WITHIN = 2.0  # seconds: a database restart (PostgreSQL: ~0.5 s)
FIRST_PAUSE = 0.05


class Replay:

    def __init__(self, application):
        self.application = application

    def __call__(self, environ, start_response):
        body = _buffered_body(environ)
        deadline = time.monotonic() + REPLAY_WITHIN
        pause = FIRST_PAUSE
        while True:
            attempt = dict(environ)
            if body is not None:
                attempt['wsgi.input'] = io.BytesIO(body)
            sent = connectivity.commits()
            answer = _Answer(start_response, lambda: (
                connectivity.commits() == sent and
                time.monotonic() + pause < deadline))
            result = self.application(attempt, answer.start_response)
            if not answer.replay:
                return result
            if hasattr(result, 'close'):
                result.close()
            time.sleep(pause)
            pause *= 2


def _buffered_body(environ):
    """The request body, read once so every attempt can read it (its size
    is bounded by the size limit in front of this layer); None if empty."""
    length = request_text.byte_count(environ.get('CONTENT_LENGTH') or '0')
    if not length:
        return None  # none, or the application answers the bad header
    body = environ['wsgi.input'].read(length)
    environ['wsgi.input'] = io.BytesIO(body)
    return body


class _Answer:
    """The start_response of one attempt: an outage 503 that may be
    replayed is held back, anything else goes to the client."""

    def __init__(self, start_response, may_replay):
        self._start_response = start_response
        self._may_replay = may_replay
        self.replay = False

    def start_response(self, status, headers, exc_info=None):
        if status.startswith('503') and \
                any(name.lower() == 'retry-after' for name, _ in headers) \
                and self._may_replay():
            self.replay = True
            return lambda data: None
        return self._start_response(status, headers, exc_info)
