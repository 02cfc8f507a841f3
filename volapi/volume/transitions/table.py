"""The transition table (see the package's docstring) and the statuses it
speaks of; its building blocks (SQL criteria, computed values) are in
:mod:`.blocks`. Only data: :mod:`.engine` applies it, :mod:`.doc`
describes it."""
from db import conditions as cond
from db import models
from objects import worker
from volapi.api import microversion as mv
from volapi.policies import snapshots as snapshot_policies
from volapi.policies import volume_transfer as transfer_policies
from volapi.policies import volume_actions as volume_action_policies
from volapi.policies import volumes as volume_policies
from volapi.volume.transitions.blocks import ATTACHMENT_HOLD_EXPIRED
from volapi.volume.transitions.blocks import ATTACH_STATUS_AFTER_DETACH
from volapi.volume.transitions.blocks import AVAILABLE_TO_CHANGE_MULTIATTACH
from volapi.volume.transitions.blocks import CASCADE_SNAPSHOT_STATUSES
from volapi.volume.transitions.blocks import ELSEWHERE
from volapi.volume.transitions.blocks import HAS_ATTACHMENT
from volapi.volume.transitions.blocks import NAME_VALUES
from volapi.volume.transitions.blocks import NOT_READONLY_FOR_RW
from volapi.volume.transitions.blocks import NO_ATTACHMENTS
from volapi.volume.transitions.blocks import NO_ATTACHMENT_BEING_MADE
from volapi.volume.transitions.blocks import NO_BIGGER_THAN_CLONE
from volapi.volume.transitions.blocks import NO_SNAPSHOTS
from volapi.volume.transitions.blocks import NOT_CONNECTED
from volapi.volume.transitions.blocks import OF_PLANNED_TYPE
from volapi.volume.transitions.blocks import ON_PLANNED_POOL
from volapi.volume.transitions.blocks import OLD_STATUS
from volapi.volume.transitions.blocks import PREVIOUS_ATTACHED_STATUS
from volapi.volume.transitions.blocks import SNAPSHOTS_AVAILABLE
from volapi.volume.transitions.blocks import SNAPSHOT_HELD
from volapi.volume.transitions.blocks import STATUS_AFTER_ATTACHMENT_DELETE
from volapi.volume.transitions.blocks import STATUS_AFTER_DETACH
from volapi.volume.transitions.blocks import STATUS_AFTER_UNRESERVE
from volapi.volume.transitions.blocks import TYPE_MULTIATTACH
from volapi.volume.transitions.blocks import VOLUME_HELD
from volapi.volume.transitions.blocks import VOLUME_HOLD_EXPIRED
from volapi.volume.transitions.blocks import WHEN_MULTIATTACH
from volapi.volume.transitions.blocks import forced
from volapi.volume.transitions.blocks import since
from volapi.volume.transitions.vocabulary import Also
from volapi.volume.transitions.vocabulary import Bound
from volapi.volume.transitions.vocabulary import NOW
from volapi.volume.transitions.vocabulary import Param
from volapi.volume.transitions.vocabulary import Transition
from volapi.volume.transitions.vocabulary import Unchanged


Volume = models.Volume
Snapshot = models.Snapshot
Attachment = models.VolumeAttachment

# Cinder's AVAILABLE_MIGRATION_STATUS: the volume is not being migrated.
NOT_MIGRATING = (None, 'deleting', 'error', 'success')
# Statuses a volume may be reset to (Cinder's VolumeAdminController).
RESET_STATUSES = ('creating', 'available', 'deleting', 'error',
                  'error_deleting', 'error_managing', 'managing', 'attaching',
                  'in-use', 'detaching', 'maintenance', 'reserved',
                  'extending', 'error_extending', 'retyping')
RESET_ATTACH_STATUSES = ('attached', 'detached')
RESET_MIGRATION_STATUSES = ('migrating', 'error', 'success', 'completing',
                            'none', 'starting')
