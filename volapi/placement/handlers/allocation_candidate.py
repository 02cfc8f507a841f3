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


def _json_strings(strings):
    """[the JSON text of each of ``strings``], as json.dumps writes it."""
    strings = list(strings)
    if _PLAIN.fullmatch(''.join(strings)):
        return ['"%s"' % s for s in strings]
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
    uuids = dict(zip(providers, _json_strings(
        uuid for uuid, _, _ in providers.values())))
    uuids[None] = 'null'
    names = found.class_names
    classes = dict(zip(names, _json_strings(names.values())))
    if not version.matches((1, 27)):
        # Before 1.27 summaries show the requested classes only.
        wanted = set().union(*(g.resources for g in groups.values()))
        names = {c: n for c, n in names.items() if n in wanted}
    inventory = {c: '%s: {"capacity": %%d, "used": %%d}' % _literal(
        classes[c]) for c in names}
    return ('{"allocation_requests": [%s], "provider_summaries": {%s}}' % (
        ', '.join(_requests(found, version, uuids, classes)),
        ', '.join(_summaries(found, version, uuids, inventory)))
    ).encode('ascii')


def _requests(found, version, uuids, classes):
    """The JSON text of each allocation request: the dict form of PUT
    /allocations from 1.12 (with mappings from 1.34), the list form
    before. Requests of one shape (the same classes and amounts, taken
    from as many providers as each other) share one template, filled
    with their providers' uuids in one format."""
    by_suffix = None
    if version.matches((1, 34)):
        by_suffix = ', "mappings": {%s}' % ', '.join(
            '%s: [%%s]' % _literal(name)
            for name in _json_strings(found.suffixes))
    order = {p: uuid for p, (uuid, _, _) in found.providers.items()
             }.__getitem__
    uuid_of = uuids.__getitem__
    templates = {}
    mapped_text = {}
    for pairs, amounts, mapped in found.requests:
        providers = pairs[::2]
        if len(set(providers)) == len(providers):
            key = (pairs[1::2], amounts)
            values = list(map(uuid_of, providers))
        else:
            # Sorted by provider: each one's classes are next to each other.
            held = dict.fromkeys(providers)
            key = (pairs[1::2], amounts, tuple(map(providers.count, held)))
            values = list(map(uuid_of, held))
        template = templates.get(key)
        if template is None:
            template = templates[key] = _request_template(
                key, version, classes, by_suffix)
        if by_suffix is not None:
            for ids in mapped:
                text = mapped_text.get(ids)
                if text is None:
                    text = mapped_text[ids] = ', '.join(
                        [uuids[p] for p in sorted(ids, key=order)])
                values.append(text)
        yield template % tuple(values)


def _request_template(key, version, classes, by_suffix):
    """The %-template of a request of shape ``key`` (class ids, amounts,
    how many classes each provider gives, None for one each): a %s for
    each provider's uuid, then one for each group's mapping."""
    class_ids, amounts = key[:2]
    counts = key[2] if len(key) > 2 else None
    resources = ['%s: %d' % (_literal(classes[c]), a)
                 for c, a in zip(class_ids, amounts)]
    if version.matches((1, 12)):
        held = '%%s: {"resources": {%s}}'
        template = '{"allocations": {%s}'
    else:
        held = '{"resource_provider": {"uuid": %%s}, "resources": {%s}}'
        template = '{"allocations": [%s]'
    parts, start = [], 0
    for count in counts or [1] * len(class_ids):
        parts.append(held % ', '.join(resources[start:start + count]))
        start += count
    template = template % ', '.join(parts)
    if by_suffix is not None:
        template += by_suffix
    return template + '}'


def _summaries(found, version, uuids, inventory):
    """The JSON text of each provider summary: traits from 1.17; parent
    and root uuids from 1.29. ``inventory``: {class id: the text of its
    amounts, to format with (capacity, used)}. Providers with the same
    classes share one template, filled in one format."""
    with_traits, with_tree = version.matches((1, 17)), version.matches(
        (1, 29))
    tail = '}'
    if with_traits:
        tail += ', "traits": [%s]'
        names = set().union(*found.traits.values())
        quoted = dict(zip(names, _json_strings(names)))
        traits = {provider_id: ', '.join([quoted[n] for n in sorted(held)])
                  for provider_id, held in found.traits.items()}
    if with_tree:
        tail += ', "parent_provider_uuid": %s, "root_provider_uuid": %s'
    tail += '}'
    providers, inventories = found.providers, found.inventories
    templates = {}
    none = ((), ())
    for provider_id in found.summarised:
        class_ids, amounts = inventories.get(provider_id, none)
        key = tuple(class_ids)
        shape = templates.get(key)
        if shape is None:
            shape = templates[key] = _summary_shape(key, inventory, tail)
        template, picks = shape
        if picks is not None:
            amounts = [amounts[i] for i in picks]
        if with_tree:
            _, parent_id, root_id = providers[provider_id]
            if with_traits:
                yield template % (uuids[provider_id], *amounts,
                                  traits.get(provider_id, ''),
                                  uuids[parent_id], uuids[root_id])
            else:
                yield template % (uuids[provider_id], *amounts,
                                  uuids[parent_id], uuids[root_id])
        elif with_traits:
            yield template % (uuids[provider_id], *amounts,
                              traits.get(provider_id, ''))
        else:
            yield template % (uuids[provider_id], *amounts)


def _summary_shape(class_ids, inventory, tail):
    """(The %-template of the summary of a provider with inventories of
    ``class_ids``, the indexes of the amounts it shows or None for all):
    classes not in ``inventory`` are not shown."""
    kept = [i for i, c in enumerate(class_ids) if c in inventory]
    template = '%%s: {"resources": {%s%s' % (', '.join(
        inventory[class_ids[i]] for i in kept), tail)
    if len(kept) == len(class_ids):
        return template, None
    return template, [j for i in kept for j in (2 * i, 2 * i + 1)]
