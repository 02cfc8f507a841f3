"""Resource providers and their trees.

Every provider row carries ``root_provider_id`` (itself, for a root) and
``parent_provider_id``. Changes of a tree's shape (a child created, a
provider re-parented) first hold the root row of every tree involved with a
compare-and-swap that writes the same values ("touch"): changes to one tree
are thereby serialized by the database, and a descendant list read after
the touch cannot miss a child created meanwhile.

A provider's ``generation`` is the version of what hangs off it
(inventories, traits, aggregates, allocations): every such change
compare-and-swaps it from the generation the writer saw to the next one.
Renaming or moving a provider does not change it, as in Placement.

A provider's ``revision`` is the version of what allocation candidates
show of it: its parent and root, its inventories and what is allocated
from them, the names of their classes, its traits. Every write that
changes one of these advances it (NEXT_REVISION, revisions_advanced) in
the same transaction, including those that leave the generation alone (a
move, a provider that only loses allocations), so that a process may
keep what it read of a provider while the revision stays
(objects.placement.provider_cache). A new provider's starts at random: a
provider that takes the id of a deleted one (SQLite reuses the highest)
is then not mistaken for it.
"""
import random

import sqlalchemy as sa
from oslo_db import exception as db_exc
from oslo_utils import timeutils

from db import api as db_api
from db import conditions as cond
from db import exceptions as db_exceptions
from db import models
from db import session
from objects.placement import exception

RP = models.ResourceProvider
PROVIDERS = RP.__table__
ROOTS = PROVIDERS.alias('root')
PARENTS = PROVIDERS.alias('parent')
INVENTORIES = models.Inventory.__table__
ALLOCATIONS = models.Allocation.__table__
RP_TRAITS = models.ResourceProviderTrait.__table__
RP_AGGREGATES = models.ResourceProviderAggregate.__table__

# The value that advances a provider's revision, keyed for db.statements'
# cache.
NEXT_REVISION = cond.Sql(('next_revision',), lambda: RP.revision + 1)


def revisions_advanced(criterion):
    """The UPDATE that advances the revision of the providers matching
    ``criterion``, for a write that changes what candidates show of them
    without swapping their rows."""
    return PROVIDERS.update().where(criterion).values(revision=NEXT_REVISION)


# How often an operation that lost a race re-reads and tries again before
# answering 409.
ATTEMPTS = 10

_SELECT = sa.select(
    PROVIDERS.c.id, PROVIDERS.c.uuid, PROVIDERS.c.name,
    PROVIDERS.c.generation, PROVIDERS.c.root_provider_id,
    PROVIDERS.c.parent_provider_id,
    ROOTS.c.uuid.label('root_provider_uuid'),
    PARENTS.c.uuid.label('parent_provider_uuid'),
    PROVIDERS.c.created_at, PROVIDERS.c.updated_at,
).select_from(
    PROVIDERS.outerjoin(ROOTS, PROVIDERS.c.root_provider_id == ROOTS.c.id)
    .outerjoin(PARENTS, PROVIDERS.c.parent_provider_id == PARENTS.c.id))


class ResourceProvider:
    """One provider as read: column values plus its root's and parent's
    uuids."""

    __slots__ = ('id', 'uuid', 'name', 'generation', 'root_provider_id',
                 'parent_provider_id', 'root_provider_uuid',
                 'parent_provider_uuid', 'created_at', 'updated_at')

    def __init__(self, **values):
        for name in self.__slots__:
            setattr(self, name, values.get(name))

    @classmethod
    def from_row(cls, row):
        return cls(**dict(row))

    def __repr__(self):
        return 'ResourceProvider(%s, %r, generation=%s)' % (
            self.uuid, self.name, self.generation)


class _TreeChanged(Exception):
    """A provider tree changed under an operation: read again, retry."""


