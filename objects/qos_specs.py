"""QoS specs (Cinder's qos-specs): a named set of keys, and who enforces
them (``consumer``), that volume types are associated with
(objects.qos_association).

A spec's row is what its writers compare-and-swap: a change of its keys
first swaps the row (it must be live), which also serialises the writers
of its key rows. Names are unique among live specs by the ``live_name``
unique constraint, as volume types' are. A delete is one compare-and-swap
that requires, unless forced, that no live volume type is associated with
the spec; a forced one also disassociates them, in the same transaction.
"""
import uuid

import sqlalchemy as sa
from oslo_db import exception as oslo_db_exc
from oslo_utils import timeutils
from oslo_utils import uuidutils

from db import api as db_api
from db import conditions as cond
from db import exceptions
from db import models
from db import session
from objects import base
from objects import fields
from objects import metadata
from objects import pagination

CONSUMERS = ('back-end', 'front-end', 'both')
DEFAULT_CONSUMER = 'back-end'
ITEMS = metadata.QOS_SPECS

_SPECS = models.QosSpecs.__table__
_TYPES = models.VolumeType.__table__


class QosSpecsNotFound(exceptions.NotFound):
    def __init__(self, ident):
        super().__init__('qos specs', ident)


class QosSpecsExists(Exception):
    def __init__(self, name):
        self.name = name
        super().__init__(name)


class QosSpecsInUse(exceptions.ConditionNotMet):
    """A live volume type is associated with the spec."""


class KeyNotFound(Exception):
    def __init__(self, key):
        self.key = key
        super().__init__(key)


def associated_types(spec_id):
    """SQL: a live volume type is associated with ``spec_id``."""
    return sa.exists().where(_TYPES.c.qos_specs_id == spec_id,
                             _TYPES.c.deleted == sa.false())


def _live(ident):
    """SQL: the row of the live spec ``ident``; None for an id that is no
    UUID, which names no spec (and is not sent to the database)."""
    if not uuidutils.is_uuid_like(ident):
        return None
    return (_SPECS.c.id == ident) & (_SPECS.c.deleted == sa.false())


@base.register
class QosSpecs(base.VolapiPersistentObject, base.VolapiObjectDictCompat):
    # Version 1.0: initial version
    VERSION = '1.0'

    model = models.QosSpecs

    fields = dict({
        'id': fields.UUIDField(),
        'name': fields.StringField(),
        'consumer': fields.StringField(default=DEFAULT_CONSUMER),
        'specs': fields.DictOfNullableStringsField(default={}),
    }, **base.SOFT_DELETE_FIELDS)

    # -- reading --------------------------------------------------------------
    @classmethod
    def get(cls, context, ident):
        """The live spec ``ident`` with its keys; QosSpecsNotFound."""
        live = _live(ident)
        if live is None:
            raise QosSpecsNotFound(ident)
        with session.reader.connection.using(context) as conn:
            row = conn.execute(sa.select(_SPECS).where(live)
                               ).mappings().first()
        if row is None:
            raise QosSpecsNotFound(ident)
        return cls._with_items(context, [row])[0]

    @classmethod
    def get_all(cls, context, filters=None, limit=None, marker=None,
                offset=None, sort_keys=('created_at',), sort_dirs=('desc',)):
        """Live specs whose columns equal ``filters``, paginated like
        every volapi list; a marker that names no live spec raises
        QosSpecsNotFound."""
        query = sa.select(_SPECS).where(_SPECS.c.deleted == sa.false())
        for name, value in (filters or {}).items():
            query = query.where(_SPECS.c[name] == value)
        if marker is not None and _live(marker) is None:
            raise QosSpecsNotFound(marker)
        try:
            query = pagination.paginate(
                context, _SPECS, query, limit=limit, marker=marker,
                sort_keys=sort_keys, sort_dirs=sort_dirs, offset=offset,
                marker_scope=[_SPECS.c.deleted == sa.false()])
        except pagination.MarkerNotFound:
            raise QosSpecsNotFound(marker) from None
        with session.reader.connection.using(context) as conn:
            rows = conn.execute(query).mappings().all()
        return cls._with_items(context, rows)

    @classmethod
    def _with_items(cls, context, rows):
        specs = [cls._from_row(context, row) for row in rows]
        items = ITEMS.of(context, [spec.id for spec in specs])
        for spec in specs:
            spec.specs = items[spec.id]
            spec.obj_reset_changes(['specs'])
        return specs

    # -- writing --------------------------------------------------------------
    def create(self):
        """Insert the spec and its keys in one transaction; a live spec of
        the same name raises QosSpecsExists. Keys whose value is None are
        not stored (Cinder drops them)."""
        self.id = str(uuid.uuid4())
        self.created_at = timeutils.utcnow()
        self.deleted = False
        if not self.obj_attr_is_set('consumer'):
            self.consumer = DEFAULT_CONSUMER
        specs = {key: value for key, value in self.specs.items()
                 if value is not None}
        row = {'id': self.id, 'name': self.name, 'live_name': self.name,
               'consumer': self.consumer, 'deleted': False,
               'created_at': self.created_at}
        try:
            _insert(self._context, row, specs)
        except oslo_db_exc.DBDuplicateEntry:
            raise QosSpecsExists(self.name) from None
        self.specs = specs
        self.obj_reset_changes()

    def set_keys(self, specs, consumer=None):
        """Set the keys of ``specs`` (and the consumer, if given) of this
        live spec. A None value clears a key the spec has and adds no key
        it has not (Cinder's)."""
        _write(self._context, self.id, consumer=consumer, specs=specs)

    def delete_keys(self, keys):
        """Remove ``keys`` (distinct), all or none: KeyNotFound names the
        first of them the spec does not have."""
        if keys:
            _write(self._context, self.id, delete=keys)

    def destroy(self, force=False):
        """Soft-delete the spec, refused (QosSpecsInUse) while a live type
        is associated with it unless ``force``, which disassociates every
        type from it in the same transaction."""
        _destroy(self._context, self.id, force)


