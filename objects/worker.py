"""The Worker object: one operation in flight, a row of ``workers``.

The API inserts the row (``service_id`` NULL) in the transaction that moves a
resource into a transient status (``creating``, ``extending`` ...). A volume
worker takes it with :meth:`Worker.take` before touching storage; the
transition that ends the operation deletes it. A row whose holder died (or
that nobody claimed) is taken over by the cleanup with
:meth:`Worker.claim_for_cleanup`. Every take-over is a compare-and-swap, so
of two claimants exactly one wins.
"""
import sqlalchemy as sa
from oslo_serialization import jsonutils
from oslo_utils import timeutils

from db import api as db_api
from db import conditions as cond
from db import models
from db import session
from db import writes
from objects import base
from objects import fields
from objects import service as service_obj


# The ``workers`` row's resource_type for each resource (Cinder's names).
RESOURCE_TYPES = {'volume': 'Volume', 'snapshot': 'Snapshot',
                  'attachment': 'VolumeAttachment', 'backup': 'Backup'}


def in_flight_with(resource, name, value):
    """SQL: an operation on a ``resource`` ('volume', 'snapshot') is in
    flight whose argument ``name`` is the string ``value`` (its row's
    arguments as :meth:`Worker.track` writes them)."""
    table = models.Worker.__table__
    return sa.exists().where(
        table.c.resource_type == RESOURCE_TYPES[resource],
        table.c.arguments.contains(jsonutils.dumps({name: value})[1:-1],
                                   autoescape=True))


def _row(resource, resource_id, status, arguments):
    """(key, values, values on insert) of a tracked operation's row."""
    now = timeutils.utcnow()
    key = {'resource_type': RESOURCE_TYPES[resource],
           'resource_id': resource_id}
    values = {'status': status, 'service_id': None, 'cleaning': False,
              'arguments': (jsonutils.dumps(arguments) if arguments
                            else None),
              'updated_at': now}
    return key, values, {'race_preventer': 0, 'created_at': now}


