"""Choosing the pools a new volume may go to.

The candidates come from the query that answers ``GET
/allocation_candidates`` (objects.placement.allocation_candidate): DISK_GB
of the volume's size, the traits the volume type requires (its extra specs
``trait:<NAME>=required``, as Nova flavors say it, and
``volume_backend_name``), the availability zone as ``member_of``. They are
ordered by ``[volume] pool_weigher``. Nothing here holds capacity: the
claim's compare-and-swap in the volume's create transaction decides, and a
lost race moves on to the next pool (volapi.volume.placement_create).

Volume create asks through :func:`create_hosts`, which answers from this
process's cache of the answers read in the last ``[volume]
scheduler_cache_seconds`` (Cinder's scheduler keeps its host states
between periodic refreshes the same way). For that long a cached answer
may be stale in: the order by free space (kept as read: under a burst of
creates each tries the pool that was best at the read, not the weigher's
order of the moment), which pools have room, and which have the type's
traits and are in the zone (a pool that lost a trait or left the zone
may still get a volume). An answer read for the create has the same
window between its read and its claim, only shorter. No answer can
over-claim a pool: the claim's compare-and-swap checks the capacity as
it writes. A pool whose claim found no room leaves the cached answer;
when every cached pool tried refuses, the create reads again
(:func:`refresh`), so only a read decides that no pool can hold a
volume. An empty answer is never kept: a pool may come any moment.
A pool whose volume services are all disabled (``cinder
service-disable``), frozen (``cinder freeze-host``) or down is no
candidate (a cached answer may name one
for as long as it is kept). Migrations and retypes read every time
(:func:`candidate_hosts`, :func:`pool_has`).
"""
import collections
import threading
import time

import sqlalchemy as sa
from oslo_config import cfg

from db import models
from db import session
from objects.placement import allocation_candidate as ac_obj
from objects.placement import exception as placement_exc
from objects.placement import resource_provider as rp_obj
from objects.placement import trait as trait_obj
from volapi.volume import cluster
from volapi.volume import pools

CONF = cfg.CONF
PROVIDERS = models.ResourceProvider.__table__
# Distinct questions (size, traits, zone, weigher) kept; the oldest read
# goes first.
CACHED_ANSWERS = 256


def required_traits(extra_specs):
    """The trait names a volume type's extra specs require."""
    traits = set()
    for key, value in (extra_specs or {}).items():
        if key.startswith('trait:') and str(value).strip() == 'required':
            traits.add(key[len('trait:'):])
    backend = (extra_specs or {}).get('volume_backend_name')
    if backend:
        traits.add(pools.backend_trait(backend))
    return traits


def candidate_hosts(context, size, extra_specs, zone):
    """Hosts (``host@backend#pool``) of the pools that can hold ``size``
    GiB for a volume of a type with ``extra_specs`` in ``zone``, best
    first."""
    return _read(context, size, required_traits(extra_specs), zone)


def _read(context, size, traits, zone):
    group = ac_obj.RequestGroup(
        resources={pools.DISK_GB: size},
        required_traits=[{name} for name in sorted(traits)],
        member_of=[{pools.zone_aggregate(zone)}] if zone else [])
    try:
        candidates = ac_obj.get_candidates(context, {'': group})
    except placement_exc.TraitNotFound:
        return []  # a trait no pool has, since no one ever made it

    free = {}
    for request in candidates.allocation_requests:
        for provider_uuid in request.allocations:
            summary = candidates.provider_summaries[provider_uuid]
            disk = summary.resources[pools.DISK_GB]
            free[provider_uuid] = disk['capacity'] - disk['used']
    # A provider deleted since the candidates were read (a pool a reshape
    # removed) has no name left: it is no candidate; nor is a pool no
    # enabled and live service serves.
    names = _names(context, free)
    unavailable = cluster.unavailable_servers(context)
    names = {u: name for u, name in names.items()
             if name.partition('#')[0] not in unavailable}
    most_free_first = CONF.volume.pool_weigher == 'most_free'
    ordered = sorted((u for u in free if u in names), key=lambda u: (
        -free[u] if most_free_first else free[u], names[u]))
    return [names[u] for u in ordered]


