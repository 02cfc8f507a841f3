"""Every route both APIs serve, read from the code that routes them, for the
tests that must cover them all (the fuzzer, the tenant matrix): a route
added to a controller or to placement's table is listed here without
anyone remembering to.

A route is ``(method, template)``; ``{...}`` marks a path item. Volume API
templates are under ``/v3`` (each is served with and without the project
id); placement templates are as placement declares them (the application
is mounted under ``/placement``).
"""
from pecan import util as pecan_util

from volapi.api import routing
from volapi.api.v3 import backups
from volapi.api.v3 import group_snapshots
from volapi.api.v3 import groups
from volapi.api.v3 import root
from volapi.api.v3 import snapshots
from volapi.api.v3 import type_access
from volapi.api.v3 import volume_actions
from volapi.placement import handler as placement_handler

# Path items of the volume API, by the collection they follow.
_ITEM_NAMES = {'volumes': '{volume_id}', 'snapshots': '{snapshot_id}',
               'backups': '{backup_id}',
               'attachments': '{attachment_id}', 'types': '{type_id}',
               'extra_specs': '{key}', 'metadata': '{key}',
               'encryption': '{key}',
               'messages': '{message_id}', 'os-quota-sets': '{project_id}',
               'default-types': '{project_id}',
               'os-quota-class-sets': '{class_name}',
               'clusters': '{cluster_name}', 'extensions': '{alias}',
               'os-volume-transfer': '{transfer_id}',
               'volume-transfers': '{transfer_id}',
               'capabilities': '{host}', 'qos-specs': '{qos_id}',
               'groups': '{group_id}',
               'group_snapshots': '{group_snapshot_id}',
               'group_types': '{group_type_id}', 'group_specs': '{key}'}


def _methods(handler):
    """The HTTP methods an exposed handler answers: a generic one lists
    them ('DEFAULT' is GET), any other answers whatever it is sent."""
    config = handler._pecan
    if not config.get('generic'):
        return ('*',)
    return tuple(sorted('GET' if m == 'DEFAULT' else m
                        for m in config['generic_handlers']))


def _walk(node, prefix):
    for name in sorted(dir(node)):
        if name.startswith('_'):
            continue
        child = getattr(node, name, None)
        if pecan_util.iscontroller(child):
            if child._pecan.get('generic_handler'):
                continue  # reached through its generic index, not by name
            path = prefix if name == 'index' else prefix + '/' + name
            for method in _methods(child):
                yield method, path
        elif child is not None and routing._is_controller_class(
                type(child)):
            yield from _walk(child, prefix + '/' + name)
    lookup = getattr(node, '_lookup', None)
    if pecan_util.iscontroller(lookup):
        collection = prefix.rsplit('/', 1)[-1]
        item = _ITEM_NAMES.get(collection, '{%s item}' % collection)
        child, _rest = lookup(item)
        yield from _walk(child, prefix + '/' + item)


def volume_routes():
    """[(method, template)] of the volume API; '*' for a handler that
    takes any method (it refuses the others itself)."""
    return sorted(set(_walk(root.Resources(), '/v3')))


def volume_actions_by_path():
    """{template of a POST .../action: [action names]}."""
    return {
        '/v3/volumes/{volume_id}/action': sorted(volume_actions.ACTIONS),
        '/v3/snapshots/{snapshot_id}/action': sorted(snapshots._ACTIONS),
        '/v3/backups/{backup_id}/action': sorted(backups._ACTIONS),
        '/v3/attachments/{attachment_id}/action': ['os-complete'],
        '/v3/types/{type_id}/action': sorted(type_access.ACTIONS),
        '/v3/groups/{group_id}/action': sorted(groups._ACTIONS),
        '/v3/group_snapshots/{group_snapshot_id}/action':
            sorted(group_snapshots._ACTIONS),
    }


def placement_routes():
    """[(method, template)] of placement."""
    return sorted((method, path)
                  for path, methods in
                  placement_handler.ROUTE_DECLARATIONS.items()
                  for method in methods if path not in ('', '/'))
