"""The VolumeType object: a named set of extra specs volumes are made with.

Names are unique among live types through the ``live_name`` unique
constraint, so create is a plain insert that fails on a duplicate; delete is
one compare-and-swap that also requires no live volume to use the type.
"""
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
from objects import named_type
from objects import type_access
from objects import type_quota
from objects import worker as worker_obj

DEFAULT_TYPE_ID = '8ec57e01-1841-45cb-b833-d43ee4089eb6'
DEFAULT_TYPE_NAME = '__DEFAULT__'
DEFAULT_TYPE_DESCRIPTION = 'Default Volume Type'


_TYPES = models.VolumeType.__table__
_SPECS = models.VolumeTypeExtraSpec.__table__
# A type's row once per extra spec (NULLs: none): see VolumeType.from_rows.
WITH_SPECS = sa.select(
    _TYPES, _SPECS.c.key.label('spec_key'),
    _SPECS.c.value.label('spec_value')).select_from(
    _TYPES.outerjoin(_SPECS, _SPECS.c.volume_type_id == _TYPES.c.id))
_TYPE_BY_ID = WITH_SPECS.where(_TYPES.c.id == sa.bindparam('ident'),
                               _TYPES.c.deleted == sa.false())
_TYPE_BY_NAME = WITH_SPECS.where(_TYPES.c.name == sa.bindparam('ident'),
                                 _TYPES.c.deleted == sa.false())


# Cinder's rule: a type makes multiattach volumes when its extra spec
# ``multiattach`` is '<is> True' (compared here after strip, ignoring case).
MULTIATTACH_KEY = 'multiattach'
_MULTIATTACH_ON = '<is> true'


def is_multiattach(extra_specs):
    """Whether a type with these extra specs makes multiattach volumes."""
    value = extra_specs.get(MULTIATTACH_KEY)
    return isinstance(value, str) and value.strip().lower() == _MULTIATTACH_ON


def multiattach_criterion(type_id):
    """SQL: :func:`is_multiattach` for the type ``type_id`` (an id or a SQL
    expression), for compare-and-swaps that decide it in the database."""
    return sa.exists().where(
        _SPECS.c.volume_type_id == type_id,
        _SPECS.c.key == MULTIATTACH_KEY,
        sa.func.lower(sa.func.trim(_SPECS.c.value)) == _MULTIATTACH_ON)


class VolumeTypeNotFound(exceptions.NotFound):
    """No live type (visible to the caller) has this id or name."""


class VolumeTypeInUse(exceptions.ConditionNotMet):
    """A live volume has the type (it cannot be deleted)."""


class VolumeTypeIsDefault(exceptions.ConditionNotMet):
    """A project has the type as its default (it cannot be deleted)."""


class DefaultVolumeType(exceptions.ConditionNotMet):
    """The type is the configured default type (it cannot be deleted)."""


class VolumeTypeExists(Exception):
    def __init__(self, name):
        self.name = name
        super().__init__('Volume Type %s already exists.' % name)


