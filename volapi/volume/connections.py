"""os-initialize_connection and os-terminate_connection: the connection
calls of Cinder's attach flow from before the attachments API (3.27),
made around os-reserve, os-attach and os-detach by Nova's older flow and
by os-brick tools. Each is a call to a worker serving the volume and
waits for it; nothing is recorded in the database (nor does Cinder record
it): the caller holds the connector, and ends the connection it made.
"""
from volapi.volume import api as volume_api
from volapi.volume import backend_call


def _volume(context, volume_id, authorize):
    volume = volume_api.get_volume(context, volume_id)
    if authorize is not None:
        authorize(volume)
    return volume


def initialize(context, volume_id, connector, version=None, authorize=None):
    """The connection info of the volume for ``connector`` (a dict), as
    Cinder answers it: ``{'connection_info': {...}}``."""
    volume = _volume(context, volume_id, authorize)
    if volume.status == 'maintenance':
        raise volume_api.InvalidRequest(
            'Invalid volume: The volume connection cannot be initialized in '
            'maintenance mode.')
    info = backend_call.on_volume(context, volume,
                                  'initialize the connection to',
                                  'initialize_connection',
                                  connector=connector)
    info['enforce_multipath'] = connector.get('enforce_multipath', False)
    return {'connection_info': info}


def terminate(context, volume_id, connector, version=None, authorize=None):
    """End the connection made for ``connector`` (None: every connection
    of the volume, as the driver sees fit)."""
    volume = _volume(context, volume_id, authorize)
    backend_call.on_volume(context, volume, 'terminate the connection to',
                           'terminate_connector', connector=connector)
