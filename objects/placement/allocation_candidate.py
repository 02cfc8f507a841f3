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

Unknown resource classes raise ``exception.ResourceClassNotFound``, unknown
traits ``exception.TraitNotFound``; an unknown aggregate or ``in_tree``
provider simply matches nothing. The answer comes from a handful of
set-based reads in one snapshot (``candidate_reads``) whatever the number
of providers; the combining of per-group results is done here, in memory,
with Placement's rules (group_policy, same_subtree, the capacity of merged
amounts).
"""
import collections
import dataclasses
import itertools
import random
import typing

import os_traits

from db import session
from objects.placement import candidate_reads as reads
from objects.placement import exception
from objects.placement import resource_class as rc_obj
from objects.placement import trait as trait_obj


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


class _NoMatch(Exception):
    """A group (or the request-wide filters) matches nothing."""


class _Piece(typing.NamedTuple):
    """What one group takes in one way of satisfying it: ``resources`` is
    a frozenset of (provider id, class id, amount), ``providers`` the
    providers it names (in mappings), ``anchor`` the root of the tree it
    belongs to."""
    anchor: int
    resources: frozenset
    providers: frozenset
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
        return NO_CANDIDATES
    with session.reader.connection.using(context) as conn:
        search = _Search(conn, context, groups, root_required,
                         root_forbidden)
        try:
            anchors = search.anchor_roots(root_required, root_forbidden)
            pieces = {suffix: search.pieces(suffix, group, anchors)
                      for suffix, group in groups.items()}
        except _NoMatch:
            return NO_CANDIDATES
        merged = _merge(pieces, search, group_policy, same_subtrees)
        if not merged:
            return NO_CANDIDATES
        # Oldest providers first, the order Placement's queries give, so
        # that a limit keeps the same candidates.
        merged.sort(key=lambda request: sorted(
            (p, c) for p, c, _ in request[0]))
        used = None
        if not nested_aware and reads.has_nested_providers(conn):
            merged, used = _without_nested(merged, search)
        # The limit first, then the summaries of the trees kept only.
        if limit and limit < len(merged):
            merged = random.sample(merged, limit) if randomize \
                else merged[:limit]
        elif randomize:
            random.shuffle(merged)
        used_trees = {search.root_of[p] for resources, _ in merged
                      for p, _, _ in resources}
        named = {p for _, mappings in merged for _, ps in mappings
                 for p in ps}
        search.read_trees(used_trees | {search.root_of[p] for p in named})
        summaries = _summaries(conn, context, search, used_trees)
    if used is not None:
        uuids = {search.providers[p].uuid for p in used}
        summaries = {u: s for u, s in summaries.items() if u in uuids}
    names = {c: n for n, c in search.class_ids.items()}
    return Candidates([_request(request, search, names)
                       for request in merged], summaries)


class _Search:
    """What the reads found for the whole request, and the rules of one
    group's matches."""

    def __init__(self, conn, context, groups, root_required, root_forbidden):
        self.conn = conn
        names = {n for g in groups.values() for n in g.resources}
        self.class_ids = _known_class_ids(context, names)
        wanted = {(self.class_ids[n], a) for g in groups.values()
                  for n, a in g.resources.items() if n in self.class_ids}
        self.fits = collections.defaultdict(list)
        self.root_of = {}
        self.usage = {}
        for fit in reads.providers_with_room(conn, wanted):
            self.fits[fit.class_id, fit.amount].append(fit)
            self.root_of[fit.provider_id] = fit.root_id
            self.usage[fit.provider_id, fit.class_id] = fit
        self.members = reads.aggregate_members(conn, {
            uuid for g in groups.values()
            for uuid in set().union(g.forbidden_aggs, *g.member_of)})
        trait_names = {_SHARING}.union(root_required, root_forbidden, *(
            set(g.forbidden_traits).union(*g.required_traits)
            for g in groups.values()))
        self.trait_ids = trait_obj.ids_by_name(context, trait_names)
        self.holders = reads.trait_holders(conn, set(self.trait_ids.values()))
        sharing_id = self.trait_ids.get(_SHARING)
        self.sharing = {p for p, ids in self.holders.items()
                        if sharing_id in ids}
        self.tree_of = reads.roots_of(
            conn, {g.in_tree for g in groups.values() if g.in_tree})
        self._anchors = None
        # Providers of the trees read by read_trees(), by id and by uuid.
        self.providers = {}
        self.by_uuid = {}

    def read_trees(self, root_ids):
        missing = set(root_ids) - {p.root_id for p in self.providers.values()}
        if missing:
            self.providers.update(reads.trees(self.conn, missing))
            self.by_uuid = {p.uuid: p for p in self.providers.values()}

    def anchors_of(self, sharing_id):
        if self._anchors is None:
            with_room = self.sharing & set(self.root_of)
            self._anchors = reads.sharing_anchors(self.conn, with_room)
        return self._anchors.get(sharing_id, ())

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
            fits = [(f.provider_id, f.root_id)
                    for f in self.fits[class_id, amount]
                    if tree is None or f.root_id == tree]
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
        traits = set().union(*(self.holders.get(p, ()) for p in provider_ids))
        return not (traits & forbidden) and all(
            any_of & traits for any_of in required)

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
        pieces = []
        for provider_id, root_id in roots.items():
            if (in_aggs is not None and provider_id not in in_aggs
                    or provider_id in bad_aggs
                    or not self._has_traits([provider_id], required,
                                            forbidden)):
                continue
            self.root_of[provider_id] = root_id
            resources = frozenset((provider_id, c, a)
                                  for c, a in amounts.items())
            own = frozenset([provider_id])
            if anchors is None or root_id in anchors:
                pieces.append(_Piece(root_id, resources, own, True))
            if provider_id in self.sharing:
                pieces.extend(
                    _Piece(anchor, resources, own, True)
                    for anchor in self.anchors_of(provider_id)
                    if anchor != root_id
                    and (anchors is None or anchor in anchors))
        return pieces

    def _spread(self, by_class, amounts, required, forbidden, in_aggs,
                bad_aggs, anchors, tree):
        """The unsuffixed group: each class from one provider of a tree or
        one sharing with it; the providers used have the required traits
        between them and none has a forbidden one."""
        per_tree = None
        for class_id, fits in sorted(by_class.items()):
            options = set(fits)
            sharing = self.sharing & {p for p, _ in fits}
            if in_aggs is not None:
                sharing &= in_aggs
            if sharing and tree is None:
                options |= {(p, anchor) for p in sharing
                            for anchor in self.anchors_of(p)}
            options = {(p, r) for p, r in options
                       if (anchors is None or r in anchors)
                       and (in_aggs is None or p in in_aggs or r in in_aggs)
                       and p not in bad_aggs and r not in bad_aggs}
            if not options:
                return []
            trees = collections.defaultdict(list)
            for provider_id, root_id in options:
                trees[root_id].append(provider_id)
            if per_tree is None:
                per_tree = {r: {class_id: ps} for r, ps in trees.items()}
            else:
                per_tree = {r: {**c, class_id: trees[r]}
                            for r, c in per_tree.items() if r in trees}
            if not per_tree:
                return []
        pieces = set()
        for root_id, choices in per_tree.items():
            classes = sorted(choices)
            for providers in itertools.product(
                    *(sorted(choices[c]) for c in classes)):
                if (required or forbidden) and not self._has_traits(
                        providers, required, forbidden):
                    continue
                pieces.add(_Piece(root_id, frozenset(
                    (p, c, amounts[c]) for p, c in zip(providers, classes)),
                    frozenset(providers), False))
        return list(pieces)


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


