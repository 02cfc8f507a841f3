"""Allocation candidates: combining what each request group can take
into requests that satisfy them all, with Placement's rules (group_policy,
same_subtree, the capacity of amounts several groups add up on one
inventory), and, before microversion 1.29, keeping only the requests that
take from one provider per tree.

``pieces`` is {suffix: [allocation_candidate._Piece]}; ``search`` is the
allocation_candidate search that found them, whose rows (``usage``) and
trees (``providers``, ``root_of``, ``read_trees``) are read here.
"""
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
        # One group: each piece is a request.
        found, = pieces.values()
        return _once([(piece.pairs, piece.amounts, (piece.providers,))
                      for piece in found], search)
    granular = len([s for s in suffixes if s])
    rooms = {}

    def fits(provider_id, class_id, amount):
        free = rooms.get((provider_id, class_id))
        if free is None:
            free = rooms[provider_id, class_id] = _room(
                search.usage[provider_id, class_id])
        return amount <= free

    # For each group, {anchor: its pieces of that anchor's tree}.
    per_group = []
    for found in pieces.values():
        of_anchor = {}
        for piece in found:
            held = of_anchor.get(piece.anchor)
            if held is None:
                of_anchor[piece.anchor] = [piece]
            else:
                held.append(piece)
        per_group.append(of_anchor)
    if same_subtrees:
        search.read_trees({p.anchor for found in pieces.values()
                           for p in found}
                          | {search.root_of[i] for found in pieces.values()
                             for p in found for i in p.providers})
    isolate = group_policy == 'isolate'
    merged = []
    add = merged.append

    def add_combo(combo, mapped):
        resources = sorted(_chain(
            zip(p.pairs[::2], p.pairs[1::2], p.amounts) for p in combo))
        # A provider's class taken by several groups is added up (sorted,
        # they are next to each other) and must still fit.
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
            return
        add((tuple(pairs), tuple(amounts), mapped))

    for anchor in set(per_group[0]).intersection(*per_group[1:]):
        lists = [of_anchor[anchor] for of_anchor in per_group]
        if len(lists) == 2 and not isolate and not same_subtrees:
            # Two pieces whose providers do not interleave (the usual case:
            # one provider each) are the request one after the other, in
            # order.
            for first in lists[0]:
                pairs, amounts = first.pairs, first.amounts
                providers = first.providers
                for second in lists[1]:
                    mapped = (providers, second.providers)
                    if pairs and second.pairs:
                        if pairs[-2] < second.pairs[0]:
                            add((pairs + second.pairs,
                                 amounts + second.amounts, mapped))
                            continue
                        if second.pairs[-2] < pairs[0]:
                            add((second.pairs + pairs,
                                 second.amounts + amounts, mapped))
                            continue
                    add_combo((first, second), mapped)
            continue
        for combo in itertools.product(*lists):
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
            add_combo(combo, tuple([p.providers for p in combo]))
    return _once(merged, search)


def _once(requests, search):
    """``requests`` with each one once: one is found twice only through
    a sharing provider, whose pieces repeat for each tree it anchors."""
    if search.anchored:
        return list(dict.fromkeys(requests))
    return requests


def _room(fit):
    """What the inventory of a room_and_traits row (read with its
    inventory) can still take in one allocation."""
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
            provider_id = search.providers[provider_id].parent_id
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
