"""Tenant boundaries as a matrix: every route of both APIs, called by the
owner of what it names, by another project, by an administrator, by a
reader of the owner's project, with no token and with a token that is not
one. The expected status of each cell is data below; a route the code
serves without its row here fails the test (tests.functional.api_routes
reads the routes from the code).

For another project, a resource of the owner is exactly an unknown id:
same status, same body but for the id (a path item, a marker, an id in a
body), so that no answer tells whether another tenant's id exists.
"""
import base64
import datetime
import json
import uuid

from oslo_utils import timeutils

from db import models
from tests import volume_rows as rows
from tests.functional import api_fixtures
from tests.functional import api_routes
from tests.functional import test_placement_base
from tests.functional import volume_worker_fixture
from volapi.volume import transfers
from volapi.volume.drivers import file as file_driver

VERSION = '3.67'
CALLERS = {
    'owner': api_fixtures.caller('project-a', 'user-a', VERSION),
    'other': api_fixtures.caller('project-b', 'user-b', VERSION),
    'admin': api_fixtures.caller('admin', 'admin', VERSION),
    'reader': api_fixtures.caller('project-a', 'user-r', VERSION,
                                  roles='reader'),
    'none': {'OpenStack-API-Version': 'volume ' + VERSION},
    'bad-token': {'X-Auth-Token': 'a:b:c',
                  'OpenStack-API-Version': 'volume ' + VERSION},
}
ORDER = ('owner', 'other', 'admin', 'reader', 'none', 'bad-token')


def expect(owner, other, admin, reader=None):
    """The statuses of a row; a reader of the owner's project is answered
    as the owner (volapi has no read-only role); noauth answers a request
    without a token with its handshake (204), a bad token with a 401."""
    return {'owner': owner, 'other': other, 'admin': admin,
            'reader': owner if reader is None else reader, 'none': 204,
            'bad-token': 401}


# (method, template[, action]) -> (request builder, expected statuses).
# A marker is looked up in the list being paged: an administrator's list
# without all_tenants is their own project's, where project-a's marker is
# not.
# A builder gets the world (the ids of a fresh set of resources of
# project-a) and returns (path, body, ids of the owner's in the request).
def _path(template, **ids):
    return template.format(**ids)


def _volume(w, template, body=None):
    return (_path(template, volume_id=w['volume'], key='k'), body,
            [w['volume']])


def _snapshot(w, template, body=None):
    return (_path(template, snapshot_id=w['snapshot'], key='k'), body,
            [w['snapshot']])


def _backup(w, template, body=None):
    return _path(template, backup_id=w['backup']), body, [w['backup']]


def _import_body():
    """A backup record of a new id (what an export gives)."""
    record = {'id': str(uuid.uuid4()), 'size': 1, 'object_count': 1,
              'display_name': 'imported', 'display_description': None,
              'container': None, 'service_metadata': None}
    return {'backup-record': {
        'backup_service': file_driver.FileDriver.backup_service,
        'backup_url': base64.b64encode(json.dumps(record).encode()).decode()}}


def _attachment(w, template, body=None, which='attachment'):
    return (_path(template, attachment_id=w[which]), body, [w[which]])


def _message(w, template):
    return _path(template, message_id=w['message']), None, [w['message']]


def _type(w, template, body=None):
    return _path(template, type_id=w['type'], key='k'), body, []


def _qos(w, template, body=None):
    return _path(template, qos_id=w['qos']), body, []


def _qos_rows():
    """QoS specs: administrators only, as in Cinder (no project owns a
    spec)."""
    member = '/v3/qos-specs/{qos_id}'
    rows = {
        ('GET', '/v3/qos-specs'): (
            lambda w: ('/v3/qos-specs', None, []), expect(403, 403, 200)),
        ('POST', '/v3/qos-specs'): (
            lambda w: ('/v3/qos-specs', {'qos_specs': {
                'name': 'new-%s' % uuid.uuid4().hex[:8]}}, []),
            expect(403, 403, 200)),
        ('GET', member): (lambda w: _qos(w, member), expect(403, 403, 200)),
        ('PUT', member): (
            lambda w: _qos(w, member, {'qos_specs': {'k': 'w'}}),
            expect(403, 403, 200)),
        ('DELETE', member): (lambda w: _qos(w, member),
                             expect(403, 403, 202)),
        ('PUT', member + '/delete_keys'): (
            lambda w: _qos(w, member + '/delete_keys', {'keys': ['k']}),
            expect(403, 403, 202)),
        ('GET', member + '/associations'): (
            lambda w: _qos(w, member + '/associations'),
            expect(403, 403, 200)),
        ('GET', member + '/disassociate_all'): (
            lambda w: _qos(w, member + '/disassociate_all'),
            expect(403, 403, 202)),
    }
    for route in ('associate', 'disassociate'):
        rows['GET', '%s/%s' % (member, route)] = (
            lambda w, route=route: (
                '%s/%s?vol_type_id=%s' % (
                    _path(member, qos_id=w['qos']), route, w['type']),
                None, []),
            expect(403, 403, 202))
    return rows


def _group(w, template, body=None):
    return _path(template, group_id=w['group']), body, [w['group']]


def _group_snapshot_rows():
    """Group snapshots (3.14): the owner's or an administrator's."""
    member = '/v3/group_snapshots/{group_snapshot_id}'

    def of(w, template):
        return (_path(template, group_snapshot_id=w['group_snapshot']),
                None, [w['group_snapshot']])
    return {
        ('GET', '/v3/group_snapshots'): (
            lambda w: ('/v3/group_snapshots?marker=%s' % w['group_snapshot'],
                       None, [w['group_snapshot']]), expect(200, 404, 404)),
        ('GET', '/v3/group_snapshots/detail'): (
            lambda w: ('/v3/group_snapshots/detail?marker=%s'
                       % w['group_snapshot'], None, [w['group_snapshot']]),
            expect(200, 404, 404)),
        # The world's group has no volumes: nothing to cast.
        ('POST', '/v3/group_snapshots'): (
            lambda w: ('/v3/group_snapshots', {'group_snapshot': {
                'group_id': w['group']}}, [w['group']]),
            expect(202, 404, 202)),
        ('GET', member): (lambda w: of(w, member), expect(200, 404, 200)),
        ('DELETE', member): (lambda w: of(w, member), expect(202, 404, 202)),
        # The world's group has no volumes: Cinder's 400, once found.
        ('POST', '/v3/groups/action'): (
            lambda w: ('/v3/groups/action', {'create-from-src': {
                'source_group_id': w['group']}}, [w['group']]),
            expect(400, 404, 400)),
    }