class Requirement(cond.Filter):
    """A compare-and-swap condition whose failure is reported to the client
    as ``error``: an exception, or a function making one (called only on
    failure, when the message needs a query)."""

    def __init__(self, criterion, requirement, error):
        super().__init__(criterion, requirement)
        self.error = error

    def exception(self):
        if isinstance(self.error, BaseException):
            return self.error
        return self.error()


# -- reading ---------------------------------------------------------------------

def get_by_uuid(context, uuid):
    with session.reader.connection.using(context) as conn:
        row = conn.execute(_SELECT.where(
            PROVIDERS.c.uuid == uuid)).mappings().first()
    if row is None:
        raise exception.ResourceProviderNotFound(uuid=uuid)
    return ResourceProvider.from_row(row)


def _tree_rows(context, root_id):
    """(id, parent id) of every provider of a tree, by a locking read: on
    MySQL/MariaDB a plain read would see the transaction's snapshot, which
    may predate a child committed before we took the tree's root."""
    with session.writer.connection.using(context) as conn:
        return conn.execute(sa.select(
            PROVIDERS.c.id, PROVIDERS.c.parent_provider_id).where(
                PROVIDERS.c.root_provider_id == root_id)
            .with_for_update(read=True)).all()


def _subtree_ids(context, provider):
    """Ids of ``provider`` and every provider below it."""
    children = {}
    for ident, parent_id in _tree_rows(context, provider.root_provider_id):
        children.setdefault(parent_id, []).append(ident)
    found, todo = [], [provider.id]
    while todo:
        ident = todo.pop()
        found.append(ident)
        todo.extend(children.get(ident, ()))
    return found


# -- generation --------------------------------------------------------------

def increment_generation(context, provider_id, expected, requirements=()):
    """Compare-and-swap a provider's generation from ``expected`` to
    ``expected + 1``, also requiring every ``Requirement`` in
    ``requirements`` (subquery conditions: "no allocation of class X").
    Meant to run inside the writer transaction of the change it guards.

    Raises ResourceProviderConcurrentUpdateDetected if the generation is
    not ``expected``, the failing requirement's error, or
    ResourceProviderNotFound.
    """
    try:
        db_api.update_or_explain(
            context, RP, provider_id,
            {'generation': expected + 1, 'revision': NEXT_REVISION,
             'updated_at': timeutils.utcnow()},
            {'generation': expected}, requirements)
    except db_exceptions.ConditionNotMet as exc:
        if isinstance(exc.condition, Requirement):
            raise exc.condition.exception()
        raise exception.ResourceProviderConcurrentUpdateDetected()
    except db_exceptions.ConcurrentUpdate:
        raise exception.ResourceProviderConcurrentUpdateDetected()
    except db_exceptions.NotFound:
        raise exception.ResourceProviderNotFound(uuid=provider_id)
    return expected + 1


def _touch(context, provider_id, expected):
    """A compare-and-swap that writes a row's own values back, to hold it
    for the rest of the transaction; False if ``expected`` no longer
    holds."""
    return db_api.conditional_update(
        context, RP, {'root_provider_id': RP.root_provider_id,
                      'updated_at': RP.updated_at},
        dict(expected, id=provider_id))


def hold_at_generation(context, provider_id, generation):
    """Hold a provider for the rest of the transaction without bumping its
    generation; ResourceProviderConcurrentUpdateDetected if it moved."""
    if not _touch(context, provider_id, {'generation': generation}):
        raise exception.ResourceProviderConcurrentUpdateDetected()


def _hold_roots(context, root_ids):
    # In id order, so two operations on the same trees queue rather than
    # deadlock.
    for root_id in sorted(set(root_ids)):
        if not _touch(context, root_id, {'root_provider_id': root_id}):
            raise _TreeChanged()


def retry_from_last_read(context, provider, write):
    """``write(provider)`` for a write that swaps the provider from the
    generation last read rather than one the client gave: after a lost
    race the provider is read again and the write retried, at most
    ATTEMPTS times."""
    for _ in range(ATTEMPTS):
        try:
            return write(provider)
        except exception.ResourceProviderConcurrentUpdateDetected:
            provider = get_by_uuid(context, provider.uuid)
    raise exception.ResourceProviderConcurrentUpdateDetected()


