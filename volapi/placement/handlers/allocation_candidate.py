"""Handler of GET /allocation_candidates (1.10)."""
import json
import re

import webob.exc

from objects.placement import allocation_candidate as ac
from objects.placement import exception
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
    return util.send_json_text(req, body(found, version, groups))


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
    before."""
    if version.matches((1, 12)):
        held = '%s: {"resources": {%s}}'
    else:
        held = '{"resource_provider": {"uuid": %s}, "resources": {%s}}'
    template = '{"allocations": {%s}' if version.matches((1, 12)) \
        else '{"allocations": [%s]'
    with_mappings = version.matches((1, 34))
    if with_mappings:
        template += ', "mappings": {%s}' % ', '.join(
            '%s: [%%s]' % _literal(name)
            for name in _json_strings(found.suffixes))
    template += '}'
    order = {p: uuid for p, (uuid, _, _) in found.providers.items()
             }.__getitem__
    amounts_text = {}
    mapped_text = {}
    for pairs, amounts, mapped in found.requests:
        parts, last, resources = [], None, None
        for provider_id, class_id, amount in zip(
                pairs[::2], pairs[1::2], amounts):
            if provider_id != last:
                if resources:
                    parts.append(held % (uuids[last], ', '.join(resources)))
                resources, last = [], provider_id
            text = amounts_text.get((class_id, amount))
            if text is None:
                text = amounts_text[class_id, amount] = '%s: %d' % (
                    classes[class_id], amount)
            resources.append(text)
        if resources:
            parts.append(held % (uuids[last], ', '.join(resources)))
        if not with_mappings:
            yield template % ', '.join(parts)
            continue
        values = [', '.join(parts)]
        for ids in mapped:
            text = mapped_text.get(ids)
            if text is None:
                text = mapped_text[ids] = ', '.join(
                    [uuids[p] for p in sorted(ids, key=order)])
            values.append(text)
        yield template % tuple(values)


def _summaries(found, version, uuids, inventory):
    """The JSON text of each provider summary: traits from 1.17; parent
    and root uuids from 1.29. ``inventory``: {class id: the text of its
    amounts, to format with (capacity, used)}."""
    with_traits, with_tree = version.matches((1, 17)), version.matches(
        (1, 29))
    template = '%s: {"resources": {%s}'
    if with_traits:
        template += ', "traits": [%s]'
        names = set().union(*found.traits.values())
        quoted = dict(zip(names, _json_strings(names)))
        traits = {provider_id: ', '.join([quoted[n] for n in sorted(held)])
                  for provider_id, held in found.traits.items()}
    if with_tree:
        template += ', "parent_provider_uuid": %s, "root_provider_uuid": %s'
    template += '}'
    providers, inventories = found.providers, found.inventories
    for provider_id in found.summarised:
        values = [uuids[provider_id], ', '.join([
            inventory[c] % (capacity, used)
            for c, capacity, used in inventories.get(provider_id, ())
            if c in inventory])]
        if with_traits:
            values.append(traits.get(provider_id, ''))
        if with_tree:
            _, parent_id, root_id = providers[provider_id]
            values.append(uuids[parent_id])
            values.append(uuids[root_id])
        yield template % tuple(values)
