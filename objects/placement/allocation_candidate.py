"""Allocation candidates: the ways a set of request groups can be allocated
from the providers there are now, as Placement 16.0.0 computes them for
``GET /allocation_candidates``.

The in-process API (the placement handler and the volume scheduler use it)::

    get_candidates(context, groups, limit=None, group_policy=None,
                   root_required=(), root_forbidden=(), same_subtrees=(),
                   nested_aware=True, randomize=False) -> Candidates

``groups`` maps a suffix to a :class:`RequestGroup`; the unsuffixed group
(``''``) may spread its resources over one provider tree and the providers
sharing with it through aggregates (``MISC_SHARES_VIA_AGGREGATE``), while a
suffixed group takes all its resources from one provider. For example::

    from objects.placement import allocation_candidate as ac

    found = ac.get_candidates(context, {
        '': ac.RequestGroup(resources={'DISK_GB': 10},
                            required_traits=[{'CUSTOM_SSD'}],
                            member_of=[{aggregate_uuid}],
                            use_same_provider=False)}, limit=5)
    for request in found.allocation_requests:
        request.allocations  # {provider uuid: {'DISK_GB': 10}}
        request.mappings     # {'': [provider uuid]}
    found.provider_summaries  # {provider uuid: ProviderSummary}

``find()`` (same arguments) gives the answer still in ids (:class:`Found`),
which the API writes out as JSON text without building the dicts.

Unknown resource classes raise ``exception.ResourceClassNotFound``, unknown
traits ``exception.TraitNotFound``; an unknown aggregate or ``in_tree``
provider simply matches nothing. The answer comes from a handful of
set-based reads in one snapshot (``candidate_reads``) whatever the number
of providers; the per-group results are combined in memory, with
Placement's rules (group_policy, same_subtree, the capacity of merged
amounts), by ``candidate_merge``.
"""
import collections
import dataclasses
import itertools
import operator
import random
import typing

import os_traits

from db import session
from objects.placement import candidate_merge
from objects.placement import candidate_reads as reads
from objects.placement import exception
from objects.placement import resource_class as rc_obj


@dataclasses.dataclass
class RequestGroup:
    """One request group. ``required_traits`` is a list of sets of names,
    each "any of"; ``member_of`` a list of sets of aggregate uuids, each
    "in any of"."""
    resources: dict = dataclasses.field(default_factory=dict)
    required_traits: list = dataclasses.field(default_factory=list)
    forbidden_traits: set = dataclasses.field(default_factory=set)
    member_of: list = dataclasses.field(default_factory=list)
    forbidden_aggs: set = dataclasses.field(default_factory=set)
    in_tree: typing.Optional[str] = None
    use_same_provider: bool = True


@dataclasses.dataclass
class AllocationRequest:
    """``allocations``: {provider uuid: {class name: amount}}, the body of
    a PUT /allocations (1.12 form) without its consumer fields;
    ``mappings``: {group suffix: [provider uuid, ...]}."""
    allocations: dict
    mappings: dict


@dataclasses.dataclass
class ProviderSummary:
    """``resources``: {class name: {'capacity': n, 'used': n}} of every
    inventory of the provider; ``traits``: sorted names."""
    resources: dict
    traits: list
    parent_provider_uuid: typing.Optional[str]
    root_provider_uuid: str


class Candidates(typing.NamedTuple):
    allocation_requests: list
    provider_summaries: dict


NO_CANDIDATES = Candidates([], {})
_MAX_UNIT = 2147483647
_SHARING = os_traits.MISC_SHARES_VIA_AGGREGATE
_NONE = frozenset()
_chain = itertools.chain.from_iterable
_FIRST = operator.itemgetter(0)


class _NoMatch(Exception):
    """A group (or the request-wide filters) matches nothing."""


class _Piece(typing.NamedTuple):
    """What one group takes in one way of satisfying it: ``pairs`` is the
    flat tuple (provider id, class id, ...) of what it takes, sorted, and
    ``amounts`` the amount of each pair (as in Found.requests: a piece of
    the only group is a request as it is); ``providers`` the sorted ids
    of the providers it names (in mappings), ``anchor`` the root of the
    tree it belongs to."""
    anchor: int
    pairs: tuple
    amounts: tuple
    providers: tuple
    same_provider: bool


