"""Asking a worker and waiting for the answer (an RPC call): a backend's
capabilities, the storage it could manage, the size of a storage object;
a volume's connections.

The backend is named as a volume service names it (``host@backend``) or
as a cluster (``cluster@backend``). A backend with no live worker is a
WorkerUnavailable at once, without waiting out the RPC timeout; so is one
whose worker does not answer in time, or a broker that is down: the
request may succeed later, and nothing was changed.
"""
import oslo_messaging
from oslo_config import cfg
from oslo_log import log as logging

from rpc import transport as rpc_transport
from volapi import request_text
from volapi.volume import api as volume_api
from volapi.volume import cluster
from volapi.volume.drivers import base as drivers_base

CONF = cfg.CONF
LOG = logging.getLogger(__name__)


class NoSuchBackend(Exception):
    """No volume service has that host or cluster name."""


class WorkerFailed(Exception):
    """The worker raised: ``exc_type`` names its exception (a driver's
    InvalidReference ...), ``message`` is its text."""

    def __init__(self, exc_type, message):
        super().__init__('%s: %s' % (exc_type, message))
        self.exc_type, self.message = exc_type, message


def call(context, name, what, method, **kwargs):
    """(server, answer): ``VolumeWorkerClient.<method>(context, server,
    **kwargs)`` to a live worker of backend ``name``, ``server`` the RPC
    server of the backend (its cluster's name, if it is in one); ``what``
    says what is asked, for the errors ('get the capabilities of'). Raises
    NoSuchBackend, WorkerUnavailable or WorkerFailed."""
    services = cluster.services_named(context, name)
    if not services:
        raise NoSuchBackend(name)

    def unavailable(why):
        return volume_api.WorkerUnavailable('Unable to %s backend %s: %s.' % (
            what, request_text.excerpt(name), why))

    if not any(s.is_up(CONF.service_down_time) for s in services):
        raise unavailable('no volume worker serving it is up')
    server = services[0].cluster_name or services[0].host
    try:
        return server, getattr(volume_api.worker_client(), method)(
            context, server, **kwargs)
    except oslo_messaging.MessagingTimeout:
        raise unavailable('no volume worker answered') from None
    except rpc_transport.SEND_FAILURES:
        raise unavailable('the message broker is unavailable') from None
    except oslo_messaging.RemoteError as error:
        raise WorkerFailed(error.exc_type, error.value) from None
    except drivers_base.VolumeDriverError as error:
        # In process (the fake transport) the driver's own exception.
        raise WorkerFailed(type(error).__name__, str(error)) from None


def on_volume(context, volume, what, method, **kwargs):
    """``VolumeWorkerClient.<method>(context, volume, **kwargs)`` to a live
    worker serving ``volume``; ``what`` says what is asked ('initialize
    the connection to'). Raises WorkerUnavailable as :func:`call` does, or
    BackendError when the worker failed: its exception is named, its words
    stay in its log (they name paths)."""
    def unavailable(why):
        return volume_api.WorkerUnavailable('Unable to %s volume %s: %s.'
                                            % (what, volume.id, why))

    if not cluster.has_live_member(context, volume):
        raise unavailable('no volume worker serving it is up')
    try:
        return getattr(volume_api.worker_client(), method)(
            context, volume, **kwargs)
    except oslo_messaging.MessagingTimeout:
        LOG.warning('%s of volume %s timed out', method, volume.id)
        raise unavailable('no volume worker answered') from None
    except rpc_transport.SEND_FAILURES as e:
        LOG.warning('%s of volume %s not sent: %s', method, volume.id, e)
        raise unavailable('the message broker is unavailable') from None
    except Exception as e:
        LOG.exception('%s of volume %s failed', method, volume.id)
        raise volume_api.BackendError(
            'Unable to %s volume %s: the volume worker failed (%s).' % (
                what, volume.id, getattr(e, 'exc_type', type(e).__name__))
        ) from None
