"""/v3/{project_id}/qos-specs (Cinder's qos_specs_manage, administrators):
list, create, show, set keys (PUT), delete (``?force=True`` while
associated), ``PUT .../delete_keys``, and the associations with volume
types: ``GET .../associations``, ``.../associate?vol_type_id=``,
``.../disassociate?vol_type_id=``, ``.../disassociate_all``.

Stored by objects.qos_specs and objects.qos_association; each change is
one compare-and-swap there, refusals are Cinder's statuses and words.
"""
import pecan

from objects import qos_association
from objects import qos_specs as specs_obj
from volapi.api import common
from volapi.api import errors
from volapi.api import policy
from volapi.api import rest
from volapi.api import validation
from volapi.api.schemas import qos_specs as schemas
from volapi.api.views import qos_specs as views
from volapi.policies import qos_specs as policies
from volapi import request_text

SORT_KEYS = ('id', 'name', 'consumer', 'created_at', 'updated_at')
FILTERS = ('id', 'name', 'consumer')
_PAGING = ('limit', 'marker', 'offset', 'sort', 'sort_key', 'sort_dir')
MAX_LENGTH = 255
# Cinder's words, which quote its object field's repr.
INVALID_CONSUMER = (
    "Invalid qos specs: Valid consumer of QoS specs are: "
    "QoSConsumerValues(default=<class "
    "'oslo_versionedobjects.fields.UnspecifiedDefault'>,nullable=False,"
    "valid_values=('back-end', 'front-end', 'both'))")


def not_found(ident):
    return errors.NotFound('No such QoS spec %s.'
                           % request_text.excerpt(ident))


def _get(context, ident):
    try:
        return specs_obj.QosSpecs.get(context, ident)
    except specs_obj.QosSpecsNotFound:
        raise not_found(ident) from None


def _consumer(value):
    """The consumer a request names: None is the default (Cinder's)."""
    if value is None:
        return specs_obj.DEFAULT_CONSUMER
    if value not in specs_obj.CONSUMERS:
        raise errors.BadRequest(INVALID_CONSUMER)
    return value


def _invalid_input(reason):
    return errors.BadRequest('Invalid input received: %s' % reason)


def _check_lengths(specs):
    """Cinder's validate_dictionary_string_length of the keys of a new
    spec, which its schema leaves free."""
    for key, value in specs.items():
        quoted = request_text.excerpt(key, 1000)
        if not key:
            raise _invalid_input('Key "%s" has 0 characters, less than 1.'
                                 % quoted)
        if len(key) > MAX_LENGTH:
            raise _invalid_input('Key "%s" has %d characters, more than %d.'
                                 % (quoted, len(key), MAX_LENGTH))
        if value is None:
            continue
        if not isinstance(value, str):
            raise _invalid_input('Value for key "%s" is not a string or '
                                 'unicode' % quoted)
        if len(value) > MAX_LENGTH:
            raise _invalid_input(
                'Value for key "%s" has %d characters, more than %d.'
                % (quoted, len(value), MAX_LENGTH))


def _vol_type_id():
    """The ``vol_type_id`` query parameter the association routes need."""
    type_id = pecan.request.GET.get('vol_type_id')
    if not type_id:
        raise errors.BadRequest('Volume Type id must not be None.')
    return type_id


def _type_not_found(type_id):
    return errors.NotFound('Volume type %s could not be found.'
                           % request_text.excerpt(type_id))


def _authorized(rule):
    context = pecan.request.ctx
    policy.authorize(context, rule)
    return context


