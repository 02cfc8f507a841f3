"""What a volume list request asks for: whose volumes, which ones, in what
order and page, following Cinder's rules:

- a non-admin sees their project's volumes; an admin too, unless
  ``all_tenants`` is true (then ``project_id`` may narrow it);
- from 3.31 a non-admin may only use the configured filters (Cinder's
  default resource_filters for volumes) and another key is a 400; before
  3.31 such keys are silently dropped; an admin may filter on any volume
  column, and a key that is not one matches nothing (as in Cinder);
- from 3.34 ``key~=value`` filters by substring;
- from 3.4 ``glance_metadata`` (an admin's filter, as in Cinder's default
  resource filters) matches the image metadata; before, it is dropped;
- ``created_at``/``updated_at`` take time comparisons (``gt:<ISO 8601>``,
  comma-separated) and ``consumes_quota`` a boolean. They came with 3.60
  and 3.65, but Cinder drops such later filters only on the path of
  requests older than 3.31; from 3.31 its resource filters take them at
  any version, and so does volapi.
"""
import datetime

from oslo_utils import strutils

from objects import volume_list
from volapi.api import common
from volapi.api import errors
from volapi.api import microversion as mv
from volapi import request_text

USER_FILTERS = ('name', 'status', 'metadata', 'bootable',
                'migration_status', 'availability_zone', 'group_id', 'size',
                'created_at', 'updated_at', 'consumes_quota')
LEGACY_USER_FILTERS = ('name', 'status', 'metadata', 'availability_zone',
                       'bootable', 'group_id')
NOT_FILTERS = ('limit', 'marker', 'offset', 'sort', 'sort_key', 'sort_dir',
               'with_count', 'all_tenants')
COLUMNS = set(volume_list.COLUMN_TYPES) - {'deleted', 'deleted_at'}
RENAMED = {'name': 'display_name', 'description': 'display_description'}
# Filters older requests do not have: (the version that added it, name).
# Cinder drops them before 3.31 only (see the module's docstring).
ADDED_FILTERS = ((mv.VOLUME_LIST_GLANCE_METADATA, 'glance_metadata'),
                 (mv.VOLUME_LIST_GROUP, 'group_id'),
                 (mv.VOLUME_TIME_COMPARISON_FILTER, 'created_at'),
                 (mv.VOLUME_TIME_COMPARISON_FILTER, 'updated_at'),
                 (mv.USE_QUOTA, 'use_quota'))
TIME_FILTERS = ('created_at', 'updated_at')
# The API's name of Cinder's use_quota (from 3.31; an admin may use both).
CONSUMES_QUOTA = 'consumes_quota'
USE_QUOTA = 'use_quota'
# The Python type of each column: a filter value is converted to it here,
# as PostgreSQL rejects a string compared with a non-string column.
COLUMN_TYPES = volume_list.COLUMN_TYPES
COLUMN_LENGTHS = volume_list.COLUMN_LENGTHS


