"""Reading allocations: a consumer's (GET /allocations/{consumer}) and a
provider's (GET /resource_providers/{uuid}/allocations)."""
import sqlalchemy as sa

from db import session
from objects.placement import allocation_statements as statements
from objects.placement import resource_class as rc_obj

ALLOCATIONS = statements.ALLOCATIONS
PROVIDERS = statements.PROVIDERS
CONSUMERS = statements.CONSUMERS
PROJECTS = statements.PROJECTS
USERS = statements.USERS
CONSUMER_TYPES = statements.CONSUMER_TYPES


def _owner_columns():
    return (CONSUMERS.c.generation.label('consumer_generation'),
            PROJECTS.c.external_id.label('project_external_id'),
            USERS.c.external_id.label('user_external_id'),
            CONSUMER_TYPES.c.name.label('consumer_type'))


def _with_owner(joined):
    """``joined`` (allocations ...) outer-joined to the consumer and its
    project, user and type: allocations older than consumer records still
    show, with no consumer."""
    return (joined
            .outerjoin(CONSUMERS, CONSUMERS.c.uuid ==
                       ALLOCATIONS.c.consumer_id)
            .outerjoin(PROJECTS, PROJECTS.c.id == CONSUMERS.c.project_id)
            .outerjoin(USERS, USERS.c.id == CONSUMERS.c.user_id)
            .outerjoin(CONSUMER_TYPES, CONSUMER_TYPES.c.id ==
                       CONSUMERS.c.consumer_type_id))


def _modified(row):
    return row.updated_at or row.created_at


def _consumer_query():
    """Allocations with their provider and consumer, as a consumer's read
    shows them."""
    return (sa.select(ALLOCATIONS.c.consumer_id,
                      ALLOCATIONS.c.resource_class_id, ALLOCATIONS.c.used,
                      ALLOCATIONS.c.created_at, ALLOCATIONS.c.updated_at,
                      PROVIDERS.c.uuid.label('provider_uuid'),
                      PROVIDERS.c.generation.label('provider_generation'),
                      *_owner_columns())
            .select_from(_with_owner(ALLOCATIONS.join(
                PROVIDERS, PROVIDERS.c.id ==
                ALLOCATIONS.c.resource_provider_id))))


def _consumer_record(context, rows, names):
    """get_for_consumer()'s answer from the consumer's ``rows``."""
    providers = {}
    for row in rows:
        entry = providers.setdefault(row.provider_uuid, {
            'generation': row.provider_generation, 'resources': {}})
        entry['resources'][names[row.resource_class_id]] = row.used
    first = rows[0]
    project, user = first.project_external_id, first.user_external_id
    if first.consumer_generation is None:
        conf = context.config.placement
        project = conf.incomplete_consumer_project_id
        user = conf.incomplete_consumer_user_id
    return {'allocations': providers,
            'project_id': project,
            'user_id': user,
            'consumer_generation': first.consumer_generation,
            'consumer_type': first.consumer_type,
            'last_modified': max(_modified(r) for r in rows)}


def get_for_consumer(context, uuid):
    """The consumer's allocations, or None if it has none::

        {'allocations': {rp uuid: {'generation': n,
                                   'resources': {class: amount}}},
         'project_id': ..., 'user_id': ..., 'consumer_generation': n,
         'consumer_type': name or None, 'last_modified': datetime}

    A consumer without a record (allocations written before consumers
    existed) shows the incomplete project and user, and generation None:
    the value a writer must give to take it over.
    """
    query = _consumer_query().where(ALLOCATIONS.c.consumer_id == uuid)
    with session.reader.connection.using(context) as conn:
        rows = conn.execute(query).all()
        if not rows:
            return None
        names = rc_obj.names_from_ids(
            context, {r.resource_class_id for r in rows})
    return _consumer_record(context, rows, names)


def get_for_provider_tree(context, provider_uuids, chunk=500):
    """{consumer uuid: get_for_consumer()'s answer} of every consumer that
    holds anything on the providers ``provider_uuids``, with all its
    allocations, on those providers or elsewhere (the reshape spec's
    get_allocations_for_provider_tree): the consumers in one query, then
    their allocations ``chunk`` consumers a query, in one snapshot."""
    holders = sa.select(ALLOCATIONS.c.consumer_id).distinct().select_from(
        ALLOCATIONS.join(PROVIDERS, PROVIDERS.c.id ==
                         ALLOCATIONS.c.resource_provider_id)).where(
        PROVIDERS.c.uuid.in_(sorted(provider_uuids)))
    rows = []
    with session.reader.connection.using(context) as conn:
        consumers = sorted(conn.execute(holders).scalars())
        for start in range(0, len(consumers), chunk):
            rows += conn.execute(_consumer_query().where(
                ALLOCATIONS.c.consumer_id.in_(
                    consumers[start:start + chunk]))).all()
        names = rc_obj.names_from_ids(
            context, {r.resource_class_id for r in rows})
    by_consumer = {}
    for row in rows:
        by_consumer.setdefault(row.consumer_id, []).append(row)
    return {consumer: _consumer_record(context, held, names)
            for consumer, held in by_consumer.items()}


def get_for_provider(context, uuid):
    """The provider's allocations by consumer, or None if there is no such
    provider::

        {'resource_provider_generation': n,
         'allocations': {consumer uuid: {'resources': {class: amount},
                                         'consumer_generation': n or None}},
         'last_modified': datetime or None}
    """
    with session.reader.connection.using(context) as conn:
        provider = conn.execute(
            sa.select(PROVIDERS.c.id, PROVIDERS.c.generation)
            .where(PROVIDERS.c.uuid == uuid)).first()
        if provider is None:
            return None
        rows = conn.execute(
            sa.select(ALLOCATIONS.c.consumer_id,
                      ALLOCATIONS.c.resource_class_id, ALLOCATIONS.c.used,
                      ALLOCATIONS.c.created_at, ALLOCATIONS.c.updated_at,
                      CONSUMERS.c.generation.label('consumer_generation'))
            .select_from(ALLOCATIONS.outerjoin(
                CONSUMERS, CONSUMERS.c.uuid == ALLOCATIONS.c.consumer_id))
            .where(ALLOCATIONS.c.resource_provider_id == provider.id)
        ).all()
        names = rc_obj.names_from_ids(
            context, {r.resource_class_id for r in rows})
    consumers = {}
    for row in rows:
        entry = consumers.setdefault(row.consumer_id, {
            'resources': {}, 'consumer_generation': row.consumer_generation})
        entry['resources'][names[row.resource_class_id]] = row.used
    return {'resource_provider_generation': provider.generation,
            'allocations': consumers,
            'last_modified': max((_modified(r) for r in rows),
                                 default=None)}