def _group_type(w, template, body=None):
    return _path(template, group_type_id=w['group_type'], key='k'), body, []


def _group_rows():
    """Groups (3.13) and group types (3.11): types belong to no project;
    their writes and their specs are administrators'."""
    member = '/v3/group_types/{group_type_id}'
    specs = member + '/group_specs'
    return {
        ('GET', '/v3/groups'): (
            lambda w: ('/v3/groups?marker=%s' % w['group'], None,
                       [w['group']]), expect(200, 404, 404)),
        ('GET', '/v3/groups/detail'): (
            lambda w: ('/v3/groups/detail?marker=%s' % w['group'], None,
                       [w['group']]), expect(200, 404, 404)),
        ('POST', '/v3/groups'): (
            lambda w: ('/v3/groups', {'group': {
                'group_type': w['group_type'],
                'volume_types': [w['group_volume_type']]}}, []),
            expect(202, 202, 202)),
        ('GET', '/v3/groups/{group_id}'): (
            lambda w: _group(w, '/v3/groups/{group_id}'),
            expect(200, 404, 200)),
        ('PUT', '/v3/groups/{group_id}'): (
            lambda w: _group(w, '/v3/groups/{group_id}',
                             {'group': {'name': 'n'}}),
            expect(202, 404, 202)),
        ('GET', '/v3/group_types'): (
            lambda w: ('/v3/group_types', None, []), expect(200, 200, 200)),
        ('POST', '/v3/group_types'): (
            lambda w: ('/v3/group_types', {'group_type': {
                'name': 'new-%s' % uuid.uuid4().hex[:8]}}, []),
            expect(403, 403, 200)),
        ('GET', member): (
            lambda w: _group_type(w, member), expect(200, 200, 200)),
        ('PUT', member): (
            lambda w: _group_type(w, member,
                                  {'group_type': {'description': 'd'}}),
            expect(403, 403, 200)),
        # The world's group has the type: the admin's delete is refused.
        ('DELETE', member): (
            lambda w: _group_type(w, member), expect(403, 403, 400)),
        ('GET', specs): (
            lambda w: _group_type(w, specs), expect(403, 403, 200)),
        ('POST', specs): (
            lambda w: _group_type(w, specs, {'group_specs': {'a': 'b'}}),
            expect(403, 403, 200)),
        ('GET', specs + '/{key}'): (
            lambda w: _group_type(w, specs + '/{key}'),
            expect(403, 403, 200)),
        ('PUT', specs + '/{key}'): (
            lambda w: _group_type(w, specs + '/{key}', {'k': 'w'}),
            expect(403, 403, 200)),
        ('DELETE', specs + '/{key}'): (
            lambda w: _group_type(w, specs + '/{key}'),
            expect(403, 403, 202)),
    }


def _transfer(w, template, body=None):
    return (_path(template, transfer_id=w['transfer']), body,
            [w['transfer']])


def _transfer_rows():
    """The rows of both transfer routes: the same answers, but for the
    lists' markers (volume-transfers pages from 3.59; os-volume-transfer
    takes no marker, and a parameter that is no column lists nothing)."""
    matrix = {}
    for route in ('/v3/os-volume-transfer', '/v3/volume-transfers'):
        paged = route.endswith('volume-transfers')
        for listing in (route, route + '/detail'):
            matrix['GET', listing] = (
                lambda w, listing=listing: (
                    '%s?marker=%s' % (listing, w['transfer']), None,
                    [w['transfer']]),
                expect(200, 404, 404) if paged else expect(200, 200, 200))
        matrix['POST', route] = (
            lambda w, route=route: (route, {'transfer': {
                'volume_id': w['volume']}}, [w['volume']]),
            expect(202, 404, 202))
        member = route + '/{transfer_id}'
        matrix['GET', member] = (
            lambda w, member=member: _transfer(w, member),
            expect(200, 404, 200))
        matrix['DELETE', member] = (
            lambda w, member=member: _transfer(w, member),
            expect(202, 404, 202))
        # Any project holding the key may take the volume: the transfer's
        # id is no secret of its owner's.
        matrix['POST', member + '/accept'] = (
            lambda w, member=member: (
                _path(member + '/accept', transfer_id=w['transfer']),
                {'accept': {'auth_key': TRANSFER_KEY}}, []),
            expect(202, 202, 202))
    return matrix


