"""Consumers: who holds allocations, with a generation that guards them.

A consumer row carries project, user, type and a generation. A write of a
consumer's allocations reads the consumer's generation (None: no record)
in its transaction's snapshot, together with its current allocations, and
then claims the consumer with :func:`claim`: a compare-and-swap from that
generation to the next (``generation = generation + 1 WHERE uuid = :uuid
AND generation = :seen``), or the insert of a new record, whose unique
uuid is the compare-and-swap (the writer makes it with its allocations,
and a duplicate uuid sends it round again). Whatever changed the consumer
after the snapshot makes the claim fail, and the whole transaction runs
again from a fresh one; so the allocations it replaces are exactly those
it read, on every backend. Records are created in the same transaction as
their allocations, so any failure rolls a new one back with them.

Projects, users and consumer types are reference rows named by an external
identifier, created on first use in the transaction that needs them.
"""
import sqlalchemy as sa
from oslo_db import exception as db_exc
from oslo_utils import timeutils

from db import api as db_api
from db import conditions as cond
from db import models
from db import session
from objects.placement import exception

CONSUMERS = models.Consumer.__table__
ALLOCATIONS = models.Allocation.__table__
PROJECTS = models.Project.__table__
USERS = models.User.__table__
CONSUMER_TYPES = models.ConsumerType.__table__

# Before microversion 1.28 a write does not name the generation it expects.
UNCHECKED = object()


class ConsumerGenerationConflict(exception.ConcurrentUpdateDetected):
    """The client's consumer_generation is not the consumer's."""

    def __init__(self, uuid, actual, given):
        self.uuid, self.actual, self.given = uuid, actual, given
        # Placement's wording, None and all: clients match on it.
        super().__init__(
            'consumer generation conflict - expected %s but got %s' % (
                'null' if actual is None else actual, given))


# -- reference rows: project, user, consumer type -----------------------------

def ensure_named(context, table, column, value):
    """Within the caller's writer transaction: the id of the row of
    ``table`` (projects, users, consumer_types) whose ``column`` is
    ``value``, inserted if there is none. If another request inserts the
    same name first, the whole transaction runs again (RetryRequest) and
    finds it."""
    with session.writer.connection.using(context) as conn:
        found = conn.execute(sa.select(table.c.id).where(
            table.c[column] == value)).scalar()
        if found is not None:
            return found
        try:
            return conn.execute(table.insert().values(
                {column: value})).inserted_primary_key[0]
        except db_exc.DBDuplicateEntry as exc:
            raise db_exc.RetryRequest(exc)


def ensure_project(context, external_id):
    return ensure_named(context, PROJECTS, 'external_id', external_id)


def ensure_user(context, external_id):
    return ensure_named(context, USERS, 'external_id', external_id)


def ensure_consumer_type(context, name):
    return ensure_named(context, CONSUMER_TYPES, 'name', name)


def incomplete_owner(context):
    """(project, user) external ids recorded for consumers whose writer did
    not name them (microversions before 1.8, allocations older than consumer
    records): ``[placement] incomplete_consumer_project_id`` and
    ``incomplete_consumer_user_id``."""
    conf = context.config.placement
    return (conf.incomplete_consumer_project_id,
            conf.incomplete_consumer_user_id)


# -- claiming a consumer for a write ------------------------------------------

def claim(context, uuid, given, seen, owner=None,
          consumer_type_id=UNCHECKED, new_owner=None):
    """Take consumer ``uuid`` for a change of its allocations, inside the
    caller's transaction, whose snapshot saw its generation as ``seen``
    (None: no record).

    ``given`` is what the client expects: an int (the generation), None
    (no record) or UNCHECKED (before 1.28: anything). ``owner``, (project
    id, user id) as internal ids, replaces the consumer's when given;
    ``new_owner`` is used for a record created without one;
    ``consumer_type_id`` replaces the type unless UNCHECKED.

    Returns the row to insert for a consumer that has no record (the
    caller inserts it with the allocations: a DBDuplicateEntry then means
    that another writer created it since the snapshot), else None.

    Raises ConsumerGenerationConflict if ``given`` is not ``seen``, and
    oslo.db's RetryRequest if the consumer changed since the snapshot (the
    whole transaction then runs again and sees it as it is).
    """
    if given is not UNCHECKED and given != seen:
        raise ConsumerGenerationConflict(uuid, seen, given)
    values = {}
    if owner is not None:
        values['project_id'], values['user_id'] = owner
    if consumer_type_id is not UNCHECKED:
        values['consumer_type_id'] = consumer_type_id
    if seen is None:
        return _new_record(uuid, values, new_owner)
    if not db_api.conditional_update(
            context, models.Consumer,
            dict(values, generation=_NEXT_GENERATION),
            {'uuid': uuid, 'generation': seen}):
        raise db_exc.RetryRequest(exception.ConcurrentUpdateDetected())
    return None


# Keyed for db.statements' cache: a claim of a known consumer hits it.
_NEXT_GENERATION = cond.Sql(('next_consumer_generation',),
                            lambda: models.Consumer.generation + 1)


