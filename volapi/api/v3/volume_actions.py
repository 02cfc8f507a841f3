"""POST /v3/[{project_id}/]volumes/{volume_id}/action.

``dispatch`` is called by the volumes controller with the action's name
and argument (validation.parse_action). Each action validates its
argument against its schema, checks its policy on the volume, and calls the
service layer (``volapi.volume.api``), whose transitions decide the rest.
Like Cinder, actions answer 202 with an empty body (os-set_bootable and
os-unset_image_metadata 200), those that return something
(os-migrate_volume_completion, os-set_image_metadata,
os-show_image_metadata) 200 with it.
"""
import dataclasses

from oslo_utils import strutils

from volapi.api import common
from volapi.api import errors
from volapi.api import microversion
from volapi.api import policy
from volapi.api import rest
from volapi.api import validation
from volapi.api.schemas import volume_actions as schemas
from volapi.policies import manageable_volumes as manage_policies
from volapi.policies import volume_actions as policies
from volapi.policies import volumes as volume_policies
from volapi.volume import api as volume_api
from volapi.volume import attachments
from volapi.volume import connections
from volapi.volume import image_metadata
from volapi.volume import manage
from volapi.volume import migrations
from volapi.volume import snapshots as snapshot_api


@dataclasses.dataclass(frozen=True)
class Action:
    schema: dict
    rule: object      # a policy name, or fn(volume) -> policy name
    handler: object   # fn(context, volume_id, argument, **call)
    # fn(version) -> the schema, where it changes with the microversion.
    versioned_schema: object = None
    # The service may change the caller's own volume without loading it,
    # if told that the policy allows the action on the caller's own
    # volumes (``own_allowed``); the rule must then be a policy name.
    read_free: bool = False
    # The status of an answer without a body.
    empty_status: int = 202
    # The microversion the action came with (before it: Cinder's 404).
    min_version: tuple = None


# Each handler calls the service with ``call``: the request's version and
# the policy check to run on the volume, in the transaction that loads it.

def _extend(context, volume_id, argument, **call):
    volume_api.extend(context, volume_id, int(argument['new_size']), **call)


def _no_argument(service):
    def handler(context, volume_id, argument, **call):
        service(context, volume_id, **call)
    return handler


def _read_free(rule, service):
    return Action(schemas.no_arguments, rule, _no_argument(service),
                  read_free=True)


def _attach(context, volume_id, argument, **call):
    volume_api.attach(context, volume_id,
                      instance_uuid=argument.get('instance_uuid'),
                      host_name=argument.get('host_name'),
                      mountpoint=argument['mountpoint'],
                      mode=argument.get('mode', 'rw'), **call)


def _detach(context, volume_id, argument, **call):
    volume_api.detach(context, volume_id,
                      attachment_id=(argument or {}).get('attachment_id'),
                      **call)


def _force_detach(context, volume_id, argument, **call):
    attachments.force_detach(context, volume_id,
                             attachment_id=argument.get('attachment_id'),
                             **call)


def _initialize_connection(context, volume_id, argument, **call):
    return connections.initialize(context, volume_id, argument['connector'],
                                  **call)


def _terminate_connection(context, volume_id, argument, **call):
    connections.terminate(context, volume_id, argument['connector'], **call)


def _reset_status(context, volume_id, argument, **call):
    if not any(argument.get(key) for key in
               ('status', 'attach_status', 'migration_status')):
        raise errors.BadRequest("Must specify 'status', 'attach_status' or "
                                "'migration_status' for update.")
    volume_api.reset_status(context, volume_id, **argument, **call)


def _retype(context, volume_id, argument, **call):
    volume_api.retype(context, volume_id, argument['new_type'],
                      argument.get('migration_policy') or 'never', **call)


def _migrate(context, volume_id, argument, **call):
    # From 3.16 a cluster may name the destination, as a host does.
    host = argument.get('host') or argument.get('cluster')
    migrations.migrate(
        context, volume_id, host=host,
        force_host_copy=strutils.bool_from_string(
            argument.get('force_host_copy', False), strict=True),
        lock_volume=strutils.bool_from_string(
            argument.get('lock_volume', False), strict=True), **call)


def _migrate_schema(version):
    return (schemas.migrate_volume_v316
            if version >= microversion.VOLUME_MIGRATE_CLUSTER
            else schemas.migrate_volume)


def _migrate_completion(context, volume_id, argument, **call):
    error = argument.get('error')
    error = strutils.bool_from_string(error, strict=True) \
        if isinstance(error, str) else bool(error)
    saved = migrations.complete(context, volume_id, argument['new_volume'],
                                error=error, **call)
    return {'save_volume_id': saved}


def _update_readonly_flag(context, volume_id, argument, **call):
    readonly = strutils.bool_from_string(argument['readonly'], strict=True)
    volume_api.update_readonly_flag(context, volume_id, readonly, **call)


def _set_bootable(context, volume_id, argument, **call):
    bootable = strutils.bool_from_string(argument['bootable'], strict=True)
    volume_api.set_bootable(context, volume_id, bootable, **call)