# -- create ------------------------------------------------------------------

def create(context, uuid, name, parent_provider_uuid=None):
    """Insert a provider (a root, or a child of ``parent_provider_uuid``).

    Raises ResourceProviderExists (with the duplicate columns) or
    ObjectActionError for an empty name or a parent that does not exist.
    """
    if not name:
        raise exception.ObjectActionError(action='create',
                                          reason='name is required')
    for _ in range(ATTEMPTS):
        try:
            return _create(context, uuid, name, parent_provider_uuid)
        except _TreeChanged:
            continue
    raise exception.ResourceProviderConcurrentUpdateDetected()


@db_api.retry_on_deadlock
def _create(context, uuid, name, parent_uuid):
    now = timeutils.utcnow()
    try:
        with session.writer.connection.using(context) as conn:
            parent_id = root_id = None
            if parent_uuid is not None:
                parent = conn.execute(sa.select(
                    PROVIDERS.c.id, PROVIDERS.c.root_provider_id).where(
                        PROVIDERS.c.uuid == parent_uuid)).first()
                if parent is None:
                    raise exception.ObjectActionError(
                        action='create',
                        reason='parent provider UUID does not exist.')
                parent_id, root_id = parent
                _hold_roots(context, [root_id])
                if not _touch(context, parent_id,
                              {'root_provider_id': root_id}):
                    raise _TreeChanged()
            new_id = conn.execute(PROVIDERS.insert().values(
                uuid=uuid, name=name, generation=0,
                revision=first_revision(),
                root_provider_id=root_id, parent_provider_id=parent_id,
                created_at=now)).inserted_primary_key[0]
            if root_id is None:
                # A root is its own root; the row is ours alone until
                # commit.
                db_api.conditional_update(
                    context, RP, {'root_provider_id': new_id},
                    {'id': new_id, 'root_provider_id': None})
            return ResourceProvider.from_row(conn.execute(_SELECT.where(
                PROVIDERS.c.id == new_id)).mappings().first())
    except db_exc.DBDuplicateEntry:
        # Which of the two is taken (maybe both): what the backend names in
        # its error varies, so ask.
        with session.reader.connection.using(context) as conn:
            taken = [column for column, value in (('uuid', uuid),
                                                  ('name', name))
                     if conn.execute(sa.select(PROVIDERS.c.id).where(
                         PROVIDERS.c[column] == value)).first()]
        raise exception.ResourceProviderExists(taken or ['name'])


def first_revision():
    """A new provider's revision (see the module's docstring)."""
    return random.getrandbits(62)


# -- update ------------------------------------------------------------------

_UNSET = object()


def update(context, uuid, name=_UNSET, parent_provider_uuid=_UNSET,
           allow_reparenting=False):
    """Rename and/or move a provider, with Placement's rules: a parent may
    be given to a root; re-parenting and un-parenting need
    ``allow_reparenting`` (microversion 1.37); a provider never goes below
    itself. Returns the provider as updated.

    Raises ResourceProviderNotFound, ResourceProviderExists (name taken) or
    ObjectActionError (a refused move).
    """
    for _ in range(ATTEMPTS):
        provider = get_by_uuid(context, uuid)
        try:
            return _update(context, provider, name, parent_provider_uuid,
                           allow_reparenting)
        except _TreeChanged:
            continue
    raise exception.ResourceProviderConcurrentUpdateDetected()


def _refuse(reason):
    raise exception.ObjectActionError(action='update', reason=reason)


