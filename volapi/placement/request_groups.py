"""The request groups and request-wide parameters of
GET /allocation_candidates, read from the query string with Placement's
rules, checks, order of checks and messages."""
import re
import typing

import webob.exc

from objects.placement import allocation_candidate as ac
from volapi.placement import errors
from volapi.placement import util
from volapi.placement.schemas import common
from volapi import request_text

_PREFIXES = '|'.join(('resources', 'required', 'member_of', 'in_tree'))
_KEY = re.compile(r'^(%s)(%s)?$' % (_PREFIXES, common.GROUP_PAT))
_KEY_1_33 = re.compile(r'^(%s)(%s)?$' % (_PREFIXES, common.GROUP_PAT_1_33))
# From 1.36 a group may name no resources (its providers then anchor a
# same_subtree); before, traits and aggregates need resources beside them.
SAME_SUBTREE_VERSION = (1, 36)


class RequestWideParams(typing.NamedTuple):
    limit: typing.Optional[int]
    group_policy: typing.Optional[str]
    root_required: frozenset
    root_forbidden: frozenset
    same_subtrees: list


def request_wide_params(req):
    """limit, group_policy, root_required (1.35), same_subtree (1.36);
    the first of a repeated limit or group_policy counts, as in
    Placement."""
    limits = req.GET.getall('limit')
    policies = req.GET.getall('group_policy')
    required = forbidden = frozenset()
    root_required = req.GET.getall('root_required')
    if root_required:
        if len(root_required) > 1:
            raise webob.exc.HTTPBadRequest(
                "Query parameter 'root_required' may be specified only "
                "once.", comment=errors.ILLEGAL_DUPLICATE_QUERYPARAM)
        names, not_names = util.normalize_traits_qs_param(
            root_required[0], allow_forbidden=True)
        required = frozenset().union(*names)
        forbidden = frozenset(not_names)
        conflicts = forbidden & required
        if conflicts:
            raise webob.exc.HTTPBadRequest(
                'Conflicting required and forbidden traits found in '
                'root_required: %s' % ', '.join(conflicts),
                comment=errors.QUERYPARAM_BAD_VALUE)
    same_subtrees = []
    for value in req.GET.getall('same_subtree'):
        suffixes = {part.strip() for part in value.split(',')}
        if '' in suffixes:
            raise webob.exc.HTTPBadRequest(
                'Empty string (unsuffixed group) can not be specified in '
                '`same_subtree` ', comment=errors.QUERYPARAM_BAD_VALUE)
        same_subtrees.append(suffixes)
    return RequestWideParams(_limit(limits),
                             policies[0] if policies else None,
                             required, forbidden, same_subtrees)


# The schema's pattern, '$' included (it allows one trailing newline).
_LIMIT = re.compile('[1-9][0-9]*$', re.ASCII)


def _limit(values):
    """The first ``limit`` (Placement's rule), checked as the query schema
    checks the last one (int() of the first was a 500 when only the last
    was valid); None without one, or beyond 64 bits (no list is that
    long)."""
    if not values:
        return None
    if not _LIMIT.match(values[0]):
        raise webob.exc.HTTPBadRequest(
            "Invalid query string parameters: '%s' does not match "
            "'^[1-9][0-9]*$'" % request_text.excerpt(values[0]),
            comment=errors.QUERYPARAM_BAD_VALUE)
    return request_text.integer(values[0].rstrip('\n'))


def request_groups(req, params):
    """{suffix: objects.placement.allocation_candidate.RequestGroup}."""
    version = req.version
    pattern = _KEY_1_33 if version.matches((1, 33)) else _KEY
    groups = {}
    for key, value in req.GET.items():
        match = pattern.match(key)
        if not match:
            continue
        prefix, suffix = match.groups()
        suffix = suffix or ''
        group = groups.get(suffix)
        if group is None:
            group = groups[suffix] = ac.RequestGroup(
                use_same_provider=bool(suffix))
        if prefix == 'resources':
            group.resources = util.normalize_resources_qs_param(value)
        elif prefix == 'required':
            group.required_traits, group.forbidden_traits = \
                util.normalize_required_traits(req, suffix)
        elif prefix == 'member_of':
            group.member_of, group.forbidden_aggs = \
                util.normalize_member_of_qs_params(req, suffix)
        else:
            group.in_tree = util.normalize_in_tree_qs_param(value)
    if version.matches(SAME_SUBTREE_VERSION):
        _check_same_subtree(groups, params.same_subtrees)
    else:
        _check_for_orphans(groups)
    if version.matches((1, 22)):
        _check_forbidden(groups)
    return groups


def _check_same_subtree(groups, same_subtrees):
    resourceless = [s for s, g in groups.items() if not g.resources]
    if len(resourceless) == len(groups):
        raise webob.exc.HTTPBadRequest(
            'There must be at least one resources or resources[$S] '
            'parameter.', comment=errors.QUERYPARAM_MISSING_VALUE)
    in_subtrees = set().union(*same_subtrees)
    bad = [s for s in resourceless if s not in in_subtrees]
    if bad:
        raise webob.exc.HTTPBadRequest(
            'Resourceless suffixed group request should be specified in '
            '`same_subtree` query param: bad group(s) - %s.' % bad,
            comment=errors.QUERYPARAM_BAD_VALUE)
    # Placement names the suffixes in set order; sorted is stable.
    bad = [s for s in sorted(in_subtrees) if s not in groups]
    if bad:
        raise webob.exc.HTTPBadRequest(
            'Real suffixes should be specified in `same_subtree`: %s not '
            'found in %s.' % (bad, list(groups)),
            comment=errors.QUERYPARAM_BAD_VALUE)


def _check_for_orphans(groups):
    orphans = ['required%s' % s for s, g in groups.items()
               if g.required_traits and not g.resources]
    if orphans:
        raise webob.exc.HTTPBadRequest(
            'All traits parameters must be associated with resources.  '
            'Found the following orphaned traits keys: %s'
            % ', '.join(orphans))
    orphans = ['member_of%s' % s for s, g in groups.items()
               if not g.resources and (g.member_of or g.forbidden_aggs)]
    if orphans:
        raise webob.exc.HTTPBadRequest(
            'All member_of parameters must be associated with resources. '
            'Found the following orphaned member_of keys: %s'
            % ', '.join(orphans))
    if not all(g.resources for g in groups.values()):
        raise webob.exc.HTTPBadRequest(
            'All request groups must specify resources.')
    if not groups:
        raise webob.exc.HTTPBadRequest(
            'At least one request group (`resources` or `resources{$S}`) '
            'is required.')


def _check_forbidden(groups):
    conflicts = ['required%s: (%s)' % (s, ', '.join(sorted(any_of)))
                 for s, g in groups.items() for any_of in g.required_traits
                 if all(name in g.forbidden_traits for name in any_of)]
    if conflicts:
        raise webob.exc.HTTPBadRequest(
            'Conflicting required and forbidden traits found in the '
            'following traits keys: %s' % ', '.join(sorted(conflicts)))
