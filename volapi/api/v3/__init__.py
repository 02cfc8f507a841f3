"""The v3 volume API controllers.

Routing (``root.py`` with ``volapi.api.routing``): every resource is served
both as ``/v3/<resource>`` and ``/v3/<project_id>/<resource>``; a project id
in the URL that is not the caller's is a 400 "Malformed request url", as in
Cinder. ``/volumes``, ``/types``, ``/snapshots``, ``/attachments`` and
``/workers`` are their modules' controllers; ``POST
/volumes/{volume_id}/action`` is ``volume_actions.dispatch``.

Controllers call the service layer (``volapi.volume.api``) and let its
exceptions through: ``errors.to_fault`` gives each its HTTP status.

Shared tools for every controller: ``rest.json(status)`` (dict -> JSON
response), ``pecan.request.ctx`` (RequestContext), ``pecan.request.
api_version`` / ``api_version_matches(min, max)``, ``validation.schema``,
``errors.*`` (raise them, or let db.exceptions through: ConditionNotMet ->
400 "Invalid <what>: <reason>", NotFound -> 404, ConcurrentUpdate -> 409),
``policy.authorize(context, rule, target)`` with the rule names of
``volapi.policies``.
"""
