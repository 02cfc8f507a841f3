"""Reverting a volume to its latest snapshot (the ``revert`` action,
3.40): the volume goes 'reverting' and the snapshot 'restoring' in one
transaction, the volume's swap requiring in SQL that the snapshot is still
its latest and of its size; the snapshot's ``workers`` row records the
operation, and the snapshot's transition that ends it ends the volume's
too (``linked``). Refusals are 409s, as Cinder's."""
import sqlalchemy as sa
from sqlalchemy import orm

from db import models
from volapi.api import microversion as mv
from volapi.policies import volume_actions as action_policies
from volapi.volume.transitions.vocabulary import Criterion
from volapi.volume.transitions.vocabulary import Linked
from volapi.volume.transitions.vocabulary import Transition

Volume = models.Volume
Snapshot = models.Snapshot
_Later = orm.aliased(Snapshot, name='later_snapshot')

LATEST_SNAPSHOT_OF_ITS_SIZE = Criterion(
    'must have snapshot %(snapshot_id)s as its latest, of its size',
    lambda p: sa.exists().where(
        Snapshot.id == p['snapshot_id'], Snapshot.volume_id == Volume.id,
        Snapshot.deleted == sa.false(), Snapshot.volume_size == Volume.size,
        # Two levels down: correlated by hand (the volume is the
        # UPDATE's, the snapshot the level above's).
        ~sa.exists().where(_Later.volume_id == Volume.id,
                           _Later.deleted == sa.false(),
                           _Later.created_at > Snapshot.created_at)
        .correlate_except(_Later)),
    bound=('snapshot_id',))

TABLE = [
    Transition(
        'revert_to_snapshot', 'volume',
        'revert: the volume is rewritten from its latest snapshot',
        source=('available',),
        requires=(LATEST_SNAPSHOT_OF_ITS_SIZE,),
        values={'status': 'reverting'},
        min_version=mv.VOLUME_REVERT, policy=action_policies.REVERT,
        http_status=409),
    Transition(
        'snapshot_revert', 'snapshot',
        "revert: the snapshot the volume is rewritten from (in the "
        "transaction of revert_to_snapshot)",
        source=('available',),
        values={'status': 'restoring'},
        min_version=mv.VOLUME_REVERT, http_status=409,
        workers_row='track'),
    Transition(
        'snapshot_revert_done', 'snapshot',
        'the volume holds the snapshot\'s data again; both are available',
        source=('restoring',),
        values={'status': 'available'},
        side='worker', workers_row='finish',
        linked=(Linked('volume', 'volume_id', 'revert_volume_done'),)),
    Transition(
        'snapshot_revert_failed', 'snapshot',
        "the revert failed: the snapshot is available, the volume 'error' "
        '(as Cinder: its data is in doubt)',
        source=('restoring',),
        values={'status': 'available'},
        side='worker', workers_row='finish',
        linked=(Linked('volume', 'volume_id', 'revert_volume_failed'),)),
    Transition(
        'revert_volume_done', 'volume',
        "a revert ended: the volume is available",
        source=('reverting',),
        values={'status': 'available'},
        side='worker', lenient=True),
    Transition(
        'revert_volume_failed', 'volume',
        "a revert failed: the volume is in 'error'",
        source=('reverting',),
        values={'status': 'error'},
        side='worker', lenient=True),
]