def pool_has(context, host, extra_specs):
    """True if pool ``host`` has every trait a type with ``extra_specs``
    requires (a retype keeps the volume where it is)."""
    wanted = required_traits(extra_specs)
    if not wanted:
        return True
    try:
        provider = rp_obj.get_by_uuid(context, pools.provider_uuid(host))
    except placement_exc.ResourceProviderNotFound:
        return False
    have = {t['name'] for t in trait_obj.get_all_for_provider(
        context, provider.id)}
    return wanted <= have


def _names(context, provider_uuids):
    if not provider_uuids:
        return {}
    with session.reader.connection.using(context) as conn:
        return dict(conn.execute(sa.select(PROVIDERS.c.uuid, PROVIDERS.c.name)
                                 .where(PROVIDERS.c.uuid.in_(
                                     list(provider_uuids)))).all())


class Cached:
    """What a create asked (``key``) and the cached answer it got
    (``entry``): :func:`refresh` and :func:`forget_host` take it."""

    __slots__ = ('key', 'entry')

    def __init__(self, key, entry):
        self.key = key
        self.entry = entry


class _Entry:
    __slots__ = ('hosts', 'read_at')

    def __init__(self, hosts, read_at):
        self.hosts = hosts
        self.read_at = read_at


class _Answers:
    """The answers read lately, by question, oldest read first."""

    def __init__(self, size):
        self._entries = collections.OrderedDict()
        self._size = size
        self._lock = threading.Lock()

    def get(self, key, max_age):
        with self._lock:
            entry = self._entries.get(key)
        if entry is not None and time.monotonic() - entry.read_at < max_age:
            return entry
        return None

    def put(self, key, hosts):
        """Keep ``hosts`` as the answer to ``key``; none drops it."""
        with self._lock:
            self._entries.pop(key, None)
            if hosts:
                self._entries[key] = _Entry(hosts, time.monotonic())
                while len(self._entries) > self._size:
                    self._entries.popitem(last=False)

    def remove_host(self, key, entry, host):
        """Drop ``host`` from ``entry`` if it is still the answer to
        ``key`` (a later read knows better); no host left drops it.
        Returns the answer now kept, or None."""
        with self._lock:
            if entry is None or self._entries.get(key) is not entry:
                return None
            hosts = [h for h in entry.hosts if h != host]
            if not hosts:
                del self._entries[key]
                return None
            self._entries[key] = _Entry(hosts, entry.read_at)
            return self._entries[key]

    def clear(self):
        with self._lock:
            self._entries.clear()


_answers = _Answers(CACHED_ANSWERS)


def _key(size, extra_specs, zone):
    return (size, frozenset(required_traits(extra_specs)), zone,
            CONF.volume.pool_weigher)


def create_hosts(context, size, extra_specs, zone):
    """(hosts, cached) for a volume create: :func:`candidate_hosts`, from
    an answer of the last ``[volume] scheduler_cache_seconds`` when there
    is one (``cached`` a :class:`Cached`; else None, the hosts read now).
    """
    max_age = CONF.volume.scheduler_cache_seconds
    if max_age <= 0:
        return candidate_hosts(context, size, extra_specs, zone), None
    key = _key(size, extra_specs, zone)
    entry = _answers.get(key, max_age)
    if entry is not None:
        return entry.hosts, Cached(key, entry)
    hosts = _read(context, size, key[1], zone)
    _answers.put(key, hosts)
    return hosts, None


def refresh(context, cached):
    """The hosts of ``cached``'s question, read now (in a read-only
    transaction of their own); they replace its answer."""
    size, traits, zone = cached.key[:3]
    with session.reader.connection.using(context):
        hosts = _read(context, size, traits, zone)
    _answers.put(cached.key, hosts)
    return hosts


def forget_host(cached, host):
    """``host``, of ``cached``'s answer, had no room for a claim."""
    cached.entry = _answers.remove_host(cached.key, cached.entry, host)


def forget_answers():
    """Forget the cached answers (a database emptied, as between
    tests)."""
    _answers.clear()