# Statuses a snapshot may be reset to (Cinder's SnapshotStatus.ALL but
# 'deleted', which only a finished delete sets).
SNAPSHOT_RESET_STATUSES = ('error', 'available', 'creating', 'deleting',
                           'updating', 'error_deleting', 'unmanaging',
                           'backing-up', 'restoring')

# The ``workers`` row's resource_type for each resource (Cinder's names).
WORKER_TYPES = worker.RESOURCE_TYPES


# An attachment removed (soft-deleted), however it goes.
ATTACHMENT_REMOVED_VALUES = {'attach_status': 'detached', 'detach_time': NOW,
                             'deleted': True, 'deleted_at': NOW}

_DELETE_EXPECT = {'attach_status': cond.Not('attached'),
                  'migration_status': NOT_MIGRATING,
                  'consistencygroup_id': None,
                  'group_id': None}
_DELETE_VALUES = {'status': 'deleting', 'terminated_at': NOW}

# A migration starts from an available volume that no snapshot, group or
# migration ties to its pool; its size is the one the claim moved.
_MIGRATE_EXPECT = {'migration_status': NOT_MIGRATING,
                   'consistencygroup_id': None, 'group_id': None,
                   'host': cond.Not(None)}
_MIGRATE_REQUIRES = (NO_SNAPSHOTS, ELSEWHERE, Unchanged('size'))
_MIGRATE_VALUES = {'previous_status': OLD_STATUS,
                   'migration_status': 'migrating',
                   'migration_id': Param('migration_id')}
# The migration a worker ends is the one it copied for.
_MIGRATION_IN_FLIGHT = {'migration_status': 'migrating'}


# -- the table ------------------------------------------------------------------

