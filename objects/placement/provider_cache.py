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

# Far above the providers of the largest deployments' candidates queries;
# an entry is a few hundred bytes.
MAX_PROVIDERS = 200_000


class Provider:
    """One provider as candidates show it: ``tree`` (uuid, parent id, root
    id), ``inventories`` (class id, capacity, used, class id, ...),
    ``traits`` (a frozenset of names), ``classes`` (the class ids of its
    inventories). ``texts`` holds what the answer's writer made of it
    (its summary's text, by the shape of the answer), for as long as the
    entry lives."""

    __slots__ = ('revision', 'tree', 'inventories', 'traits', 'classes',
                 'texts')

    def __init__(self, revision, tree, inventories, traits):
        self.revision = revision
        self.tree = tree
        self.inventories = inventories
        self.traits = traits
        self.classes = inventories[::3]
        self.texts = {}


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
        if entry is not None and entry.revision == revision:
            found[provider_id] = entry
        else:
            stale.append(provider_id)
    if stale:
        fresh = read(stale)
        if len(_KNOWN) + len(fresh) > MAX_PROVIDERS:
            _KNOWN.clear()
        _KNOWN.update(fresh)
        found.update(fresh)
    return found