@db_api.retry_on_deadlock
def _update(context, provider, name, parent_uuid, allow_reparenting):
    values = {}
    if name is not _UNSET and name != provider.name:
        values['name'] = name
    try:
        with session.writer.connection.using(context) as conn:
            subtree_root = None
            if parent_uuid is not _UNSET:
                moved = _plan_move(context, conn, provider, parent_uuid,
                                   allow_reparenting)
                if moved is not None:
                    values.update(moved, revision=NEXT_REVISION)
                    subtree_root = moved['root_provider_id']
            if values:
                values['updated_at'] = timeutils.utcnow()
                expected = {'parent_provider_id': provider.parent_provider_id,
                            'root_provider_id': provider.root_provider_id}
                if not db_api.conditional_update(
                        context, RP, values, dict(expected, id=provider.id)):
                    raise _TreeChanged()
            if (subtree_root is not None
                    and subtree_root != provider.root_provider_id):
                _move_descendants(context, provider, subtree_root)
            return ResourceProvider.from_row(conn.execute(_SELECT.where(
                PROVIDERS.c.id == provider.id)).mappings().first())
    except db_exc.DBDuplicateEntry:
        raise exception.ResourceProviderExists(['name'])


def _plan_move(context, conn, provider, parent_uuid, allow_reparenting):
    """The parent/root values that put ``provider`` under ``parent_uuid``
    (None: un-parent), holding the trees involved; None if nothing moves."""
    if parent_uuid is None:
        if provider.parent_provider_id is None:
            return None
        if not allow_reparenting:
            _refuse('un-parenting a provider is not currently allowed.')
        _hold_roots(context, [provider.root_provider_id])
        return {'parent_provider_id': None, 'root_provider_id': provider.id}
    parent = conn.execute(sa.select(
        PROVIDERS.c.id, PROVIDERS.c.root_provider_id).where(
            PROVIDERS.c.uuid == parent_uuid)).first()
    if parent is None:
        raise exception.ObjectActionError(
            action='create', reason='parent provider UUID does not exist.')
    parent_id, parent_root = parent
    if parent_id == provider.parent_provider_id:
        return None
    if provider.parent_provider_id is not None and not allow_reparenting:
        _refuse('re-parenting a provider is not currently allowed.')
    _hold_roots(context, [provider.root_provider_id, parent_root])
    if not _touch(context, parent_id, {'root_provider_id': parent_root}):
        raise _TreeChanged()
    if parent_id in _subtree_ids(context, provider):
        _refuse('creating loop in the provider tree is not allowed.')
    return {'parent_provider_id': parent_id, 'root_provider_id': parent_root}


def _move_descendants(context, provider, new_root):
    """Give everything below ``provider`` its new root. The old tree is
    held, so the list read here is complete."""
    below = [i for i in _subtree_ids(context, provider) if i != provider.id]
    for ident in below:
        if not db_api.conditional_update(
                context, RP, {'root_provider_id': new_root,
                              'revision': NEXT_REVISION},
                {'id': ident, 'root_provider_id': provider.root_provider_id}):
            raise _TreeChanged()


# -- delete ------------------------------------------------------------------

def destroy(context, provider):
    """Delete a provider with no allocations and no children, with its
    inventories, traits and aggregate links.

    The provider row is compare-and-swapped first (generation + 1, "has no
    allocations", "has no children"), which also serializes the delete with
    allocation writers, who bump the generation too.
    """
    _destroy(context, provider)


@db_api.retry_on_deadlock
def _destroy(context, provider):
    child = PROVIDERS.alias('child')
    # Children first: Placement reports them before allocations.
    requirements = [
        Requirement(~sa.exists().where(
            child.c.parent_provider_id == PROVIDERS.c.id),
            'must have no child providers',
            exception.CannotDeleteParentResourceProvider()),
        Requirement(~sa.exists().where(
            ALLOCATIONS.c.resource_provider_id == PROVIDERS.c.id),
            'must have no allocations', exception.ResourceProviderInUse()),
    ]
    with session.writer.connection.using(context) as conn:
        try:
            db_api.update_or_explain(
                context, RP, provider.id,
                {'generation': RP.generation + 1}, {}, requirements)
        except db_exceptions.ConditionNotMet as exc:
            raise exc.condition.exception()
        except db_exceptions.NotFound:
            raise exception.ResourceProviderNotFound(uuid=provider.uuid)
        for table in (INVENTORIES, RP_TRAITS, RP_AGGREGATES):
            conn.execute(table.delete().where(
                table.c.resource_provider_id == provider.id))
        # MySQL/MariaDB refuse to delete a row that references itself; the
        # row is held by the swap above, so unlinking it changes nothing
        # anyone can see.
        db_api.conditional_update(context, RP, {'root_provider_id': None},
                                  {'id': provider.id,
                                   'root_provider_id': provider.id})
        conn.execute(PROVIDERS.delete().where(PROVIDERS.c.id == provider.id))


