"""Rolling back attach and detach holds whose client vanished.

os-reserve, POST /attachments and os-begin_detaching put a volume, or an
attachment, on hold until the client's next call (os-attach, os-complete,
os-detach). A client that never makes it would leave the hold forever
(Cinder's volumes stuck in 'attaching', 'detaching' or 'reserved'). Each
volume worker's periodic reconciliation rolls back the holds on the volumes
its cluster serves that have not changed for ``[volume]
attach_hold_timeout`` seconds, as the client itself would have:

- an attachment 'reserved' or 'attaching' is removed as DELETE
  /attachments/{id} removes it (``attachment_delete`` on the volume and
  ``attachment_hold_expired`` on the attachment, in one transaction); a
  connection made for its connector is terminated once that has committed;
- a volume 'attaching' after os-reserve (no attachment being made) is
  unreserved (``reserve_hold_expired``);
- a volume 'detaching' goes back to 'in-use' (``detaching_hold_expired``).

Each is one compare-and-swap whose WHERE holds the age, so a hold touched
or completed after the candidates were read is left alone, and of the
cluster members that find the same hold exactly one rolls it back.
Attachments go first: a volume held only for an expired attachment is
released with it. Ages compare the worker's clock with those of the
processes that wrote the rows, as heartbeats do; the timeout dwarfs the
skew of clocks kept in step.
"""
import datetime

from oslo_config import cfg
from oslo_log import log as logging
from oslo_utils import timeutils

from db import exceptions as db_exc
import objects
from volapi.volume.transitions import engine

LOG = logging.getLogger(__name__)
CONF = cfg.CONF

# A volume status only a hold leaves -> the transition that rolls it back.
VOLUME_HOLDS = {'attaching': 'reserve_hold_expired',
                'detaching': 'detaching_hold_expired'}
ATTACHMENT_HOLDS = ('reserved', 'attaching')

# The hold was completed, touched or rolled back by a peer meanwhile.
_LOST = (db_exc.ConditionNotMet, db_exc.NotFound, db_exc.ConcurrentUpdate)


class HoldExpiry:
    """Rolls back the expired holds on the volumes a worker's cluster
    serves (``membership``, see volapi.volume.cluster), terminating
    connections with the worker's ``driver``."""

    def __init__(self, context, membership, driver):
        self.context = context
        self.membership = membership
        self.driver = driver

    def expire(self, timeout=None):
        """One pass; returns the attachments and volumes rolled back."""
        if timeout is None:
            timeout = CONF.volume.attach_hold_timeout
        cutoff = timeutils.utcnow() - datetime.timedelta(seconds=timeout)
        done = [a for a in objects.VolumeAttachment.get_unchanged_since(
                    self.context, 'attach_status', ATTACHMENT_HOLDS, cutoff)
                if self._expire_attachment(a, cutoff)]
        done += [v for v in objects.Volume.get_unchanged_since(
                     self.context, 'status', tuple(VOLUME_HOLDS), cutoff)
                 if self.membership.serves(v) and
                 self._expire_volume(v, cutoff)]
        return done

    def _expire_attachment(self, attachment, cutoff):
        try:
            volume = objects.Volume.get_by_id(self.context,
                                              attachment.volume_id)
        except db_exc.NotFound:
            return False
        if not self.membership.serves(volume):
            return False
        try:
            engine.run(self.context,
                       engine.prepare(self.context, 'attachment_delete',
                                      volume, reflect=False,
                                      attachment_id=attachment.id),
                       engine.prepare(self.context, 'attachment_hold_expired',
                                      attachment, reflect=False,
                                      hold_cutoff=cutoff))
        except _LOST as e:
            LOG.debug('attachment %s: hold not rolled back: %s',
                      attachment.id, e)
            return False
        LOG.warning("volume %s: attachment %s, left '%s' since %s by a "
                    "client that never completed it, removed",
                    volume.id, attachment.id, attachment.attach_status,
                    attachment.updated_at or attachment.created_at)
        if attachment.connector is not None:
            try:
                self.driver.terminate_connection(
                    volume, attachment.connector_dict())
            except Exception:
                # As after DELETE /attachments: the attachment is gone
                # either way; the backend keeps the export until an admin
                # removes it.
                LOG.exception('volume %s: terminating the connection of '
                              'expired attachment %s failed', volume.id,
                              attachment.id)
        return True

    def _expire_volume(self, volume, cutoff):
        name = VOLUME_HOLDS[volume.status]
        held = volume.status
        try:
            engine.apply(self.context, name, volume, hold_cutoff=cutoff)
        except _LOST as e:
            LOG.debug('volume %s: %s not applied: %s', volume.id, name, e)
            return False
        LOG.warning("volume %s: left '%s' by a client that never finished, "
                    "rolled back to '%s' (%s)", volume.id, held,
                    volume.status, name)
        return True
