"""Resource classes: the standard ones of os-resource-classes and custom
``CUSTOM_*`` ones.

Standard classes are not stored: a standard class's id is its index in
``os_resource_classes.STANDARDS`` (as Placement numbers them), fixed by the
library, so the mapping is a constant of the process. Custom classes are
rows of ``resource_classes`` with ids from 10000 and are always looked up
in the database, never cached: another process may delete or rename one
at any time, and a stale id would attach inventory to the wrong class.
"""
import os_resource_classes as orc
from oslo_db import exception as db_exc
from oslo_utils import timeutils
import sqlalchemy as sa

from db import api as db_api
from db import models
from db import session
from objects.placement import exception
from objects.placement import resource_provider as rp_obj

CLASSES = models.ResourceClass.__table__
PROVIDERS = models.ResourceProvider.__table__
INVENTORIES = models.Inventory.__table__
ALLOCATIONS = models.Allocation.__table__

STANDARD_IDS = {name: index for index, name in enumerate(orc.STANDARDS)}
STANDARD_NAMES = dict(enumerate(orc.STANDARDS))
MIN_CUSTOM_ID = 10000
_CREATE_ATTEMPTS = 5


def is_custom(name):
    return orc.is_custom(name)


def _standard_row(name):
    return {'id': STANDARD_IDS[name], 'name': name,
            'created_at': None, 'updated_at': None}


def get_by_name(context, name):
    """The class as a mapping (id, name, created_at, updated_at)."""
    if name in STANDARD_IDS:
        return _standard_row(name)
    with session.reader.connection.using(context) as conn:
        row = conn.execute(sa.select(CLASSES).where(
            CLASSES.c.name == name)).mappings().first()
    if row is None:
        raise exception.ResourceClassNotFound(resource_class=name)
    return row


def get_all(context):
    """Every class: the standard ones, then the custom ones, by id."""
    with session.reader.connection.using(context) as conn:
        custom = conn.execute(
            sa.select(CLASSES).order_by(CLASSES.c.id)).mappings().all()
    return [_standard_row(name) for name in orc.STANDARDS] + list(custom)


def ids_from_names(context, names):
    """{name: id} for ``names``; ResourceClassNotFound names the first
    unknown one (in the order given)."""
    names = list(dict.fromkeys(names))
    ids = {n: STANDARD_IDS[n] for n in names if n in STANDARD_IDS}
    custom = [n for n in names if n not in ids]
    if custom:
        query = sa.select(CLASSES.c.name, CLASSES.c.id).where(
            CLASSES.c.name.in_(custom))
        with session.reader.connection.using(context) as conn:
            found = dict(conn.execute(query).all())
        for name in custom:
            if name not in found:
                raise exception.ResourceClassNotFound(resource_class=name)
        ids.update(found)
    return ids


def names_from_ids(context, ids):
    """{id: name} for ``ids`` (ids of deleted classes are left out)."""
    ids = set(ids)
    names = {i: STANDARD_NAMES[i] for i in ids if i in STANDARD_NAMES}
    custom = [i for i in ids if i not in names]
    if custom:
        query = sa.select(CLASSES.c.id, CLASSES.c.name).where(
            CLASSES.c.id.in_(custom))
        with session.reader.connection.using(context) as conn:
            names.update(dict(conn.execute(query).all()))
    return names


def hold_custom(context, ids_by_name):
    """Within a writer transaction: take the rows of the custom classes in
    ``ids_by_name`` ({name: id}) so that none can be deleted or renamed before it commits
    (a compare-and-swap that writes the same values: a row lock on
    MySQL/PostgreSQL, a write conflict under REPEATABLE READ).
    ResourceClassNotFound if one is gone."""
    model = models.ResourceClass
    custom = sorted((i, n) for n, i in ids_by_name.items()
                    if i >= MIN_CUSTOM_ID)
    for ident, name in custom:
        if not db_api.conditional_update(
                context, model,
                {'name': model.name, 'updated_at': model.updated_at},
                {'id': ident, 'name': name}):
            raise exception.ResourceClassNotFound(resource_class=name)


def create(context, name):
    """Insert a custom class with the next free id (from 10000). Two
    creators may pick the same id; the loser tries the next one."""
    for _ in range(_CREATE_ATTEMPTS):
        try:
            return _insert(context, name)
        except db_exc.DBDuplicateEntry as exc:
            if 'name' in (exc.columns or ()) or _exists(context, name):
                raise exception.ResourceClassExists(resource_class=name)
    raise exception.ConcurrentUpdateDetected()


@db_api.retry_on_deadlock
def _insert(context, name):
    now = timeutils.utcnow()
    with session.writer.connection.using(context) as conn:
        highest = conn.execute(sa.select(sa.func.max(CLASSES.c.id))).scalar()
        ident = max(highest or 0, MIN_CUSTOM_ID - 1) + 1
        conn.execute(CLASSES.insert().values(id=ident, name=name,
                                             created_at=now))
    return {'id': ident, 'name': name, 'created_at': now, 'updated_at': None}


def _exists(context, name):
    with session.reader.connection.using(context) as conn:
        return conn.execute(sa.select(CLASSES.c.id).where(
            CLASSES.c.name == name)).first() is not None


@db_api.retry_on_deadlock
def rename(context, old_name, new_name):
    """Rename a custom class (microversions 1.2-1.6): compare-and-swap on
    the old name. Returns the renamed row."""
    if old_name in STANDARD_IDS:
        raise exception.ResourceClassCannotUpdateStandard(
            resource_class=old_name)
    try:
        with session.writer.connection.using(context) as conn:
            if not db_api.conditional_update(
                    context, models.ResourceClass,
                    {'name': new_name, 'updated_at': timeutils.utcnow()},
                    {'name': old_name}):
                raise exception.ResourceClassNotFound(
                    resource_class=old_name)
            renamed = conn.execute(sa.select(CLASSES).where(
                CLASSES.c.name == new_name)).mappings().first()
            # What candidates show of a provider with inventory of the
            # class changes.
            conn.execute(rp_obj.revisions_advanced(PROVIDERS.c.id.in_(
                sa.select(INVENTORIES.c.resource_provider_id).where(
                    INVENTORIES.c.resource_class_id == renamed['id']))))
            return renamed
    except db_exc.DBDuplicateEntry:
        raise exception.ResourceClassExists(resource_class=new_name)


@db_api.retry_on_deadlock
def destroy(context, name):
    """Delete a custom class no inventory (or allocation) uses: one
    conditional DELETE."""
    if name in STANDARD_IDS:
        raise exception.ResourceClassCannotDeleteStandard(
            resource_class=name)
    unused = sa.and_(
        ~sa.exists().where(INVENTORIES.c.resource_class_id == CLASSES.c.id),
        ~sa.exists().where(ALLOCATIONS.c.resource_class_id == CLASSES.c.id))
    with session.writer.connection.using(context) as conn:
        if conn.execute(CLASSES.delete().where(
                CLASSES.c.name == name, unused)).rowcount:
            return
        exists = conn.execute(sa.select(CLASSES.c.id).where(
            CLASSES.c.name == name)).first()
    if exists is None:
        raise exception.ResourceClassNotFound(resource_class=name)
    raise exception.ResourceClassInUse(resource_class=name)
