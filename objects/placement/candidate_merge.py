"""Allocation candidates: combining what each request group can take
into requests that satisfy them all, with Placement's rules (group_policy,
same_subtree, the capacity of amounts several groups add up on one
inventory), and, before microversion 1.29, keeping only the requests that
take from one provider per tree.

``pieces`` is {suffix: [allocation_candidate._Piece]}; ``search`` is the
allocation_candidate search that found them, whose rows (``usage``) and
trees (``providers``, ``root_of``, ``read_trees``) are read here.
"""
import collections
import itertools

from objects.placement import candidate_reads as reads

_chain = itertools.chain.from_iterable


def merge(pieces, search, group_policy, same_subtrees):
    """Requests satisfying every group: one piece per group, all of one
    anchor tree, kept if they follow group_policy and same_subtree and if
    the amounts they add up on one inventory still fit. Each request is
    (pairs, amounts, mapped), as in Found.requests (unsorted).

    Every piece's own amounts fit (the reads found each (provider, class,
    amount) with room, and a piece takes a class once): only amounts that
    several groups add up on one inventory are checked again, against
    ``search.usage``."""
    suffixes = list(pieces)
    if len(suffixes) == 1:
        # One group: each piece is a request. Pieces may repeat (a sharing
        # provider's piece for each tree it anchors): the dict keeps one.
        found, = pieces.values()
        return list(dict.fromkeys(
            (piece.pairs, piece.amounts, (piece.providers,))
            for piece in found))
    granular = len([s for s in suffixes if s])
    rooms = {}

    def fits(provider_id, class_id, amount):
        free = rooms.get((provider_id, class_id))
        if free is None:
            free = rooms[provider_id, class_id] = _room(
                search.usage[provider_id, class_id])
        return amount <= free

    by_anchor = collections.defaultdict(lambda: collections.defaultdict(list))
    for suffix, found in pieces.items():
        for piece in found:
            by_anchor[piece.anchor][suffix].append(piece)
    if same_subtrees:
        search.read_trees({p.anchor for found in pieces.values()
                           for p in found}
                          | {search.root_of[i] for found in pieces.values()
                             for p in found for i in p.providers})
    isolate = group_policy == 'isolate'
    two = len(suffixes) == 2
    merged = {}
    for anchor, lists in by_anchor.items():
        if len(lists) != len(suffixes):
            continue
        for combo in itertools.product(*[lists[s] for s in suffixes]):
            if isolate and len(set().union(*(
                    p.providers for p in combo
                    if p.same_provider))) != granular:
                continue
            if same_subtrees:
                mapped = dict(zip(suffixes, (p.providers for p in combo)))
                if not all(_same_subtree(set().union(
                        *(mapped[s] for s in subtree)), search)
                        for subtree in same_subtrees):
                    continue
            if two:
                # Two pieces whose providers do not interleave (the usual
                # case: one provider each) are the request one after the
                # other, in order.
                first, second = combo
                mapped = (first.providers, second.providers)
                if first.pairs and second.pairs:
                    if first.pairs[-2] < second.pairs[0]:
                        merged[first.pairs + second.pairs,
                               first.amounts + second.amounts,
                               mapped] = None
                        continue
                    if second.pairs[-2] < first.pairs[0]:
                        merged[second.pairs + first.pairs,
                               second.amounts + first.amounts,
                               mapped] = None
                        continue
            else:
                mapped = tuple([p.providers for p in combo])
            resources = sorted(_chain(
                zip(p.pairs[::2], p.pairs[1::2], p.amounts) for p in combo))
            # A provider's class taken by several groups is added up
            # (sorted, they are next to each other) and must still fit.
            pairs, amounts = [], []
            last_provider = last_class = None
            summed = False
            for provider_id, class_id, amount in resources:
                if provider_id == last_provider and class_id == last_class:
                    amounts[-1] += amount
                    summed = True
                else:
                    pairs += (provider_id, class_id)
                    amounts.append(amount)
                    last_provider, last_class = provider_id, class_id
            if summed and not all(
                    fits(pairs[2 * i], pairs[2 * i + 1], amount)
                    for i, amount in enumerate(amounts)):
                continue
            merged[tuple(pairs), tuple(amounts), mapped] = None
    return list(merged)


def _room(fit):
    """What the inventory of a providers_with_room (or room_and_traits) row
    can still take in one allocation."""
    total, reserved, ratio, allocated, max_unit = fit[4:9]
    return min(reads.capacity(total, reserved, ratio) - allocated, max_unit)


def _same_subtree(provider_ids, search):
    """All of ``provider_ids`` hang below (or are) one of them."""
    if len(provider_ids) <= 1:
        return True
    common = None
    for provider_id in provider_ids:
        line = set()
        while provider_id is not None:
            line.add(provider_id)
            provider_id = search.providers[provider_id][1]
        common = line if common is None else common & line
    return bool(common & provider_ids)


def without_nested(merged, search):
    """Before 1.29: only requests taking from one provider per tree, and
    the ids of the providers they use (the only ones summarised)."""
    kept, used = [], set()
    for request in merged:
        providers = set(request[0][::2])
        if len(providers) == len({search.root_of[p] for p in providers}):
            kept.append(request)
            used |= providers
    return kept, used