def _new_record(uuid, values, new_owner):
    # Every column named, in one order: one statement serves every insert.
    project, user = values.get('project_id'), values.get('user_id')
    if project is None:
        project, user = new_owner
    return {'uuid': uuid, 'project_id': project, 'user_id': user,
            'generation': 1,
            'consumer_type_id': values.get('consumer_type_id'),
            'created_at': timeutils.utcnow()}


def holdings(context, uuids, class_id):
    """{uuid: (generation, amount of class ``class_id`` held)} of those of
    ``uuids`` that hold allocations (generation None: no record), read in
    the caller's transaction by one statement, so that each generation is
    the one guarding the allocations summed with it."""
    if not uuids:
        return {}
    amount = sa.func.sum(sa.case(
        (ALLOCATIONS.c.resource_class_id == class_id, ALLOCATIONS.c.used),
        else_=0))
    with session.writer.connection.using(context) as conn:
        rows = conn.execute(
            sa.select(ALLOCATIONS.c.consumer_id, CONSUMERS.c.generation,
                      amount.label('amount'))
            .select_from(ALLOCATIONS.outerjoin(
                CONSUMERS, CONSUMERS.c.uuid == ALLOCATIONS.c.consumer_id))
            .where(ALLOCATIONS.c.consumer_id.in_(sorted(uuids)))
            .group_by(ALLOCATIONS.c.consumer_id, CONSUMERS.c.generation)
        ).all()
    # MySQL sums to a Decimal.
    return {row.consumer_id: (row.generation, int(row.amount))
            for row in rows}


def give_to(context, generations, project, user):
    """In the caller's transaction, consumers ``generations`` ({uuid: the
    generation the transaction read, None for no record}) now belong to
    ``project`` and ``user`` (external ids). Each is taken by
    :func:`claim`'s compare-and-swap, the one every allocation write makes:
    a consumer written since the read sends the whole transaction round
    again, and a client holding the old generation gets its 409. A
    consumer without a record gets one."""
    if not generations:
        return
    owner = (ensure_project(context, project), ensure_user(context, user))
    new = [record for record in (
        claim(context, uuid, UNCHECKED, generations[uuid], owner=owner)
        for uuid in sorted(generations)) if record is not None]
    if not new:
        return
    try:
        with session.writer.connection.using(context) as conn:
            conn.execute(CONSUMERS.insert(), new)
    except db_exc.DBDuplicateEntry as exc:
        raise db_exc.RetryRequest(exc)


def delete_unused(context, uuids):
    """Remove, in the caller's transaction, the records of those consumers
    among ``uuids`` that hold no allocation."""
    if not uuids:
        return
    with session.writer.connection.using(context) as conn:
        conn.execute(CONSUMERS.delete().where(
            CONSUMERS.c.uuid.in_(sorted(uuids)),
            ~sa.exists().where(ALLOCATIONS.c.consumer_id ==
                               CONSUMERS.c.uuid)))


# -- online data migration ----------------------------------------------------

@db_api.retry_on_deadlock
def create_incomplete_consumers(context, batch_size):
    """Create the consumer records missing for allocations written before
    consumers existed, owned by the incomplete project and user: at most
    ``batch_size`` of them, in one transaction. Returns (found, done), as
    online data migrations do: how many this batch found missing, and how
    many it created."""
    without_record = ~sa.exists().where(
        CONSUMERS.c.uuid == ALLOCATIONS.c.consumer_id)
    with session.writer.connection.using(context) as conn:
        batch = conn.execute(
            sa.select(ALLOCATIONS.c.consumer_id).where(without_record)
            .group_by(ALLOCATIONS.c.consumer_id)
            .order_by(ALLOCATIONS.c.consumer_id).limit(batch_size)
        ).scalars().all()
        if not batch:
            return 0, 0
        project, user = incomplete_owner(context)
        owner = (sa.literal(ensure_project(context, project)),
                 sa.literal(ensure_user(context, user)))
        # Only what is still missing: a writer may have created one since
        # (one our snapshot cannot see trips the unique key, and the batch
        # runs again).
        try:
            done = conn.execute(CONSUMERS.insert().from_select(
                ['uuid', 'project_id', 'user_id', 'generation',
                 'created_at'],
                sa.select(ALLOCATIONS.c.consumer_id, *owner, sa.literal(1),
                          sa.literal(timeutils.utcnow(), models.DateTime))
                .where(ALLOCATIONS.c.consumer_id.in_(batch), without_record)
                .group_by(ALLOCATIONS.c.consumer_id))
                # psycopg 3 forgets an INSERT's rowcount once SQLAlchemy
                # has closed its cursor; UPDATE and DELETE keep theirs.
                .execution_options(preserve_rowcount=True)).rowcount
        except db_exc.DBDuplicateEntry as exc:
            raise db_exc.RetryRequest(exc)
    return len(batch), done


def count_incomplete_consumers(context):
    """How many consumers have allocations but no record (what
    create_incomplete_consumers has still to do)."""
    with session.reader.connection.using(context) as conn:
        return conn.execute(
            sa.select(sa.func.count(sa.distinct(ALLOCATIONS.c.consumer_id)))
            .where(~sa.exists().where(
                CONSUMERS.c.uuid == ALLOCATIONS.c.consumer_id))).scalar()
