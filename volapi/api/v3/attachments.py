"""/v3/[{project_id}/]attachments (3.27+): the new attach flow.

- POST without a connector reserves the volume for an instance
  (``attachment_reserve``); with one it starts attaching
  (``attachment_attach``) and the worker's connection info is returned;
- PUT gives a reserved attachment its connector (``attachment_update`` +
  ``attachment_connect``) and returns the connection info;
- POST {id}/action ``os-complete`` (3.44) marks it attached;
- DELETE removes it; the volume's status follows what remains.

Each change is a compare-and-swap of the volume row together with the
attachment row, in one transaction.
"""
import pecan

from volapi.api import common
from volapi.api import microversion as mv
from volapi.api import policy
from volapi.api import rest
from volapi.api import validation
from volapi.api.schemas import attachments as schemas
from volapi.api.views import attachments as views
from volapi.policies import volume_actions as policies
from volapi.volume import attachments as attachment_api
import objects

# Query parameter -> column, for filters and sort keys.
FILTERS = {'volume_id': 'volume_id', 'status': 'attach_status',
           'attach_status': 'attach_status', 'instance_id': 'instance_uuid'}
SORT_KEYS = dict(FILTERS, id='id', created_at='created_at',
                 updated_at='updated_at')


def _require(version):
    common.require_version(pecan.request, version)


def _authorizer(context, rule):
    """The ``authorize`` of a use case (the rules take no target)."""
    def authorize(volume):
        policy.authorize(context, rule)
    return authorize


def _get(context, attachment_id, rule):
    """(attachment, its volume), once the caller may ``rule``."""
    found = attachment_api.get(context, attachment_id)
    policy.authorize(context, rule)
    return found


class AttachmentController:
    """/attachments/{attachment_id}"""

    def __init__(self, attachment_id):
        self.attachment_id = attachment_id

    index = rest.by_method()

    @index.when(method='GET')
    @rest.json(200)
    def show(self, **params):
        _require(mv.NEW_ATTACH)
        context = pecan.request.ctx
        attachment, _volume = _get(context, self.attachment_id,
                                   policies.ATTACHMENT_GET)
        return views.show(attachment)

    @index.when(method='PUT')
    @rest.json(200)
    @validation.schema(schemas.update)
    def update(self, body, **params):
        _require(mv.NEW_ATTACH)
        context = pecan.request.ctx
        attachment = attachment_api.update(
            context, self.attachment_id, body['attachment']['connector'],
            version=pecan.request.api_version,
            authorize=_authorizer(context, policies.ATTACHMENT_UPDATE))
        return views.show(attachment)

    @index.when(method='DELETE')
    @rest.json(200)
    def delete(self, **params):
        _require(mv.NEW_ATTACH)
        context = pecan.request.ctx
        remaining = attachment_api.delete(
            context, self.attachment_id,
            version=pecan.request.api_version,
            authorize=_authorizer(context, policies.ATTACHMENT_DELETE))
        return views.collection(remaining)

    @pecan.expose()
    @rest.json(204)
    def action(self, **params):
        name, argument = validation.parse_action(pecan.request)
        _require(mv.NEW_ATTACH)
        if name != 'os-complete':
            raise common.no_such_action(name)
        _require(mv.NEW_ATTACH_COMPLETION)
        validation.validate(schemas.complete, argument)
        context = pecan.request.ctx
        attachment_api.complete(
            context, self.attachment_id,
            version=pecan.request.api_version,
            authorize=_authorizer(context, policies.ATTACHMENT_COMPLETE))


class AttachmentsController(rest.Listing):
    """/attachments, /attachments/detail and /attachments/{id}"""

    index = rest.by_method()

    @index.when(method='GET')
    @rest.json(200)
    def get_all(self, **params):
        return self.listed(detailed=False)

    @staticmethod
    def listed(detailed):
        return _list(detailed)

    @index.when(method='POST')
    @rest.json(200)
    @validation.schema(schemas.create)
    def create(self, body, **params):
        _require(mv.NEW_ATTACH)
        request = pecan.request
        context = request.ctx
        spec = body['attachment']
        mode = spec.get('mode') \
            if request.api_version >= mv.ATTACHMENT_CREATE_MODE_ARG else None

        def authorize(volume):
            policy.authorize(context, policies.ATTACHMENT_CREATE,
                             {'project_id': volume.project_id})

        attachment = attachment_api.create(
            context, spec['volume_uuid'], spec['instance_uuid'],
            connector=spec.get('connector'), mode=mode,
            version=request.api_version, authorize=authorize)
        return views.show(attachment)

    def member(self, attachment_id):
        return AttachmentController(attachment_id)


def _list(detailed):
    _require(mv.NEW_ATTACH)
    request = pecan.request
    context = request.ctx
    policy.authorize(context, policies.ATTACHMENT_GET)
    attachments = objects.VolumeAttachment.get_all(
        context, **common.list_query(context, request.GET, SORT_KEYS,
                                     FILTERS, default_dir='asc'))
    return views.collection(attachments, detailed)