def _set_image_metadata(context, volume_id, argument, version=None,
                        authorize=None):
    return {'metadata': image_metadata.set_keys(
        context, volume_id, argument['metadata'], authorize=authorize)}


def _unset_image_metadata(context, volume_id, argument, version=None,
                          authorize=None):
    image_metadata.unset_key(context, volume_id, argument['key'],
                             authorize=authorize)


def _show_image_metadata(context, volume_id, argument, version=None,
                         authorize=None):
    return {'metadata': image_metadata.get(context, volume_id,
                                           authorize=authorize)}


def _force_delete(context, volume_id, argument, authorize=None, **call):
    # Cinder checks the delete policy too (its delete does), first.
    volume_api.delete(context, volume_id, force=True,
                      authorize=policy.authorizer(
                          context, volume_policies.DELETE,
                          volume_policies.FORCE_DELETE), **call)


def _revert(context, volume_id, argument, **call):
    snapshot_api.revert(context, volume_id, argument.get('snapshot_id'),
                        **call)


def _extend_rule(volume):
    return (policies.EXTEND_ATTACHED if volume.status == 'in-use'
            else policies.EXTEND)


ACTIONS = {
    'os-extend': Action(schemas.extend, _extend_rule, _extend),
    'os-reserve': _read_free(policies.RESERVE, volume_api.reserve),
    'os-unreserve': _read_free(policies.UNRESERVE, volume_api.unreserve),
    'os-begin_detaching': _read_free(policies.BEGIN_DETACHING,
                                     volume_api.begin_detaching),
    'os-roll_detaching': _read_free(policies.ROLL_DETACHING,
                                    volume_api.roll_detaching),
    'os-attach': Action(schemas.attach, policies.ATTACH, _attach),
    'os-detach': Action(schemas.detach, policies.DETACH, _detach),
    'os-initialize_connection': Action(
        schemas.initialize_connection, policies.INITIALIZE_CONNECTION,
        _initialize_connection),
    'os-terminate_connection': Action(
        schemas.terminate_connection, policies.TERMINATE_CONNECTION,
        _terminate_connection),
    'os-force_detach': Action(schemas.force_detach, policies.FORCE_DETACH,
                              _force_detach),
    'revert': Action(schemas.revert, policies.REVERT, _revert,
                     min_version=microversion.VOLUME_REVERT),
    'os-force_delete': Action(schemas.no_arguments,
                              volume_policies.FORCE_DELETE, _force_delete),
    'os-reset_status': Action(schemas.reset_status, policies.RESET_STATUS,
                              _reset_status),
    'os-unmanage': Action(schemas.no_arguments, manage_policies.UNMANAGE,
                          _no_argument(manage.unmanage)),
    'os-retype': Action(schemas.retype, policies.RETYPE, _retype),
    'os-migrate_volume': Action(None, policies.MIGRATE, _migrate,
                                versioned_schema=_migrate_schema),
    'os-migrate_volume_completion': Action(
        schemas.migrate_volume_completion, policies.MIGRATE_COMPLETION,
        _migrate_completion),
    'os-update_readonly_flag': Action(schemas.update_readonly_flag,
                                      policies.UPDATE_READONLY_FLAG,
                                      _update_readonly_flag),
    'os-set_bootable': Action(schemas.set_bootable, volume_policies.UPDATE,
                              _set_bootable, empty_status=200),
    'os-set_image_metadata': Action(schemas.set_image_metadata,
                                    volume_policies.IMAGE_METADATA_SET,
                                    _set_image_metadata),
    'os-unset_image_metadata': Action(schemas.unset_image_metadata,
                                      volume_policies.IMAGE_METADATA_REMOVE,
                                      _unset_image_metadata,
                                      empty_status=200),
    'os-show_image_metadata': Action(schemas.show_image_metadata,
                                     volume_policies.GET,
                                     _show_image_metadata),
}


def dispatch(request, context, volume_id, name, argument):
    """Serve action ``name`` with ``argument`` on ``volume_id``."""
    action = ACTIONS.get(name)
    if action is None:
        raise common.no_such_action(name)
    if action.min_version is not None:
        common.require_version(request, action.min_version)
    validation.validate(action.versioned_schema(request.api_version)
                        if action.versioned_schema else action.schema,
                        argument)

    def authorize(volume):
        rule = action.rule(volume) if callable(action.rule) else action.rule
        if rule is not None:
            policy.authorize(context, rule,
                             {'project_id': volume.project_id})

    call = {'version': request.api_version, 'authorize': authorize}
    if action.read_free:
        call['own_allowed'] = policy.authorize(
            context, action.rule, {'project_id': context.project_id},
            do_raise=False)
    body = action.handler(context, volume_id, argument, **call)
    # Those that answer (Cinder's migrate_volume_completion) 200 with
    # their body.
    return rest.respond(body, 200) if body is not None \
        else rest.respond(None, action.empty_status)
