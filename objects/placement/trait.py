"""Traits: the standard ones of os-traits (kept present in the database by
:func:`ensure_standard_traits`) and custom ``CUSTOM_*`` ones.

Rows are returned as mappings (id, name, created_at, updated_at).
"""
import os_traits
from oslo_db import exception as db_exc
from oslo_utils import timeutils
import sqlalchemy as sa

from db import api as db_api
from db import models
from db import session
from objects.placement import exception

TRAITS = models.Trait.__table__
RP_TRAITS = models.ResourceProviderTrait.__table__
_COLUMNS = (TRAITS.c.id, TRAITS.c.name, TRAITS.c.created_at,
            TRAITS.c.updated_at)


@db_api.retry_on_deadlock
def ensure_standard_traits(context):
    """Insert the os-traits names the database lacks. Concurrent callers
    may both insert; the loser's duplicate is harmless and retried."""
    standard = set(os_traits.get_traits())
    for _ in range(3):
        try:
            with session.writer.connection.using(context) as conn:
                present = {r[0] for r in conn.execute(
                    sa.select(TRAITS.c.name))}
                missing = sorted(standard - present)
                if missing:
                    now = timeutils.utcnow()
                    conn.execute(TRAITS.insert(), [
                        {'name': name, 'created_at': now}
                        for name in missing])
            return
        except db_exc.DBDuplicateEntry:
            continue


def get_by_name(context, name):
    with session.reader.connection.using(context) as conn:
        row = conn.execute(sa.select(*_COLUMNS).where(
            TRAITS.c.name == name)).mappings().first()
    if row is None:
        raise exception.TraitNotFound(names=name)
    return row


@db_api.retry_on_deadlock
def create(context, name):
    """Insert a custom trait; TraitExists if the name is taken."""
    now = timeutils.utcnow()
    try:
        with session.writer.connection.using(context) as conn:
            result = conn.execute(TRAITS.insert().values(
                name=name, created_at=now))
            ident = result.inserted_primary_key[0]
    except db_exc.DBDuplicateEntry:
        raise exception.TraitExists(name=name)
    return {'id': ident, 'name': name, 'created_at': now, 'updated_at': None}


@db_api.retry_on_deadlock
def destroy(context, name):
    """Delete a custom trait no provider has: one conditional DELETE, so a
    provider cannot gain the trait in between the check and the delete."""
    if not os_traits.is_custom(name):
        raise exception.TraitCannotDeleteStandard(name=name)
    in_use = sa.exists().where(RP_TRAITS.c.trait_id == TRAITS.c.id)
    with session.writer.connection.using(context) as conn:
        deleted = conn.execute(TRAITS.delete().where(
            TRAITS.c.name == name, ~in_use)).rowcount
        if deleted:
            return
        exists = conn.execute(sa.select(TRAITS.c.id).where(
            TRAITS.c.name == name)).first()
    if exists is None:
        raise exception.TraitNotFound(names=name)
    raise exception.TraitInUse(name=name)


def get_all(context, name_in=None, prefix=None, associated=None):
    """Traits by name (``name_in``), name prefix, and whether any provider
    has them (``associated`` True/False; None: either)."""
    query = sa.select(*_COLUMNS)
    if name_in is not None:
        query = query.where(TRAITS.c.name.in_(list(name_in)))
    if prefix is not None:
        query = query.where(TRAITS.c.name.startswith(prefix, autoescape=True))
    if associated is not None:
        linked = sa.exists().where(RP_TRAITS.c.trait_id == TRAITS.c.id)
        query = query.where(linked if associated else ~linked)
    with session.reader.connection.using(context) as conn:
        return conn.execute(query.order_by(TRAITS.c.name)).mappings().all()


def get_all_for_provider(context, provider_id):
    query = (sa.select(*_COLUMNS)
             .select_from(TRAITS.join(RP_TRAITS,
                                      RP_TRAITS.c.trait_id == TRAITS.c.id))
             .where(RP_TRAITS.c.resource_provider_id == provider_id)
             .order_by(TRAITS.c.name))
    with session.reader.connection.using(context) as conn:
        return conn.execute(query).mappings().all()


def names_by_provider(context, provider_ids):
    """{provider id: set of its trait names} for every id given (one
    query)."""
    found = {ident: set() for ident in provider_ids}
    if not found:
        return found
    query = (sa.select(RP_TRAITS.c.resource_provider_id, TRAITS.c.name)
             .select_from(TRAITS.join(RP_TRAITS,
                                      RP_TRAITS.c.trait_id == TRAITS.c.id))
             .where(RP_TRAITS.c.resource_provider_id.in_(list(found))))
    with session.reader.connection.using(context) as conn:
        for provider_id, name in conn.execute(query):
            found[provider_id].add(name)
    return found


def ids_by_name(context, names):
    """{name: id} of those ``names`` that exist."""
    if not names:
        return {}
    with session.reader.connection.using(context) as conn:
        return {r.name: r.id for r in conn.execute(
            sa.select(TRAITS.c.id, TRAITS.c.name).where(
                TRAITS.c.name.in_(list(names))))}


def set_for_provider(context, provider, names, generation=None):
    """Make ``names`` the provider's traits, compare-and-swapping its
    generation from ``generation`` (None: as last read, re-read and retried
    after a lost race). Placement leaves the generation alone when nothing
    changes; so do we, after checking it is still current. Returns the new
    generation. TraitNotFound if a name is unknown."""
    from objects.placement import resource_provider as rp_obj
    if generation is not None:
        return _set_for_provider(context, provider, names, generation)
    return rp_obj.retry_from_last_read(
        context, provider, lambda rp: _set_for_provider(
            context, rp, names, rp.generation))


@db_api.retry_on_deadlock
def _set_for_provider(context, provider, names, generation):
    from objects.placement import resource_provider as rp_obj
    names = set(names)
    try:
        with session.writer.connection.using(context) as conn:
            wanted = ids_by_name(context, names)
            unknown = names - set(wanted)
            if unknown:
                raise exception.TraitNotFound(names=', '.join(sorted(unknown)))
            have = set(conn.execute(sa.select(RP_TRAITS.c.trait_id).where(
                RP_TRAITS.c.resource_provider_id == provider.id)).scalars())
            add = set(wanted.values()) - have
            drop = have - set(wanted.values())
            if not add and not drop:
                rp_obj.hold_at_generation(context, provider.id, generation)
                return generation
            generation = rp_obj.increment_generation(
                context, provider.id, generation)
            if drop:
                conn.execute(RP_TRAITS.delete().where(
                    RP_TRAITS.c.resource_provider_id == provider.id,
                    RP_TRAITS.c.trait_id.in_(drop)))
            if add:
                now = timeutils.utcnow()
                conn.execute(RP_TRAITS.insert(), [
                    {'resource_provider_id': provider.id, 'trait_id': t,
                     'created_at': now} for t in sorted(add)])
            return generation
    except db_exc.DBReferenceError:
        # A trait deleted between our lookup and our insert.
        raise exception.TraitNotFound(names=', '.join(sorted(names)))