TRANSFER_KEY = '0123456789abcdef'
VOLUME_MATRIX = {
    ('GET', '/v3/volumes'): (
        lambda w: ('/v3/volumes?marker=%s' % w['volume'], None,
                   [w['volume']]), expect(200, 404, 404)),
    ('GET', '/v3/volumes/detail'): (
        lambda w: ('/v3/volumes/detail?marker=%s' % w['volume'], None,
                   [w['volume']]), expect(200, 404, 404)),
    ('GET', '/v3/volumes/summary'): (
        lambda w: ('/v3/volumes/summary', None, []),
        expect(200, 200, 200)),
    ('POST', '/v3/volumes'): (
        lambda w: ('/v3/volumes', {'volume': {
            'size': 1, 'source_volid': w['volume']}}, [w['volume']]),
        expect(202, 404, 202)),
    ('GET', '/v3/volumes/{volume_id}'): (
        lambda w: _volume(w, '/v3/volumes/{volume_id}'),
        expect(200, 404, 200)),
    ('PUT', '/v3/volumes/{volume_id}'): (
        lambda w: _volume(w, '/v3/volumes/{volume_id}',
                          {'volume': {'name': 'n'}}),
        expect(200, 404, 200)),
    ('DELETE', '/v3/volumes/{volume_id}'): (
        lambda w: _volume(w, '/v3/volumes/{volume_id}?cascade=true'),
        expect(202, 404, 202)),
    ('GET', '/v3/volumes/{volume_id}/encryption'): (
        lambda w: _volume(w, '/v3/volumes/{volume_id}/encryption'),
        expect(200, 404, 200)),
    ('GET', '/v3/volumes/{volume_id}/encryption/{key}'): (
        lambda w: _volume(w, '/v3/volumes/{volume_id}/encryption/{key}'),
        expect(404, 404, 404)),
    ('GET', '/v3/volumes/{volume_id}/metadata'): (
        lambda w: _volume(w, '/v3/volumes/{volume_id}/metadata'),
        expect(200, 404, 200)),
    ('POST', '/v3/volumes/{volume_id}/metadata'): (
        lambda w: _volume(w, '/v3/volumes/{volume_id}/metadata',
                          {'metadata': {'a': 'b'}}),
        expect(200, 404, 200)),
    ('PUT', '/v3/volumes/{volume_id}/metadata'): (
        lambda w: _volume(w, '/v3/volumes/{volume_id}/metadata',
                          {'metadata': {'a': 'b'}}),
        expect(200, 404, 200)),
    ('GET', '/v3/volumes/{volume_id}/metadata/{key}'): (
        lambda w: _volume(w, '/v3/volumes/{volume_id}/metadata/{key}'),
        expect(200, 404, 200)),
    ('PUT', '/v3/volumes/{volume_id}/metadata/{key}'): (
        lambda w: _volume(w, '/v3/volumes/{volume_id}/metadata/{key}',
                          {'meta': {'k': 'w'}}),
        expect(200, 404, 200)),
    ('DELETE', '/v3/volumes/{volume_id}/metadata/{key}'): (
        lambda w: _volume(w, '/v3/volumes/{volume_id}/metadata/{key}'),
        expect(200, 404, 200)),
    ('GET', '/v3/snapshots'): (
        lambda w: ('/v3/snapshots?marker=%s' % w['snapshot'], None,
                   [w['snapshot']]), expect(200, 404, 404)),
    ('GET', '/v3/snapshots/detail'): (
        lambda w: ('/v3/snapshots/detail?marker=%s' % w['snapshot'], None,
                   [w['snapshot']]), expect(200, 404, 404)),
    ('POST', '/v3/snapshots'): (
        lambda w: ('/v3/snapshots', {'snapshot': {
            'volume_id': w['volume']}}, [w['volume']]),
        expect(202, 404, 202)),
    ('GET', '/v3/snapshots/{snapshot_id}'): (
        lambda w: _snapshot(w, '/v3/snapshots/{snapshot_id}'),
        expect(200, 404, 200)),
    ('PUT', '/v3/snapshots/{snapshot_id}'): (
        lambda w: _snapshot(w, '/v3/snapshots/{snapshot_id}',
                            {'snapshot': {'name': 'n'}}),
        expect(200, 404, 200)),
    ('DELETE', '/v3/snapshots/{snapshot_id}'): (
        lambda w: _snapshot(w, '/v3/snapshots/{snapshot_id}'),
        expect(202, 404, 202)),
    ('GET', '/v3/snapshots/{snapshot_id}/metadata'): (
        lambda w: _snapshot(w, '/v3/snapshots/{snapshot_id}/metadata'),
        expect(200, 404, 200)),
    ('POST', '/v3/snapshots/{snapshot_id}/metadata'): (
        lambda w: _snapshot(w, '/v3/snapshots/{snapshot_id}/metadata',
                            {'metadata': {'a': 'b'}}),
        expect(200, 404, 200)),
    ('PUT', '/v3/snapshots/{snapshot_id}/metadata'): (
        lambda w: _snapshot(w, '/v3/snapshots/{snapshot_id}/metadata',
                            {'metadata': {'a': 'b'}}),
        expect(200, 404, 200)),
    ('GET', '/v3/snapshots/{snapshot_id}/metadata/{key}'): (
        lambda w: _snapshot(w, '/v3/snapshots/{snapshot_id}/metadata/{key}'),
        expect(200, 404, 200)),
    ('PUT', '/v3/snapshots/{snapshot_id}/metadata/{key}'): (
        lambda w: _snapshot(w, '/v3/snapshots/{snapshot_id}/metadata/{key}',
                            {'meta': {'k': 'w'}}),
        expect(200, 404, 200)),
    ('DELETE', '/v3/snapshots/{snapshot_id}/metadata/{key}'): (
        lambda w: _snapshot(w, '/v3/snapshots/{snapshot_id}/metadata/{key}'),
        expect(200, 404, 200)),
    ('GET', '/v3/backups'): (
        lambda w: ('/v3/backups?marker=%s' % w['backup'], None,
                   [w['backup']]), expect(200, 404, 404)),
    ('GET', '/v3/backups/detail'): (
        lambda w: ('/v3/backups/detail?marker=%s' % w['backup'], None,
                   [w['backup']]), expect(200, 404, 404)),
    ('POST', '/v3/backups'): (
        lambda w: ('/v3/backups', {'backup': {
            'volume_id': w['volume']}}, [w['volume']]),
        expect(202, 404, 202)),
    ('GET', '/v3/backups/{backup_id}'): (
        lambda w: _backup(w, '/v3/backups/{backup_id}'),
        expect(200, 404, 200)),
    ('PUT', '/v3/backups/{backup_id}'): (
        lambda w: _backup(w, '/v3/backups/{backup_id}',
                          {'backup': {'name': 'n'}}),
        expect(200, 404, 200)),
    ('DELETE', '/v3/backups/{backup_id}'): (
        lambda w: _backup(w, '/v3/backups/{backup_id}'),
        expect(202, 404, 202)),
    ('POST', '/v3/backups/{backup_id}/restore'): (
        lambda w: _backup(w, '/v3/backups/{backup_id}/restore',
                          {'restore': {'volume_id': w['restore_to']}}),
        expect(202, 404, 202)),
    ('GET', '/v3/backups/{backup_id}/export_record'): (
        lambda w: _backup(w, '/v3/backups/{backup_id}/export_record'),
        expect(403, 404, 200)),
    ('POST', '/v3/backups/import_record'): (
        lambda w: ('/v3/backups/import_record', _import_body(), []),
        expect(403, 403, 201)),
    ('GET', '/v3/attachments'): (
        lambda w: ('/v3/attachments?marker=%s' % w['attachment'], None,
                   [w['attachment']]), expect(200, 404, 404)),
    ('GET', '/v3/attachments/detail'): (
        lambda w: ('/v3/attachments/detail?marker=%s' % w['attachment'],
                   None, [w['attachment']]), expect(200, 404, 404)),
    ('POST', '/v3/attachments'): (
        lambda w: ('/v3/attachments', {'attachment': {
            'volume_uuid': w['volume'], 'instance_uuid': w['instance']}},
            [w['volume']]), expect(200, 404, 200)),
    ('GET', '/v3/attachments/{attachment_id}'): (
        lambda w: _attachment(w, '/v3/attachments/{attachment_id}'),
        expect(200, 404, 200)),
    ('PUT', '/v3/attachments/{attachment_id}'): (
        lambda w: _attachment(w, '/v3/attachments/{attachment_id}', {
            'attachment': {'connector': {'host': 'h'}}}, 'reserved'),
        expect(200, 404, 200)),
    ('DELETE', '/v3/attachments/{attachment_id}'): (
        lambda w: _attachment(w, '/v3/attachments/{attachment_id}'),
        expect(200, 404, 200)),
    ('GET', '/v3/types'): (
        lambda w: ('/v3/types', None, []), expect(200, 200, 200)),
    ('POST', '/v3/types'): (
        lambda w: ('/v3/types', {'volume_type': {
            'name': 'new-%s' % uuid.uuid4().hex[:8]}}, []),
        expect(403, 403, 200)),
    ('GET', '/v3/types/{type_id}'): (
        lambda w: _type(w, '/v3/types/{type_id}'), expect(200, 200, 200)),
    ('PUT', '/v3/types/{type_id}'): (
        lambda w: _type(w, '/v3/types/{type_id}',
                        {'volume_type': {'description': 'd'}}),
        expect(403, 403, 200)),
    ('DELETE', '/v3/types/{type_id}'): (
        lambda w: _type(w, '/v3/types/{type_id}'), expect(403, 403, 202)),
    ('GET', '/v3/types/{type_id}/encryption'): (
        lambda w: _type(w, '/v3/types/{type_id}/encryption'),
        expect(403, 403, 200)),
    ('POST', '/v3/types/{type_id}/encryption'): (
        lambda w: _type(w, '/v3/types/{type_id}/encryption',
                        {'encryption': {'provider': 'luks'}}),
        expect(403, 403, 400)),
    ('GET', '/v3/types/{type_id}/encryption/{key}'): (
        lambda w: _type(w, '/v3/types/{type_id}/encryption/{key}'),
        expect(403, 403, 404)),
    ('PUT', '/v3/types/{type_id}/encryption/{key}'): (
        lambda w: _type(w, '/v3/types/{type_id}/encryption/{key}',
                        {'encryption': {'cipher': 'c'}}),
        expect(403, 403, 404)),
    ('DELETE', '/v3/types/{type_id}/encryption/{key}'): (
        lambda w: _type(w, '/v3/types/{type_id}/encryption/{key}'),
        expect(403, 403, 404)),
    ('GET', '/v3/types/{type_id}/extra_specs'): (
        lambda w: _type(w, '/v3/types/{type_id}/extra_specs'),
        expect(200, 200, 200)),
    ('POST', '/v3/types/{type_id}/extra_specs'): (
        lambda w: _type(w, '/v3/types/{type_id}/extra_specs',
                        {'extra_specs': {'a': 'b'}}),
        expect(403, 403, 200)),
    ('GET', '/v3/types/{type_id}/extra_specs/{key}'): (
        lambda w: _type(w, '/v3/types/{type_id}/extra_specs/{key}'),
        expect(200, 200, 200)),
    ('PUT', '/v3/types/{type_id}/extra_specs/{key}'): (
        lambda w: _type(w, '/v3/types/{type_id}/extra_specs/{key}',
                        {'k': 'w'}), expect(403, 403, 200)),
    ('DELETE', '/v3/types/{type_id}/extra_specs/{key}'): (
        lambda w: _type(w, '/v3/types/{type_id}/extra_specs/{key}'),
        expect(403, 403, 202)),
    ('GET', '/v3/limits'): (
        lambda w: ('/v3/limits?project_id=project-a', None, []),
        expect(200, 403, 200)),
    ('POST', '/v3/workers/cleanup'): (
        lambda w: ('/v3/workers/cleanup', {}, []), expect(403, 403, 202)),
    ('GET', '/v3/os-services'): (
        lambda w: ('/v3/os-services', None, []), expect(403, 403, 200)),
    ('PUT', '/v3/os-services/enable'): (
        lambda w: ('/v3/os-services/enable',
                   {'host': 'worker-1@file', 'binary': 'volapi-volume'}, []),
        expect(403, 403, 200)),
    ('PUT', '/v3/os-services/disable'): (
        lambda w: ('/v3/os-services/disable',
                   {'host': 'nowhere', 'binary': 'volapi-volume'}, []),
        expect(403, 403, 404)),
    ('PUT', '/v3/os-services/get-log'): (
        lambda w: ('/v3/os-services/get-log', {'prefix': 'volapi.api'}, []),
        expect(403, 403, 200)),
    ('PUT', '/v3/os-services/set-log'): (
        lambda w: ('/v3/os-services/set-log',
                   {'level': 'info', 'prefix': 'volapi.nothing'}, []),
        expect(403, 403, 202)),
    ('PUT', '/v3/os-services/disable-log-reason'): (
        lambda w: ('/v3/os-services/disable-log-reason',
                   {'host': 'nowhere', 'binary': 'volapi-volume',
                    'disabled_reason': 'r'}, []),
        expect(403, 403, 404)),
    # An unknown host: Cinder's 400 (freezing a real one would refuse the
    # deletes of the other rows).
    ('PUT', '/v3/os-services/freeze'): (
        lambda w: ('/v3/os-services/freeze', {'host': 'nowhere'}, []),
        expect(403, 403, 400)),
    ('PUT', '/v3/os-services/thaw'): (
        lambda w: ('/v3/os-services/thaw', {'host': 'nowhere'}, []),
        expect(403, 403, 400)),
    ('PUT', '/v3/os-services/failover_host'): (
        lambda w: ('/v3/os-services/failover_host', {'host': 'nowhere'},
                   []), expect(403, 403, 400)),
    ('GET', '/v3/clusters'): (
        lambda w: ('/v3/clusters', None, []), expect(403, 403, 200)),
    ('GET', '/v3/clusters/detail'): (
        lambda w: ('/v3/clusters/detail', None, []), expect(403, 403, 200)),
    ('GET', '/v3/clusters/{cluster_name}'): (
        lambda w: ('/v3/clusters/nowhere@file', None, []),
        expect(403, 403, 404)),
    ('PUT', '/v3/clusters/enable'): (
        lambda w: ('/v3/clusters/enable', {'name': 'nowhere@file'}, []),
        expect(403, 403, 404)),
    ('PUT', '/v3/clusters/disable'): (
        lambda w: ('/v3/clusters/disable', {'name': 'nowhere@file'}, []),
        expect(403, 403, 404)),
    ('GET', '/v3/types/{type_id}/os-volume-type-access'): (
        lambda w: _type(w, '/v3/types/{type_id}/os-volume-type-access'),
        expect(403, 403, 404)),
    ('GET', '/v3/extensions'): (
        lambda w: ('/v3/extensions', None, []), expect(200, 200, 200)),
    ('GET', '/v3/extensions/{alias}'): (
        lambda w: ('/v3/extensions/os-services', None, []),
        expect(200, 200, 200)),
    ('GET', '/v3/resource_filters'): (
        lambda w: ('/v3/resource_filters', None, []), expect(200, 200, 200)),
    ('GET', '/v3/os-availability-zone'): (
        lambda w: ('/v3/os-availability-zone', None, []),
        expect(200, 200, 200)),
    ('GET', '/v3/capabilities/{host}'): (
        lambda w: ('/v3/capabilities/nowhere@file', None, []),
        expect(403, 403, 404)),
    # Administrators only; the admin's reference names no file.
    ('GET', '/v3/manageable_volumes'): (
        lambda w: ('/v3/manageable_volumes?host=worker-1@file', None, []),
        expect(403, 403, 200)),
    ('GET', '/v3/manageable_volumes/detail'): (
        lambda w: ('/v3/manageable_volumes/detail?host=worker-1@file', None,
                   []), expect(403, 403, 200)),
    ('POST', '/v3/manageable_volumes'): (
        lambda w: ('/v3/manageable_volumes', {'volume': {
            'host': 'worker-1@file', 'ref': {'source-name': 'none'}}}, []),
        expect(403, 403, 400)),
    ('GET', '/v3/os-volume-manage'): (
        lambda w: ('/v3/os-volume-manage?host=worker-1@file', None, []),
        expect(403, 403, 200)),
    ('GET', '/v3/os-volume-manage/detail'): (
        lambda w: ('/v3/os-volume-manage/detail?host=worker-1@file', None,
                   []), expect(403, 403, 200)),
    ('POST', '/v3/os-volume-manage'): (
        lambda w: ('/v3/os-volume-manage', {'volume': {
            'host': 'worker-1@file', 'ref': {'source-name': 'none'}}}, []),
        expect(403, 403, 400)),
    # Administrators only (another project's volume is unknown to it);
    # the admin's reference names no file.
    ('GET', '/v3/manageable_snapshots'): (
        lambda w: ('/v3/manageable_snapshots?host=worker-1@file', None, []),
        expect(403, 403, 200)),
    ('GET', '/v3/manageable_snapshots/detail'): (
        lambda w: ('/v3/manageable_snapshots/detail?host=worker-1@file',
                   None, []), expect(403, 403, 200)),
    ('POST', '/v3/manageable_snapshots'): (
        lambda w: ('/v3/manageable_snapshots', {'snapshot': {
            'volume_id': w['volume'], 'ref': {'source-name': 'none'}}},
            [w['volume']]), expect(403, 404, 400)),
    ('GET', '/v3/os-snapshot-manage'): (
        lambda w: ('/v3/os-snapshot-manage?host=worker-1@file', None, []),
        expect(403, 403, 200)),
    ('GET', '/v3/os-snapshot-manage/detail'): (
        lambda w: ('/v3/os-snapshot-manage/detail?host=worker-1@file', None,
                   []), expect(403, 403, 200)),
    ('POST', '/v3/os-snapshot-manage'): (
        lambda w: ('/v3/os-snapshot-manage', {'snapshot': {
            'volume_id': w['volume'], 'ref': {'source-name': 'none'}}},
            [w['volume']]), expect(403, 404, 400)),
    ('GET', '/v3/scheduler-stats/get_pools'): (
        lambda w: ('/v3/scheduler-stats/get_pools?detail=True', None, []),
        expect(403, 403, 200)),
    ('GET', '/v3/messages'): (
        lambda w: ('/v3/messages', None, []), expect(200, 200, 200)),
    ('GET', '/v3/messages/{message_id}'): (
        lambda w: _message(w, '/v3/messages/{message_id}'),
        expect(200, 404, 200)),
    ('DELETE', '/v3/messages/{message_id}'): (
        lambda w: _message(w, '/v3/messages/{message_id}'),
        expect(204, 404, 204)),
    ('GET', '/v3/os-quota-sets/{project_id}'): (
        lambda w: ('/v3/os-quota-sets/project-a?usage=True', None, []),
        expect(200, 403, 200)),
    ('GET', '/v3/os-quota-sets/{project_id}/defaults'): (
        lambda w: ('/v3/os-quota-sets/project-a/defaults', None, []),
        expect(200, 403, 200)),
    ('PUT', '/v3/os-quota-sets/{project_id}'): (
        lambda w: ('/v3/os-quota-sets/project-a',
                   {'quota_set': {'volumes': -1}}, []),
        expect(403, 403, 200)),
    ('DELETE', '/v3/os-quota-sets/{project_id}'): (
        lambda w: ('/v3/os-quota-sets/project-a', None, []),
        expect(403, 403, 200)),
    # Administrators only (3.62); the world's project has no default
    # type until one is set.
    ('GET', '/v3/default-types'): (
        lambda w: ('/v3/default-types', None, []), expect(403, 403, 200)),
    ('GET', '/v3/default-types/{project_id}'): (
        lambda w: ('/v3/default-types/project-a', None, []),
        expect(403, 403, 404)),
    ('PUT', '/v3/default-types/{project_id}'): (
        lambda w: ('/v3/default-types/project-a',
                   {'default_type': {'volume_type': w['type']}}, []),
        expect(403, 403, 200)),
    ('DELETE', '/v3/default-types/{project_id}'): (
        lambda w: ('/v3/default-types/project-a', None, []),
        expect(403, 403, 204)),
    ('GET', '/v3/os-quota-class-sets/{class_name}'): (
        lambda w: ('/v3/os-quota-class-sets/default', None, []),
        expect(403, 403, 200)),
    ('PUT', '/v3/os-quota-class-sets/{class_name}'): (
        lambda w: ('/v3/os-quota-class-sets/default',
                   {'quota_class_set': {'volumes': -1}}, []),
        expect(403, 403, 200)),
}
VOLUME_MATRIX.update(_transfer_rows())
VOLUME_MATRIX.update(_qos_rows())
VOLUME_MATRIX.update(_group_rows())
VOLUME_MATRIX.update(_group_snapshot_rows())