@base.register
class Worker(base.VolapiPersistentObject, base.VolapiObjectDictCompat):
    # Version 1.0: initial version
    # Version 1.1: arguments
    VERSION = '1.1'

    model = models.Worker

    fields = dict({
        'id': fields.IntegerField(),
        'resource_type': fields.StringField(),
        'resource_id': fields.UUIDField(),
        'status': fields.StringField(),
        'service_id': fields.IntegerField(nullable=True),
        'cleaning': fields.BooleanField(),
        'race_preventer': fields.IntegerField(),
        'arguments': fields.StringField(nullable=True),
    }, **base.TIMESTAMP_FIELDS)

    @classmethod
    def track(cls, context, resource, resource_id, status, arguments=None):
        """Inside the transaction that moves ``resource`` ('volume',
        'snapshot') into the transient ``status``: upsert its row, unclaimed
        (a worker claims it), not being cleaned, with the operation's
        ``arguments`` (a dict, kept so the operation can be re-driven). The
        caller's compare-and-swap holds the resource's row, so no one else
        upserts this one concurrently. A resource the transaction inserts
        has no row yet: see :meth:`new_row`."""
        key, values, on_insert = _row(resource, resource_id, status,
                                      arguments)
        with session.writer.connection.using(context) as conn:
            writes.upsert(conn, cls.model.__table__, key, values,
                          on_insert=on_insert, increment=('race_preventer',))

    @classmethod
    def new_row(cls, resource, resource_id, status, arguments=None):
        """:meth:`track` of a resource the transaction inserts, which has
        no row yet: its insert, as a db.writes.Insert for the caller to
        make (a row left with the same key makes it fail, rather than be
        silently reused)."""
        key, values, on_insert = _row(resource, resource_id, status,
                                      arguments)
        return writes.Insert(cls.model.__table__,
                             [dict(key, **values, **on_insert)], 'worker')

    @classmethod
    def finish(cls, context, resource, resource_id):
        """Inside the transaction that moves ``resource`` out of a transient
        status: delete its row."""
        with session.writer.connection.using(context) as conn:
            conn.execute(_FINISH, {
                'resource_type': RESOURCE_TYPES[resource],
                'resource_id': resource_id})

    @classmethod
    def get_by_resource(cls, context, resource_type, resource_id):
        table = cls.model.__table__
        with session.reader.connection.using(context) as conn:
            row = conn.execute(sa.select(table).where(
                table.c.resource_type == resource_type,
                table.c.resource_id == resource_id)).mappings().first()
        return cls._from_row(context, row) if row is not None else None

    @classmethod
    def _take(cls, context, resource_type, resource_id, status, service_id):
        return db_api.conditional_update(
            context, cls.model,
            {'service_id': service_id, 'updated_at': timeutils.utcnow()},
            {'resource_type': resource_type, 'resource_id': resource_id,
             'status': status, 'service_id': None, 'cleaning': False})

    @classmethod
    @db_api.retry_on_deadlock
    def take(cls, context, resource_type, resource_id, status, service_id):
        """Take the operation on a resource for ``service_id``: one CAS
        ``service_id NULL -> service_id`` on the row in ``status`` that no
        cleanup is repairing. True if taken; False if there is no such row
        or someone (another worker, the cleanup) holds it already."""
        with session.writer.connection.using(context):
            return cls._take(context, resource_type, resource_id, status,
                             service_id)

    @classmethod
    def still_held(cls, context, resource_type, resource_id, service_id):
        """Inside the transaction that ends an operation: True if
        ``service_id`` still holds it (nobody took it over meanwhile). A
        compare-and-swap (it touches updated_at), so it also locks the row
        until that transaction ends."""
        return db_api.conditional_update(
            context, cls.model, {'updated_at': timeutils.utcnow()},
            {'resource_type': resource_type, 'resource_id': resource_id,
             'service_id': service_id, 'cleaning': False})

    @classmethod
    def finish_held(cls, context, resource_type, resource_id, service_id):
        """Inside the transaction that ends an operation: delete its row
        if ``service_id`` still holds it (nobody took it over meanwhile);
        True if it did. :meth:`still_held` and :meth:`finish` in one
        statement, which also keeps others off the row until that
        transaction ends."""
        params = {'resource_type': resource_type, 'resource_id': resource_id}
        if service_id is None:
            statement = _FINISH_UNHELD
        else:
            statement = _FINISH_HELD
            params['service_id'] = service_id
        with session.writer.connection.using(context) as conn:
            return conn.execute(statement, params).rowcount > 0

    def still_claimed(self, context):
        """Inside the transaction that repairs this row's resource: True if
        the row is still the one :meth:`claim_for_cleanup` took (same id,
        holder and race_preventer, still ``cleaning``), so a reset and a new
        operation since then are left alone. A compare-and-swap, so it also
        locks the row until that transaction ends."""
        return db_api.conditional_update(
            context, self.model, {'updated_at': timeutils.utcnow()},
            {'id': self.id, 'service_id': self.service_id,
             'race_preventer': self.race_preventer, 'cleaning': True})

    def claim_for_cleanup(self, stale, service_id=None):
        """Take over this row to repair its resource: one CAS that expects
        the holder and race_preventer this object loaded and ``stale`` (see
        :func:`stale_criterion`) still to be true, so a holder that came
        back to life, or another cleaner that got there first, makes it
        fail. It marks the row ``cleaning`` (no worker claims it then) and,
        for a cleaner that is a service, holds it with ``service_id``; a
        cleaner without a service row (an API process) leaves the holder
        as it is, so if it dies the row is still stale and is cleaned again.
        """
        values = {'cleaning': True,
                  'race_preventer': self.model.race_preventer + 1}
        if service_id is not None:
            values['service_id'] = service_id
        return self.conditional_update(
            values,
            expected_values={'status': self.status,
                             'service_id': self.service_id,
                             'race_preventer': self.race_preventer},
            filters=[cond.Filter(stale, 'must be work nobody alive holds')])

    def take_over(self, stale, service_id):
        """Take over this row to do its operation again (a re-drive): one
        CAS that expects the holder and race_preventer this object loaded
        and ``stale`` still to be true, and makes ``service_id`` the holder
        of an ordinary claim (not ``cleaning``), so that the ending
        transition proves it with :meth:`still_held` as any worker does.
        A late message or a holder that comes back loses to it."""
        return self.conditional_update(
            {'service_id': service_id, 'cleaning': False,
             'race_preventer': self.model.race_preventer + 1,
             'updated_at': timeutils.utcnow()},
            expected_values={'status': self.status,
                             'service_id': self.service_id,
                             'race_preventer': self.race_preventer},
            filters=[cond.Filter(stale, 'must be work nobody alive holds')])

    def argument_values(self):
        """The operation's arguments (an extend's new_size ...), a dict."""
        return jsonutils.loads(self.arguments) if self.arguments else {}

    @db_api.retry_on_deadlock
    def _delete(self, context):
        table = self.model.__table__
        with session.writer.connection.using(context) as conn:
            return conn.execute(sa.delete(table).where(
                table.c.id == self.id,
                table.c.service_id == self.service_id,
                table.c.race_preventer == self.race_preventer)).rowcount > 0

    def delete_if_held(self):
        """Delete the row if it is still as this object holds it (same
        holder, same race_preventer); False if it is gone or taken."""
        return self._delete(self._context)

    @classmethod
    def get_stale(cls, context, stale, resource_type=None, resource_id=None,
                  service_ids=None):
        """Rows matching the SQL criterion ``stale`` and the filters
        (``service_ids`` may hold None: the unclaimed rows)."""
        workers = cls.model.__table__
        query = sa.select(workers).where(stale)
        if resource_type is not None:
            query = query.where(workers.c.resource_type == resource_type)
        if resource_id is not None:
            query = query.where(workers.c.resource_id == resource_id)
        if service_ids is not None:
            # None in service_ids stands for the unclaimed rows.
            query = query.where(
                cond.Expect('service_id', service_ids).clause(cls.model))
        with session.reader.connection.using(context) as conn:
            rows = conn.execute(query.order_by(workers.c.id)).mappings().all()
        return [cls._from_row(context, row) for row in rows]