def get_candidates(context, groups, limit=None, group_policy=None,
                   root_required=(), root_forbidden=(), same_subtrees=(),
                   nested_aware=True, randomize=False):
    """The allocation candidates of ``groups`` ({suffix: RequestGroup}).

    ``root_required``/``root_forbidden``: trait names the root of each
    candidate's tree must have / not have (1.35); ``same_subtrees``: sets
    of suffixes whose providers must all hang below one of them (1.36);
    ``group_policy='isolate'``: suffixed groups on distinct providers;
    ``nested_aware=False`` (before 1.29) drops candidates using two
    providers of one tree; ``limit`` keeps that many (a random sample if
    ``randomize``).
    """
    return find(context, groups, limit=limit, group_policy=group_policy,
                root_required=root_required, root_forbidden=root_forbidden,
                same_subtrees=same_subtrees, nested_aware=nested_aware,
                randomize=randomize).candidates()


class Found(typing.NamedTuple):
    """An answer in ids, as found: what the API renders its body from
    directly, and :meth:`candidates` expands for in-process callers.

    ``requests``: [(pairs, amounts, mapped)] in Placement's order, where
    ``pairs`` is the flat tuple (provider id, class id, provider id, class
    id, ...) of the inventories used, sorted by provider and class,
    ``amounts`` their amounts and ``mapped`` the tuple of each group's
    provider ids (a tuple), groups in the order of ``suffixes``. Flat
    tuples sort as their pairs would, and a thousand requests make fewer
    objects for the garbage collector to walk. ``providers``: {id:
    provider_cache.Provider} of every provider named (shared with other
    requests: read only); ``summarised``: the ids of the providers to
    summarise; ``class_names``: {class id: name}.
    """
    requests: list
    suffixes: list
    providers: dict
    summarised: list
    class_names: dict

    def candidates(self):
        uuids = {p: entry.uuid for p, entry in self.providers.items()}
        names = self.class_names
        requests = []
        for pairs, amounts, mapped in self.requests:
            allocations = {}
            for provider_id, class_id, amount in zip(
                    pairs[::2], pairs[1::2], amounts):
                allocations.setdefault(uuids[provider_id], {})[
                    names[class_id]] = amount
            requests.append(AllocationRequest(allocations, {
                suffix: sorted(uuids[p] for p in providers)
                for suffix, providers in zip(self.suffixes, mapped)}))
        summaries = {}
        for provider_id in self.summarised:
            entry = self.providers[provider_id]
            held = entry.inventories
            summaries[entry.uuid] = ProviderSummary(
                {names[c]: {'capacity': capacity, 'used': used}
                 for c, capacity, used in zip(
                     held[::3], held[1::3], held[2::3]) if c in names},
                sorted(entry.traits),
                uuids[entry.parent_id] if entry.parent_id is not None
                else None, uuids[entry.root_id])
        return Candidates(requests, summaries)


NOTHING = Found([], [], {}, [], {})


def find(context, groups, limit=None, group_policy=None, root_required=(),
         root_forbidden=(), same_subtrees=(), nested_aware=True,
         randomize=False):
    """A :class:`Found`: the arguments are get_candidates'."""
    if any(amount > _MAX_UNIT for group in groups.values()
           for amount in group.resources.values()):
        # No inventory's max_unit (a 32-bit column) allows it; the reads
        # could not even bind it. Unknown classes are still reported.
        known = _known_class_ids(context, {
            n for g in groups.values() for n in g.resources})
        for group in groups.values():
            for name in group.resources:
                if name not in known:
                    raise exception.ResourceClassNotFound(
                        resource_class=name)
        return NOTHING
    with session.reader.connection.using(context) as conn:
        search = _Search(conn, context, groups, root_required,
                         root_forbidden)
        try:
            anchors = search.anchor_roots(root_required, root_forbidden)
            pieces = {suffix: search.pieces(suffix, group, anchors)
                      for suffix, group in groups.items()}
        except _NoMatch:
            return NOTHING
        merged = candidate_merge.merge(pieces, search, group_policy,
                                       same_subtrees)
        if not merged:
            return NOTHING
        # Oldest providers first (pairs first in each request), the order
        # Placement's queries give, so that a limit keeps the same candidates.
        merged.sort()
        used = None
        if not nested_aware and reads.has_nested_providers(conn):
            merged, used = candidate_merge.without_nested(merged, search)
        # The limit first, then the summaries of the trees kept only.
        if limit and limit < len(merged):
            merged = random.sample(merged, limit) if randomize \
                else merged[:limit]
        elif randomize:
            random.shuffle(merged)
        root_of = search.root_of.__getitem__
        taken = set(_chain([pairs[::2] for pairs, _, _ in merged]))
        used_trees = set(map(root_of, taken))
        if all(group.resources for group in groups.values()):
            search.read_trees(used_trees)
        else:
            # Resourceless groups (1.36) name providers that take nothing.
            named = set(_chain(_chain([mapped for _, _, mapped in merged])))
            search.read_trees(used_trees.union(map(root_of, named - taken)))
        # Before 1.29: only the providers the requests use (before the limit)
        # are summarised.
        providers = search.providers
        summarised = [p for p, entry in providers.items()
                      if entry.root_id in used_trees
                      and (used is None or p in used)]
        names = rc_obj.names_from_ids(context, frozenset().union(
            *{providers[p].classes for p in summarised}))
        names.update((c, n) for n, c in search.class_ids.items())
        return Found(merged, list(groups), providers, summarised, names)