# POST .../action, per action: (template, action) -> (argument, the world
# key of the resource acted on, expected statuses).
_VOLUME_ACTION = '/v3/volumes/{volume_id}/action'
ACTION_MATRIX = {
    (_VOLUME_ACTION, 'os-extend'): (
        {'new_size': 2}, 'volume', expect(202, 404, 202)),
    (_VOLUME_ACTION, 'os-reserve'): (None, 'volume', expect(202, 404, 202)),
    (_VOLUME_ACTION, 'os-unreserve'): (
        None, 'attaching', expect(202, 404, 202)),
    (_VOLUME_ACTION, 'os-begin_detaching'): (
        None, 'in_use', expect(202, 404, 202)),
    (_VOLUME_ACTION, 'os-roll_detaching'): (
        None, 'detaching', expect(202, 404, 202)),
    (_VOLUME_ACTION, 'os-attach'): (
        {'instance_uuid': '<instance>', 'mountpoint': '/dev/vdb'},
        'attaching', expect(202, 404, 202)),
    (_VOLUME_ACTION, 'os-detach'): (
        {'attachment_id': '<attachment>'}, 'in_use',
        expect(202, 404, 202)),
    (_VOLUME_ACTION, 'os-initialize_connection'): (
        {'connector': {'host': 'h'}}, 'volume', expect(200, 404, 200)),
    (_VOLUME_ACTION, 'os-terminate_connection'): (
        {'connector': {'host': 'h'}}, 'volume', expect(202, 404, 202)),
    (_VOLUME_ACTION, 'os-force_detach'): (
        {'attachment_id': '<attachment>'}, 'in_use',
        expect(403, 404, 202)),
    (_VOLUME_ACTION, 'os-reset_status'): (
        {'status': 'error'}, 'volume', expect(403, 404, 202)),
    (_VOLUME_ACTION, 'os-force_delete'): (
        None, 'attaching', expect(403, 404, 202)),
    (_VOLUME_ACTION, 'revert'): (
        {'snapshot_id': '<snapshot>'}, 'volume', expect(202, 404, 202)),
    # The world's volume has a snapshot: the admin's is refused.
    (_VOLUME_ACTION, 'os-unmanage'): (
        None, 'volume', expect(403, 404, 400)),
    (_VOLUME_ACTION, 'os-retype'): (
        {'new_type': '<type>'}, 'volume', expect(202, 404, 202)),
    # Admin only; the admin's request names no pool that can take it.
    (_VOLUME_ACTION, 'os-migrate_volume'): (
        {'host': 'nowhere@file#pool'}, 'volume', expect(403, 404, 400)),
    (_VOLUME_ACTION, 'os-migrate_volume_completion'): (
        {'new_volume': '00000000-0000-4000-8000-000000000000'}, 'volume',
        expect(403, 404, 400)),
    (_VOLUME_ACTION, 'os-update_readonly_flag'): (
        {'readonly': True}, 'volume', expect(202, 404, 202)),
    (_VOLUME_ACTION, 'os-set_bootable'): (
        {'bootable': True}, 'volume', expect(200, 404, 200)),
    (_VOLUME_ACTION, 'os-set_image_metadata'): (
        {'metadata': {'os_distro': 'x'}}, 'volume', expect(200, 404, 200)),
    (_VOLUME_ACTION, 'os-show_image_metadata'): (
        None, 'volume', expect(200, 404, 200)),
    # The fresh volume has no image metadata: the owner and the admin
    # get the key's 404, others the volume's.
    (_VOLUME_ACTION, 'os-unset_image_metadata'): (
        {'key': 'os_distro'}, 'volume', expect(404, 404, 404)),
    ('/v3/snapshots/{snapshot_id}/action', 'os-reset_status'): (
        {'status': 'error'}, 'snapshot', expect(403, 404, 202)),
    ('/v3/snapshots/{snapshot_id}/action', 'os-force_delete'): (
        None, 'snapshot', expect(403, 404, 202)),
    ('/v3/snapshots/{snapshot_id}/action', 'os-unmanage'): (
        None, 'snapshot', expect(403, 404, 202)),
    # The world's snapshot is available: not a status to update.
    ('/v3/snapshots/{snapshot_id}/action', 'os-update_snapshot_status'): (
        {'status': 'error'}, 'snapshot', expect(400, 404, 400)),
    ('/v3/backups/{backup_id}/action', 'os-reset_status'): (
        {'status': 'error'}, 'backup', expect(403, 404, 202)),
    ('/v3/backups/{backup_id}/action', 'os-force_delete'): (
        None, 'backup', expect(403, 404, 202)),
    ('/v3/attachments/{attachment_id}/action', 'os-complete'): (
        None, 'connected', expect(204, 404, 204)),
    # The world's type is public: no access list to change.
    ('/v3/types/{type_id}/action', 'addProjectAccess'): (
        {'project': 'project-b'}, 'type', expect(403, 403, 400)),
    ('/v3/types/{type_id}/action', 'removeProjectAccess'): (
        {'project': 'project-b'}, 'type', expect(403, 403, 400)),
    ('/v3/groups/{group_id}/action', 'delete'): (
        {}, 'group', expect(202, 404, 202)),
    ('/v3/groups/{group_id}/action', 'reset_status'): (
        {'status': 'error'}, 'group', expect(403, 404, 202)),
    ('/v3/group_snapshots/{group_snapshot_id}/action', 'reset_status'): (
        {'status': 'error'}, 'group_snapshot', expect(403, 404, 202)),
}
# The methods of the handlers that take any (and refuse the others).
ANY_METHOD_ROUTES = {'/v3/volumes/detail': 'GET',
                     '/v3/groups/action': 'POST',
                     '/v3/volumes/summary': 'GET',
                     '/v3/snapshots/detail': 'GET',
                     '/v3/backups/detail': 'GET',
                     '/v3/backups/{backup_id}/restore': 'POST',
                     '/v3/backups/{backup_id}/export_record': 'GET',
                     '/v3/backups/import_record': 'POST',
                     '/v3/attachments/detail': 'GET',
                     '/v3/workers/cleanup': 'POST',
                     '/v3/clusters/enable': 'PUT',
                     '/v3/clusters/disable': 'PUT',
                     '/v3/os-services/enable': 'PUT',
                     '/v3/os-services/disable': 'PUT',
                     '/v3/os-services/disable-log-reason': 'PUT',
                     '/v3/os-services/get-log': 'PUT',
                     '/v3/os-services/set-log': 'PUT',
                     '/v3/os-services/freeze': 'PUT',
                     '/v3/os-services/thaw': 'PUT',
                     '/v3/os-services/failover_host': 'PUT',
                     '/v3/os-quota-sets/{project_id}/defaults': 'GET',
                     '/v3/qos-specs/{qos_id}/delete_keys': 'PUT',
                     '/v3/os-volume-transfer/{transfer_id}/accept': 'POST',
                     '/v3/volume-transfers/{transfer_id}/accept': 'POST'}


