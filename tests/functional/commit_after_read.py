"""A concurrent request, forced in between a read and the write that acts
on it: :class:`CommitAfterRead` patches a reading function so that, once
its first call has returned, another transaction commits a change. A use
case that decides in Python on what it read and writes without stating
the decision in its compare-and-swap's WHERE then acts on a state that
no longer is.

The change runs in a thread of its own (its own connection and
transaction). Where the reader is inside a transaction that holds the
database (SQLite's write lock), the change waits for it to end: the read
and the write are not interleaved there, and the test sees the two
requests in turn."""
import threading

import fixtures

# Seconds to wait for the change; it normally takes milliseconds.
WAIT = 15
# On SQLite a change that waits for the reader's transaction cannot end
# before it: wait this long, then let the reader go on (long enough for a
# change that does not wait to end on a loaded machine).
SQLITE_WAIT = 3.0


class CommitAfterRead(fixtures.Fixture):
    """``module.name`` commits ``change()`` right after its call number
    ``after_call`` (1: the first) returns; other calls are left alone."""

    def __init__(self, test, module, name, change, after_call=1):
        super().__init__()
        self.test, self.module, self.name = test, module, name
        self.change = change
        self.after_call = after_call
        self.calls = 0
        self.done = False
        # Whether the change had committed when the read returned to its
        # caller (False where it waited for the reader's transaction).
        self.in_between = None
        self.errors = []
        self.thread = None

    def _setUp(self):
        original = getattr(self.module, self.name)

        def patched(*args, **kwargs):
            result = original(*args, **kwargs)
            self.calls += 1
            if self.calls == self.after_call:
                self.done = True
                self._commit()
            return result

        self.useFixture(fixtures.MonkeyPatch(
            '%s.%s' % (self.module.__name__, self.name), patched))
        self.addCleanup(self._finish)

    def _commit(self):
        def run():
            try:
                self.change()
            except BaseException as e:  # reported by the test's thread
                self.errors.append(e)

        self.thread = threading.Thread(target=run)
        self.thread.start()
        self.thread.join(SQLITE_WAIT if self.test.backend == 'sqlite'
                         else WAIT)
        self.in_between = not self.thread.is_alive()

    def _finish(self):
        if self.thread is not None:
            self.thread.join(WAIT)
        if self.errors:
            raise self.errors[0]

    def wait(self):
        """Return once the change has committed (raise what it raised)."""
        self.test.assertTrue(self.done, 'the read was never made')
        self._finish()
