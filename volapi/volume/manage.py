"""Existing storage taken into volapi as a volume (``cinder manage``), the
storage a backend could manage (``cinder manageable-list``), and a volume
let go with its storage left in place (``cinder unmanage``).

A manage asks the backend's worker first (a call) which pool holds the
storage object and its size; then ONE transaction inserts the volume in
'managing' on that pool with its claim (the pool's capacity and the
project's quota, as a create's) and the workers row that records the
reference; once it committed, the worker takes the object as the volume's
storage ('available') or fails ('error_managing', deletable). An unmanage
is a compare-and-swap into 'unmanaging'; the worker lets the storage go
and the volume goes with its allocation and quota.

Storage a live volume or snapshot already uses is refused, as Cinder's
drivers refuse it: volume files are named ``volume-<id>`` (or after the
migration that moved them) and snapshots ``snapshot-<id>``; a new id never
takes an existing file's name, so the check cannot go stale before the
worker renames the file.
"""
import functools
import uuid

import sqlalchemy as sa

from db import models
from db import session
import objects
from objects import volume_type as type_obj
from volapi import json_intake
from volapi import request_text
from volapi.volume import api as volume_api
from volapi.volume import backend_call
from volapi.volume import claims
from volapi.volume import cluster
from volapi.volume.transitions import engine

SORT_KEYS = ('reference', 'size')


def _backend(host, cluster_name):
    """(backend name, the pool named or None) of a request's host
    (``host@backend[#pool]``) or cluster."""
    location = host or cluster_name
    return cluster.server_of(location), location.partition('#')[2] or None


def ask(context, host, cluster_name, what, method, **kwargs):
    name, pool = _backend(host, cluster_name)
    try:
        server, answer = backend_call.call(context, name, what, method,
                                           **kwargs)
    except backend_call.NoSuchBackend:
        raise volume_api.InvalidRequest(
            "%s '%s' not found" % ('Host' if host else 'Cluster',
                                   request_text.excerpt(host or cluster_name))
        ) from None
    return server, pool, answer


def remote_reason(error, reference, kind='volume'):
    """The API error for a backend_call.WorkerFailed of a manage of a
    ``kind`` ('volume' or 'snapshot'): an InvalidReference is the
    request's fault (Cinder's message, the same for both), anything else
    the backend's."""
    if error.exc_type == 'InvalidReference':
        return volume_api.InvalidRequest(
            'Manage existing volume failed due to invalid backend reference '
            '%s: %s' % (request_text.excerpt(reference), error.message))
    return volume_api.BackendError(
        'Unable to manage the %s: the volume worker failed (%s).'
        % (kind, error.exc_type))


# -- whose storage a name is -----------------------------------------------

def owners(context, names):
    """{storage name: (id of the live volume or snapshot using it, 'volume'
    or 'snapshot')} among ``names``."""
    ids = {}
    for name in names:
        kind, _, ident = name.partition('-')
        if kind in ('volume', 'snapshot') and _is_uuid(ident):
            ids.setdefault(kind, {})[ident] = name
    owners = {}
    volumes, snapshots = models.Volume, models.Snapshot
    with session.reader.connection.using(context) as conn:
        wanted = ids.get('volume', {})
        if wanted:
            rows = conn.execute(sa.select(
                volumes.id, volumes.name_id, volumes.migration_id).where(
                volumes.deleted == sa.false(),
                sa.or_(volumes.id.in_(wanted), volumes.name_id.in_(wanted),
                       volumes.migration_id.in_(wanted))))
            for row in rows:
                for ident in row:
                    if ident in wanted:
                        owners[wanted[ident]] = (row.id, 'volume')
        wanted = ids.get('snapshot', {})
        if wanted:
            rows = conn.execute(sa.select(snapshots.id).where(
                snapshots.deleted == sa.false(), snapshots.id.in_(wanted)))
            for (ident,) in rows:
                owners[wanted[ident]] = (ident, 'snapshot')
    return owners


def _is_uuid(text):
    try:
        return str(uuid.UUID(text)) == text
    except ValueError:
        return False


def refuse_taken(context, reference):
    """InvalidRequest if ``reference`` names the storage of a volume or
    snapshot volapi keeps already (Cinder's words for a bad reference, for
    snapshots too)."""
    source = source_name(reference)
    owner = source and owners(context, [source]).get(source)
    if owner:
        raise volume_api.InvalidRequest(
            'Manage existing volume failed due to invalid backend reference '
            '%s: it is the storage of %s %s'
            % (request_text.excerpt(reference), owner[1], owner[0]))


def source_name(reference):
    name = reference.get('source-name') if isinstance(reference, dict) \
        else None
    return name if isinstance(name, str) else None


# -- cinder manageable-list ------------------------------------------------