class _Search:
    """What the reads found for the whole request, and the rules of one
    group's matches."""

    def __init__(self, conn, context, groups, root_required, root_forbidden):
        self.conn = conn
        names = {n for g in groups.values() for n in g.resources}
        self.class_ids = _known_class_ids(context, names)
        wanted = {(self.class_ids[n], a) for g in groups.values()
                  for n, a in g.resources.items() if n in self.class_ids}
        # Amounts of several groups add up on one inventory only if two
        # groups ask for one class: only then are the inventory rows read
        # (``usage``, for candidate_merge).
        asked = [n for g in groups.values() for n in g.resources]
        may_add_up = len(asked) != len(set(asked))
        trait_names = {_SHARING}.union(root_required, root_forbidden, *(
            set(g.forbidden_traits).union(*g.required_traits)
            for g in groups.values()))
        # fits: {(class id, amount): [(provider id, root id)]}; trait_ids:
        # {name: id} of the traits named that exist; holders: {provider
        # id: ids of those it has}.
        self.fits = fits = collections.defaultdict(list)
        self.root_of = root_of = {}
        self.trait_ids = trait_ids = {}
        self.holders = holders = collections.defaultdict(set)
        self.usage = usage = {} if may_add_up else None
        if wanted:
            rows = reads.room_and_traits(conn, wanted, trait_names,
                                         with_inventory=may_add_up)
        else:
            rows = ()
            trait_ids, holders = reads.traits_and_holders(conn, trait_names)
            self.trait_ids, self.holders = trait_ids, holders
        # Two loops: most requests read no inventory rows, and unpacking a
        # row whole costs less than slicing it (one loop with a slice for
        # both made the granular query 10-20% slower in process).
        if usage is None:
            for provider_id, root_id, class_id, amount, name in rows:
                if amount is None:
                    trait_ids[name] = class_id
                    if provider_id is not None:
                        holders[provider_id].add(class_id)
                else:
                    fits[class_id, amount].append((provider_id, root_id))
                    root_of[provider_id] = root_id
        else:
            for row in rows:
                provider_id, root_id, class_id, amount = row[:4]
                if amount is None:
                    trait_ids[row[-1]] = class_id
                    if provider_id is not None:
                        holders[provider_id].add(class_id)
                else:
                    fits[class_id, amount].append((provider_id, root_id))
                    root_of[provider_id] = root_id
                    usage[provider_id, class_id] = row
        self.members = reads.aggregate_members(conn, {
            uuid for g in groups.values()
            for uuid in set().union(g.forbidden_aggs, *g.member_of)})
        sharing_id = self.trait_ids.get(_SHARING)
        self.sharing = {p for p, ids in self.holders.items()
                        if sharing_id in ids}
        self.tree_of = reads.roots_of(
            conn, {g.in_tree for g in groups.values() if g.in_tree})
        # {sharing provider id: roots of the trees it shares with}, read
        # when first asked for.
        self._anchors = {}
        # Whether a piece may have been found for a tree other than its
        # providers' own (through a sharing provider): then one request
        # may be found more than once.
        self.anchored = False
        # {id: provider_cache.Provider} of the trees read by read_trees().
        self.providers = {}

    def read_trees(self, root_ids):
        missing = set(root_ids) - {
            entry.root_id for entry in self.providers.values()}
        if missing:
            self.providers.update(reads.trees(self.conn, missing))

    def anchors_of(self, sharing_id):
        """Roots of the trees ``sharing_id`` shares with (its own
        included)."""
        self.anchored = True
        anchors = self._anchors.get(sharing_id)
        if anchors is None:
            # Read with those of every sharing provider found so far (with
            # room, or by a resourceless group).
            unread = self.sharing.intersection(self.root_of).difference(
                self._anchors)
            unread.add(sharing_id)
            for provider_id in unread:
                self._anchors[provider_id] = set()
            for provider_id, anchors in reads.sharing_anchors(
                    self.conn, unread).items():
                self._anchors[provider_id] = anchors
            anchors = self._anchors[sharing_id]
        return anchors

    def trait_id_sets(self, names_sets):
        """Names to ids, as Placement looks them up: the first unknown
        name raises TraitNotFound."""
        result = []
        for names in names_sets:
            for name in sorted(names):
                if name not in self.trait_ids:
                    raise exception.TraitNotFound(names=name)
            result.append({self.trait_ids[n] for n in names})
        return result

    def anchor_roots(self, required, forbidden):
        """Ids of the roots allowed by root_required; None: all."""
        if not (required or forbidden):
            return None
        ids = self.trait_id_sets([{n} for n in sorted(required)]
                                 + [{n} for n in sorted(forbidden)])
        roots = reads.roots_with_traits(
            self.conn, set().union(*ids[:len(required)]),
            set().union(*ids[len(required):]))
        if not roots:
            raise _NoMatch()
        return roots

    def pieces(self, suffix, group, anchors):
        """Every way of satisfying one group: a list of _Piece; _NoMatch
        when there is none (Placement's order of checks and errors)."""
        for name in group.resources:
            if name not in self.class_ids:
                raise exception.ResourceClassNotFound(resource_class=name)
        in_aggs = None
        if group.member_of:
            in_aggs = set.intersection(*(
                set().union(*(self.members.get(u, ()) for u in uuids))
                for uuids in group.member_of))
            if not in_aggs:
                raise _NoMatch()
        required = self.trait_id_sets(group.required_traits)
        forbidden = set().union(
            *self.trait_id_sets({n} for n in sorted(group.forbidden_traits)))
        tree = None
        if group.in_tree:
            tree = self.tree_of.get(group.in_tree)
            if tree is None:
                raise _NoMatch()
        amounts = {self.class_ids[n]: a for n, a in group.resources.items()}
        by_class = {}
        for class_id, amount in amounts.items():
            fits = self.fits[class_id, amount]
            if tree is not None:
                fits = [(p, r) for p, r in fits if r == tree]
            if not fits:
                raise _NoMatch()
            by_class[class_id] = fits
        bad_aggs = set().union(
            *(self.members.get(u, ()) for u in group.forbidden_aggs))
        if group.use_same_provider:
            found = self._one_provider(by_class, amounts, required, forbidden,
                                       in_aggs, bad_aggs, anchors)
        else:
            found = self._spread(by_class, amounts, required, forbidden,
                                 in_aggs, bad_aggs, anchors, tree)
        if not found:
            raise _NoMatch()
        return found

    def _has_traits(self, provider_ids, required, forbidden):
        holders = self.holders
        if len(provider_ids) == 1:
            traits = holders.get(provider_ids[0], _NONE)
        else:
            traits = set().union(*(holders.get(p, ()) for p in provider_ids))
        if forbidden and not traits.isdisjoint(forbidden):
            return False
        for any_of in required:
            if traits.isdisjoint(any_of):
                return False
        return True

    def _one_provider(self, by_class, amounts, required, forbidden, in_aggs,
                      bad_aggs, anchors):
        """A suffixed group: one provider with everything."""
        if by_class:
            fits_of_classes = iter(by_class.values())
            roots = dict(next(fits_of_classes))
            for fits in fits_of_classes:
                roots = {p: r for p, r in fits if p in roots}
        else:
            # Resourceless (1.36): only a group that names traits or
            # aggregates matches, as in Placement.
            if not (required or in_aggs):
                return []
            candidates = set(in_aggs) if in_aggs is not None \
                else set(self.holders)
            roots = reads.roots_by_id(self.conn, candidates)
        checked = in_aggs is not None or bad_aggs or required or forbidden
        classes = sorted(amounts)
        wanted = tuple([amounts[c] for c in classes])
        pieces = []
        for provider_id, root_id in roots.items():
            if checked and (
                    in_aggs is not None and provider_id not in in_aggs
                    or provider_id in bad_aggs
                    or not self._has_traits((provider_id,), required,
                                            forbidden)):
                continue
            self.root_of[provider_id] = root_id
            pairs = (provider_id, classes[0]) if len(classes) == 1 \
                else _pairs(provider_id, classes)
            own = (provider_id,)
            if anchors is None or root_id in anchors:
                pieces.append(_Piece(root_id, pairs, wanted, own, True))
            if provider_id in self.sharing:
                pieces.extend(
                    _Piece(anchor, pairs, wanted, own, True)
                    for anchor in self.anchors_of(provider_id)
                    if anchor != root_id
                    and (anchors is None or anchor in anchors))
        return pieces

    def _spread(self, by_class, amounts, required, forbidden, in_aggs,
                bad_aggs, anchors, tree):
        """The unsuffixed group: each class from one provider of a tree or
        one sharing with it; the providers used have the required traits
        between them and none has a forbidden one."""
        filtered = anchors is not None or in_aggs is not None or bad_aggs
        classes = sorted(by_class)
        # For each class, {root id: [ids of the providers that can give it
        # to that tree]}; ``roots``: the trees every class can be had in.
        per_class, roots = [], None
        for class_id in classes:
            fits = by_class[class_id]
            options = fits
            if self.sharing and tree is None:
                sharing = [p for p, _ in fits if p in self.sharing
                           and (in_aggs is None or p in in_aggs)]
                if sharing:
                    # Each sharing provider for the other trees of its
                    # aggregates (its own is in ``fits`` already).
                    root_of = self.root_of
                    options = fits + [
                        (p, anchor) for p in sharing
                        for anchor in self.anchors_of(p)
                        if anchor != root_of[p]]
            if filtered:
                options = [(p, r) for p, r in options
                           if (anchors is None or r in anchors)
                           and (in_aggs is None or p in in_aggs
                                or r in in_aggs)
                           and p not in bad_aggs and r not in bad_aggs]
            trees = {root_id: [provider_id] for provider_id, root_id in options}
            if len(trees) != len(options):
                # Some tree has several providers of the class.
                trees = {}
                for provider_id, root_id in options:
                    held = trees.get(root_id)
                    if held is None:
                        trees[root_id] = [provider_id]
                    else:
                        held.append(provider_id)
            roots = trees.keys() if roots is None else roots & trees.keys()
            if not roots:
                return []
            per_class.append(trees)
        wanted = tuple([amounts[c] for c in classes])
        checked = required or forbidden
        pieces = []
        # Each request is sorted again (merged.sort()): the order of the
        # pieces does not matter.
        if len(classes) == 1:
            # One class: a piece per provider (no product to take).
            class_id = classes[0]
            for root_id, choice in per_class[0].items():
                for provider_id in choice:
                    own = (provider_id,)
                    if checked and not self._has_traits(own, required,
                                                        forbidden):
                        continue
                    pieces.append(_Piece(root_id, (provider_id, class_id),
                                         wanted, own, False))
            return pieces
        count = len(classes)
        roots = list(roots)
        if all(max(map(len, trees.values())) == 1 for trees in per_class):
            # One provider per class and tree (the usual case): each
            # tree's providers, one per class, in one product-less pass.
            combos_of = zip(roots, zip(*[
                list(map(_FIRST, map(trees.__getitem__, roots)))
                for trees in per_class]))
        else:
            combos_of = ((root_id, providers) for root_id in roots
                         for providers in itertools.product(*[
                             trees[root_id] for trees in per_class]))
        shapes = {}
        for root_id, providers in combos_of:
            first = providers[0]
            if providers.count(first) == count:
                # One provider gives every class: its classes are in order
                # already.
                distinct = (first,)
                if checked and not self._has_traits(distinct, required,
                                                    forbidden):
                    continue
                pieces.append(_Piece(root_id, _pairs(first, classes),
                                     wanted, distinct, False))
                continue
            distinct = sorted(set(providers))
            if checked and not self._has_traits(distinct, required,
                                                forbidden):
                continue
            # Pairs sorted by provider, then class: the order depends only
            # on which class each of the distinct providers gives.
            pattern = tuple(map(distinct.index, providers))
            shape = shapes.get(pattern)
            if shape is None:
                order = sorted(range(count), key=pattern.__getitem__)
                shape = shapes[pattern] = (
                    order, list(_chain((None, classes[i]) for i in order)),
                    tuple([wanted[i] for i in order]))
            order, pairs, taken = shape
            pairs = pairs.copy()
            pairs[::2] = map(providers.__getitem__, order)
            pieces.append(_Piece(root_id, tuple(pairs), taken,
                                 tuple(distinct), False))
        return pieces


def _pairs(provider_id, class_ids):
    """(provider id, class id, provider id, class id, ...)."""
    return tuple(_chain(zip(itertools.repeat(provider_id), class_ids)))


def _known_class_ids(context, names):
    """{name: id} of the classes of ``names`` that exist (unknown ones are
    reported later, in the order Placement finds them)."""
    try:
        return rc_obj.ids_from_names(context, names)
    except exception.ResourceClassNotFound:
        known = {}
        for name in names:
            try:
                known.update(rc_obj.ids_from_names(context, [name]))
            except exception.ResourceClassNotFound:
                pass
        return known
