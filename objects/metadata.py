"""Key/value rows owned by another row: a volume's metadata and admin
metadata, a snapshot's metadata, a volume type's extra specs. The tables
have one shape (owner id, key, value; one row per owner and key), so one
class reads and writes them all.

Writes run inside the caller's transaction, after the compare-and-swap
that holds the owner row: that swap serialises writers of one owner's
rows, so an "update, else insert" cannot race with another.
"""
import sqlalchemy as sa

from db import models
from db import session
from db import writes


class KeyValueRows:
    """The rows of ``model`` owned through its column ``owner``."""

    def __init__(self, model, owner):
        self.table = model.__table__
        self.owner = self.table.c[owner]
        self._of = sa.select(self.owner, self.table.c.key,
                             self.table.c.value).where(
            self.owner.in_(sa.bindparam('owners', expanding=True)))

    def of(self, context, owner_ids):
        """{owner id: {key: value}} for every id given (one query)."""
        found = {ident: {} for ident in owner_ids}
        if not found:
            return found
        with session.reader.connection.using(context) as conn:
            for owner_id, key, value in conn.execute(
                    self._of, {'owners': list(found)}):
                found[owner_id][key] = value
        return found

    def get(self, context, owner_id):
        return self.of(context, [owner_id])[owner_id]

    def insert(self, context, owner_id, items):
        """Rows for a new owner (inserted in the same transaction)."""
        if items:
            with session.writer.connection.using(context) as conn:
                self.insert_write(owner_id, items).make(conn)

    def insert_write(self, owner_id, items):
        """The insert of ``items`` (not empty), the rows of a new owner,
        as a db.writes.Insert."""
        return writes.Insert(self.table, [
            {self.owner.key: owner_id, 'key': key, 'value': value}
            for key, value in items.items()], self.table.name)

    def update(self, context, owner_id, items):
        """Set each key of ``items``; other keys stay."""
        with session.writer.connection.using(context) as conn:
            for key, value in items.items():
                writes.upsert(conn, self.table,
                              {self.owner.key: owner_id, 'key': key},
                              {'value': value})

    def replace(self, context, owner_id, items):
        """Make ``items`` the owner's whole set of rows."""
        with session.writer.connection.using(context) as conn:
            conn.execute(self.table.delete().where(
                self.owner == owner_id, self.table.c.key.not_in(list(items))))
        self.update(context, owner_id, items)

    def delete(self, context, owner_id, key):
        """False if the owner had no such key."""
        return self.delete_keys(context, owner_id, [key]) > 0

    def delete_keys(self, context, owner_id, keys):
        """Remove the owner's rows of ``keys``; how many there were."""
        with session.writer.connection.using(context) as conn:
            return conn.execute(self.table.delete().where(
                self.owner == owner_id,
                self.table.c.key.in_(list(keys)))).rowcount

    def clear_values(self, context, owner_id, keys):
        """Set to NULL the values of those of ``keys`` the owner has (a
        key it has not stays absent)."""
        if keys:
            with session.writer.connection.using(context) as conn:
                conn.execute(self.table.update().where(
                    self.owner == owner_id,
                    self.table.c.key.in_(list(keys))).values(value=None))

    def has_all(self, owner_id, keys):
        """SQL: the owner has a row of every one of ``keys`` (distinct)."""
        return sa.select(sa.func.count()).where(
            self.owner == owner_id,
            self.table.c.key.in_(list(keys))).scalar_subquery() == len(keys)

    def copy(self, context, owner_id, source, source_id):
        """Rows for a new owner: a copy of those ``source`` (KeyValueRows)
        keeps for ``source_id``, in one statement of the caller's
        transaction."""
        with session.writer.connection.using(context) as conn:
            conn.execute(self.table.insert().from_select(
                [self.owner.key, 'key', 'value'],
                sa.select(sa.literal(owner_id, type_=self.owner.type),
                          source.table.c.key, source.table.c.value).where(
                    source.owner == source_id)))


VOLUME = KeyValueRows(models.VolumeMetadata, 'volume_id')
VOLUME_ADMIN = KeyValueRows(models.VolumeAdminMetadata, 'volume_id')
VOLUME_IMAGE = KeyValueRows(models.VolumeGlanceMetadata, 'volume_id')
SNAPSHOT = KeyValueRows(models.SnapshotMetadata, 'snapshot_id')
SNAPSHOT_IMAGE = KeyValueRows(models.SnapshotGlanceMetadata, 'snapshot_id')
BACKUP = KeyValueRows(models.BackupMetadata, 'backup_id')
TYPE_EXTRA_SPECS = KeyValueRows(models.VolumeTypeExtraSpec, 'volume_type_id')
QOS_SPECS = KeyValueRows(models.QosSpecsItem, 'qos_specs_id')
GROUP_TYPE_SPECS = KeyValueRows(models.GroupTypeSpec, 'group_type_id')
