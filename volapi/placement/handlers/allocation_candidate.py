"""Handler of GET /allocation_candidates (1.10)."""
import json
import re

import webob.exc

from objects.placement import allocation_candidate as ac
from objects.placement import exception
from volapi import collector
from volapi.placement import microversion
from volapi.placement import request_groups
from volapi.placement import util
from volapi.placement.schemas import allocation_candidate as schema
from volapi.policies import placement as policies


@microversion.version_handler('1.10')
@util.check_accept('application/json')
def list_allocation_candidates(req):
    """The ways the request groups can be allocated now, and a summary of
    each provider of the trees they use."""
    context = req.context
    context.can(policies.ALLOCATION_CANDIDATES_LIST)
    version = req.version
    util.validate_query_params(req, schema.for_version(version))
    params = request_groups.request_wide_params(req)
    groups = request_groups.request_groups(req, params)
    if not params.group_policy and len(
            [g for g in groups.values() if g.use_same_provider]) > 1:
        raise webob.exc.HTTPBadRequest(
            'The "group_policy" parameter is required when specifying '
            'more than one "resources{N}" parameter.')
    # What finding and writing the answer allocate is freed before the
    # collector is on again (see volapi.collector).
    with collector.paused():
        text = _answer(context, version, params, groups)
    return util.send_json_text(req, text)


def _answer(context, version, params, groups):
    """The JSON text of the candidates of ``groups``."""
    try:
        found = ac.find(
            context, groups, limit=params.limit,
            group_policy=params.group_policy,
            root_required=params.root_required,
            root_forbidden=params.root_forbidden,
            same_subtrees=params.same_subtrees,
            nested_aware=version.matches((1, 29)),
            randomize=context.config.placement.randomize_allocation_candidates)
    except exception.ResourceClassNotFound as exc:
        raise webob.exc.HTTPBadRequest(
            'Invalid resource class in resources parameter: %s' % exc)
    except exception.TraitNotFound as exc:
        raise webob.exc.HTTPBadRequest(str(exc))
    return body(found, version, groups)


# What json.dumps writes as is (ensure_ascii): printable ASCII but the
# quote and the backslash. Uuids and class and trait names are all such.
_PLAIN = re.compile(r'[ !#-\[\]-~]*')
# The key of a provider_cache.Provider's uuid in its texts.
_UUID = 'uuid'


def _json_strings(strings):
    """[the JSON text of each of ``strings``], as json.dumps writes it."""
    strings = list(strings)
    if _PLAIN.fullmatch(''.join(strings)):
        # Quoted in one join and split at a character no plain string has.
        return ('"%s"' % '"\n"'.join(strings)).split('\n') if strings \
            else []
    return [json.dumps(s) for s in strings]


def _literal(text):
    """``text`` to put in a %-format as is."""
    return text.replace('%', '%%')


def body(found, version, groups):
    """The JSON text of the answer ``found`` (an allocation_candidate.Found)
    at ``version``: byte for byte what json.dumps makes of its dict form,
    written straight from the ids (a thousand summaries and as many
    requests would otherwise be a dict tree built only to be encoded)."""
    providers = found.providers
    unquoted = [entry for entry in providers.values()
                if _UUID not in entry.texts]
    for entry, text in zip(unquoted, _json_strings(
            [entry.uuid for entry in unquoted])):
        entry.texts[_UUID] = text
    uuids = {p: entry.texts[_UUID] for p, entry in providers.items()}
    uuids[None] = 'null'
    names = found.class_names
    classes = dict(zip(names, _json_strings(names.values())))
    if not version.matches((1, 27)):
        # Before 1.27 summaries show the requested classes only.
        wanted = set().union(*(g.resources for g in groups.values()))
        names = {c: n for c, n in names.items() if n in wanted}
    inventory = {c: '%s: {"capacity": %%d, "used": %%d}' % _literal(
        classes[c]) for c in names}
    if version.matches((1, 27)):
        shown = None
    else:
        shown = frozenset(inventory)
    return ''.join((
        '{"allocation_requests": [',
        ', '.join(_requests(found, version, uuids, classes)),
        '], "provider_summaries": {',
        ', '.join(_summaries(found, version, uuids, inventory, shown)),
        '}}')).encode('ascii')


