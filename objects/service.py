"""The Service object: a running volapi process (a volume worker) in the
``services`` table, alive as long as its heartbeat is recent."""
import sqlalchemy as sa
from oslo_db import exception as db_exc
from oslo_utils import timeutils

from db import api as db_api
from db import models
from db import session
from objects import base
from objects import fields

# The binary of a volume worker's services row.
VOLUME_BINARY = 'volapi-volume'
# Cinder's name of it, which Cinder's clients send by default.
CINDER_VOLUME_BINARY = 'cinder-volume'


def binary_named(name):
    """The binary a request names: Cinder's volume binary is ours."""
    return VOLUME_BINARY if name == CINDER_VOLUME_BINARY else name


@base.register
class Service(base.VolapiPersistentObject, base.VolapiObjectDictCompat):
    # Version 1.0: initial version
    # Version 1.1: cluster_name
    # Version 1.2: disabled_reason
    # Version 1.3: frozen
    VERSION = '1.3'

    model = models.Service

    fields = dict({
        'id': fields.IntegerField(),
        'host': fields.StringField(),
        'binary': fields.StringField(),
        'topic': fields.StringField(nullable=True),
        'cluster_name': fields.StringField(nullable=True),
        'report_count': fields.IntegerField(),
        'disabled': fields.BooleanField(),
        'disabled_reason': fields.StringField(nullable=True),
        'frozen': fields.BooleanField(),
        'heartbeat_at': fields.DateTimeField(nullable=True),
    }, **base.SOFT_DELETE_FIELDS)

    @classmethod
    def get_by_host_and_binary(cls, context, host, binary):
        """The live (not deleted) row of ``host``/``binary``, or None."""
        found = cls.get_all(context, host=host, binary=binary)
        return found[0] if found else None

    @classmethod
    def get_all(cls, context, service_id=None, host=None, binary=None,
                disabled=None, cluster_name=None):
        """Live services matching every filter given, oldest first."""
        table = cls.model.__table__
        query = sa.select(table).where(table.c.deleted == sa.false())
        for column, value in (('id', service_id), ('host', host),
                              ('binary', binary), ('disabled', disabled),
                              ('cluster_name', cluster_name)):
            if value is not None:
                query = query.where(table.c[column] == value)
        with session.reader.connection.using(context) as conn:
            rows = conn.execute(query.order_by(table.c.id)).mappings().all()
        return [cls._from_row(context, row) for row in rows]

    @classmethod
    @db_api.retry_on_deadlock
    def register(cls, context, host, binary, topic=None, cluster_name=None):
        """This process's row: the row of host/binary (a restarted service
        keeps its id, so it can recognise the work it held in its previous
        life; one an operator deleted is taken back), or a new one.

        The row is unique per host and binary, so two processes starting at
        once with the same host and binary share one row; each heartbeat's
        compare-and-swap then tells them apart (see :meth:`heartbeat`).
        """
        try:
            with session.writer.connection.using(context) as conn:
                result = conn.execute(sa.insert(cls.model.__table__).values(
                    host=host, binary=binary, topic=topic,
                    cluster_name=cluster_name, report_count=0,
                    disabled=False, deleted=False,
                    created_at=timeutils.utcnow()))
            return cls.get_by_id(context, result.inserted_primary_key[0])
        except db_exc.DBDuplicateEntry:
            pass
        # The row exists: take it as this process's, live and in the
        # cluster this process is configured for.
        db_api.conditional_update(
            context, cls.model,
            {'deleted': False, 'deleted_at': None, 'topic': topic,
             'cluster_name': cluster_name},
            {'host': host, 'binary': binary}, include_deleted='yes')
        return cls.get_by_host_and_binary(context, host, binary)

    def heartbeat(self, now=None):
        """Report in: one compare-and-swap bumping report_count and
        heartbeat_at. It expects the report_count this object last wrote, so
        False means another process wrote it meanwhile (two processes share
        one host/binary) or the row was deleted."""
        return self.conditional_update(
            {'report_count': self.model.report_count + 1,
             'heartbeat_at': now or timeutils.utcnow()},
            expected_values={'report_count': self.report_count,
                             'deleted': False})

    @classmethod
    def set_disabled(cls, context, host, binary, disabled, reason=None):
        """Disable (with ``reason``) or enable the live service
        ``host``/``binary``: one compare-and-swap on its row, which a
        heartbeat does not touch. False if there is no such service."""
        return db_api.conditional_update(
            context, cls.model,
            {'disabled': disabled, 'disabled_reason': reason},
            {'host': host, 'binary': binary, 'deleted': False})

    @classmethod
    def set_frozen(cls, context, service_ids, frozen):
        """Freeze (or thaw) the live services ``service_ids``: one
        compare-and-swap on their rows, changing those not already so.
        False if none changed."""
        return db_api.conditional_update(
            context, cls.model, {'frozen': frozen},
            {'id': tuple(service_ids), 'frozen': not frozen,
             'deleted': False})

    @classmethod
    def remove(cls, context, host, binary, down_before):
        """Soft-delete the row of host/binary if its service is down (its
        last heartbeat before ``down_before``, a naive UTC datetime): one
        compare-and-swap, so a service that reports in meanwhile keeps its
        row. False if there is no such row, or its service is up. Peers
        then take over what it held (a deleted service counts as down)."""
        now = timeutils.utcnow()
        return db_api.conditional_update(
            context, cls.model, {'deleted': True, 'deleted_at': now},
            {'host': host, 'binary': binary, 'deleted': False},
            filters=(sa.func.coalesce(cls.model.heartbeat_at,
                                      cls.model.created_at) < down_before,))

    def last_seen(self):
        return self.heartbeat_at or self.created_at

    def serves(self, down_time):
        """True if it takes new work: up (see :meth:`is_up`), neither
        disabled nor frozen by an operator."""
        return self.is_up(down_time) and not (self.disabled or self.frozen)

    def is_up(self, down_time):
        """True if the last heartbeat is at most ``down_time`` seconds old."""
        seen = self.last_seen()
        age = timeutils.utcnow(with_timezone=True) - seen if seen else None
        return age is not None and age.total_seconds() <= down_time


def down_criterion(down_before):
    """SQL: the service (row of ``services``) is down or deleted, i.e. its
    last heartbeat (its creation if it never beat) is before ``down_before``,
    a naive UTC datetime."""
    services = models.Service.__table__
    return sa.or_(
        services.c.deleted == sa.true(),
        sa.func.coalesce(services.c.heartbeat_at,
                         services.c.created_at) < down_before)
