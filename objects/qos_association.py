"""Which volume types a QoS specs applies to (Cinder's associations): a
type's ``qos_specs_id``, one spec at most.

Each change is one transaction that first compare-and-swaps the spec's row
(it must be live; the swap writes the row, changing nothing), then the
types' rows. A spec's delete swaps the same row, so a change and a delete
of one spec are serialised and neither misses the other: an association
made while its spec is deleted is refused, or the delete sees it. The
association itself is one compare-and-swap of the type (live, and with no
spec or this one), so of concurrent associations of one type with
different specs exactly one succeeds.
"""
from oslo_utils import timeutils
from oslo_utils import uuidutils
import sqlalchemy as sa

from db import api as db_api
from db import conditions as cond
from db import exceptions
from db import models
from db import session
from objects import qos_specs as specs_obj

_TYPES = models.VolumeType.__table__


class VolumeTypeNotFound(exceptions.NotFound):
    def __init__(self, ident):
        super().__init__('volume type', ident)


class AssociatedWithAnother(Exception):
    """The type is associated with another spec, ``other``."""

    def __init__(self, type_id, other):
        self.type_id, self.other = type_id, other
        super().__init__(type_id, other)


def _hold_spec(context, spec_id):
    """The swap of the live spec's row that each change starts with."""
    try:
        db_api.update_or_explain(context, models.QosSpecs, spec_id,
                                 {'deleted': False}, {'deleted': False})
    except exceptions.NotFound:
        raise specs_obj.QosSpecsNotFound(spec_id) from None


def _type_id(type_id):
    """Cinder finds the type by id only; an id that is no UUID names none
    (and is not sent to the database)."""
    if not uuidutils.is_uuid_like(type_id):
        raise VolumeTypeNotFound(type_id)
    return type_id


@db_api.retry_on_deadlock
def associate(context, spec_id, type_id):
    """Associate the live type ``type_id`` with the live spec ``spec_id``
    (nothing to do if it is already); AssociatedWithAnother if it is
    associated with another spec, QosSpecsNotFound, VolumeTypeNotFound."""
    type_id = _type_id(type_id)
    no_other = {'qos_specs_id': [None, spec_id]}
    try:
        with session.writer.connection.using(context):
            _hold_spec(context, spec_id)
            db_api.update_or_explain(
                context, models.VolumeType, type_id,
                {'qos_specs_id': spec_id, 'updated_at': timeutils.utcnow()},
                dict(no_other, deleted=False))
    except exceptions.NotFound as e:
        if isinstance(e, specs_obj.QosSpecsNotFound):
            raise
        raise VolumeTypeNotFound(type_id) from None
    except exceptions.ConditionNotMet as e:
        raise AssociatedWithAnother(type_id, e.actual) from None


@db_api.retry_on_deadlock
def disassociate(context, spec_id, type_id):
    """The live type ``type_id`` is no longer associated with ``spec_id``
    (nothing to do if it was not); QosSpecsNotFound, VolumeTypeNotFound."""
    type_id = _type_id(type_id)
    with session.writer.connection.using(context):
        _hold_spec(context, spec_id)
        # One swap: the type must be live, and loses this spec only.
        matched = db_api.conditional_update(
            context, models.VolumeType,
            {'qos_specs_id': cond.Case(
                [(_TYPES.c.qos_specs_id == spec_id, sa.null())],
                else_=_TYPES.c.qos_specs_id),
             'updated_at': timeutils.utcnow()},
            {'id': type_id, 'deleted': False})
    if not matched:
        raise VolumeTypeNotFound(type_id)


@db_api.retry_on_deadlock
def disassociate_all(context, spec_id):
    """No volume type is associated with the live spec ``spec_id`` any
    more; QosSpecsNotFound."""
    with session.writer.connection.using(context):
        _hold_spec(context, spec_id)
        specs_obj.disassociate_all_types(context, spec_id)


def associations(context, spec_id):
    """[(type id, type name)] of the live types associated with
    ``spec_id``, in the order they were made."""
    with session.reader.connection.using(context) as conn:
        return [tuple(row) for row in conn.execute(
            sa.select(_TYPES.c.id, _TYPES.c.name).where(
                _TYPES.c.qos_specs_id == spec_id,
                _TYPES.c.deleted == sa.false()).order_by(
                _TYPES.c.created_at, _TYPES.c.id))]