def _requests(found, version, uuids, classes):
    """The JSON text of each allocation request: the dict form of PUT
    /allocations from 1.12 (with mappings from 1.34), the list form
    before. Requests of one shape (the same classes and amounts, taken
    from as many providers as each other) share one list of the text
    around their providers' uuids and mappings, which each request's
    values are slotted into and joined (a %-format costs several times
    more)."""
    suffixes = None
    if version.matches((1, 34)):
        suffixes = _json_strings(found.suffixes)
    providers = found.providers

    def order(provider_id):
        return providers[provider_id].uuid

    uuid_of = uuids.__getitem__
    shapes = {}
    mapped_text = {}
    for pairs, amounts, mapped in found.requests:
        # The providers in order and how many classes each gives (sorted
        # by provider, each one's classes are next to each other).
        held, counts, last = [], [], None
        for provider_id in pairs[::2]:
            if provider_id != last:
                held.append(provider_id)
                counts.append(1)
                last = provider_id
            else:
                counts[-1] += 1
        key = (pairs[1::2], amounts, tuple(counts))
        values = list(map(uuid_of, held))
        shape = shapes.get(key)
        if shape is None:
            shape = shapes[key] = _request_shape(key, version, classes,
                                                 suffixes)
        if suffixes is not None:
            for ids in mapped:
                if len(ids) == 1:
                    values.append(uuid_of(ids[0]))
                    continue
                if len(ids) == 2:
                    # Sorted by uuid, as Placement lists them.
                    first, second = ids
                    if providers[second].uuid < providers[first].uuid:
                        first, second = second, first
                    values.append(uuid_of(first) + ', ' + uuid_of(second))
                    continue
                text = mapped_text.get(ids)
                if text is None:
                    text = mapped_text[ids] = ', '.join(
                        [uuids[p] for p in sorted(ids, key=order)])
                values.append(text)
        parts = shape.copy()
        parts[1::2] = values
        yield ''.join(parts)


def _request_shape(key, version, classes, suffixes):
    """The text of a request of shape ``key`` (class ids, amounts, how
    many classes each provider gives) as a list:
    the literal text, with a None between two literals for each
    provider's uuid, then for each group's mapping (``suffixes``, the
    JSON text of each group's name, or None before 1.34)."""
    class_ids, amounts, counts = key
    resources = ['%s: %d' % (classes[c], a)
                 for c, a in zip(class_ids, amounts)]
    slot = None
    if version.matches((1, 12)):
        items = ['{"allocations": {']
        before, after = '', ': {"resources": {%s}}'
        close = '}'
    else:
        items = ['{"allocations": [']
        before = '{"resource_provider": {"uuid": '
        after = '}, "resources": {%s}}'
        close = ']'
    start = 0
    for i, count in enumerate(counts):
        items += [', ' if i else '', before, slot,
                  after % ', '.join(resources[start:start + count])]
        start += count
    items.append(close)
    if suffixes is not None:
        items.append(', "mappings": {')
        for i, name in enumerate(suffixes):
            items += [', ' if i else '', name, ': [', slot, ']']
        items.append('}')
    items.append('}')
    shape, text = [], ''
    for item in items:
        if item is slot:
            shape += (text, slot)
            text = ''
        else:
            text += item
    shape.append(text)
    return shape


def _summaries(found, version, uuids, inventory, shown):
    """The JSON text of each provider summary: traits from 1.17; parent
    and root uuids from 1.29. ``inventory``: {class id: the text of its
    amounts, to format with (capacity, used)}; ``shown``: the class ids
    shown (None: all). A provider's summary is kept with it in the
    provider cache, by the shape of the answer, and written only when
    the provider is new or has changed there. The text of a provider's
    resources is written once for all the providers with the same
    inventories (a fleet's hosts mostly have the same); each summary is
    then joined from its parts (a %-format costs several times more)."""
    with_traits, with_tree = version.matches((1, 17)), version.matches(
        (1, 29))
    shape = (with_traits, with_tree, shown)
    providers = found.providers
    texts, tails, traits = {}, {}, None
    for provider_id in found.summarised:
        entry = providers[provider_id]
        summary = entry.texts.get(shape)
        if summary is not None:
            yield summary
            continue
        key = entry.inventories
        resources = texts.get(key)
        if resources is None:
            resources = texts[key] = _resources_text(key, inventory)
        parts = [uuids[provider_id], resources, '}']
        if with_traits:
            if traits is None:
                traits = _TraitsText()
            parts += [', "traits": [', traits.of(entry.traits), ']']
        if with_tree:
            # The same for a tree's providers of one parent (a host's
            # devices).
            tail = tails.get((entry.parent_id, entry.root_id))
            if tail is None:
                tail = tails[entry.parent_id, entry.root_id] = ''.join((
                    ', "parent_provider_uuid": ', uuids[entry.parent_id],
                    ', "root_provider_uuid": ', uuids[entry.root_id]))
            parts.append(tail)
        parts.append('}')
        summary = entry.texts[shape] = ''.join(parts)
        yield summary


class _TraitsText:
    """The JSON text of sets of trait names (sorted, comma-separated), each
    name quoted once."""

    def __init__(self):
        self._quoted = {}

    def of(self, names):
        quoted = self._quoted
        new = [n for n in names if n not in quoted]
        if new:
            quoted.update(zip(new, _json_strings(new)))
        return ', '.join([quoted[n] for n in sorted(names)])


def _resources_text(held, inventory):
    """': {"resources": {...' of a provider with inventories ``held``
    (class id, capacity, used, ...): classes not in ``inventory`` are not
    shown."""
    return ': {"resources": {%s' % ', '.join([
        inventory[c] % (capacity, used)
        for c, capacity, used in zip(held[::3], held[1::3], held[2::3])
        if c in inventory])
