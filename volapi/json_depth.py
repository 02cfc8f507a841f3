"""How deeply a request's JSON nests, for both APIs to refuse absurd
bodies before they look at them.

No request of either API nests more than a few levels. A body nested
hundreds of levels deep is still a small, valid JSON document, but
validating it, or even printing it in an error message, recurses past
Python's limit: a 500 instead of a 400.
"""

MAX_DEPTH = 32


def too_deep(value, limit=MAX_DEPTH):
    """True if ``value`` nests objects/arrays more than ``limit`` levels
    deep. Level by level, without recursion."""
    level = [value]
    for _ in range(limit + 1):
        children = []
        for item in level:
            if isinstance(item, dict):
                children.extend(item.values())
            elif isinstance(item, list):
                children.extend(item)
        if not children:
            return False
        level = children
    return True
