"""Who may use a private volume type: administrators, and the projects on
its access list (Cinder's ``os-volume-type-access``).

Each change is one statement that also requires the type to be live and
private: an access added to a public type (or a deleted one) is refused,
not written, and says which (:class:`AccessRefused`).
"""
import sqlalchemy as sa
from oslo_db import exception as oslo_db_exc
from oslo_utils import timeutils

from db import models
from db import session

_ACCESS = models.VolumeTypeProject.__table__
_TYPES = models.VolumeType.__table__


class AccessExists(Exception):
    pass


class AccessNotFound(Exception):
    pass


class AccessRefused(Exception):
    """The type is gone (``public`` False) or public (``public`` True)."""

    def __init__(self, public):
        super().__init__(public)
        self.public = public


def visible_to(project_id):
    """SQL: a volume_types row that ``project_id`` may see and use."""
    return sa.or_(_TYPES.c.is_public == sa.true(), sa.exists().where(
        _ACCESS.c.volume_type_id == _TYPES.c.id,
        _ACCESS.c.project_id == project_id))


def has_access(context, type_id, project_id):
    with session.reader.connection.using(context) as conn:
        return conn.execute(sa.select(_ACCESS.c.id).where(
            _ACCESS.c.volume_type_id == type_id,
            _ACCESS.c.project_id == project_id)).first() is not None


def projects(context, type_id):
    """The projects on the access list of ``type_id``, in the order they
    were added."""
    with session.reader.connection.using(context) as conn:
        return conn.execute(sa.select(_ACCESS.c.project_id).where(
            _ACCESS.c.volume_type_id == type_id).order_by(
                _ACCESS.c.id)).scalars().all()


def _private_type(type_id):
    return sa.and_(_TYPES.c.id == type_id, _TYPES.c.deleted == sa.false(),
                   _TYPES.c.is_public == sa.false())


def _refusal(context, type_id):
    with session.reader.connection.using(context) as conn:
        public = conn.execute(sa.select(_TYPES.c.is_public).where(
            _TYPES.c.id == type_id,
            _TYPES.c.deleted == sa.false())).scalar()
    return AccessRefused(bool(public))


def add(context, type_id, project_id):
    """Put ``project_id`` on the list; AccessExists, AccessRefused."""
    insert = _ACCESS.insert().from_select(
        ['volume_type_id', 'project_id', 'created_at'],
        sa.select(_TYPES.c.id, sa.literal(project_id, models.NAME),
                  sa.literal(timeutils.utcnow(), models.DateTime))
        .where(_private_type(type_id)))
    try:
        with session.writer.connection.using(context) as conn:
            # psycopg 3 forgets an INSERT's rowcount once SQLAlchemy has
            # closed its cursor.
            added = conn.execute(insert.execution_options(
                preserve_rowcount=True)).rowcount
    except oslo_db_exc.DBDuplicateEntry:
        raise AccessExists() from None
    if not added:
        raise _refusal(context, type_id)


def remove(context, type_id, project_id):
    """Take ``project_id`` off the list; AccessNotFound, AccessRefused."""
    delete = _ACCESS.delete().where(
        _ACCESS.c.volume_type_id == type_id,
        _ACCESS.c.project_id == project_id,
        sa.exists().where(_private_type(type_id)))
    with session.writer.connection.using(context) as conn:
        removed = conn.execute(delete).rowcount
    if not removed:
        refusal = _refusal(context, type_id)
        if refusal.public:
            raise refusal
        raise AccessNotFound()
