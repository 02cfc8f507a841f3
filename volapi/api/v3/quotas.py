"""/v3/[{project_id}/]os-quota-sets and os-quota-class-sets: Cinder's quota
API over objects.quota.

The resources are ``volumes``, ``snapshots``, ``gigabytes`` and
``per_volume_gigabytes``, and for every volume type ``volumes_<type>``,
``snapshots_<type>`` and ``gigabytes_<type>`` (objects.type_quota, -1 by
default); a limit is a whole number, -1 for none. Usage
(``?usage=True``) is what the project holds as objects.quota reports it:
counted from placement, or the legacy count (``[quota]
count_usage_from_placement``). Limits are enforced by the claims
themselves (volapi.volume.claims), in their transactions; a project's
limit is set by a compare-and-swap on the row those claims take
(objects.project_quota), which refuses one below what the project holds.
"""

import pecan
from oslo_config import cfg
from oslo_utils import strutils

from objects import group_quota
from objects import project_quota
from objects import quota
from objects import type_quota
from volapi import request_text
from volapi.api import common
from volapi.api import errors
from volapi.api import policy
from volapi.api import rest
from volapi.api import validation
from volapi.policies import quotas as policies

CONF = cfg.CONF
MAX_LIMIT = 2 ** 31 - 1
# What clients send beside the limits (Cinder ignores them too).
NON_QUOTA_KEYS = ('id', 'tenant_id', 'class_name')


def _body_schema(key, min_properties):
    """Cinder's schema of a PUT body: ``key`` only, an object of at least
    ``min_properties`` keys (the keys and limits are checked after)."""
    return {'type': 'object',
            'properties': {key: {'type': 'object',
                                 'minProperties': min_properties}},
            'required': [key], 'additionalProperties': False}


# Cinder's quotas.update and quota_classes.update schemas.
BODY_SCHEMAS = {'quota_set': _body_schema('quota_set', 1),
                'quota_class_set': _body_schema('quota_class_set', 0)}


def _limits_from_body(body, key, per_type):
    validation.validate(BODY_SCHEMAS[key], body)
    wanted = {k: v for k, v in body[key].items()
              if k not in NON_QUOTA_KEYS}
    bad = sorted(set(wanted) - set(quota.RESOURCES) - set(per_type))
    if bad:
        # Cinder's words: 'quota set' or 'quota class set'.
        raise errors.BadRequest('Invalid input received: Bad key(s) in %s: '
                                '%s' % (key.replace('_', ' '),
                                        ', '.join(bad)))
    limits = {}
    for name, value in wanted.items():
        number = _integer(value)
        if number is None:
            raise errors.BadRequest('Invalid input received: Quota limit '
                                    '%s for %s must be an integer.'
                                    % (request_text.excerpt(value), name))
        if not -1 <= number <= MAX_LIMIT:
            raise errors.BadRequest(
                'Invalid input received: Quota limit %s for %s must be '
                'between -1 and %d.' % (number, name, MAX_LIMIT))
        limits[name] = number
    return limits


def _integer(value):
    """``value`` as an int (a JSON number or a string of digits, spaces
    around it allowed), or None."""
    if isinstance(value, str):
        value = value.strip()
    return request_text.integer(value)


def _usage_view(limits, in_use):
    return {name: {'limit': limit, 'in_use': in_use.get(name, 0),
                   'reserved': 0, 'allocated': 0}
            for name, limit in limits.items()}


def _in_use(context, project_id, per_type):
    """{resource: in use} of the project, per-type resources included."""
    in_use = quota.reported_usage(context, CONF, project_id)
    in_use[quota.GROUPS] = group_quota.usage(context, project_id)
    by_type = type_quota.reported_usage(
        context, project_id, {type_id for _, type_id in per_type.values()},
        from_placement=quota.counts_from_placement(context, CONF,
                                                   project_id))
    for name, (counted, type_id) in per_type.items():
        in_use[name] = by_type[type_id][counted]
    return in_use