@base.register
class VolumeType(base.VolapiPersistentObject, base.VolapiObjectDictCompat):
    # Version 1.0: initial version
    # Version 1.1: qos_specs_id
    VERSION = '1.1'

    model = models.VolumeType

    fields = dict({
        'id': fields.UUIDField(),
        'name': fields.StringField(),
        'description': fields.StringField(nullable=True),
        'is_public': fields.BooleanField(default=True),
        'extra_specs': fields.DictOfNullableStringsField(default={}),
        'qos_specs_id': fields.StringField(nullable=True, default=None),
    }, **base.SOFT_DELETE_FIELDS)

    def obj_make_compatible(self, primitive, target_version):
        super().obj_make_compatible(primitive, target_version)
        if target_version == '1.0':
            primitive.pop('qos_specs_id', None)

    # -- reading --------------------------------------------------------------
    @classmethod
    def _load(cls, context, rows):
        """Objects for ``rows`` with their extra specs (one more query)."""
        types = [cls._from_row(context, row) for row in rows]
        if not types:
            return types
        specs = models.VolumeTypeExtraSpec.__table__
        with session.reader.connection.using(context) as conn:
            found = conn.execute(
                sa.select(specs.c.volume_type_id, specs.c.key,
                          specs.c.value)
                .where(specs.c.volume_type_id.in_([t.id for t in types])))
            by_type = {}
            for type_id, key, value in found:
                by_type.setdefault(type_id, {})[key] = value
        for volume_type in types:
            volume_type.extra_specs = by_type.get(volume_type.id, {})
            volume_type.obj_reset_changes(['extra_specs'])
        return types

    @classmethod
    def get(cls, context, ident, include_private=True):
        """The live type whose id or name is ``ident`` (an id wins), with
        its extra specs, in one query. Without ``include_private``, a
        private type only if the caller's project is on its access list."""
        rows = []
        with session.reader.connection.using(context) as conn:
            if uuidutils.is_uuid_like(ident):
                rows = conn.execute(_TYPE_BY_ID, {'ident': ident}).all()
            if not rows:
                rows = conn.execute(_TYPE_BY_NAME, {'ident': ident}).all()
        if not rows or (not include_private and not rows[0].is_public and
                        not type_access.has_access(context, rows[0].id,
                                                   context.project_id)):
            raise VolumeTypeNotFound('volume type', ident)
        return cls.from_rows(context, rows)

    @classmethod
    def from_rows(cls, context, rows):
        """The type of the first of ``rows`` (of WITH_SPECS), with its
        extra specs."""
        first = rows[0]._mapping
        volume_type = cls._from_row(context, first)
        volume_type.extra_specs = {row.spec_key: row.spec_value
                                   for row in rows
                                   if row.id == first['id'] and
                                   row.spec_key is not None}
        volume_type.obj_reset_changes(['extra_specs'])
        return volume_type

    @classmethod
    def get_all(cls, context, include_private=True, is_public=None,
                limit=None, marker=None, sort_keys=None, sort_dirs=None,
                offset=None, extra_specs=None):
        """Live types, ordered and paginated like every volapi list."""
        from objects import pagination
        table = cls.model.__table__
        query = sa.select(table).where(table.c.deleted == sa.false())
        scope = []
        if not include_private:
            scope.append(type_access.visible_to(context.project_id))
            query = query.where(*scope)
        elif is_public is not None:
            query = query.where(table.c.is_public == bool(is_public))
        specs = models.VolumeTypeExtraSpec.__table__
        for key, value in (extra_specs or {}).items():
            query = query.where(sa.exists().where(
                specs.c.volume_type_id == table.c.id, specs.c.key == key,
                specs.c.value == value))
        query = pagination.paginate(
            context, table, query, limit=limit, marker=marker,
            sort_keys=sort_keys or ['created_at'],
            sort_dirs=sort_dirs or ['asc'], offset=offset,
            marker_scope=scope)
        with session.reader.connection.using(context) as conn:
            rows = conn.execute(query).mappings().all()
        return cls._load(context, rows)

    @classmethod
    def get_default(cls, context):
        """The ``__DEFAULT__`` type, made again if it is missing (a database
        emptied by hand); the insert of a fixed id is idempotent."""
        try:
            return cls.get(context, DEFAULT_TYPE_ID)
        except exceptions.NotFound:
            pass
        try:
            cls(context, id=DEFAULT_TYPE_ID, name=DEFAULT_TYPE_NAME,
                description=DEFAULT_TYPE_DESCRIPTION, is_public=True,
                extra_specs={}).create()
        except VolumeTypeExists:
            pass  # another request made it first
        return cls.get(context, DEFAULT_TYPE_ID)

    # -- writing --------------------------------------------------------------
    def create(self):
        """Insert the type and its extra specs in one transaction."""
        row = named_type.new_row(self)
        specs = self.extra_specs if self.obj_attr_is_set(
            'extra_specs') else {}
        try:
            _insert_type(self._context, row, specs)
        except oslo_db_exc.DBDuplicateEntry:
            raise VolumeTypeExists(self.name) from None
        self.created_at = row['created_at']
        self.deleted = False
        self.qos_specs_id = None
        self.obj_reset_changes()

    def update(self, name=None, description=None, is_public=None):
        """Change what is given, as one compare-and-swap on a live type; a
        name another live type has raises VolumeTypeExists."""
        values = named_type.changed_values(name, description, is_public)
        try:
            self._update(values, name)
        except oslo_db_exc.DBDuplicateEntry:
            raise VolumeTypeExists(name) from None

    @db_api.retry_on_deadlock
    def _update(self, values, name):
        # A new name takes the type's per-type quota limits with it, in
        # the same transaction (as Cinder renames them).
        with session.writer.connection.using(self._context):
            if name is not None:
                type_quota.rename_limits(self._context, self.id, name)
            self.conditional_update_or_raise(values, expected_values={})

    def set_extra_specs(self, specs):
        """Create or change the given extra specs of this live type."""
        _write_specs(self._context, self.id, specs=specs)
        self.extra_specs = dict(self.extra_specs, **specs)
        self.obj_reset_changes(['extra_specs'])

    def delete_extra_spec(self, key):
        """Remove one extra spec; False if the type had no such key."""
        removed = _write_specs(self._context, self.id, delete_key=key)
        if removed:
            self.extra_specs = {k: v for k, v in self.extra_specs.items()
                                if k != key}
            self.obj_reset_changes(['extra_specs'])
        return removed

    def destroy(self, default_name=None):
        """Soft-delete the type unless a live volume or group uses it or a
        retype to it is in flight (the volume takes the type when it
        ends), or it is named ``default_name`` (the configured default
        type, whose name a rename may give it at any moment), or a project
        has it as its default, as one compare-and-swap; raises VolumeTypeInUse,
        DefaultVolumeType, VolumeTypeIsDefault, or ConditionNotMet
        naming another refusal."""
        from objects import default_type
        volumes = models.Volume.__table__
        in_use = sa.exists().where(volumes.c.volume_type_id == self.id,
                                   volumes.c.deleted == sa.false())
        retyped_to = worker_obj.in_flight_with('volume', 'new_type_id',
                                               self.id)
        # A live group's volumes may have the type (Cinder refuses too).
        groups = models.Group.__table__
        mappings = models.GroupVolumeTypeMapping.__table__
        in_groups = sa.exists().where(
            mappings.c.volume_type_id == self.id,
            mappings.c.group_id == groups.c.id,
            groups.c.deleted == sa.false())
        not_in_use = cond.Filter(~in_use & ~retyped_to & ~in_groups,
                                 'is in use by volumes or groups')
        not_project_default = cond.Filter(
            ~default_type.names_type(self.id), "is a project's default type")
        # Cinder's order of refusals: a project's default, the configured
        # default, then in use.
        conditions = [not_project_default, not_in_use]
        if default_name:
            not_default = cond.Expect('name', cond.Not(default_name))
            conditions.insert(1, not_default)
        try:
            self.conditional_update_or_raise(
                {'deleted': True, 'deleted_at': timeutils.utcnow(),
                 'live_name': None},
                expected_values={}, filters=conditions)
        except exceptions.ConditionNotMet as e:
            if e.condition is not_in_use:
                raise VolumeTypeInUse(e.condition, e.actual, e.what) \
                    from None
            if e.condition is not_project_default:
                raise VolumeTypeIsDefault(e.condition, e.actual, e.what) \
                    from None
            if default_name and e.condition is not_default:
                raise DefaultVolumeType(e.condition, e.actual, e.what) \
                    from None
            raise

    def guard_in_use(self):
        """Inside a transaction that inserts a volume of this type: see
        :func:`guard_in_use`."""
        guard_in_use(self._context, self.id)