class VolumeTenantMatrixTest(api_fixtures.APITestCase):
    """With a volume worker answering, so that accepted requests are
    carried out as in a deployment."""

    def setUp(self):
        super().setUp()
        # Every row makes a world of volumes: no quota to run into.
        self.config.set('quota', volumes=-1, snapshots=-1, gigabytes=-1,
                        backups=-1, backup_gigabytes=-1, groups=-1)
        self.driver = self.useFixture(
            volume_worker_fixture.RunningWorker(self)).worker.driver

    def world(self):
        """A fresh set of project-a's resources, by role, with their
        files."""
        context = self.context
        volume = rows.volume(context, project_id='project-a')
        rows.insert(context, models.VolumeMetadata, volume_id=volume.id,
                    key='k', value='v')
        in_use = rows.volume(context, project_id='project-a',
                             status='in-use', attach_status='attached')
        attachment = rows.attachment(context, in_use)
        attaching = rows.volume(context, project_id='project-a',
                                status='attaching')
        detaching = rows.volume(context, project_id='project-a',
                                status='detaching', attach_status='attached')
        rows.attachment(context, detaching)
        reserved_volume = rows.volume(context, project_id='project-a',
                                      status='reserved')
        reserved = rows.attachment(context, reserved_volume,
                                   attach_status='reserved')
        connected_volume = rows.volume(context, project_id='project-a',
                                       status='attaching')
        connected = rows.attachment(context, connected_volume,
                                    attach_status='attaching',
                                    connector='{"host": "h"}')
        for made in (volume, in_use, attaching, detaching, reserved_volume,
                     connected_volume):
            self.driver.create_volume(made)
        snapshot = rows.snapshot(context, volume)
        rows.insert(context, models.SnapshotMetadata,
                    snapshot_id=snapshot.id, key='k', value='v')
        self.driver.create_snapshot(snapshot, volume)
        backup = rows.backup(context, volume,
                             service=file_driver.FileDriver.backup_service)
        self.driver.create_backup(backup, volume)
        restore_to = rows.volume(context, project_id='project-a')
        self.driver.create_volume(restore_to)
        message = str(uuid.uuid4())
        rows.insert(
            context, models.Message, id=message,
            project_id='project-a', event_id='VOLUME_VOLUME_001_003',
            message_level='ERROR', resource_type='VOLUME',
            resource_uuid=volume.id, action_id='001', detail_id='003',
            expires_at=datetime.datetime(2100, 1, 1), created_at=timeutils.utcnow(),
            deleted=False)
        type_id = rows.volume_type(context)
        rows.insert(context, models.VolumeTypeExtraSpec,
                    volume_type_id=type_id, key='k', value='v')
        qos = str(uuid.uuid4())
        rows.insert(context, models.QosSpecs, id=qos, name='qos-' + qos,
                    live_name='qos-' + qos, consumer='back-end',
                    deleted=False, created_at=timeutils.utcnow())
        rows.insert(context, models.QosSpecsItem, qos_specs_id=qos, key='k',
                    value='v')
        group_type = str(uuid.uuid4())
        rows.insert(context, models.GroupType, id=group_type,
                    name='gt-%s' % group_type[:8],
                    live_name='gt-%s' % group_type[:8], is_public=True,
                    deleted=False, created_at=timeutils.utcnow())
        rows.insert(context, models.GroupTypeSpec,
                    group_type_id=group_type, key='k', value='v')
        group = str(uuid.uuid4())
        rows.insert(context, models.Group, id=group,
                    project_id='project-a', user_id='user-a',
                    status='available', group_type_id=group_type,
                    deleted=False, created_at=timeutils.utcnow())
        # A type of its own: one a live group allows cannot be deleted.
        group_volume_type = rows.volume_type(context)
        rows.insert(context, models.GroupVolumeTypeMapping, group_id=group,
                    volume_type_id=group_volume_type,
                    created_at=timeutils.utcnow())
        # Of a group of its own: the world's group is deleted by a row.
        snapshotted = str(uuid.uuid4())
        rows.insert(context, models.Group, id=snapshotted,
                    project_id='project-a', user_id='user-a',
                    status='available', group_type_id=group_type,
                    deleted=False, created_at=timeutils.utcnow())
        group_snapshot = str(uuid.uuid4())
        rows.insert(context, models.GroupSnapshot, id=group_snapshot,
                    group_id=snapshotted, project_id='project-a',
                    user_id='user-a', status='available',
                    group_type_id=group_type, deleted=False,
                    created_at=timeutils.utcnow())
        offered = rows.volume(context, project_id='project-a',
                              status='awaiting-transfer')
        self.driver.create_volume(offered)
        transfer = str(uuid.uuid4())
        rows.insert(context, models.Transfer, id=transfer,
                    volume_id=offered.id, salt='5a170000',
                    crypt_hash=transfers.crypt_hash('5a170000',
                                                    TRANSFER_KEY),
                    no_snapshots=False, source_project_id='project-a',
                    accepted=False, deleted=False,
                    created_at=timeutils.utcnow())
        return {'transfer': transfer, 'qos': qos,
                'volume': volume.id, 'in_use': in_use.id,
                'attachment': attachment.id, 'attaching': attaching.id,
                'detaching': detaching.id, 'reserved': reserved.id,
                'connected': connected.id,
                'snapshot': snapshot.id, 'message': message,
                'backup': backup.id, 'restore_to': restore_to.id,
                'type': type_id, 'type_name': 'type-%s' % type_id[:8],
                'group': group, 'group_type': group_type,
                'group_volume_type': group_volume_type,
                'group_snapshot': group_snapshot,
                'instance': str(uuid.uuid4())}

    def call(self, method, path, body, caller):
        return self.app.request(
            path, method=method, headers=dict(CALLERS[caller], **{
                'Content-Type': 'application/json'}),
            body=b'' if body is None else json.dumps(body).encode(),
            expect_errors=True)

    def test_every_route_has_a_row(self):
        action_paths = api_routes.volume_actions_by_path()
        served = {(ANY_METHOD_ROUTES.get(path, method), path)
                  for method, path in api_routes.volume_routes()
                  if path not in action_paths}
        self.assertEqual(sorted(served), sorted(VOLUME_MATRIX))
        actions = {(path, name)
                   for path, names in api_routes.volume_actions_by_path()
                   .items() for name in names}
        self.assertEqual(sorted(actions), sorted(ACTION_MATRIX))

    def test_routes(self):
        for (method, _template), (build, expected) in VOLUME_MATRIX.items():
            for caller in ORDER:
                self.check_cell(method, build, caller, expected[caller])

    def test_actions(self):
        for (template, action), (argument, target, expected) in \
                ACTION_MATRIX.items():
            def build(world, template=template, action=action,
                      argument=argument, target=target):
                filled = _filled(argument, world)
                path = template.format(volume_id=world[target],
                                       snapshot_id=world[target],
                                       attachment_id=world[target],
                                       backup_id=world[target],
                                       type_id=world[target],
                                       group_id=world[target],
                                       group_snapshot_id=world[target])
                # Types belong to no project.
                owned = [] if target == 'type' else [world[target]]
                return path, {action: filled}, owned
            for caller in ORDER:
                self.check_cell('POST', build, caller, expected[caller])

    def check_cell(self, method, build, caller, expected):
        world = self.world()
        path, body, owned = build(world)
        response = self.call(method, path, body, caller)
        self.assertEqual(expected, response.status_int,
                         '%s %s as %s: %s' % (method, path, caller,
                                              response.text[:300]))
        if caller == 'other' and owned:
            self.assert_same_as_unknown(method, path, body, owned, response)

    def assert_same_as_unknown(self, method, path, body, owned, response):
        """Another project's ids answer exactly as unknown ids."""
        text = json.dumps(body)
        answer = response.text
        for ident in owned:
            unknown = str(uuid.uuid4())
            path = path.replace(ident, unknown)
            text = text.replace(ident, unknown)
            answer = answer.replace(ident, unknown)
        unknown_response = self.call(method, path, json.loads(text), 'other')
        self.assertEqual(
            (unknown_response.status_int, unknown_response.text),
            (response.status_int, answer), '%s %s' % (method, path))


