"""What allocation candidates show of each provider, kept in the process
between requests.

A candidates answer summarises every provider of the trees it uses: its
uuid, parent and root, inventories with what is allocated from them, and
traits. Reading them all for each request costs more than finding the
candidates. Every write that changes any of it advances the provider's
``revision`` in the same transaction (objects.placement.resource_provider),
so a request reads only each provider's (id, revision), takes the
providers whose revision it knows from here, and reads in full only the
others.

What a request takes from here is what it would have read: an entry is
used only if its revision is the one the request read, and an entry's
data and revision come from one statement. Entries of deleted providers
stay until the cache is full, then it is emptied.
"""

# An entry with one summary's text takes about 1.4 KB (the bench's
# providers, measured with tracemalloc): at most about 140 MB.
MAX_PROVIDERS = 100_000


class Provider:
    """One provider as candidates show it: ``uuid``, ``parent_id``,
    ``root_id``, ``inventories`` (class id, capacity, used, class id, ...
    by class id: a summary is written from them, and they are
    compared whole with another provider's), ``traits`` (a frozenset of
    names) and ``classes`` (the frozenset of its inventories' class ids,
    one object for all the providers with the same). ``texts`` holds what
    the answer's writer made of it (the JSON text of its uuid, of its
    summary by the shape of the answer), for as long as the entry lives:
    its data never changes."""

    __slots__ = ('revision', 'uuid', 'parent_id', 'root_id', 'inventories',
                 'traits', 'classes', 'texts')

    def __init__(self, revision, uuid, parent_id, root_id, inventories,
                 traits):
        self.revision = revision
        self.uuid = uuid
        self.parent_id = parent_id
        self.root_id = root_id
        self.inventories = inventories
        self.traits = traits
        classes = frozenset(inventories[::3])
        self.classes = _CLASS_SETS.setdefault(classes, classes)
        self.texts = {}


# The distinct sets of classes providers have: a few per deployment.
_CLASS_SETS = {}

# {provider id: Provider}, shared by the process's requests; an entry is
# replaced, never changed, but for its texts.
_KNOWN = {}


def providers(revisions, read):
    """{provider id: Provider} of the providers ``revisions`` lists ((id,
    revision) pairs, as a request read them): those known at that
    revision from here, the others from ``read(ids)`` ({id: Provider} of
    those of ``ids`` that still exist), which are then kept."""
    found, stale = {}, []
    known = _KNOWN.get
    for provider_id, revision in revisions:
        entry = known(provider_id)
        if entry is None or entry.revision != revision:
            stale.append(provider_id)
        # In the order of ``revisions`` whatever is cached (the order the
        # answer's summaries are written in).
        found[provider_id] = entry
    if stale:
        fresh = read(stale)
        if len(_KNOWN) + len(fresh) > MAX_PROVIDERS:
            _KNOWN.clear()
        _KNOWN.update(fresh)
        for provider_id in stale:
            entry = fresh.get(provider_id)
            if entry is None:
                del found[provider_id]  # deleted since
            else:
                found[provider_id] = entry
    return found
