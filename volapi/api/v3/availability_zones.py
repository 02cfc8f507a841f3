"""/v3/[{project_id}/]os-availability-zone: the zones volumes may be
created in, as Cinder lists them: the zones of the volume services, each
available unless all its services are disabled (whether they are up does
not count, as in Cinder). volapi serves one zone, ``[api]
storage_availability_zone``; with no volume service yet, there is none.
"""
import pecan
from oslo_config import cfg

from objects import service as service_obj
from volapi.api import rest

CONF = cfg.CONF


class AvailabilityZonesController:

    index = rest.by_method()

    @index.when(method='GET')
    @rest.json(200)
    def get_all(self, **params):
        services = service_obj.Service.get_all(
            pecan.request.ctx, binary=service_obj.VOLUME_BINARY)
        if not services:
            return {'availabilityZoneInfo': []}
        available = not all(service.disabled for service in services)
        return {'availabilityZoneInfo': [
            {'zoneName': CONF.api.storage_availability_zone,
             'zoneState': {'available': available}}]}
