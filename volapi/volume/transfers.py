"""Volume transfers: a volume offered by its project, taken by another
(see :mod:`volapi.volume.api` for the conventions the use cases share).

- :func:`create`: ONE transaction: the volume's compare-and-swap
  ``available`` -> ``awaiting-transfer`` (its snapshots all 'available'
  unless ``no_snapshots``) and the insert of the transfer row.
- :func:`delete`: ONE transaction: the transfer soft-deleted and the
  volume back to ``available``.
- :func:`accept`: ONE transaction: the transfer marked accepted, the
  volume (and, unless ``no_snapshots``, its snapshots) moved to the
  accepting project and user by their compare-and-swaps, both projects'
  quota charged and released, and the placement consumers moved
  (claims.transfer). Any refusal rolls all of it back.

The transfer row is always the first row a transaction changes, so a
delete and accepts of one transfer queue there and exactly one wins; the
others find it gone (404, as Cinder answers for a transfer accepted or
deleted).

The key is Cinder's: a random hexadecimal string given once, to the
creator; the row keeps only the HMAC-SHA1 of it keyed by a random salt.
"""
import hashlib
import hmac
import secrets
import uuid

from db import conditions as cond
from db import session
import objects
from objects import quota
from objects import type_quota
from objects import volume_list
from volapi.volume import api as volume_api
from volapi.volume import claims
from volapi.volume.transitions import engine

# Cinder's volume_transfer_salt_length and volume_transfer_key_length.
SALT_LENGTH = 8
KEY_LENGTH = 16


class InvalidAuthKey(volume_api.InvalidRequest):
    """The key does not open the transfer (HTTP 400)."""


