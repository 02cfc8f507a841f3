"""Reading volumes in bulk (lists with filters and pagination, and what a
view needs besides the row: metadata, type, attachments).
"""
import datetime
import operator
import typing

import sqlalchemy as sa
from oslo_versionedobjects import fields as ovo_fields

from db import exceptions
from db import library_compat
from db import models
from db import session
from objects import library_compat as ovo_compat
from objects import pagination

VOLUMES = models.Volume.__table__
METADATA = models.VolumeMetadata.__table__
IMAGE_METADATA = models.VolumeGlanceMetadata.__table__
ADMIN_METADATA = models.VolumeAdminMetadata.__table__
ATTACHMENTS = models.VolumeAttachment.__table__
TYPES = models.VolumeType.__table__
_UTC = datetime.timezone.utc
# Each column's Python type, for the API's filters.
COLUMN_TYPES = {column.key: column.type.python_type for column in VOLUMES.c}
# The most characters a string column holds (None: no limit).
COLUMN_LENGTHS = {column.key: getattr(column.type, 'length', None)
                  for column in VOLUMES.c}

# Statements built once: building and coercing a SELECT costs more than
# running it on a warm connection.
_LIVE_VOLUME = sa.select(VOLUMES).where(
    VOLUMES.c.id == sa.bindparam('volume_id'),
    VOLUMES.c.deleted == sa.false())
_LIVE_PROJECT_VOLUME = _LIVE_VOLUME.where(
    VOLUMES.c.project_id == sa.bindparam('project_id'))
# The admin metadata a volume's view shows in its metadata, over the
# user's keys of the same name (Cinder's add_visible_admin_metadata).
VISIBLE_ADMIN_KEYS = ('readonly', 'attached_mode')
# Literals, not an expanding parameter: get_shown's statement runs on the
# driver directly on PostgreSQL.
_VISIBLE_ADMIN = ADMIN_METADATA.c.key.in_(
    [sa.literal_column("'%s'" % key) for key in VISIBLE_ADMIN_KEYS])
# A view's metadata: the user's (0) then the visible admin keys (1).
_METADATA_OF = sa.union_all(*[
    sa.select(table.c.volume_id, table.c.key, table.c.value,
              sa.literal_column(str(kind))).where(
        table.c.volume_id.in_(sa.bindparam('ids', expanding=True)),
        *criteria)
    for kind, table, criteria in ((0, METADATA, ()),
                                  (1, ADMIN_METADATA, (_VISIBLE_ADMIN,)))])
_IMAGE_METADATA_OF = sa.select(
    IMAGE_METADATA.c.volume_id, IMAGE_METADATA.c.key,
    IMAGE_METADATA.c.value).where(
    IMAGE_METADATA.c.volume_id.in_(sa.bindparam('ids', expanding=True)))
_ATTACHMENTS_OF = sa.select(ATTACHMENTS).where(
    ATTACHMENTS.c.volume_id.in_(sa.bindparam('ids', expanding=True)),
    ATTACHMENTS.c.deleted == sa.false()).order_by(ATTACHMENTS.c.created_at)
_TYPES = sa.select(TYPES).where(
    TYPES.c.id.in_(sa.bindparam('ids', expanding=True)))
# What a volume's view shows (volapi/api/views/volumes.py), its policy
# checks and its attachments' read need, by attribute name.
SHOWN_COLUMNS = (
    'id', 'project_id', 'user_id', 'host', 'cluster_name', 'size',
    'availability_zone',
    'status', 'attach_status', 'migration_status', 'name_id',
    'display_name', 'display_description', 'volume_type_id',
    'source_volid', 'snapshot_id', 'bootable', 'multiattach',
    'replication_status', 'consistencygroup_id', 'group_id', 'created_at',
    'updated_at')