class VolumeQuery:

    def __init__(self, request):
        params = request.GET
        context = request.ctx
        version = request.api_version
        self.limit, self.marker, self.offset = \
            common.pagination_params(params)
        keys, self.sort_dirs = common.sort_params(params)
        self.sort_keys = [self._sort_key(key) for key in keys]
        self.with_count = version >= mv.SUPPORT_COUNT_INFO and \
            strutils.bool_from_string(params.get('with_count', 'false'))
        all_tenants = context.is_admin and strutils.bool_from_string(
            params.get('all_tenants', 'false'))
        raw = {key: value for key, value in params.items()
               if key not in NOT_FILTERS and
               not _added_later(key, version)}
        if all_tenants:
            self.project_id = raw.pop('project_id', None)
        else:
            self.project_id = context.project_id
        if not context.is_admin:
            raw = self._user_filters(raw, version)
        self.filters = self._convert(raw, version)

    @staticmethod
    def _sort_key(key):
        column = RENAMED.get(key, key)
        if column not in COLUMNS:
            raise common.invalid_sort_key(key)
        return column

    @staticmethod
    def _user_filters(raw, version):
        if version < mv.RESOURCE_FILTER:
            return {k: v for k, v in raw.items()
                    if k.rstrip('~') in LEGACY_USER_FILTERS}
        invalid = [k for k in raw if k.rstrip('~') not in USER_FILTERS]
        if invalid:
            raise common.invalid_filters(invalid)
        return raw

    @staticmethod
    def _convert(raw, version):
        """Column filters, or None when no volume can match."""
        filters = {}
        for key, value in raw.items():
            like = key.endswith('~')
            if like and version < mv.LIKE_FILTER:
                return None
            name = key.rstrip('~')
            if name in ('metadata', 'glance_metadata'):
                filters[name] = _metadata(name, value)
                continue
            if not like and name in (CONSUMES_QUOTA, USE_QUOTA) and \
                    version >= mv.RESOURCE_FILTER:
                # Every volapi volume consumes quota (views/volumes.py).
                if not common.boolean_param(USE_QUOTA, value):
                    return None
                continue
            column = RENAMED.get(name, name)
            if column not in COLUMNS:
                return None
            if like:
                if COLUMN_TYPES[column] is not str:
                    raise errors.BadRequest(
                        'Invalid input received: %s~ (a like filter applies '
                        'to string fields only)' % name)
                length = COLUMN_LENGTHS[column]
                if length is not None and len(value) > length:
                    # Longer than any value of the column: in none (and
                    # SQLite refuses a LIKE pattern of 50,000 bytes).
                    return None
                filters[column + '~'] = value
            elif column == 'bootable':
                filters[column] = _bootable(value, version)
            elif column in TIME_FILTERS:
                filters[column] = _time_comparison(name, value)
            else:
                filters[column] = _typed(name, column, value)
        return filters


def _added_later(key, version):
    """Whether ``key`` is a filter Cinder drops from a request this old."""
    return version < mv.RESOURCE_FILTER and any(
        key == name and version < added for added, name in ADDED_FILTERS)


def _time_comparison(name, value):
    """``created_at=gt:<time>,lte:<time>`` as a TimeComparison, or
    Cinder's 400 naming the bad operator or time (the first bad one)."""
    comparison = volume_list.TimeComparison()
    for unit in value.split(','):
        operator, colon, text = unit.partition(':')
        if operator not in volume_list.OPERATORS:
            raise errors.BadRequest('Invalid %s operator'
                                    % request_text.excerpt(operator))
        # Without a colon the whole unit is the time, as in Cinder.
        text = text if colon else operator
        try:
            comparison[operator] = request_text.utc_time(text)
        except ValueError:
            raise errors.BadRequest('Invalid %s value'
                                    % request_text.excerpt(text)) from None
    return comparison


def _metadata(name, value):
    metadata = request_text.python_literal(value)
    if not isinstance(metadata, dict) or not all(
            isinstance(k, str) and isinstance(v, str)
            for k, v in metadata.items()):
        raise errors.BadRequest(
            'Invalid input received: %s=%s (must be a dict of strings, '
            'e.g. {"key": "value"})' % (name, request_text.excerpt(value)))
    problem = request_text.unstorable_message(metadata)
    if problem:
        raise errors.BadRequest('Invalid input received: %s: %s'
                                % (name, problem))
    return metadata


def _typed(name, column, value):
    """``value`` as the type of ``column``, or a 400 naming the filter."""
    kind = COLUMN_TYPES[column]
    try:
        if kind is int:
            number = request_text.integer(value)
            if number is None or not 0 <= number <= common.DB_MAX_INT:
                raise ValueError(value)
            return number
        if kind is bool:
            return strutils.bool_from_string(value, strict=True)
        if kind is datetime.datetime:
            return request_text.utc_time(value)
    except ValueError:
        raise errors.BadRequest(
            'Invalid input received: %s=%s'
            % (name, request_text.excerpt(value))) from None
    return value


def _bootable(value, version):
    if version >= mv.VOLUME_LIST_BOOTABLE:
        try:
            return strutils.bool_from_string(value, strict=True)
        except ValueError:
            raise errors.BadRequest(
                'Invalid input received: bootable={%s}' % value) from None
    return value not in ('false', 'False')