def random_text(length):
    """``length`` hexadecimal characters: what a recipient can type."""
    return secrets.token_hex((length + 1) // 2)[:length]


def crypt_hash(salt, auth_key):
    """Cinder's _get_crypt_hash: HMAC-SHA1 of the key, keyed by the
    salt, in hex."""
    if not isinstance(auth_key, (bytes, str)):
        auth_key = str(auth_key)  # the accept body may carry a number
    if isinstance(auth_key, str):
        auth_key = auth_key.encode('utf-8')
    return hmac.new(salt.encode('utf-8'), auth_key,
                    hashlib.sha1).hexdigest()


def _scope(context):
    """The project whose volumes' transfers the caller sees; None (all)
    for an administrator."""
    return None if context.is_admin else context.project_id


def get(context, transfer_id):
    """The live transfer, if the caller may see it (its volume is the
    caller's project's, or the caller is an administrator)."""
    return objects.Transfer.get_live(context, transfer_id, _scope(context))


def get_all(context, all_tenants=False, project_id=None, **query):
    """Live transfers of the caller's project's volumes; for an
    administrator asking ``all_tenants``, of every project's (or
    ``project_id``'s). ``query`` as objects.Transfer.get_all takes it."""
    if not (context.is_admin and all_tenants):
        project_id = context.project_id
    return objects.Transfer.get_all(context, project_id=project_id, **query)


# -- create --------------------------------------------------------------------

def _first_unavailable_snapshot(context, volume_id):
    for snapshot in objects.Snapshot.get_all(context, volume_id=volume_id,
                                             sort_keys=('created_at',),
                                             sort_dirs=('asc',)):
        if snapshot.status != 'available':
            return snapshot.id
    return None


def _refused_create(context, volume_id, refused):
    """Cinder's words for a volume that cannot be offered."""
    if refused.field == 'status':
        return volume_api.InvalidRequest(
            'Invalid volume: status must be available')
    if isinstance(refused.condition, cond.Filter):
        snapshot_id = _first_unavailable_snapshot(context, volume_id)
        if snapshot_id is not None:
            return volume_api.InvalidRequest(
                'Invalid snapshot: snapshot: %s status must be available'
                % snapshot_id)
    return refused


def create(context, volume_id, name=None, no_snapshots=False, version=None,
           authorize=None):
    """Offer the volume: returns (the transfer, its key). The key is not
    kept; only its hash is."""
    auth_key = random_text(KEY_LENGTH)
    salt = random_text(SALT_LENGTH)
    transfer = objects.Transfer(
        context, id=str(uuid.uuid4()), volume_id=volume_id,
        display_name=name, salt=salt, crypt_hash=crypt_hash(salt, auth_key),
        expires_at=None, no_snapshots=bool(no_snapshots),
        destination_project_id=None)

    def build(ctx, volume):
        transfer.source_project_id = volume.project_id
        return [engine.prepare(ctx, 'transfer_create', volume,
                               version=version,
                               no_snapshots=bool(no_snapshots)),
                engine.prepare(ctx, 'transfer_new', transfer)]

    try:
        volume_api.on_volume(context, volume_id, build, authorize)
    except engine.TransitionRefused as refused:
        raise _refused_create(context, volume_id, refused) from None
    return transfer, auth_key


# -- delete --------------------------------------------------------------------

def delete(context, transfer_id, authorize=None):
    """Withdraw the offer: the transfer goes and the volume is its owner's
    again, in one transaction."""
    def transaction(ctx):
        transfer = get(ctx, transfer_id)
        volume = volume_list.get(ctx, transfer.volume_id, project_only=False)
        if authorize is not None:
            authorize(volume)
        engine.prepare(ctx, 'transfer_delete', transfer).execute(ctx)
        engine.prepare(ctx, 'transfer_cancel', volume).execute(ctx)

    engine.run(context, transaction)


# -- accept --------------------------------------------------------------------

def _refused_accept(transfer_id, step, refused):
    """Cinder's words for a volume or snapshot that cannot be taken."""
    if refused.field != 'status':
        return refused
    if step.transition.resource == 'snapshot':
        return volume_api.InvalidRequest(
            'Invalid snapshot: Transfer %s: Snapshot %s is not in the '
            'expected available state.' % (transfer_id, step.obj.id))
    return volume_api.InvalidRequest(
        'Invalid volume: Transfer %s: Volume id %s expected in '
        'awaiting-transfer state.' % (transfer_id, step.obj.id))


def _execute(ctx, transfer_id, step):
    try:
        step.execute(ctx)
    except engine.TransitionRefused as refused:
        raise _refused_accept(transfer_id, step, refused) from None


def _snapshot_types(context, volume_id):
    with session.reader.connection.using(context):
        return {s.volume_type_id for s in objects.Snapshot.get_all(
            context, volume_id=volume_id)}


def accept(context, transfer_id, auth_key):
    """Take the volume offered by transfer ``transfer_id`` into the
    caller's project: returns the transfer (accepted). NotFound if the
    transfer is gone (accepted or deleted, also by a concurrent request),
    InvalidAuthKey, OverQuota for the accepting project, InvalidRequest
    for a volume or snapshot in another status."""
    project_id, user_id = context.project_id, context.user_id
    transfer = objects.Transfer.get_live(context, transfer_id)
    if not hmac.compare_digest(crypt_hash(transfer.salt, auth_key),
                               transfer.crypt_hash or ''):
        raise InvalidAuthKey('Invalid auth key: Attempt to transfer %s with '
                             'invalid auth key.' % transfer_id)
    # The accepting project's usage rows, before the transaction that
    # charges them (as a create makes its rows: type_quota.ensure_rows).
    volume = volume_list.get(context, transfer.volume_id, project_only=False)
    type_ids = {volume.volume_type_id}
    if not transfer.no_snapshots:
        type_ids |= _snapshot_types(context, volume.id)
    for type_id in sorted(type_ids, key=str):
        type_quota.ensure_rows(context, project_id, type_id)

    def transaction(ctx):
        claims.read_committed(ctx)
        _execute(ctx, transfer_id, engine.prepare(
            ctx, 'transfer_accepted', transfer, project_id=project_id))
        volume = volume_list.get(ctx, transfer.volume_id,
                                 project_only=False)
        giver = volume.project_id
        snapshots = [] if transfer.no_snapshots else \
            objects.Snapshot.get_all(ctx, volume_id=volume.id,
                                     sort_keys=('id',), sort_dirs=('asc',))
        owner = {'project_id': project_id, 'user_id': user_id}
        _execute(ctx, transfer_id, engine.prepare(
            ctx, 'transfer_accept', volume, **owner))
        for snapshot in snapshots:
            _execute(ctx, transfer_id, engine.prepare(
                ctx, 'snapshot_transfer', snapshot, **owner))
        claims.transfer(ctx, volume, snapshots, giver, project_id, user_id)

    try:
        engine.run(context, transaction)
    except quota.UsageRowMissing:
        # Deleted by hand since they were made: made again, once.
        for type_id in sorted(type_ids, key=str):
            type_quota.make_rows_again(context, project_id, type_id)
        engine.run(context, transaction)
    return transfer