def disassociate_all_types(context, spec_id):
    """In the caller's transaction, after the swap of the spec's row:
    no volume type is associated with ``spec_id`` any more (deleted ones
    too, as Cinder's disassociate_all)."""
    db_api.conditional_update(
        context, models.VolumeType,
        {'qos_specs_id': None, 'updated_at': timeutils.utcnow()},
        {'qos_specs_id': spec_id}, include_deleted='yes')


@db_api.retry_on_deadlock
def _insert(context, row, specs):
    with session.writer.connection.using(context) as conn:
        conn.execute(_SPECS.insert().values(**row))
        ITEMS.insert(context, row['id'], specs)


@db_api.retry_on_deadlock
def _write(context, spec_id, consumer=None, specs=None, delete=None):
    """One transaction: the compare-and-swap of the live spec (with every
    key of ``delete`` present), then its key rows."""
    values = {'updated_at': timeutils.utcnow()}
    if consumer is not None:
        values['consumer'] = consumer
    filters = ()
    if delete:
        has_keys = cond.Filter(ITEMS.has_all(spec_id, delete),
                               'must have every key to delete')
        filters = (has_keys,)
    try:
        with session.writer.connection.using(context):
            db_api.update_or_explain(context, models.QosSpecs, spec_id,
                                     values, {'deleted': False}, filters)
            if delete:
                ITEMS.delete_keys(context, spec_id, delete)
                return
            ITEMS.update(context, spec_id, {
                key: value for key, value in specs.items()
                if value is not None})
            ITEMS.clear_values(context, spec_id, [
                key for key, value in specs.items() if value is None])
    except exceptions.NotFound:
        raise QosSpecsNotFound(spec_id) from None
    except exceptions.ConditionNotMet:
        raise KeyNotFound(_first_missing(context, spec_id, delete)) \
            from None


def _first_missing(context, spec_id, keys):
    """The first of ``keys`` the spec has not, to name in the refusal
    (the refusal itself was the swap's); the first key if a concurrent
    change added them meanwhile."""
    present = ITEMS.get(context, spec_id)
    return next((key for key in keys if key not in present), keys[0])


@db_api.retry_on_deadlock
def _destroy(context, spec_id, force):
    values = {'deleted': True, 'deleted_at': timeutils.utcnow(),
              'live_name': None, 'updated_at': timeutils.utcnow()}
    unused = cond.Filter(~associated_types(spec_id),
                         'must not be associated with volume types')
    try:
        with session.writer.connection.using(context):
            db_api.update_or_explain(context, models.QosSpecs, spec_id,
                                     values, {'deleted': False},
                                     () if force else (unused,))
            if force:
                disassociate_all_types(context, spec_id)
    except exceptions.NotFound:
        raise QosSpecsNotFound(spec_id) from None
    except exceptions.ConditionNotMet as e:
        raise QosSpecsInUse(e.condition, e.actual, e.what) from None