def guard_in_use(context, type_id):
    """Inside a transaction that gives a volume the live type ``type_id``
    (inserts it, starts its retype): write the type's row (no value
    changes) so that a concurrent delete of the type conflicts with it
    instead of missing it. The default type cannot be deleted and needs
    no guard (it would make every create contend on one row)."""
    if type_id == DEFAULT_TYPE_ID:
        return
    db_api.update_or_explain(context, models.VolumeType, type_id,
                             {'deleted': False}, {'deleted': False})


@db_api.retry_on_deadlock
def _write_specs(context, type_id, specs=None, delete_key=None):
    """One transaction: a compare-and-swap that the type is live (which
    also serialises writers of its specs on its row), then the rows."""
    with session.writer.connection.using(context):
        db_api.update_or_explain(context, models.VolumeType, type_id,
                                 {'updated_at': timeutils.utcnow()})
        if delete_key is not None:
            return metadata.TYPE_EXTRA_SPECS.delete(context, type_id,
                                                    delete_key)
        metadata.TYPE_EXTRA_SPECS.update(context, type_id, specs)
        return True


@db_api.retry_on_deadlock
def _insert_type(context, row, specs):
    with session.writer.connection.using(context) as conn:
        conn.execute(models.VolumeType.__table__.insert().values(**row))
        if specs:
            conn.execute(models.VolumeTypeExtraSpec.__table__.insert(), [
                {'volume_type_id': row['id'], 'key': key, 'value': value}
                for key, value in specs.items()])
