"""What every model shares: column types, the declarative base, the
timestamp and soft-delete mixins, the key/value and image-property
table shapes."""
import sqlalchemy as sa
from oslo_utils import timeutils
from sqlalchemy import orm
from sqlalchemy.dialects import mysql


UUID = sa.String(36)
# Microseconds everywhere: an object compares the timestamps it loaded, so
# MySQL must not truncate what it stores.
DateTime = sa.DateTime().with_variant(mysql.DATETIME(fsp=6), 'mysql')
NAME = sa.String(255)
# Keys of metadata and extra specs compare byte for byte, as on PostgreSQL
# and SQLite: MariaDB's default collation would make 'Z', 'z' and 'z ' one
# key (migration 0011_binary_keys).
BINARY_COLLATION = 'utf8mb4_nopad_bin'
KEY = sa.String(255).with_variant(
    mysql.VARCHAR(255, collation=BINARY_COLLATION), 'mysql')
# Project ids (and quota class names) too: 'qa' and 'QA' are two projects
# (migration 0019_binary_project_ids).
PROJECT_ID = KEY


def _now():
    # Naive UTC, as every backend stores it.
    return timeutils.utcnow()


class Base(orm.DeclarativeBase):
    cas_name = 'resource'


class TimestampMixin:
    created_at = sa.Column(DateTime, default=_now, nullable=False)
    updated_at = sa.Column(DateTime, onupdate=_now)


class SoftDeleteMixin(TimestampMixin):
    deleted_at = sa.Column(DateTime)
    deleted = sa.Column(sa.Boolean, default=False, nullable=False)


def key_value_pairs(owner_column, owner_table):
    """A mixin for a table of key/value pairs (metadata, extra specs)
    belonging to rows of ``owner_table``: ``owner_column`` holds the owner's
    id; a key appears once per owner; the pairs go with their owner."""
    columns = {
        'id': lambda: sa.Column(sa.Integer, primary_key=True,
                                autoincrement=True),
        owner_column: lambda: sa.Column(
            UUID, sa.ForeignKey('%s.id' % owner_table, ondelete='CASCADE'),
            nullable=False),
        'key': lambda: sa.Column(KEY, nullable=False),
        'value': lambda: sa.Column(NAME),
    }
    attributes = {name: orm.declared_attr(lambda cls, make=make: make())
                  for name, make in columns.items()}
    attributes['__table_args__'] = orm.declared_attr(
        lambda cls: (sa.UniqueConstraint(owner_column, 'key'),))
    return type('KeyValuePairs', (), attributes)


def image_properties(owner_column, owner_table):
    """key_value_pairs whose values are image properties: text up to 64
    KiB (Cinder's), where other metadata values hold 255 characters."""
    mixin = key_value_pairs(owner_column, owner_table)
    mixin.value = orm.declared_attr(lambda cls: sa.Column(sa.Text))
    return mixin
