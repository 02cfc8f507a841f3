"""Errors the db layer raises. Nothing here knows about HTTP."""


class VolapiDBError(Exception):
    pass


class InvalidUpdate(VolapiDBError, ValueError):
    """A conditional update was asked for something it cannot express."""


class NotFound(VolapiDBError):
    def __init__(self, what, ident):
        self.what, self.ident = what, ident
        super().__init__('%s %s could not be found.' % (what, ident))


class ConditionNotMet(VolapiDBError):
    """A compare-and-swap failed and we know which condition refused it."""

    def __init__(self, condition, actual, what='resource'):
        self.condition = condition
        self.actual = actual
        self.what = what
        super().__init__(condition.explain(actual, what))

    @property
    def field(self):
        return getattr(self.condition, 'field', None)

    @property
    def expected(self):
        return getattr(self.condition, 'expected', None)


class ConcurrentUpdate(VolapiDBError):
    """Every condition held when re-read, yet the update kept missing:
    the row is changing faster than we can catch it."""

    def __init__(self, what, ident, attempts):
        self.what, self.ident, self.attempts = what, ident, attempts
        super().__init__(
            '%s %s was changed by another request %d times in a row; '
            'try again.' % (what, ident, attempts))


class SwapMissed(VolapiDBError):
    """A compare-and-swap that carried writes in its statement did not
    match. The writes were made all the same, so the transaction must be
    rolled back; run it again without them to learn why (db.writes)."""

    def __init__(self, what):
        self.what = what
        super().__init__('the update of %s, made with other writes, did '
                         'not match' % what)
