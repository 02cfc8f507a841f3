"""The GroupType object: what a generic volume group is made as, with its
group specs (Cinder's group types).

As volume types: names are unique among live types through the
``live_name`` unique constraint (create is a plain insert that fails on a
duplicate), and delete is ONE compare-and-swap whose WHERE also requires
that no live group has the type, so a group created meanwhile either
commits first (the delete is refused) or conflicts with the delete's
write of the type's row (the create's hold, :func:`guard_in_use`).
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
from objects import pagination

TYPES = models.GroupType.__table__
GROUPS = models.Group.__table__


class GroupTypeNotFound(exceptions.NotFound):
    """No live group type (visible to the caller) has this id or name."""


class GroupTypeInUse(exceptions.ConditionNotMet):
    """A live group has the type (it cannot be deleted)."""


class GroupTypeExists(Exception):
    def __init__(self, name):
        self.name = name
        super().__init__('Group Type %s already exists.' % name)


def in_use_by_groups(type_id):
    """SQL: a live group has the group type ``type_id``."""
    return sa.exists().where(GROUPS.c.group_type_id == type_id,
                             GROUPS.c.deleted == sa.false())


@base.register
class GroupType(base.VolapiPersistentObject, base.VolapiObjectDictCompat):
    # Version 1.0: initial version
    VERSION = '1.0'

    model = models.GroupType

    fields = dict({
        'id': fields.UUIDField(),
        'name': fields.StringField(),
        'description': fields.StringField(nullable=True),
        'is_public': fields.BooleanField(default=True),
        'group_specs': fields.DictOfNullableStringsField(default={}),
    }, **base.SOFT_DELETE_FIELDS)

    @classmethod
    def _load(cls, context, rows):
        types = [cls._from_row(context, row) for row in rows]
        specs = metadata.GROUP_TYPE_SPECS.of(context, [t.id for t in types])
        for group_type in types:
            group_type.group_specs = specs[group_type.id]
            group_type.obj_reset_changes(['group_specs'])
        return types

    @classmethod
    def get(cls, context, ident, include_private=True):
        """The live type whose id or name is ``ident`` (an id wins); a
        private one only with ``include_private``."""
        with session.reader.connection.using(context) as conn:
            row = None
            if uuidutils.is_uuid_like(ident):
                row = conn.execute(sa.select(TYPES).where(
                    TYPES.c.id == ident, TYPES.c.deleted == sa.false())
                ).mappings().first()
            if row is None:
                row = conn.execute(sa.select(TYPES).where(
                    TYPES.c.name == ident, TYPES.c.deleted == sa.false())
                ).mappings().first()
        if row is None or (not include_private and not row['is_public']):
            raise GroupTypeNotFound('group type', ident)
        return cls._load(context, [row])[0]

    @classmethod
    def get_all(cls, context, include_private=True, limit=None, marker=None,
                sort_keys=None, sort_dirs=None, offset=None):
        scope = [] if include_private else [TYPES.c.is_public == sa.true()]
        try:
            rows = pagination.live_rows(
                context, TYPES, scope, None, limit, marker,
                sort_keys or ['created_at'], sort_dirs or ['asc'], offset)
        except pagination.MarkerNotFound:
            raise GroupTypeNotFound('group type', marker) from None
        return cls._load(context, rows)

    def create(self):
        """Insert the type and its specs in one transaction."""
        row = named_type.new_row(self)
        specs = self.group_specs if self.obj_attr_is_set(
            'group_specs') else {}
        try:
            _insert(self._context, row, specs)
        except oslo_db_exc.DBDuplicateEntry:
            raise GroupTypeExists(self.name) from None
        self.created_at = row['created_at']
        self.deleted = False
        self.group_specs = specs
        self.obj_reset_changes()

    def update(self, name=None, description=None, is_public=None):
        """One compare-and-swap on the live type; GroupTypeExists for a
        name another live type has."""
        values = dict(named_type.changed_values(name, description, is_public),
                      updated_at=timeutils.utcnow())
        try:
            self.conditional_update_or_raise(values, expected_values={})
        except oslo_db_exc.DBDuplicateEntry:
            raise GroupTypeExists(name) from None

    def set_specs(self, specs):
        _write_specs(self._context, self.id, specs=specs)
        self.group_specs = dict(self.group_specs, **specs)
        self.obj_reset_changes(['group_specs'])

    def delete_spec(self, key):
        """False if the type had no such key."""
        return _write_specs(self._context, self.id, delete_key=key)

    def destroy(self):
        """Soft-delete the type unless a live group has it: one
        compare-and-swap; GroupTypeInUse if one does."""
        not_in_use = cond.Filter(~in_use_by_groups(self.id),
                                 'is in use by groups')
        try:
            self.conditional_update_or_raise(
                {'deleted': True, 'deleted_at': timeutils.utcnow(),
                 'live_name': None},
                expected_values={}, filters=[not_in_use])
        except exceptions.ConditionNotMet as e:
            if e.condition is not_in_use:
                raise GroupTypeInUse(e.condition, e.actual, e.what) from None
            raise


def guard_in_use(context, type_id):
    """Inside the transaction that inserts a group of the live type
    ``type_id``: write the type's row (no value changes), so that a
    concurrent delete of the type conflicts with the insert instead of
    missing it; NotFound when the type is gone."""
    db_api.update_or_explain(context, models.GroupType, type_id,
                             {'deleted': False}, {'deleted': False})


@db_api.retry_on_deadlock
def _write_specs(context, type_id, specs=None, delete_key=None):
    """One transaction: a compare-and-swap that the type is live (which
    serialises writers of its specs on its row), then the rows."""
    with session.writer.connection.using(context):
        db_api.update_or_explain(context, models.GroupType, type_id,
                                 {'updated_at': timeutils.utcnow()})
        if delete_key is not None:
            return metadata.GROUP_TYPE_SPECS.delete(context, type_id,
                                                    delete_key)
        metadata.GROUP_TYPE_SPECS.update(context, type_id, specs)
        return True


@db_api.retry_on_deadlock
def _insert(context, row, specs):
    # The specs go in the type's transaction: a type is never seen without
    # them.
    with session.writer.connection.using(context) as conn:
        conn.execute(TYPES.insert().values(**row))
        metadata.GROUP_TYPE_SPECS.insert(context, row['id'], specs)