def _filled(argument, world):
    if isinstance(argument, dict):
        return {k: _filled(v, world) for k, v in argument.items()}
    if isinstance(argument, str) and argument.startswith('<'):
        key = argument[1:-1]
        return world['type_name'] if key == 'type' else world[key]
    return argument


class PlacementTenantMatrixTest(test_placement_base.PlacementTestCase):
    """Placement is an administrators' API: any other caller is a 403 on
    every route, no token or a bad one a 401. (Reshaping is for services
    only by default, as in Placement: here an administrator may, so that
    every route is tried.)"""

    def test_every_route(self):
        self.override_policy({'placement:reshaper:reshape': 'role:admin'})
        rp = self.create_provider('matrix')['uuid']
        self.set_inventory(rp, {'DISK_GB': {'total': 10}})
        paths = {'{uuid}': rp, '{consumer_uuid}': str(uuid.uuid4()),
                 '{resource_class}': 'DISK_GB', '{name}': 'CUSTOM_MATRIX'}
        for method, template in api_routes.placement_routes():
            path = template
            for item, value in paths.items():
                path = path.replace(item, value)
            for token, status in (('user-a:project-a', 403), (None, 401),
                                  ('a:b:c', 401)):
                response = self.request(method, path, body={}
                                        if method in ('PUT', 'POST')
                                        else None, token=token)
                if token is None:
                    # Placement's noauth2 answers with webob's own body.
                    self.assertEqual(401, response.status_int)
                else:
                    self.assertError(response, status)
            # An administrator gets past authorization (whatever the empty
            # body then gets).
            response = self.request(method, path, body={}
                                    if method in ('PUT', 'POST') else None)
            self.assertNotIn(response.status_int, (401, 403, 500),
                             '%s %s: %s' % (method, path, response.text))
