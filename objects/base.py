"""The base of every volapi versioned object, and its compare-and-swap.

A persistent object names its model (``model = models.Volume``); its fields
that are columns of that model can be loaded from a row and written back
with :meth:`VolapiPersistentObject.conditional_update`.
"""
import datetime
import uuid

import sqlalchemy as sa
from oslo_utils import timeutils
from oslo_versionedobjects import base as ovo_base
from oslo_versionedobjects import fields as ovo_fields

from db import api as db_api
from db import conditions as cond
from db import session
from db import writes as db_writes
from objects import fields as volapi_fields
from objects import library_compat

remotable = ovo_base.remotable
remotable_classmethod = ovo_base.remotable_classmethod


# The columns of db.models.TimestampMixin and SoftDeleteMixin, as fields.
TIMESTAMP_FIELDS = {
    'created_at': volapi_fields.DateTimeField(nullable=True),
    'updated_at': volapi_fields.DateTimeField(nullable=True),
}
SOFT_DELETE_FIELDS = dict(TIMESTAMP_FIELDS, **{
    'deleted_at': volapi_fields.DateTimeField(nullable=True),
    'deleted': volapi_fields.BooleanField(default=False),
})


class VolapiObjectRegistry(ovo_base.VersionedObjectRegistry):
    def registration_hook(self, cls, index):
        # objects.Volume etc.: the newest registered version of each class.
        import objects
        setattr(objects, cls.obj_name(), cls)


register = VolapiObjectRegistry.register


_FIELD_ATTRIBUTE_PREFIX = library_compat.FIELD_ATTRIBUTE_PREFIX


class VolapiObject(ovo_base.VersionedObject):
    OBJ_SERIAL_NAMESPACE = 'volapi_object'
    OBJ_PROJECT_NAMESPACE = 'volapi'

    def obj_attr_is_set(self, attrname):
        # oslo's, without building the list of every field's name at each
        # call: a volume create asks about a hundred times (its insert,
        # its serialization for the cast, its view).
        if attrname not in self.fields and \
                attrname not in self.obj_extra_fields:
            return super().obj_attr_is_set(attrname)  # its AttributeError
        return hasattr(self, _FIELD_ATTRIBUTE_PREFIX + attrname)


class VolapiObjectSerializer(ovo_base.VersionedObjectSerializer):
    OBJ_BASE_CLASS = VolapiObject


class VolapiObjectDictCompat(ovo_base.VersionedObjectDictCompat):
    pass


def _to_db_value(value):
    # oslo's DateTimeField holds aware datetimes; columns hold naive UTC.
    if isinstance(value, datetime.datetime) and value.tzinfo is not None:
        return timeutils.normalize_time(value)
    return value