_SHOWN_TIMES = ('created_at', 'updated_at')
# One volume with its type's id and name and one metadata key and value per
# row (a volume without metadata: one row of NULLs there), then one row per
# key of its image metadata and of its visible admin metadata (only the
# kind, key and value set), in one statement: each part reads its own index.
_METADATA_KIND, _IMAGE_KIND, _ADMIN_KIND = 0, 1, 2
_VOLUME_PART = sa.select(
    *[VOLUMES.c[name] for name in SHOWN_COLUMNS], TYPES.c.id, TYPES.c.name,
    sa.literal_column(str(_METADATA_KIND)), METADATA.c.key,
    METADATA.c.value).select_from(
    VOLUMES.outerjoin(TYPES, TYPES.c.id == VOLUMES.c.volume_type_id)
    .outerjoin(METADATA, METADATA.c.volume_id == VOLUMES.c.id)).where(
    VOLUMES.c.id == sa.bindparam('volume_id'),
    VOLUMES.c.deleted == sa.false())
_IMAGE_PART, _ADMIN_PART = [
    sa.select(*[sa.null() for _ in range(len(SHOWN_COLUMNS) + 2)],
              sa.literal_column(str(kind)), table.c.key, table.c.value).where(
        table.c.volume_id == sa.bindparam('volume_id'), *criteria)
    for kind, table, criteria in ((_IMAGE_KIND, IMAGE_METADATA, ()),
                                  (_ADMIN_KIND, ADMIN_METADATA,
                                   (_VISIBLE_ADMIN,)))]
_SHOWN = sa.union_all(_VOLUME_PART, _IMAGE_PART, _ADMIN_PART)
# Another project's volume reads no row of the first part: it is not
# found, and the rows of the others are dropped.
_SHOWN_PROJECT = sa.union_all(
    _VOLUME_PART.where(VOLUMES.c.project_id == sa.bindparam('project_id')),
    _IMAGE_PART, _ADMIN_PART)


def _volume_maker():
    """A function making a Volume from a volumes row without running each
    value through its field's coercion: the row's values already have the
    fields' types, and coercion is most of the CPU a list costs. The result
    equals Volume._from_row's (tests/unit/test_api_volume_rows.py)."""
    from objects.volume import Volume
    columns = [name for name in Volume.fields if name in VOLUMES.c]
    stored = [(name, ovo_compat.field_attribute(name),
               isinstance(Volume.fields[name], ovo_fields.DateTimeField))
              for name in columns]
    utc = _UTC

    def make(context, row):
        volume = Volume(context)
        for name, attribute, is_time in stored:
            value = row[name]
            if is_time and value is not None and value.tzinfo is None:
                value = value.replace(tzinfo=utc)
            object.__setattr__(volume, attribute, value)
        volume._context = context
        return volume

    return make


_make_volume = None


def volume_from_row(context, row):
    global _make_volume
    if _make_volume is None:
        _make_volume = _volume_maker()
    return _make_volume(context, row)


def _by_id(context, volume_id, project_only, own_project, any_project):
    """(statement, parameters) to read ``volume_id``: ``own_project``
    bound to the caller's project (a non-admin's view) or
    ``any_project``."""
    if project_only and not context.is_admin:
        return own_project, {'volume_id': volume_id,
                             'project_id': context.project_id}
    return any_project, {'volume_id': volume_id}


def get(context, volume_id, project_only=True):
    """The live volume ``volume_id``; another project's is NotFound to a
    non-admin, as if it did not exist."""
    with session.reader.connection.using(context) as conn:
        row = conn.execute(*_by_id(
            context, volume_id, project_only, _LIVE_PROJECT_VOLUME,
            _LIVE_VOLUME)).mappings().first()
    if row is None:
        raise exceptions.NotFound('volume', volume_id)
    return volume_from_row(context, row)


class TypeName(typing.NamedTuple):
    """A shown volume's type: its name is all the view reads of it."""
    name: str