def _project_limits(context, project_id, per_type):
    limits = quota.project_limits(context, CONF, project_id)
    limits.update(type_quota.own_limits(context, project_id))
    return type_quota.shown_limits(limits, per_type)


def _class_limits(context, class_name, per_type):
    return type_quota.shown_limits(
        quota.class_limits(context, CONF, class_name), per_type)


class QuotaSetController:

    def __init__(self, project_id):
        self.project_id = project_id

    index = rest.by_method()

    @index.when(method='GET')
    @rest.json(200)
    def show(self, usage='False', **params):
        context = pecan.request.ctx
        policy.authorize(context, policies.SHOW,
                         {'project_id': self.project_id})
        per_type = type_quota.resources(context)
        limits = _project_limits(context, self.project_id, per_type)
        try:
            with_usage = strutils.bool_from_string(usage, strict=True)
        except ValueError:
            raise errors.BadRequest('Invalid input received: usage must be '
                                    'a boolean, not %r.' % usage) from None
        if with_usage:
            body = _usage_view(limits, _in_use(context, self.project_id,
                                               per_type))
        else:
            body = dict(limits)
        body['id'] = self.project_id
        return {'quota_set': body}

    @index.when(method='PUT')
    @rest.json(200)
    def update(self):
        request = pecan.request
        context = request.ctx
        policy.authorize(context, policies.UPDATE,
                         {'project_id': self.project_id})
        common.storable_name('project_id', self.project_id)
        per_type = type_quota.resources(context)
        limits = _limits_from_body(validation.parse_body(request),
                                   'quota_set', per_type)
        try:
            project_quota.set_limits(context, self.project_id, limits,
                                     per_type)
        except quota.LimitBelowUsage as exc:
            # Cinder's words (its _validate_existing_resource).
            raise errors.BadRequest(
                'Quota %s limit must be equal or greater than existing '
                'resources. Current usage is %s and the requested limit '
                'is %s.' % (exc.resource, exc.usage, exc.limit)) from None
        return {'quota_set': _project_limits(context, self.project_id,
                                             per_type)}

    @index.when(method='DELETE')
    @rest.json(200)
    def delete(self):
        context = pecan.request.ctx
        policy.authorize(context, policies.DELETE,
                         {'project_id': self.project_id})
        project_quota.forget_limits(context, self.project_id)
        return {}

    defaults = rest.by_method()

    @defaults.when(method='GET')
    @rest.json(200)
    def get_defaults(self, **params):
        request = pecan.request
        context = request.ctx
        policy.authorize(context, policies.SHOW,
                         {'project_id': self.project_id})
        body = _class_limits(context, quota.DEFAULT_CLASS,
                             type_quota.resources(context))
        body['id'] = self.project_id
        return {'quota_set': body}


class QuotaSetsController(rest.Collection):

    def member(self, project_id):
        return QuotaSetController(project_id)


class QuotaClassSetController:

    def __init__(self, class_name):
        self.class_name = class_name

    index = rest.by_method()

    @index.when(method='GET')
    @rest.json(200)
    def show(self, **params):
        context = pecan.request.ctx
        policy.authorize(context, policies.CLASSES)
        body = _class_limits(context, self.class_name,
                             type_quota.resources(context))
        body['id'] = self.class_name
        return {'quota_class_set': body}

    @index.when(method='PUT')
    @rest.json(200)
    def update(self):
        request = pecan.request
        context = request.ctx
        policy.authorize(context, policies.CLASSES)
        common.storable_name('quota_class_name', self.class_name)
        per_type = type_quota.resources(context)
        limits = _limits_from_body(validation.parse_body(request),
                                   'quota_class_set', per_type)
        quota.set_class_limits(context, self.class_name, limits)
        return {'quota_class_set': _class_limits(context, self.class_name,
                                                 per_type)}


class QuotaClassSetsController(rest.Collection):

    def member(self, class_name):
        return QuotaClassSetController(class_name)
