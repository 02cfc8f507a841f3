"""Base of the allocation, consumer and reshaper tests (no tests here):
bodies in the form each microversion takes, and reads of what is stored."""
import uuid as uuidlib

import sqlalchemy as sa

from db import models
from db import session
from tests.functional import test_placement_base

PROJECT = 'project-a'
USER = 'user-a'
INCOMPLETE = '00000000-0000-0000-0000-000000000000'
_OMIT = object()


def new_uuid():
    return str(uuidlib.uuid4())


def vtuple(version):
    major, minor = version.split('.')
    return int(major), int(minor)


def consumer_body(version, allocations, project_id=PROJECT, user_id=USER,
                  generation=_OMIT, consumer_type='INSTANCE'):
    """The body of PUT /allocations/{consumer} at ``version`` for
    ``allocations`` ({rp uuid: {class: amount}}): the list form before
    1.12, the dict form after; owner from 1.8, consumer_generation from
    1.28 (None unless given), consumer_type from 1.38."""
    v = vtuple(version)
    if v < (1, 12):
        body = {'allocations': [
            {'resource_provider': {'uuid': rp}, 'resources': resources}
            for rp, resources in allocations.items()]}
    else:
        body = {'allocations': {rp: {'resources': resources}
                                for rp, resources in allocations.items()}}
    if v >= (1, 8):
        body['project_id'] = project_id
        body['user_id'] = user_id
    if v >= (1, 28):
        body['consumer_generation'] = (None if generation is _OMIT
                                       else generation)
    if v >= (1, 38):
        body['consumer_type'] = consumer_type
    return body


class AllocationTestCase(test_placement_base.PlacementTestCase):
    """A provider with DISK_GB (100) and VCPU (8) inventory, and helpers."""

    def setUp(self):
        super().setUp()
        self.rp = self.create_provider(name='rp-one')['uuid']
        self.set_inventory(self.rp, {'DISK_GB': {'total': 100},
                                     'VCPU': {'total': 8}})

    def put_allocations(self, consumer, allocations, version='1.38',
                        status=204, **kwargs):
        return self.put('/allocations/%s' % consumer,
                        consumer_body(version, allocations, **kwargs),
                        status=status, version=version)

    def post_allocations(self, parts, version='1.38', status=204):
        """``parts``: {consumer: (allocations, kwargs of consumer_body)}."""
        body = {}
        for consumer, (allocations, kwargs) in parts.items():
            part = consumer_body(version, allocations, **kwargs)
            body[consumer] = part
        return self.post('/allocations', body, status=status,
                         version=version)

    def allocations_of(self, consumer, version='1.38'):
        return self.get('/allocations/%s' % consumer, version=version).json

    def provider_generation(self, rp):
        return self.get('/resource_providers/%s' % rp,
                        version='1.14').json['generation']

    def usages(self, rp):
        return self.get('/resource_providers/%s/usages' % rp).json['usages']

    # -- what is stored -----------------------------------------------------------
    def consumer_row(self, consumer):
        table = models.Consumer.__table__
        projects = models.Project.__table__
        users = models.User.__table__
        query = (sa.select(table.c.generation,
                           projects.c.external_id.label('project'),
                           users.c.external_id.label('user'))
                 .select_from(table.join(projects, projects.c.id ==
                                         table.c.project_id)
                              .join(users, users.c.id == table.c.user_id))
                 .where(table.c.uuid == consumer))
        with session.get_engine().connect() as conn:
            row = conn.execute(query).first()
        return row._asdict() if row is not None else None

    def consumer_count(self):
        with session.get_engine().connect() as conn:
            return conn.execute(sa.select(sa.func.count()).select_from(
                models.Consumer.__table__)).scalar()

    def allocation_count(self):
        with session.get_engine().connect() as conn:
            return conn.execute(sa.select(sa.func.count()).select_from(
                models.Allocation.__table__)).scalar()

    def legacy_allocation(self, consumer, rp, resource_class_id, used):
        """An allocation row with no consumer record, as written before
        consumers existed."""
        with session.get_engine().begin() as conn:
            rp_id = conn.execute(sa.select(
                models.ResourceProvider.__table__.c.id).where(
                models.ResourceProvider.__table__.c.uuid == rp)).scalar()
            test_placement_base.insert_allocations(conn, [{
                'resource_provider_id': rp_id, 'consumer_id': consumer,
                'resource_class_id': resource_class_id, 'used': used}])