class ShownVolume:
    """A volume as its view reads it: the attributes of SHOWN_COLUMNS with
    a Volume's values (times in UTC), ``metadata``, ``image_metadata`` and
    ``volume_type``."""
    __slots__ = SHOWN_COLUMNS + ('metadata', 'image_metadata',
                                 'volume_type')

    def __init__(self, first, rows):
        """``first``: a row of the volume's part; ``rows``: all."""
        for name, value in zip(SHOWN_COLUMNS, first):
            setattr(self, name, value)
        for name in _SHOWN_TIMES:
            value = getattr(self, name)
            if value is not None and value.tzinfo is None:
                setattr(self, name, value.replace(tzinfo=_UTC))
        count = len(SHOWN_COLUMNS)
        type_id, type_name = first[count], first[count + 1]
        self.volume_type = None if type_id is None else TypeName(type_name)
        kinds = {_METADATA_KIND: {}, _IMAGE_KIND: {}, _ADMIN_KIND: {}}
        for row in rows:
            if row[count + 3] is not None:
                kinds[int(row[count + 2])][row[count + 3]] = row[count + 4]
        self.metadata = dict(kinds[_METADATA_KIND], **kinds[_ADMIN_KIND])
        self.image_metadata = kinds[_IMAGE_KIND]


def get_shown(context, volume_id, project_only=True):
    """:func:`get`'s volume as its view reads it, with its ``metadata``
    and ``volume_type``, read in one statement."""
    statement, params = _by_id(context, volume_id, project_only,
                               _SHOWN_PROJECT, _SHOWN)
    with session.lone_read(context) as conn:
        # psycopg gives these columns as SQLAlchemy would (ShownVolumeTest);
        # other drivers' booleans and times need SQLAlchemy's processing.
        if conn.dialect.name == 'postgresql':
            rows = library_compat.driver_execute(conn, statement, params)
        else:
            rows = conn.execute(statement, params).all()
    count = len(SHOWN_COLUMNS)
    first = next((row for row in rows
                  if int(row[count + 2]) == _METADATA_KIND), None)
    if first is None:
        raise exceptions.NotFound('volume', volume_id)
    return ShownVolume(first, rows)


# Filters by key/value pairs a volume has: {filter: table of pairs}.
_PAIRS = {'metadata': METADATA, 'glance_metadata': IMAGE_METADATA}


class TimeComparison(dict):
    """A time filter, {operator: naive UTC datetime} (operators as in
    OPERATORS): a volume matches if its time satisfies ANY of them, as
    Cinder ORs them (``gt:A,lt:B`` is outside [A, B], not inside)."""


OPERATORS = {'gt': operator.gt, 'gte': operator.ge, 'eq': operator.eq,
             'neq': operator.ne, 'lt': operator.lt, 'lte': operator.le}


def _filtered(query, project_id, filters):
    if project_id is not None:
        query = query.where(VOLUMES.c.project_id == project_id)
    for key, value in (filters or {}).items():
        if key in _PAIRS:
            table = _PAIRS[key]
            for meta_key, meta_value in value.items():
                query = query.where(sa.exists().where(
                    table.c.volume_id == VOLUMES.c.id,
                    table.c.key == meta_key, table.c.value == meta_value))
        elif key.endswith('~'):
            column = VOLUMES.c[key[:-1]]
            query = query.where(column.like('%%%s%%' % _escape_like(value),
                                            escape='\\'))
        elif isinstance(value, TimeComparison):
            column = VOLUMES.c[key]
            query = query.where(sa.or_(*[
                OPERATORS[name](column, time)
                for name, time in value.items()]))
        elif isinstance(value, (list, tuple)):
            query = query.where(VOLUMES.c[key].in_(value))
        else:
            query = query.where(VOLUMES.c[key] == value)
    return query


def _escape_like(text):
    return text.replace('\\', '\\\\').replace('%', '\\%').replace('_', '\\_')


