"""Microversions of the volume API (``OpenStack-API-Version: volume 3.x``).

MAX_VERSION is the highest 3.x at which every endpoint volapi implements
answers as Cinder's does. It is 3.67, for these reasons:

- 3.53 made create/update bodies strict (unknown keys are refused, an update
  must name a field): the schemas in ``v3/schemas`` do the same from 3.53;
- 3.45 adds ``count`` to lists when ``with_count=true``: implemented;
- 3.12 adds GET /volumes/summary, 3.36 its metadata; 3.31/3.34 the
  resource-filter rules and ``~`` (like) filters of lists: implemented;
- 3.48 adds ``shared_targets``/``service_uuid`` to volume details and 3.13
  ``group_id``: shown;
- 3.54 adds the attachment ``mode`` (``rw``/``ro``): implemented in
  ``v3/attachments.py``; 3.55 (``no_snapshots``), 3.57 (the transfer's
  history fields) and 3.59 (paged transfer lists) change volume
  transfers: implemented in ``v3/transfers.py``; 3.56 changes only
  backups, which volapi does not serve;
- 3.11 group types and 3.13 groups (``v3/group_types.py``,
  ``v3/groups.py``), with 3.25 ``list_volume``, 3.38
  ``replication_status`` and 3.58 a group's ``project_id`` in their
  view; group snapshots (3.14) are not served, and a group's
  ``group_snapshot_id`` is always null;
- 3.60 ``created_at``/``updated_at`` time comparisons (``gt:``, ``lte:``
  ...) and 3.65 ``consumes_quota`` in volume list filters
  (``v3/filters.py``, which says how Cinder really gates them), and in
  snapshot list filters;
- 3.61 ``cluster_name`` (administrators), 3.63 ``volume_type_id``, 3.65
  ``consumes_quota`` in volume details (``views/volumes.py``; always true:
  volapi has no volume or snapshot outside quota) and snapshot details;
  3.64 ``encryption_key_id``, shown by Cinder for encrypted volumes only,
  of which volapi has none;
- 3.62 the projects' default types (``v3/default_types.py``);
- 3.66 snapshots of in-use volumes without ``force`` (``v3/snapshots.py``);
- 3.67 URLs without a project id, which volapi serves at every version
  (``v3/root.py``), as Cinder's router does.

3.68 (re-image), 3.69 (tri-state ``shared_targets``, meaningful only with
iSCSI initiators), 3.70 (transfer of encrypted volumes) and 3.71 (Nova's
extend completion) are not advertised.

With no header a request is 3.0 (as in Cinder); ``latest`` is MAX_VERSION.
Cinder reads only the ``OpenStack-API-Version`` header, and so do we.
"""
import microversion_parse

SERVICE_TYPE = 'volume'
HEADER = 'OpenStack-API-Version'
ENVIRON_KEY = 'volapi.api_version'

MIN_VERSION = microversion_parse.Version(3, 0)
MAX_VERSION = microversion_parse.Version(3, 67)
MIN_VERSION_STRING = str(MIN_VERSION)
MAX_VERSION_STRING = str(MAX_VERSION)