_WORKERS = models.Worker.__table__
_FINISH = _WORKERS.delete().where(
    _WORKERS.c.resource_type == sa.bindparam('resource_type'),
    _WORKERS.c.resource_id == sa.bindparam('resource_id'))
_FINISH_HELD = _FINISH.where(
    _WORKERS.c.service_id == sa.bindparam('service_id'),
    _WORKERS.c.cleaning == sa.false())
# A holder with no services row (service_id NULL), as still_held allows.
_FINISH_UNHELD = _FINISH.where(_WORKERS.c.service_id.is_(None),
                               _WORKERS.c.cleaning == sa.false())


def stale_criterion(down_before, unclaimed_before=None, own_service_id=None,
                    own_idle=None):
    """SQL: a ``workers`` row nobody alive is working on.

    - held by a service that is down (``down_before``: see
      objects.service.down_criterion);
    - or unclaimed since before ``unclaimed_before`` (its message was lost);
    - but in both cases not being repaired by a cleaner right now (marked
      ``cleaning`` since after ``down_before``);
    - or held by ``own_service_id``: a service starting up holds nothing yet,
      so rows with its id are from its previous life;
    - or, ``own_idle`` being (service_id, busy_resource_ids,
      claimed_before): held by that live service since before
      ``claimed_before`` for a resource it is not working on (it lost track
      of the operation, e.g. the transition ending it failed).

    Written with a correlated subquery on ``services`` so that it serves both
    the SELECT of candidates and the WHERE of the claim.
    """
    workers = models.Worker.__table__
    services = models.Service.__table__
    last_change = sa.func.coalesce(workers.c.updated_at, workers.c.created_at)
    holder_down = sa.exists(
        sa.select(services.c.id).where(
            services.c.id == workers.c.service_id,
            service_obj.down_criterion(down_before)).correlate(workers))
    abandoned = [holder_down]
    if unclaimed_before is not None:
        abandoned.append(sa.and_(workers.c.service_id.is_(None),
                                 last_change < unclaimed_before))
    not_being_cleaned = sa.or_(workers.c.cleaning == sa.false(),
                               last_change < down_before)
    stale = sa.and_(sa.or_(*abandoned), not_being_cleaned)
    if own_service_id is not None:
        stale = sa.or_(stale, workers.c.service_id == own_service_id)
    if own_idle is not None:
        service_id, busy, claimed_before = own_idle
        idle = sa.and_(workers.c.service_id == service_id,
                       last_change < claimed_before)
        if busy:
            idle = sa.and_(idle, workers.c.resource_id.not_in(list(busy)))
        stale = sa.or_(stale, idle)
    return stale
