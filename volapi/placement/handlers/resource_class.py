"""Handlers of /resource_classes and /resource_classes/{name} (1.2)."""
import webob.exc

from objects.placement import exception
from objects.placement import resource_class as rc_obj
from volapi.placement import microversion
from volapi.placement import util
from volapi.placement.schemas import resource_class as schema
from volapi.policies import placement as policies


def _serialize(environ, rc):
    return {'name': rc['name'],
            'links': [{'rel': 'self', 'href': util.resource_class_url(
                environ, rc['name'])}]}


def _modified(rc):
    return util.pick_last_modified(None, rc['updated_at'], rc['created_at'])


@microversion.version_handler('1.2')
@util.check_accept('application/json')
def list_resource_classes(req):
    req.context.can(policies.RESOURCE_CLASSES_LIST)
    classes = rc_obj.get_all(req.context)
    last_modified = None
    for rc in classes:
        last_modified = util.pick_last_modified(
            last_modified, rc['updated_at'], rc['created_at'])
    return util.send_json(
        req, {'resource_classes': [_serialize(req.environ, rc)
                                   for rc in classes]},
        last_modified=last_modified)


@microversion.version_handler('1.2')
@util.check_accept('application/json')
def get_resource_class(req):
    req.context.can(policies.RESOURCE_CLASSES_SHOW)
    rc = rc_obj.get_by_name(req.context, req.path_item('name'))
    return util.send_json(req, _serialize(req.environ, rc),
                          last_modified=_modified(rc))


@microversion.version_handler('1.2')
@util.require_json
def create_resource_class(req):
    """POST a custom class: 201 with a Location, no body."""
    req.context.can(policies.RESOURCE_CLASSES_CREATE)
    data = util.extract_json(req.body, schema.POST_RC_SCHEMA_V1_2)
    try:
        rc = rc_obj.create(req.context, data['name'])
    except exception.ResourceClassExists:
        raise webob.exc.HTTPConflict(
            'Conflicting resource class already exists: %s' % data['name'])
    except exception.ConcurrentUpdateDetected:
        raise webob.exc.HTTPConflict(
            'Max retries of DB transaction exceeded attempting to create '
            'resource class: %s, please try again.' % data['name'])
    req.response.location = util.resource_class_url(req.environ, rc['name'])
    return util.send_empty(req, 201)


@microversion.version_handler('1.2', '1.6')
@util.require_json
def update_resource_class(req):
    """PUT with a body (1.2-1.6): rename a custom class."""
    name = req.path_item('name')
    req.context.can(policies.RESOURCE_CLASSES_UPDATE)
    data = util.extract_json(req.body, schema.PUT_RC_SCHEMA_V1_2)
    rc_obj.get_by_name(req.context, name)  # 404 first, as Placement
    try:
        rc = rc_obj.rename(req.context, name, data['name'])
    except exception.ResourceClassExists:
        raise webob.exc.HTTPConflict(
            'Resource class already exists: %s' % data['name'])
    except exception.ResourceClassCannotUpdateStandard:
        raise webob.exc.HTTPBadRequest(
            'Cannot update standard resource class %s' % name)
    return util.send_json(req, _serialize(req.environ, rc))


@microversion.version_handler('1.7')  # noqa: F811
def update_resource_class(req):  # noqa: F811
    """PUT without a body (1.7): create the custom class if missing, 201;
    204 if it exists."""
    name = req.path_item('name')
    req.context.can(policies.RESOURCE_CLASSES_UPDATE)
    util.validate({'name': name}, schema.PUT_RC_SCHEMA_V1_2,
                  'JSON does not validate: %s')
    status = 204
    try:
        rc = rc_obj.get_by_name(req.context, name)
    except exception.NotFound:
        try:
            rc = rc_obj.create(req.context, name)
            status = 201
        except exception.ResourceClassExists:
            rc = {'name': name}  # created meanwhile by someone else
    req.response.location = util.resource_class_url(req.environ, rc['name'])
    return util.send_empty(req, status)


@microversion.version_handler('1.2')
def delete_resource_class(req):
    name = req.path_item('name')
    req.context.can(policies.RESOURCE_CLASSES_DELETE)
    rc_obj.get_by_name(req.context, name)  # 404
    try:
        rc_obj.destroy(req.context, name)
    except (exception.ResourceClassCannotDeleteStandard) as exc:
        raise webob.exc.HTTPBadRequest(
            'Error in delete resource class: %s' % exc)
    except exception.ResourceClassInUse as exc:
        raise webob.exc.HTTPConflict(
            'Error in delete resource class: %s' % exc)
    return util.send_empty(req, 204)