class VolapiPersistentObject(VolapiObject):
    """An object backed by one row of ``model``, identified by ``id``."""

    model = None

    # -- loading --------------------------------------------------------------
    @classmethod
    def _column_fields(cls):
        """The names of the fields that are columns of ``model``, in the
        fields' order (known once per class: every load and insert asks)."""
        names = cls.__dict__.get('_column_names')
        if names is None:
            columns = cls.model.__table__.c
            names = tuple(name for name in cls.fields if name in columns)
            cls._column_names = names
        return names

    @classmethod
    def _from_row(cls, context, row, obj=None):
        """Fill an object from a row (mapping or ORM instance) of ``model``."""
        obj = obj or cls(context)
        get = row.__getitem__ if hasattr(row, 'keys') else \
            lambda k: getattr(row, k)
        for name in cls._column_fields():
            value = get(name)
            field = cls.fields[name]
            if isinstance(field, ovo_fields.DateTimeField) and \
                    value is not None and value.tzinfo is None:
                value = value.replace(tzinfo=datetime.timezone.utc)
            setattr(obj, name, value)
        obj._context = context
        obj.obj_reset_changes()
        return obj

    @classmethod
    def get_by_id(cls, context, ident, include_deleted=False):
        table = cls.model.__table__
        query = sa.select(table).where(table.c.id == ident)
        if 'deleted' in table.c and not include_deleted:
            query = query.where(table.c.deleted == sa.false())
        with session.reader.connection.using(context) as conn:
            row = conn.execute(query).mappings().first()
        if row is None:
            from db import exceptions
            raise exceptions.NotFound(cls.model.cas_name, ident)
        return cls._from_row(context, row)

    @classmethod
    def get_unchanged_since(cls, context, status_field, statuses, moment):
        """Live rows whose ``status_field`` is one of ``statuses`` and that
        have not changed since ``moment``, oldest first: candidates only,
        each to be proved still so by the compare-and-swap that acts."""
        table = cls.model.__table__
        query = sa.select(table).where(
            table.c[status_field].in_(list(statuses)),
            cond.changed_before(table, moment))
        if 'deleted' in table.c:
            query = query.where(table.c.deleted == sa.false())
        with session.reader.connection.using(context) as conn:
            rows = conn.execute(query.order_by(
                table.c.created_at, table.c.id)).mappings().all()
        return [cls._from_row(context, row) for row in rows]

    def refresh(self):
        fresh = self.get_by_id(self._context, self.id, include_deleted=True)
        for name in self._column_fields():
            setattr(self, name, getattr(fresh, name))
        self.obj_reset_changes(self._column_fields())

    # -- creating -----------------------------------------------------------
    def create(self):
        """Insert this object's row, in the caller's transaction if one is
        open (a row that goes with a compare-and-swap: the transition
        table's ``creates`` rows): its :meth:`insert_writes`, made now."""
        with session.writer.connection.using(self._context) as conn:
            db_writes.make(conn, self.insert_writes())

    def insert_writes(self):
        """The writes (db.writes) that insert this object's rows, for the
        caller to make in its transaction (alone, or with a swap that
        carries them). Fields not set take the columns' defaults, which
        the object then holds; the insert names those that are values (a
        carried insert gets no default from SQLAlchemy)."""
        if 'id' in self.fields and not self.obj_attr_is_set('id'):
            self.id = str(uuid.uuid4())
        if 'created_at' in self.fields and \
                not self.obj_attr_is_set('created_at'):
            self.created_at = timeutils.utcnow()
        held = vars(self)  # read as oslo's getter would (library_compat)
        defaults = self._column_defaults()
        columns = {}
        for name in self._column_fields():
            attribute = _FIELD_ATTRIBUTE_PREFIX + name
            if attribute in held:
                columns[name] = _to_db_value(held[attribute])
                continue
            if name in defaults:
                columns[name] = defaults[name]
            setattr(self, name, columns.get(name))
        self.obj_reset_changes(self._column_fields())
        table = self.model.__table__
        return [db_writes.Insert(table, [columns], table.name)]

    @classmethod
    def _column_defaults(cls):
        """{column field: its column's default} where that is a value (a
        callable one SQLAlchemy calls itself when the row is made apart)."""
        defaults = cls.__dict__.get('_defaults')
        if defaults is None:
            columns = cls.model.__table__.c
            defaults = {name: columns[name].default.arg
                        for name in cls._column_fields()
                        if columns[name].default is not None
                        and not callable(columns[name].default.arg)}
            cls._defaults = defaults
        return defaults

    # -- compare-and-swap -----------------------------------------------------
    def _expected_unchanged(self):
        """Every loaded, non-dirty column field as it was loaded."""
        dirty = self.obj_what_changed()
        return {name: _to_db_value(getattr(self, name))
                for name in self._column_fields()
                if name != 'id' and self.obj_attr_is_set(name)
                and name not in dirty}

    def _values_to_write(self, values, save_all):
        to_write = {}
        if save_all:
            column_fields = set(self._column_fields())
            to_write.update({name: _to_db_value(getattr(self, name))
                             for name in self.obj_what_changed()
                             if name in column_fields})
        for key, value in values.items():
            name = key if isinstance(key, str) else key.key
            to_write[name] = value if cond.is_sql(value) else \
                _to_db_value(value)
        if 'updated_at' in self.fields and 'updated_at' not in to_write:
            # Written explicitly (not by the column's onupdate) so the object
            # knows it and its next "unchanged" comparison still holds.
            to_write['updated_at'] = timeutils.utcnow()
        return to_write

    def conditional_update(self, values, expected_values=None, filters=(),
                           save_all=False, reflect_changes=True, order=None):
        """Compare-and-swap this object's row; True if it matched.

        The object's id is always a condition. ``expected_values=None`` means
        every field loaded and not dirty must still hold its loaded value.
        ``save_all`` also writes the dirty fields. On success the object
        holds what was written (read back, in the same transaction, where a
        value was an expression or Case) and those fields are clean; on
        failure neither the object nor the row changes.
        """
        if expected_values is None:
            expected_values = self._expected_unchanged()
        expected = {'id': self.id}
        expected.update(expected_values)
        to_write = self._values_to_write(values, save_all)
        return self._swap(
            to_write, reflect_changes,
            lambda ctx: db_api.conditional_update(
                ctx, self.model, to_write, expected, filters, order=order))

    def conditional_update_or_raise(self, values, expected_values=None,
                                    filters=(), save_all=False,
                                    reflect_changes=True, order=None,
                                    project_only=False):
        """conditional_update that, on failure, raises the precise reason:
        db.exceptions.ConditionNotMet naming the condition, the expected and
        the actual value; NotFound; or ConcurrentUpdate after a bounded
        number of tries that each found every condition holding."""
        if expected_values is None:
            expected_values = self._expected_unchanged()
        to_write = self._values_to_write(values, save_all)

        def attempt():
            return self._swap(
                to_write, reflect_changes,
                lambda ctx: db_api.conditional_update(
                    ctx, self.model, to_write,
                    dict(expected_values, id=self.id), filters, order=order,
                    project_only=project_only))

        db_api.update_or_explain(
            self._context, self.model, self.id, to_write, expected_values,
            filters, project_only=project_only, order=order, attempt=attempt)
        return True

    def _swap(self, to_write, reflect_changes, update):
        computed = [k for k, v in to_write.items()
                    if cond.is_sql(v) and k in self.fields]
        matched, row = _swap_transaction(
            self._context, self, update,
            computed if computed and reflect_changes else None)
        if not matched:
            return False
        if reflect_changes:
            for name, value in to_write.items():
                if name not in self.fields:
                    continue
                if name in computed:
                    value = row[name]
                field = self.fields[name]
                if isinstance(field, ovo_fields.DateTimeField) and \
                        value is not None and value.tzinfo is None:
                    value = value.replace(tzinfo=datetime.timezone.utc)
                setattr(self, name, value)
            self.obj_reset_changes(
                [k for k in to_write if k in self.fields])
        return True


@db_api.retry_on_deadlock  # decorated once: decorating costs per call
def _swap_transaction(context, obj, update, computed):
    """``update(context)``, then, if it matched and ``computed`` names
    columns, read those back: one transaction, so what is read is what was
    written. Returns (matched, {column: value})."""
    with session.writer.connection.using(context):
        if not update(context):
            return False, None
        row = (db_api.read_columns(context, obj.model, obj.id, computed)
               if computed else {})
        return True, row