# -- listing -------------------------------------------------------------------

def get_all_by_filters(context, name=None, uuid=None, in_tree=None,
                       member_of=(), forbidden_aggs=(), resources=None,
                       required=(), forbidden_traits=()):
    """Providers matching every filter given, by id.

    ``member_of``: a list of sets of aggregate uuids, each set "in any of";
    ``forbidden_aggs``: in none of these. ``resources``: {class id:
    amount}, with room for it. ``required``: a list of sets of trait ids,
    each set "has any of"; ``forbidden_traits``: has none of these.
    """
    query = _SELECT
    rp_id = PROVIDERS.c.id
    if name is not None:
        query = query.where(PROVIDERS.c.name == name)
    if uuid is not None:
        query = query.where(PROVIDERS.c.uuid == uuid)
    if in_tree is not None:
        tree = PROVIDERS.alias('tree')
        query = query.where(PROVIDERS.c.root_provider_id == sa.select(
            tree.c.root_provider_id).where(
                tree.c.uuid == in_tree).scalar_subquery())
    for aggregates in member_of:
        query = query.where(rp_id.in_(_in_aggregates(aggregates)))
    if forbidden_aggs:
        query = query.where(rp_id.not_in(_in_aggregates(forbidden_aggs)))
    for class_id, amount in (resources or {}).items():
        query = query.where(_has_room(class_id, amount))
    for trait_ids in required:
        query = query.where(sa.exists().where(
            RP_TRAITS.c.resource_provider_id == rp_id,
            RP_TRAITS.c.trait_id.in_(list(trait_ids))))
    if forbidden_traits:
        query = query.where(~sa.exists().where(
            RP_TRAITS.c.resource_provider_id == rp_id,
            RP_TRAITS.c.trait_id.in_(list(forbidden_traits))))
    with session.reader.connection.using(context) as conn:
        rows = conn.execute(query.order_by(rp_id)).mappings().all()
    return [ResourceProvider.from_row(row) for row in rows]


def _in_aggregates(aggregate_uuids):
    aggregates = models.PlacementAggregate.__table__
    return sa.select(RP_AGGREGATES.c.resource_provider_id).select_from(
        RP_AGGREGATES.join(
            aggregates, RP_AGGREGATES.c.aggregate_id == aggregates.c.id)
    ).where(aggregates.c.uuid.in_(list(aggregate_uuids)))


def _has_room(class_id, amount):
    """The provider has inventory of ``class_id`` that can take ``amount``
    more: capacity, min_unit, max_unit and step_size all allow it."""
    used = sa.select(sa.func.coalesce(sa.func.sum(ALLOCATIONS.c.used), 0)) \
        .where(ALLOCATIONS.c.resource_provider_id
               == INVENTORIES.c.resource_provider_id,
               ALLOCATIONS.c.resource_class_id == class_id) \
        .scalar_subquery()
    return sa.exists().where(
        INVENTORIES.c.resource_provider_id == PROVIDERS.c.id,
        INVENTORIES.c.resource_class_id == class_id,
        (INVENTORIES.c.total - INVENTORIES.c.reserved)
        * INVENTORIES.c.allocation_ratio >= used + amount,
        INVENTORIES.c.min_unit <= amount,
        INVENTORIES.c.max_unit >= amount,
        sa.literal(amount) % INVENTORIES.c.step_size == 0)