TABLE = [
    # Volumes: creating and describing ----------------------------------------
    Transition(
        'create', 'volume',
        'POST /volumes: insert the volume and its metadata (with '
        'create_from_snapshot or create_from_volume for a source, and a '
        "write of the volume type's row that a concurrent type delete "
        'conflicts with, in the same transaction)',
        values={'status': 'creating', 'attach_status': 'detached'},
        creates=True, workers_row='track'),
    Transition(
        'create_no_pool', 'volume',
        'POST /volumes when no pool can hold the volume: insert it in '
        "'error', holding no pool, with a user message saying why",
        values={'status': 'error', 'attach_status': 'detached'},
        creates=True),
    Transition(
        'create_from_snapshot', 'snapshot',
        'POST /volumes from a snapshot: the snapshot is held while the '
        'volume is inserted, so a concurrent snapshot delete cannot pass',
        source=('available',),
        values={'updated_at': SNAPSHOT_HELD}),
    Transition(
        'create_from_volume', 'volume',
        'POST /volumes from a volume: the source volume is held while the '
        'clone is inserted, so a concurrent delete cannot pass',
        source=('available', 'in-use'),
        requires=(NO_BIGGER_THAN_CLONE,),
        values={'updated_at': VOLUME_HELD}),
    Transition(
        'update', 'volume', 'PUT /volumes/{id} without metadata: rename',
        values=NAME_VALUES),
    Transition(
        'set_bootable', 'volume', 'os-set_bootable: the bootable flag',
        expect={'status': cond.Not('maintenance')},
        values={'bootable': Param('bootable')}),
    Transition(
        'update_metadata', 'volume',
        'the metadata API and PUT /volumes/{id} with metadata: the '
        'metadata rows are set, replaced or deleted in the same transaction',
        expect={'status': cond.Not('maintenance')},
        values=NAME_VALUES),
    # Volumes: tenant/admin actions -------------------------------------------
    Transition(
        'delete', 'volume', 'DELETE /volumes/{id}: start deleting',
        source=('available', 'error', 'error_restoring', 'error_extending',
                'error_managing'),
        expect=_DELETE_EXPECT,
        requires=(NO_SNAPSHOTS, NO_ATTACHMENTS),
        values=_DELETE_VALUES,
        workers_row='track'),
    Transition(
        'force_delete', 'volume',
        'DELETE /volumes/{id}?force=true: start deleting from any status',
        expect=dict({'status': cond.Not('deleting')}, **_DELETE_EXPECT),
        requires=(NO_SNAPSHOTS, NO_ATTACHMENTS),
        values=_DELETE_VALUES,
        min_version=mv.VOLUME_DELETE_FORCE, policy=volume_policies.FORCE_DELETE,
        workers_row='track'),
    Transition(
        'extend', 'volume', 'os-extend: start growing the volume',
        source=('available',),
        also=(Also(('in-use',), 'from microversion %d.%d' % mv.VOLUME_EXTEND_INUSE,
                   since(mv.VOLUME_EXTEND_INUSE)),),
        # The status too: the API chose the policy (extend, or extend an
        # attached volume) by the status it read.
        requires=(Bound('size', Param('new_size')), Unchanged('size'),
                  Unchanged('status')),
        expect={'migration_status': NOT_MIGRATING},
        values={'status': 'extending', 'previous_status': OLD_STATUS},
        workers_row='track'),
    Transition(
        'reserve', 'volume', 'os-reserve: hold the volume for an attach',
        source=('available',),
        also=(Also(('in-use',), WHEN_MULTIATTACH, flag='multiattach'),),
        expect={'migration_status': NOT_MIGRATING},
        values={'status': 'attaching'}),
    Transition(
        'unreserve', 'volume', 'os-unreserve: drop the hold',
        source=('attaching',),
        values={'status': STATUS_AFTER_UNRESERVE},
        lenient=True),
    Transition(
        'begin_detaching', 'volume', 'os-begin_detaching',
        source=('in-use',),
        expect={'attach_status': 'attached',
                'migration_status': NOT_MIGRATING},
        values={'status': 'detaching'}),
    Transition(
        'roll_detaching', 'volume', 'os-roll_detaching: detach abandoned',
        source=('detaching',),
        values={'status': 'in-use'},
        lenient=True),
    Transition(
        'attach', 'volume',
        'os-attach: record an attachment (inserted in the same transaction)',
        source=('attaching', 'available'),
        also=(Also(('in-use',), WHEN_MULTIATTACH, flag='multiattach'),),
        requires=(NOT_READONLY_FOR_RW,),
        expect={'migration_status': NOT_MIGRATING},
        values={'status': 'in-use', 'attach_status': 'attached'}),
    Transition(
        'detach', 'volume',
        'os-detach: remove an attachment (attachment_remove in the same '
        'transaction)',
        source=('detaching', 'in-use'),
        expect={'attach_status': 'attached'},
        requires=(HAS_ATTACHMENT,),
        values={'status': STATUS_AFTER_DETACH,
                'attach_status': ATTACH_STATUS_AFTER_DETACH}),
    Transition(
        'reset_status', 'volume',
        'os-reset_status: set the statuses given, whatever they are',
        values={'status': Param('status', optional=True),
                'attach_status': Param('attach_status', optional=True),
                'migration_status': Param('migration_status', optional=True)},
        policy=volume_action_policies.RESET_STATUS,
        workers_row='finish'),
    Transition(
        'retype', 'volume', 'os-retype: change the type on the same backend',
        source=('available', 'in-use'),
        expect={'migration_status': NOT_MIGRATING,
                'consistencygroup_id': None,
                'group_id': None,
                'volume_type_id': cond.Not(Param('new_type_id'))},
        # The claim moves the counts from the type the request loaded; the
        # pool was found to have what the new type requires.
        requires=(AVAILABLE_TO_CHANGE_MULTIATTACH, Unchanged('volume_type_id'),
                  ON_PLANNED_POOL),
        values={'status': 'retyping', 'previous_status': OLD_STATUS},
        workers_row='track'),
    Transition(
        'migrate', 'volume',
        'os-migrate_volume: start moving the volume to another pool; its '
        'allocation moves to the destination and the migration consumer '
        '(migration_id) holds the source, in the same transaction',
        source=('available',),
        expect=_MIGRATE_EXPECT,
        requires=_MIGRATE_REQUIRES + (OF_PLANNED_TYPE,),
        values=dict(_MIGRATE_VALUES, status=Param('status', optional=True)),
        policy=volume_action_policies.MIGRATE,
        workers_row='track', workers_status='migrating'),
    Transition(
        'retype_migrate', 'volume',
        'os-retype with migration_policy on-demand when the new type rules '
        "the volume's pool out: a migration (as migrate) whose end also "
        'changes the type',
        source=('available',),
        expect=dict(_MIGRATE_EXPECT,
                    volume_type_id=cond.Not(Param('new_type_id'))),
        requires=_MIGRATE_REQUIRES + (AVAILABLE_TO_CHANGE_MULTIATTACH,
                                      Unchanged('volume_type_id')),
        values=dict(_MIGRATE_VALUES, status='retyping'),
        workers_row='track', workers_status='migrating'),
    Transition(
        'update_readonly_flag', 'volume',
        "os-update_readonly_flag: set admin metadata 'readonly' (upserted in "
        "the same transaction)",
        source=('available',),
        values={}),
    Transition(
        'snapshot_create', 'volume',
        'POST /snapshots: the snapshot row is inserted in the same '
        'transaction, so a concurrent delete cannot pass "no snapshots"',
        source=('available',),
        also=(Also(('in-use',), 'with force', forced),),
        expect={'migration_status': NOT_MIGRATING,
                'host': cond.Not(None)},
        # The snapshot row copies them from the volume the request loaded.
        requires=(Unchanged('size'), Unchanged('volume_type_id')),
        values={}),
    Transition(
        'snapshot_new', 'snapshot',
        'POST /snapshots: insert the snapshot and its metadata (in the '
        'transaction of snapshot_create)',
        values={'status': 'creating', 'progress': '0%'},
        creates=True, workers_row='track'),
    # Volumes: the attachments API (3.27+) ---------------------------------
    Transition(
        'attachment_reserve', 'volume',
        'POST /attachments without connector: the attachment row '
        '(reserved) is inserted in the same transaction',
        source=('available',),
        also=(Also(('in-use',), WHEN_MULTIATTACH, flag='multiattach'),),
        expect={'migration_status': NOT_MIGRATING},
        values={'status': 'reserved'},
        min_version=mv.NEW_ATTACH),
    Transition(
        'attachment_attach', 'volume',
        'POST /attachments with a connector: the attachment row (attaching) '
        'is inserted in the same transaction',
        source=('available',),
        also=(Also(('in-use',), WHEN_MULTIATTACH, flag='multiattach'),),
        expect={'migration_status': NOT_MIGRATING},
        values={'status': 'attaching'},
        min_version=mv.NEW_ATTACH),
    Transition(
        'attachment_update', 'volume',
        'PUT /attachments/{id} with a connector (with attachment_connect)',
        source=('reserved', 'attaching'),
        requires=(HAS_ATTACHMENT,),
        values={'status': 'attaching'},
        min_version=mv.NEW_ATTACH),
    Transition(
        'attachment_complete', 'volume',
        'os-complete: the volume is attached (with attachment_attached)',
        source=('attaching', 'reserved', 'in-use'),
        requires=(HAS_ATTACHMENT,),
        values={'status': 'in-use', 'attach_status': 'attached'},
        min_version=mv.NEW_ATTACH_COMPLETION),
    Transition(
        'attachment_delete', 'volume',
        'DELETE /attachments/{id} (with attachment_remove)',
        source=('available', 'reserved', 'attaching', 'in-use', 'detaching',
                'error_attaching', 'error_detaching'),
        requires=(HAS_ATTACHMENT,),
        values={'status': STATUS_AFTER_ATTACHMENT_DELETE,
                'attach_status': ATTACH_STATUS_AFTER_DETACH},
        min_version=mv.NEW_ATTACH),
    # Attachments ------------------------------------------------------------
    Transition(
        'attachment_new', 'attachment',
        'os-attach, POST /attachments: insert the attachment (in the '
        'transaction of attach, attachment_reserve or attachment_attach)',
        values={'attach_status': Param('attach_status'),
                'attach_time': Param('attach_time', optional=True)},
        creates=True),
    Transition(
        'attachment_connect', 'attachment',
        'PUT /attachments/{id}: store the connector before the worker '
        'initializes the connection',
        source=('reserved', 'attaching'),
        values={'attach_status': 'attaching',
                'connector': Param('connector'),
                'attached_host': Param('attached_host', optional=True),
                'mountpoint': Param('mountpoint', optional=True),
                'attach_mode': Param('attach_mode', optional=True)},
        min_version=mv.NEW_ATTACH),
    Transition(
        'attachment_connected', 'attachment',
        "store the worker's connection_info",
        source=('attaching',),
        requires=(Unchanged('connector'),),
        values={'connection_info': Param('connection_info')},
        min_version=mv.NEW_ATTACH),
    Transition(
        'attachment_attached', 'attachment',
        'os-complete: the consumer has connected',
        source=('attaching',),
        values={'attach_status': 'attached', 'attach_time': NOW},
        min_version=mv.NEW_ATTACH_COMPLETION),
    Transition(
        'attachment_remove', 'attachment',
        'os-detach / DELETE /attachments/{id}: soft-delete the attachment',
        requires=(NOT_CONNECTED,),
        values=ATTACHMENT_REMOVED_VALUES),
    Transition(
        'attachment_disconnect', 'attachment',
        'DELETE /attachments/{id} of an attachment the worker connected: '
        'soft-delete it; the workers row records the termination of its '
        'connection, which the worker then makes (or a peer re-drives)',
        # The workers row and the cast terminate the connector loaded.
        requires=(Unchanged('connector'),),
        values=ATTACHMENT_REMOVED_VALUES,
        workers_row='track', workers_status='terminating'),
    # Snapshots ----------------------------------------------------------------
    Transition(
        'snapshot_update', 'snapshot', 'PUT /snapshots/{id}: rename',
        values=NAME_VALUES),
    Transition(
        'snapshot_delete', 'snapshot', 'DELETE /snapshots/{id}',
        source=('available', 'error'),
        values={'status': 'deleting'},
        workers_row='track'),
    Transition(
        'snapshot_force_delete', 'snapshot',
        'os-force_delete: start deleting from any status',
        expect={'status': cond.Not('deleting')},
        values={'status': 'deleting'},
        policy=snapshot_policies.FORCE_DELETE,
        workers_row='track'),
    Transition(
        'snapshot_reset_status', 'snapshot',
        'os-reset_status: set the status given, whatever it is',
        values={'status': Param('status')},
        policy=snapshot_policies.RESET_STATUS,
        workers_row='finish'),
    Transition(
        'snapshot_cascade_delete', 'snapshot',
        'DELETE /volumes/{id}?cascade=true takes each snapshot along',
        source=CASCADE_SNAPSHOT_STATUSES,
        values={'status': 'deleting'},
        workers_row='track'),
    # Transfers: a volume offered to another project, and taken ------------
    Transition(
        'transfer_create', 'volume',
        'POST /volume-transfers: offer the volume (the transfer row is '
        'inserted in the same transaction)',
        source=('available',),
        requires=(SNAPSHOTS_AVAILABLE,),
        values={'status': 'awaiting-transfer'},
        policy=transfer_policies.CREATE),
    Transition(
        'transfer_new', 'transfer',
        'POST /volume-transfers: insert the transfer (in the transaction '
        'of transfer_create)',
        values={'deleted': False, 'accepted': False},
        creates=True),
    Transition(
        'transfer_delete', 'transfer',
        'DELETE /volume-transfers/{id}: withdraw the offer (with '
        'transfer_cancel)',
        values={'deleted': True, 'deleted_at': NOW},
        policy=transfer_policies.DELETE),
    Transition(
        'transfer_cancel', 'volume',
        'DELETE /volume-transfers/{id}: the volume is its owner\'s again '
        '(as in Cinder, a volume no longer awaiting the transfer is left as '
        'it is and the transfer goes all the same)',
        source=('awaiting-transfer',),
        values={'status': 'available'},
        lenient=True),
    Transition(
        'transfer_accepted', 'transfer',
        'POST /volume-transfers/{id}/accept: the transfer is taken (with '
        'transfer_accept, snapshot_transfer, the quota of both projects '
        'and the placement consumers moved, in one transaction)',
        values={'deleted': True, 'deleted_at': NOW, 'accepted': True,
                'destination_project_id': Param('project_id')},
        policy=transfer_policies.ACCEPT),
    Transition(
        'transfer_accept', 'volume',
        'POST /volume-transfers/{id}/accept: the volume goes to the '
        'accepting project and user (its size and type as the quota '
        'charges read them)',
        source=('awaiting-transfer',),
        requires=(Unchanged('size'), Unchanged('volume_type_id')),
        values={'status': 'available', 'project_id': Param('project_id'),
                'user_id': Param('user_id')}),
    Transition(
        'snapshot_transfer', 'snapshot',
        'POST /volume-transfers/{id}/accept: each snapshot goes with its '
        'volume (unless the transfer says no_snapshots)',
        source=('available',),
        values={'project_id': Param('project_id'),
                'user_id': Param('user_id')}),
    # Worker side: the volume manager finishes what the API started ------
    Transition(
        'create_done', 'volume', 'the backend made the volume',
        source=('creating',),
        values={'status': 'available',
                'host': Param('host', optional=True),
                'cluster_name': Param('cluster_name', optional=True),
                'provider_location': Param('provider_location',
                                           optional=True),
                'launched_at': Param('launched_at', default=NOW)},
        side='worker', workers_row='finish'),
    Transition(
        'create_failed', 'volume', 'the backend could not make the volume',
        source=('creating',),
        values={'status': 'error'},
        side='worker', workers_row='finish'),
    Transition(
        'extend_done', 'volume', 'the backend grew the volume',
        source=('extending',),
        values={'status': PREVIOUS_ATTACHED_STATUS, 'size': Param('size')},
        side='worker', workers_row='finish'),
    Transition(
        'extend_failed', 'volume', 'the backend could not grow the volume',
        source=('extending',),
        values={'status': 'error_extending'},
        side='worker', workers_row='finish'),
    Transition(
        'delete_done', 'volume', 'the backend removed the volume',
        source=('deleting',),
        values={'status': 'deleted', 'deleted': True, 'deleted_at': NOW},
        side='worker', workers_row='finish'),
    Transition(
        'delete_failed', 'volume', 'the backend could not remove the volume',
        source=('deleting',),
        values={'status': 'error_deleting'},
        side='worker', workers_row='finish'),
    Transition(
        'retype_done', 'volume', 'the backend applied the new type',
        source=('retyping',),
        values={'status': PREVIOUS_ATTACHED_STATUS,
                'volume_type_id': Param('volume_type_id'),
                'multiattach': TYPE_MULTIATTACH},
        side='worker', workers_row='finish'),
    Transition(
        'retype_failed', 'volume', 'the backend could not apply the type',
        source=('retyping',),
        values={'status': PREVIOUS_ATTACHED_STATUS},
        side='worker', workers_row='finish'),
    Transition(
        'migrate_done', 'volume',
        'the data is copied to the destination pool: the volume points '
        "there and the migration consumer's allocation on the source goes "
        '(in the same transaction)',
        expect=_MIGRATION_IN_FLIGHT,
        requires=(Unchanged('migration_id'),),
        values={'status': PREVIOUS_ATTACHED_STATUS,
                'migration_status': 'success',
                'host': Param('host'),
                'cluster_name': Param('cluster_name'),
                'provider_location': Param('provider_location',
                                           optional=True),
                'name_id': Param('name_id'),
                'volume_type_id': Param('volume_type_id'),
                'multiattach': TYPE_MULTIATTACH},
        side='worker', workers_row='finish'),
    Transition(
        'migrate_failed', 'volume',
        'the copy failed: the volume stays where it was and its allocation '
        "goes back to the source (the migration consumer's is deleted), in "
        'the same transaction',
        expect=_MIGRATION_IN_FLIGHT,
        requires=(Unchanged('migration_id'),),
        values={'status': PREVIOUS_ATTACHED_STATUS,
                'migration_status': 'error'},
        side='worker', workers_row='finish'),
    Transition(
        'snapshot_create_done', 'snapshot', 'the backend made the snapshot',
        source=('creating',),
        values={'status': 'available', 'progress': '100%',
                'provider_location': Param('provider_location',
                                           optional=True)},
        side='worker', workers_row='finish'),
    Transition(
        'snapshot_create_failed', 'snapshot',
        'the backend could not make the snapshot',
        source=('creating',),
        values={'status': 'error'},
        side='worker', workers_row='finish'),
    Transition(
        'snapshot_delete_done', 'snapshot', 'the backend removed the snapshot',
        source=('deleting',),
        values={'status': 'deleted', 'deleted': True, 'deleted_at': NOW},
        side='worker', workers_row='finish'),
    Transition(
        'snapshot_delete_failed', 'snapshot',
        'the backend could not remove the snapshot',
        source=('deleting',),
        values={'status': 'error_deleting'},
        side='worker', workers_row='finish'),
    # Reconciliation: holds whose client vanished ([volume]
    # attach_hold_timeout), rolled back as the client would have -------
    Transition(
        'reserve_hold_expired', 'volume',
        'an os-reserve nobody attached is dropped, as os-unreserve',
        source=('attaching',),
        requires=(VOLUME_HOLD_EXPIRED, NO_ATTACHMENT_BEING_MADE),
        values={'status': STATUS_AFTER_UNRESERVE},
        side='reconciliation'),
    Transition(
        'detaching_hold_expired', 'volume',
        'an os-begin_detaching nobody detached is rolled back, as '
        'os-roll_detaching',
        source=('detaching',),
        requires=(VOLUME_HOLD_EXPIRED,),
        values={'status': 'in-use'},
        side='reconciliation'),
    Transition(
        'attachment_hold_expired', 'attachment',
        'an attachment nobody completed is removed, as DELETE '
        '/attachments/{id} (with attachment_delete; its connection is '
        'terminated once that has committed)',
        source=('reserved', 'attaching'),
        requires=(ATTACHMENT_HOLD_EXPIRED, Unchanged('connector')),
        values=ATTACHMENT_REMOVED_VALUES,
        side='reconciliation'),
]