class QosSpecController:
    """/qos-specs/{id} and the routes below it."""

    def __init__(self, ident):
        self.ident = ident

    index = rest.by_method()

    @index.when(method='GET')
    @rest.json(200)
    def show(self):
        context = _authorized(policies.GET)
        return views.show(pecan.request, _get(context, self.ident))

    @index.when(method='PUT')
    @rest.json(200)
    @validation.schema(schemas.set_keys)
    def update(self, body):
        context = _authorized(policies.UPDATE)
        spec = _get(context, self.ident)
        keys = dict(body['qos_specs'])
        consumer = None
        if 'consumer' in keys:
            consumer = _consumer(keys.pop('consumer'))
        try:
            spec.set_keys(keys, consumer=consumer)
        except specs_obj.QosSpecsNotFound:
            raise not_found(self.ident) from None
        return body

    @index.when(method='DELETE')
    @rest.json(202)
    def delete(self):
        context = _authorized(policies.DELETE)
        force = pecan.request.GET.get('force')
        force = False if force is None else common.boolean_param('force',
                                                                 force)
        spec = _get(context, self.ident)
        try:
            spec.destroy(force=force)
        except specs_obj.QosSpecsNotFound:
            raise not_found(self.ident) from None
        except specs_obj.QosSpecsInUse:
            raise errors.BadRequest('Qos specs still in use.') from None

    delete_keys = rest.by_method()

    @delete_keys.when(method='PUT')
    @rest.json(202)
    @validation.schema(schemas.unset_keys)
    def unset_keys(self, body):
        context = _authorized(policies.DELETE)
        spec = _get(context, self.ident)
        try:
            spec.delete_keys(body['keys'])
        except specs_obj.QosSpecsNotFound:
            raise not_found(self.ident) from None
        except specs_obj.KeyNotFound as e:
            raise errors.NotFound('QoS spec %s has no spec with key %s.'
                                  % (spec.id, e.key)) from None

    associations = rest.by_method()

    @associations.when(method='GET')
    @rest.json(200)
    def list_associations(self):
        context = _authorized(policies.GET_ALL)
        spec = _get(context, self.ident)
        return views.associations(
            qos_association.associations(context, spec.id))

    associate = rest.by_method()

    @associate.when(method='GET')
    @rest.json(202)
    def associate_type(self):
        context = _authorized(policies.UPDATE)
        type_id = _vol_type_id()
        spec = _get(context, self.ident)
        try:
            qos_association.associate(context, spec.id, type_id)
        except specs_obj.QosSpecsNotFound:
            raise not_found(self.ident) from None
        except qos_association.VolumeTypeNotFound:
            raise _type_not_found(type_id) from None
        except qos_association.AssociatedWithAnother as e:
            raise errors.BadRequest(
                'Invalid volume type: Type %s is already associated with '
                'another qos specs: %s' % (e.type_id, e.other)) from None

    disassociate = rest.by_method()

    @disassociate.when(method='GET')
    @rest.json(202)
    def disassociate_type(self):
        context = _authorized(policies.UPDATE)
        type_id = _vol_type_id()
        spec = _get(context, self.ident)
        try:
            qos_association.disassociate(context, spec.id, type_id)
        except specs_obj.QosSpecsNotFound:
            raise not_found(self.ident) from None
        except qos_association.VolumeTypeNotFound:
            raise _type_not_found(type_id) from None

    disassociate_all = rest.by_method()

    @disassociate_all.when(method='GET')
    @rest.json(202)
    def disassociate_all_types(self):
        context = _authorized(policies.UPDATE)
        spec = _get(context, self.ident)
        try:
            qos_association.disassociate_all(context, spec.id)
        except specs_obj.QosSpecsNotFound:
            raise not_found(self.ident) from None


class QosSpecsController(rest.Collection):
    """/qos-specs"""

    index = rest.by_method()

    @index.when(method='GET')
    @rest.json(200)
    def get_all(self):
        request = pecan.request
        context = _authorized(policies.GET_ALL)
        params = request.GET
        limit, marker, offset = common.pagination_params(params)
        keys, dirs = common.sort_params(params, 'created_at', 'desc')
        for key in keys:
            if key not in SORT_KEYS:
                raise common.invalid_sort_key(key)
        filters = {name: value for name, value in params.items()
                   if name not in _PAGING}
        if set(filters) - set(FILTERS) or any(
                request_text.text_problem(value) for value in
                filters.values()):
            # Cinder lists nothing for a filter that is no column; a
            # value no column can hold matches nothing either.
            return views.collection(request, [], limit)
        try:
            specs = specs_obj.QosSpecs.get_all(
                context, filters=filters, limit=limit, marker=marker,
                offset=offset, sort_keys=keys, sort_dirs=dirs)
        except specs_obj.QosSpecsNotFound:
            raise not_found(marker) from None
        return views.collection(request, specs, limit)

    @index.when(method='POST')
    @rest.json(200)
    @validation.schema(schemas.create)
    def create(self, body):
        request = pecan.request
        context = _authorized(policies.CREATE)
        keys = dict(body['qos_specs'])
        name = keys.pop('name').strip()
        _check_lengths(keys)
        consumer = _consumer(keys.pop('consumer', None))
        spec = specs_obj.QosSpecs(context, name=name, consumer=consumer,
                                  specs=keys)
        try:
            spec.create()
        except specs_obj.QosSpecsExists:
            raise errors.Conflict('QoS Specs %s already exists.'
                                  % name) from None
        return views.show(request, spec)

    def member(self, ident):
        return QosSpecController(ident)