def get_all(context, project_id=None, filters=None, limit=None, marker=None,
            sort_keys=('created_at',), sort_dirs=('desc',), offset=None):
    """Live volumes of ``project_id`` (None: every project), filtered by
    column values (``{'status': 'available'}``, ``{'display_name~': 'x'}``
    for a substring, ``{'metadata': {...}}``), in pages."""
    query = _filtered(
        sa.select(VOLUMES).where(VOLUMES.c.deleted == sa.false()),
        project_id, filters)
    scope = [] if project_id is None else [VOLUMES.c.project_id ==
                                           project_id]
    query = pagination.paginate(context, VOLUMES, query, limit=limit,
                                marker=marker, sort_keys=sort_keys,
                                sort_dirs=sort_dirs, offset=offset,
                                marker_scope=scope)
    with session.reader.connection.using(context) as conn:
        rows = conn.execute(query).mappings().all()
    return [volume_from_row(context, row) for row in rows]


def count(context, project_id=None, filters=None):
    query = _filtered(
        sa.select(sa.func.count()).select_from(VOLUMES)
        .where(VOLUMES.c.deleted == sa.false()), project_id, filters)
    with session.reader.connection.using(context) as conn:
        return conn.execute(query).scalar()


def summary(context, project_id=None, filters=None):
    """(count, total size, {metadata key: sorted distinct values}) of the
    volumes get_all would list."""
    live = _filtered(sa.select(VOLUMES.c.id, VOLUMES.c.size)
                     .where(VOLUMES.c.deleted == sa.false()),
                     project_id, filters).subquery()
    with session.reader.connection.using(context) as conn:
        count, size = conn.execute(sa.select(
            sa.func.count(), sa.func.coalesce(sa.func.sum(live.c.size), 0)
        ).select_from(live)).one()
        metadata = {}
        for key, value in conn.execute(
                sa.select(METADATA.c.key, METADATA.c.value).distinct()
                .where(METADATA.c.volume_id.in_(sa.select(live.c.id)))):
            metadata.setdefault(key, []).append(value)
    return count, int(size), {k: sorted(v, key=str)
                              for k, v in metadata.items()}


def load_attachments(context, volumes):
    """{volume_id: [attachment row mapping]} of ``volumes``: one query, none
    if every volume is 'detached' (only another status can have attached
    attachments)."""
    attached_ids = [v.id for v in volumes if v.attach_status != 'detached']
    attachments = {}
    if attached_ids:
        with session.reader.connection.using(context) as conn:
            for row in conn.execute(_ATTACHMENTS_OF,
                                    {'ids': attached_ids}).mappings():
                attachments.setdefault(row['volume_id'], []).append(row)
    return attachments


def load_image_metadata(context, volumes):
    """{volume id: {key: value}} of the image metadata of ``volumes``
    (one query)."""
    found = {}
    if volumes:
        with session.reader.connection.using(context) as conn:
            for volume_id, key, value in conn.execute(
                    _IMAGE_METADATA_OF, {'ids': [v.id for v in volumes]}):
                found.setdefault(volume_id, {})[key] = value
    return found


def load_details(context, volumes):
    """Fill each volume's ``metadata`` and ``volume_type`` and return its
    attachments ({volume_id: [attachment row mapping]}), in three queries
    whatever the number of volumes."""
    from objects.volume_type import VolumeType
    if not volumes:
        return {}
    ids = [volume.id for volume in volumes]
    type_ids = list({v.volume_type_id for v in volumes if v.volume_type_id})
    metadata, types = {}, {}
    with session.reader.connection.using(context) as conn:
        # The admin keys last: they win.
        for volume_id, key, value, _kind in sorted(
                conn.execute(_METADATA_OF, {'ids': ids}),
                key=operator.itemgetter(3)):
            metadata.setdefault(volume_id, {})[key] = value
        attachments = load_attachments(context, volumes)
        if type_ids:
            for row in conn.execute(_TYPES, {'ids': type_ids}).mappings():
                types[row['id']] = VolumeType._from_row(context, row)
    for volume in volumes:
        volume.metadata = metadata.get(volume.id, {})
        volume.volume_type = types.get(volume.volume_type_id)
        volume.obj_reset_changes(['metadata', 'volume_type'])
    return attachments