TRANSITIONS = {t.name: t for t in TABLE}

# What the ``workers`` row of an operation keeps of its parameters (they are
# not in the resource's row until it ends), so that a peer can re-drive it.
WORKER_ARGUMENTS = {
    'extend': ('new_size',),
    'retype': ('new_type_id',),
    'migrate': ('dest_host',),
    'retype_migrate': ('dest_host', 'new_type_id'),
}

# A ``workers`` row (resource_type, status) left by a dead worker -> the
# transition that repairs its resource. For 'deleting' the cleanup may
# instead cast the delete again (the status already says "deleting").
CLEANUP = {
    ('Volume', 'creating'): 'create_failed',
    ('Volume', 'extending'): 'extend_failed',
    ('Volume', 'deleting'): 'delete_failed',
    ('Volume', 'retyping'): 'retype_failed',
    ('Volume', 'migrating'): 'migrate_failed',
    ('Snapshot', 'creating'): 'snapshot_create_failed',
    ('Snapshot', 'deleting'): 'snapshot_delete_failed',
}
# Rows whose resource needs no repair (what they record was already
# carried out in the database): the cleanup drops them, with why it
# matters.
NOTHING_TO_REPAIR = {
    ('VolumeAttachment', 'terminating'):
        'the backend may still export the volume to its host',
}