def manageable(context, host=None, cluster_name=None, marker=None,
               limit=None, offset=0, sort_keys=('reference',),
               sort_dirs=('asc',), kind='volume'):
    """The backend's storage objects that could become volumes (``kind``
    'volume') or snapshots ('snapshot'), each ``{'reference', 'size',
    'safe_to_manage', 'reason_not_safe', 'cinder_id', 'extra_info'}``
    (and a snapshot's ``'source_reference'``), sorted and paged as Cinder
    pages them (``marker``: a reference, as JSON text, the last of the
    previous page)."""
    try:
        _, pool, found = ask(context, host, cluster_name,
                             'list the manageable %ss of' % kind,
                             'get_manageable_%ss' % kind)
    except backend_call.WorkerFailed as error:
        raise volume_api.BackendError(
            'Unable to list the manageable %ss: the volume worker '
            'failed (%s).' % (kind, error.exc_type)) from None
    entries = [entry for entry in found
               if pool is None or entry['pool'] == pool]
    used = owners(context, filter(None, (
        source_name(entry['reference']) for entry in entries)))
    listed = []
    for entry in entries:
        owner = used.get(source_name(entry['reference']))
        shown = {
            'reference': entry['reference'], 'size': entry['size'],
            'safe_to_manage': owner is None,
            'reason_not_safe': owner and 'already managed as a %s'
            % owner[1],
            'cinder_id': owner and owner[0],
            'extra_info': None}
        if kind == 'snapshot':
            shown['source_reference'] = entry.get('source_reference')
        listed.append(shown)
    return page(listed, marker, limit, offset, sort_keys, sort_dirs)


def page(entries, marker, limit, offset, sort_keys, sort_dirs):
    def key_of(entry, key):
        value = entry[key]
        # A reference sorts by its (first) value, as Cinder sorts it.
        return sorted(map(str, value.values()))[:1] \
            if isinstance(value, dict) else value

    def compare(left, right):
        for key, direction in zip(sort_keys, sort_dirs):
            a, b = key_of(left, key), key_of(right, key)
            if a != b:
                return (-1 if a < b else 1) * (1 if direction == 'asc'
                                               else -1)
        return 0

    ordered = sorted(entries, key=functools.cmp_to_key(compare))
    start = 0
    if marker:
        try:
            wanted = json_intake.parse(marker)
        except json_intake.Malformed:
            raise volume_api.InvalidRequest(
                'Invalid input received: marker %s can not be analysed, '
                'please use json like format'
                % request_text.excerpt(marker)) from None
        start = next((i + 1 for i, entry in enumerate(ordered)
                      if entry['reference'] == wanted), None)
        if start is None:
            raise volume_api.InvalidRequest(
                'Invalid input received: marker not found: %s'
                % request_text.excerpt(marker))
    start += offset or 0
    return ordered[start:start + limit if limit is not None else None]


# -- cinder manage -----------------------------------------------------------

def manage(context, reference, host=None, cluster_name=None, name=None,
           description=None, volume_type=None, metadata=None,
           availability_zone=None, bootable=False, version=None):
    """Take the storage object ``reference`` names as a new volume of the
    caller's project; returns the volume ('managing'), as the view shows
    it. The backend is ``host`` (``host@backend``, ``#pool`` optional) or
    ``cluster_name``."""
    zone = volume_api.zone(availability_zone)
    new_type = _type(context, volume_type)
    try:
        server, pool, found = ask(context, host, cluster_name,
                                  'manage a volume on',
                                  'manage_existing_get_size',
                                  reference=reference)
    except backend_call.WorkerFailed as error:
        raise remote_reason(error, reference) from None
    if pool is not None and pool != found['pool']:
        raise volume_api.InvalidRequest(
            'Manage existing volume failed due to invalid backend reference '
            '%s: it is in pool %s, not in pool %s'
            % (request_text.excerpt(reference), found['pool'], pool))
    refuse_taken(context, reference)
    volume = objects.Volume(
        context, id=str(uuid.uuid4()), size=found['size'],
        host='%s#%s' % (server, found['pool']),
        volume_type_id=new_type.id,
        multiattach=type_obj.is_multiattach(new_type.extra_specs),
        user_id=context.user_id, project_id=context.project_id,
        availability_zone=zone, display_name=name,
        display_description=description, bootable=bool(bootable),
        metadata=metadata or {}, deleted=False)
    rows = engine.prepare(context, 'manage', volume, version=version,
                          reference=reference)
    claims.with_usage_rows(context, volume, lambda: engine.run(
        context, claims.read_committed,
        lambda ctx: claims.claim_volume(ctx, volume, rows),
        lambda ctx: new_type.guard_in_use()))
    volume_api.worker_client().manage_existing(context, volume, reference)
    volume.volume_type = new_type
    return volume


def _type(context, wanted):
    if not wanted:
        return volume_api.default_type(context)
    try:
        return type_obj.VolumeType.get(context, wanted,
                                       include_private=True)
    except type_obj.VolumeTypeNotFound:
        raise volume_api.InvalidRequest(
            "Invalid volume type: Cannot find requested '%s' volume type"
            % request_text.excerpt(wanted)) from None


# -- cinder unmanage ---------------------------------------------------------

def unmanage(context, volume_id, version=None, authorize=None):
    """Let go of the volume: 'unmanaging', then the worker leaves its
    storage on the backend and the volume goes."""
    volume = volume_api.on_volume(
        context, volume_id, lambda ctx, volume: [
            engine.prepare(ctx, 'unmanage', volume, version=version)],
        authorize)
    volume_api.worker_client().unmanage_volume(context, volume)
