"""/v3/[{project_id}/]extensions: Cinder's extensions that volapi serves
(``cinder list-extensions``; Tempest reads it to choose its tests), each
under Cinder's name, alias, description and date."""
from volapi.api import errors
from volapi.api import rest

# (name, alias, updated, description), as Cinder 29.0.0 describes them.
EXTENSIONS = (
    ('AdminActions', 'os-admin-actions', '2012-08-25T00:00:00+00:00',
     'Enable admin actions.'),
    ('AvailabilityZones', 'os-availability-zone',
     '2013-06-27T00:00:00+00:00', 'Describe Availability Zones.'),
    ('Capabilities', 'capabilities', '2015-08-31T00:00:00+00:00',
     'Capabilities support.'),
    ('ExtendedServices', 'os-extended-services',
     '2014-01-10T00:00:00-00:00', 'Extended services support.'),
    ('ExtendedSnapshotAttributes', 'os-extended-snapshot-attributes',
     '2012-06-19T00:00:00+00:00', 'Extended SnapshotAttributes support.'),
    ('Qos_specs_manage', 'qos-specs', '2013-08-02T00:00:00+00:00',
     'QoS specs support.'),
    ('QuotaClasses', 'os-quota-class-sets', '2012-03-12T00:00:00+00:00',
     'Quota classes management support.'),
    ('Quotas', 'os-quota-sets', '2011-08-08T00:00:00+00:00',
     'Quota management support.'),
    ('Scheduler_stats', 'scheduler-stats', '2014-09-07T00:00:00+00:00',
     'Scheduler stats support.'),
    ('Services', 'os-services', '2012-10-28T00:00:00-00:00',
     'Services support.'),
    ('SnapshotActions', 'os-snapshot-actions', '2013-07-16T00:00:00+00:00',
     'Enable snapshot manager actions.'),
    ('SnapshotManage', 'os-snapshot-manage', '2014-12-31T00:00:00+00:00',
     "Allows existing backend storage to be 'managed' by Cinder."),
    ('SnapshotUnmanage', 'os-snapshot-unmanage',
     '2014-12-31T00:00:00+00:00', 'Enable volume unmanage operation.'),
    ('TypesExtraSpecs', 'os-types-extra-specs', '2011-08-24T00:00:00+00:00',
     'Type extra specs support.'),
    ('TypesManage', 'os-types-manage', '2011-08-24T00:00:00+00:00',
     'Types manage support.'),
    ('UsedLimits', 'os-used-limits', '2013-10-03T00:00:00+00:00',
     'Provide data on limited resources that are being used.'),
    ('VolumeActions', 'os-volume-actions', '2012-05-31T00:00:00+00:00',
     'Enable volume actions.'),
    ('VolumeHostAttribute', 'os-vol-host-attr', '2011-11-03T00:00:00+00:00',
     'Expose host as an attribute of a volume.'),
    ('VolumeImageMetadata', 'os-vol-image-meta', '2012-12-07T00:00:00+00:00',
     'Show image metadata associated with the volume.'),
    ('VolumeManage', 'os-volume-manage', '2014-02-10T00:00:00+00:00',
     "Allows existing backend storage to be 'managed' by Cinder."),
    ('VolumeMigStatusAttribute', 'os-vol-mig-status-attr',
     '2013-08-08T00:00:00+00:00',
     'Expose migration_status as an attribute of a volume.'),
    ('VolumeTenantAttribute', 'os-vol-tenant-attr',
     '2011-11-03T00:00:00+00:00',
     'Expose the internal project_id as an attribute of a volume.'),
    ('VolumeTransfer', 'os-volume-transfer', '2013-05-29T00:00:00+00:00',
     'Volume transfer management support.'),
    ('VolumeTypeAccess', 'os-volume-type-access', '2014-06-26T00:00:00Z',
     'Volume type access support.'),
    ('VolumeUnmanage', 'os-volume-unmanage', '2012-05-31T00:00:00+00:00',
     'Enable volume unmanage operation.'),
)


def _view(extension):
    name, alias, updated, description = extension
    return {'name': name, 'alias': alias, 'description': description,
            'updated': updated, 'links': []}


class ExtensionController:

    def __init__(self, alias):
        self.alias = alias

    index = rest.by_method()

    @index.when(method='GET')
    @rest.json(200)
    def show(self):
        for extension in EXTENSIONS:
            if extension[1] == self.alias:
                return {'extension': _view(extension)}
        raise errors.NotFound()


class ExtensionsController(rest.Collection):

    index = rest.by_method()

    @index.when(method='GET')
    @rest.json(200)
    def get_all(self):
        return {'extensions': [_view(e) for e in EXTENSIONS]}

    def member(self, alias):
        return ExtensionController(alias)
