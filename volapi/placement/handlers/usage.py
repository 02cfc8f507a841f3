"""Handlers of /resource_providers/{uuid}/usages and /usages (1.9)."""
from objects.placement import usage as usage_obj
from volapi.placement import microversion
from volapi.placement import util
from volapi.placement.handlers import provider_path
from volapi.placement.schemas import usage as schema
from volapi.policies import placement as policies


@util.check_accept('application/json')
def list_usages(req):
    """The provider's usage of each class it has inventory of."""
    req.context.can(policies.PROVIDER_USAGES)
    provider = provider_path.provider(req)
    # Usage is a question about now: last-modified is now.
    return util.send_json(req, {
        'resource_provider_generation': provider.generation,
        'usages': usage_obj.get_for_provider(req.context, provider.id)})


@microversion.version_handler('1.9')
@util.check_accept('application/json')
def get_total_usages(req):
    """Usages of a project (and user); from 1.38 per consumer type."""
    try:
        project_id = req.GET.get('project_id')
    except UnicodeDecodeError:
        project_id = None  # refused below, as invalid query string
    # A reader of the project asked about may read its usages.
    req.context.can(policies.TOTAL_USAGES, target={'project_id': project_id})
    by_type = req.version.matches((1, 38))
    util.validate_query_params(
        req, schema.GET_USAGES_SCHEMA_V1_38 if by_type
        else schema.GET_USAGES_SCHEMA_1_9)
    project_id = req.GET['project_id']
    user_id = req.GET.get('user_id')
    if by_type:
        usages = usage_obj.get_for_project_by_type(
            req.context, project_id, user_id, req.GET.get('consumer_type'))
    else:
        usages = usage_obj.get_for_project(req.context, project_id, user_id)
    return util.send_json(req, {'usages': usages})