# The versions at which behaviour changes, named as in Cinder's
# microversions.py; code compares the request's version with these, never
# with a literal.
VOLUME_LIST_BOOTABLE = (3, 2)
MESSAGES = (3, 3)
VOLUME_LIST_GLANCE_METADATA = (3, 4)
CLUSTER_SUPPORT = (3, 7)
MANAGE_EXISTING_LIST = (3, 8)
BACKUP_UPDATE = (3, 9)
VOLUME_LIST_GROUP = (3, 10)
VOLUME_SUMMARY = (3, 12)
GROUP_TYPE = (3, 11)
GROUP_VOLUME = (3, 13)
GROUP_SNAPSHOTS = (3, 14)
VOLUME_MIGRATE_CLUSTER = (3, 16)
MANAGE_EXISTING_CLUSTER = (3, 17)
BACKUP_PROJECT = (3, 18)
GROUP_SNAPSHOT_RESET_STATUS = (3, 19)
GROUP_VOLUME_RESET_STATUS = (3, 20)
VOLUME_DETAIL_PROVIDER_ID = (3, 21)
VOLUME_DELETE_FORCE = (3, 23)
WORKERS_CLEANUP = (3, 24)
REPLICATION_CLUSTER = (3, 26)
NEW_ATTACH = (3, 27)
POOL_FILTER = (3, 28)
GROUP_SNAPSHOT_PAGINATION = (3, 29)
RESOURCE_FILTER = (3, 31)
LOG_LEVEL = (3, 32)
RESOURCE_FILTER_CONFIG = (3, 33)
LIKE_FILTER = (3, 34)
POOL_TYPE_FILTER = (3, 35)
VOLUME_SUMMARY_METADATA = (3, 36)
BACKUP_SORT_NAME = (3, 37)
LIMITS_ADMIN_FILTER = (3, 39)
VOLUME_REVERT = (3, 40)
SNAPSHOT_LIST_USER_ID = (3, 41)
VOLUME_EXTEND_INUSE = (3, 42)
BACKUP_METADATA = (3, 43)
NEW_ATTACH_COMPLETION = (3, 44)
SUPPORT_COUNT_INFO = (3, 45)
VOLUME_SHARED_TARGETS_AND_SERVICE_FIELDS = (3, 48)
BACKEND_STATE_REPORT = (3, 49)
BACKUP_AZ = (3, 51)
VOLUME_TYPE_EXTRA_SPECS_FILTER = (3, 52)
SUPPORT_VOLUME_SCHEMA_CHANGES = (3, 53)
ATTACHMENT_CREATE_MODE_ARG = (3, 54)
TRANSFER_WITH_SNAPSHOTS = (3, 55)
BACKUP_PROJECT_USER_ID = (3, 56)
TRANSFER_WITH_HISTORY = (3, 57)
SUPPORT_TRANSFER_PAGINATION = (3, 59)
VOLUME_TIME_COMPARISON_FILTER = (3, 60)
VOLUME_CLUSTER_NAME = (3, 61)
DEFAULT_TYPE_OVERRIDES = (3, 62)
VOLUME_TYPE_ID_IN_VOLUME_DETAIL = (3, 63)
ENCRYPTION_KEY_ID_IN_DETAILS = (3, 64)
USE_QUOTA = (3, 65)
SNAPSHOT_IN_USE = (3, 66)
PROJECT_ID_OPTIONAL_IN_URL = (3, 67)


def prior(version):
    """The version just before ``version`` (a 3.x tuple): the last one
    without the change it names."""
    major, minor = version
    return major, minor - 1


class VersionError(Exception):
    """Base of the two ways a requested version can be wrong."""


class MalformedVersion(VersionError):
    status = 400


class UnsupportedVersion(VersionError):
    status = 406


def _make(major, minor):
    version = microversion_parse.Version(major, minor)
    version.min_version = MIN_VERSION
    version.max_version = MAX_VERSION
    return version


def parse(environ):
    """The version a request asks for, as a microversion_parse.Version
    (comparable with tuples), or raise VersionError with Cinder's message."""
    header = environ.get('HTTP_OPENSTACK_API_VERSION')
    if not header:
        return _make(*MIN_VERSION)
    try:
        wanted = microversion_parse.get_version(
            {'openstack-api-version': header}, SERVICE_TYPE)
    except ValueError:
        raise MalformedVersion(
            'API Version String %s is of invalid format. Must be of format '
            'MajorNum.MinorNum.' % header) from None
    if wanted is None:
        if any(part.split()[:1] == [SERVICE_TYPE]
               for part in header.lower().split(',')):
            raise MalformedVersion(
                'API Version String %s is of invalid format. Must be of '
                'format MajorNum.MinorNum.' % header)
        # The header names other services only: the default applies.
        return _make(*MIN_VERSION)
    if wanted == 'latest':
        return _make(*MAX_VERSION)
    try:
        version = microversion_parse.parse_version_string(wanted)
    except TypeError:
        raise MalformedVersion(
            'API Version String %s is of invalid format. Must be of format '
            'MajorNum.MinorNum.' % wanted) from None
    if not MIN_VERSION <= version <= MAX_VERSION:
        raise UnsupportedVersion(
            'Version %s is not supported by the API. Minimum is %s and '
            'maximum is %s.' % (version, MIN_VERSION_STRING,
                                MAX_VERSION_STRING))
    return _make(*version)


def api_version_matches(version, min_version=None, max_version=None):
    """True if ``version`` is within [min_version, max_version] (tuples or
    'X.Y' strings; None means unbounded)."""
    if min_version is not None and version < _as_tuple(min_version):
        return False
    if max_version is not None and version > _as_tuple(max_version):
        return False
    return True


def _as_tuple(value):
    if isinstance(value, str):
        return tuple(microversion_parse.parse_version_string(value))
    return tuple(value)


def response_headers(version):
    """Headers every versioned response carries."""
    return [(HEADER, '%s %s' % (SERVICE_TYPE, version)),
            ('Vary', HEADER)]
