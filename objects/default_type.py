"""Projects' own default volume types (Cinder's default_volume_types,
microversion 3.62): the type a project's volumes get when created without
one, before ``[api] default_volume_type``.

Setting one is one transaction: a compare-and-swap that the type is live,
which also writes its row (objects.volume_type.guard_in_use), then the
project's row in one statement. A type's delete requires, in its own
compare-and-swap, that no project has it as default (:func:`names_type`):
the two conflict on the type's row, so neither misses the other.
"""
import typing

import sqlalchemy as sa
from oslo_utils import timeutils
from sqlalchemy.dialects import mysql
from sqlalchemy.dialects import postgresql
from sqlalchemy.dialects import sqlite

from db import api as db_api
from db import exceptions
from db import models
from db import session
from objects import volume_type as type_obj

_DEFAULTS = models.DefaultVolumeType.__table__
_TYPES = models.VolumeType.__table__
_INSERTS = {'postgresql': postgresql.insert, 'sqlite': sqlite.insert}
# The type a volume created without one gets, in one statement (a create
# reads it): the project's default first, else the live type whose id or
# name is the fallback.
_OWN = sa.select(_DEFAULTS.c.volume_type_id).where(
    _DEFAULTS.c.project_id == sa.bindparam('project_id')).scalar_subquery()
_FALLBACK = sa.bindparam('fallback')
_TYPE_FOR = type_obj.WITH_SPECS.where(
    _TYPES.c.deleted == sa.false(),
    sa.or_(_TYPES.c.id == _OWN, _TYPES.c.id == _FALLBACK,
           _TYPES.c.name == _FALLBACK)).order_by(
    sa.case((_TYPES.c.id == _OWN, 0), (_TYPES.c.id == _FALLBACK, 1),
            else_=2))


class DefaultType(typing.NamedTuple):
    project_id: str
    volume_type_id: str


def names_type(type_id):
    """SQL: some project has ``type_id`` (an id or a SQL expression) as its
    default."""
    return sa.exists().where(_DEFAULTS.c.volume_type_id == type_id)


def get(context, project_id):
    """The DefaultType of ``project_id``, or None."""
    with session.reader.connection.using(context) as conn:
        row = conn.execute(sa.select(_DEFAULTS.c.project_id,
                                     _DEFAULTS.c.volume_type_id).where(
            _DEFAULTS.c.project_id == project_id)).first()
    return None if row is None else DefaultType(*row)


def type_for(context, project_id, fallback):
    """The live type that is the default of ``project_id``, else the live
    type whose id or name is ``fallback``, with its extra specs, in one
    query; type_obj.VolumeTypeNotFound if neither is."""
    with session.lone_read(context) as conn:
        rows = conn.execute(_TYPE_FOR, {'project_id': project_id,
                                        'fallback': fallback}).all()
    if not rows:
        raise type_obj.VolumeTypeNotFound('volume type', fallback)
    return type_obj.VolumeType.from_rows(context, rows)


def get_all(context):
    """Every project's DefaultType, by project."""
    with session.reader.connection.using(context) as conn:
        rows = conn.execute(sa.select(
            _DEFAULTS.c.project_id, _DEFAULTS.c.volume_type_id).order_by(
            _DEFAULTS.c.project_id)).all()
    return [DefaultType(*row) for row in rows]


def _upsert(dialect, project_id, type_id, now):
    """One statement: insert the project's row, or change its type."""
    row = {'project_id': project_id, 'volume_type_id': type_id,
           'created_at': now}
    changed = {'volume_type_id': type_id, 'updated_at': now}
    if dialect == 'mysql':
        return mysql.insert(_DEFAULTS).values(row).on_duplicate_key_update(
            changed)
    return _INSERTS[dialect](_DEFAULTS).values(row).on_conflict_do_update(
        index_elements=['project_id'], set_=changed)


@db_api.retry_on_deadlock
def set_type(context, project_id, type_id):
    """Make the live type ``type_id`` the default of ``project_id``;
    raises type_obj.VolumeTypeNotFound if it is not (or no longer) live.
    Returns the DefaultType."""
    now = timeutils.utcnow()
    try:
        with session.writer.connection.using(context) as conn:
            type_obj.guard_in_use(context, type_id)
            conn.execute(_upsert(conn.dialect.name, project_id, type_id,
                                 now))
    except (exceptions.NotFound, exceptions.ConditionNotMet):
        raise type_obj.VolumeTypeNotFound('volume type', type_id) from None
    return DefaultType(project_id, type_id)


def unset(context, project_id):
    """Forget the default of ``project_id`` (none is not an error, as in
    Cinder)."""
    with session.writer.connection.using(context) as conn:
        conn.execute(_DEFAULTS.delete().where(
            _DEFAULTS.c.project_id == project_id))
