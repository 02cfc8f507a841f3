"""The garbage collector held off while a request builds a large answer.

Answering GET /allocation_candidates over a thousand providers makes tens
of thousands of tuples, lists and strings, nearly all freed by reference
counting when the answer is sent; meanwhile the collector would run a
young-generation collection every few hundred of them and walk what is
still alive each time (about a tenth of such a request's CPU). Held off,
it finds its allocation count back about where it was afterwards.
"""
import contextlib
import gc


@contextlib.contextmanager
def paused():
    """No automatic collection inside; the collector is on again after,
    unless it was off before (then it is left alone, as it is if another
    thread holding it off ends first: that one turns it back on)."""
    if not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()