def _merge(pieces, search, group_policy, same_subtrees):
    """Requests satisfying every group: one piece per group, all of one
    anchor tree, kept if they follow group_policy and same_subtree and if
    the amounts they add up on one inventory still fit. Each request is
    (frozenset of (provider id, class id, amount), frozenset of (suffix,
    frozenset of provider ids))."""
    suffixes = list(pieces)
    if len(suffixes) == 1:
        # One group: each piece is a request (its amounts were found to
        # fit one by one, and it takes each class once).
        (suffix, found), = pieces.items()
        return list(dict.fromkeys(
            (piece.resources, frozenset([(suffix, piece.providers)]))
            for piece in found))
    granular = len([s for s in suffixes if s])
    by_anchor = collections.defaultdict(lambda: collections.defaultdict(list))
    for suffix, found in pieces.items():
        for piece in found:
            by_anchor[piece.anchor][suffix].append(piece)
    if same_subtrees:
        search.read_trees({p.anchor for found in pieces.values()
                           for p in found}
                          | {search.root_of[i] for found in pieces.values()
                             for p in found for i in p.providers})
    merged = {}
    for anchor, lists in by_anchor.items():
        if len(lists) != len(suffixes):
            continue
        for combo in itertools.product(*(lists[s] for s in suffixes)):
            if group_policy == 'isolate' and len(set().union(*(
                    p.providers for p in combo
                    if p.same_provider))) != granular:
                continue
            mappings = dict(zip(suffixes, (p.providers for p in combo)))
            if not all(_same_subtree(set().union(
                    *(mappings[s] for s in subtree)), search)
                    for subtree in same_subtrees):
                continue
            amounts = collections.Counter()
            for piece in combo:
                for provider_id, class_id, amount in piece.resources:
                    amounts[provider_id, class_id] += amount
            if any(search.usage[key].used + amount
                   > search.usage[key].capacity
                   or amount > search.usage[key].max_unit
                   for key, amount in amounts.items()):
                continue
            merged[(frozenset((p, c, a) for (p, c), a in amounts.items()),
                    frozenset(mappings.items()))] = None
    return list(merged)


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


def _summaries(conn, context, search, root_ids):
    """{uuid: ProviderSummary} of every provider of the trees."""
    usages = reads.usages_in_trees(conn, root_ids)
    traits = reads.traits_in_trees(conn, root_ids)
    names = rc_obj.names_from_ids(context, {u.class_id for u in usages})
    resources = collections.defaultdict(dict)
    for usage in usages:
        if usage.class_id in names:
            resources[usage.provider_id][names[usage.class_id]] = {
                'capacity': usage.capacity, 'used': usage.used}
    providers = search.providers
    return {
        provider.uuid: ProviderSummary(
            resources[provider.id], sorted(traits.get(provider.id, ())),
            providers[provider.parent_id].uuid
            if provider.parent_id is not None else None,
            providers[provider.root_id].uuid)
        for provider in providers.values() if provider.root_id in root_ids}


def _without_nested(merged, search):
    """Before 1.29: only requests taking from one provider per tree, and
    the ids of the providers they use (the only ones summarised)."""
    kept, used = [], set()
    for request in merged:
        providers = {p for p, _, _ in request[0]}
        if len(providers) == len({search.root_of[p] for p in providers}):
            kept.append(request)
            used |= providers
    return kept, used


def _request(request, search, names):
    """An AllocationRequest; ``names``: {class id: name}."""
    resources, mappings = request
    allocations = collections.defaultdict(dict)
    for provider_id, class_id, amount in resources:
        allocations[search.providers[provider_id].uuid][names[class_id]] = \
            amount
    return AllocationRequest(dict(allocations), {
        suffix: sorted(search.providers[p].uuid for p in providers)
        for suffix, providers in mappings})
