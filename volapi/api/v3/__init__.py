"""The v3 volume API controllers.

Routing (``root.py`` with ``volapi.api.routing``): every resource is served
both as ``/v3/<resource>`` and ``/v3/<project_id>/<resource>``; a project id
in the URL that is not the caller's is a 400 "Malformed request url", as in
Cinder. ``/volumes``, ``/types``, ``/snapshots``, ``/attachments`` and
``/workers`` are their modules' controllers; ``POST
/volumes/{volume_id}/action`` is ``volume_actions.dispatch``.

Controllers call the service layer (``volapi.volume.api``) and let its
exceptions through: ``errors.to_fault`` gives each its HTTP status.

Shared tools for every controller: ``index = rest.by_method()`` with
``@index.when(method=...)`` handlers (other methods: 405),
``rest.Collection``/``rest.Listing`` bases (``member(id)``, ``listed``),
``rest.json(status)`` (dict -> JSON response), ``pecan.request.ctx``
(RequestContext), ``pecan.request.api_version`` compared with the named
versions of ``microversion`` (``mv.NEW_ATTACH``), ``validation.schema``,
``errors.*`` (raise them, or let db.exceptions through: ConditionNotMet ->
400 "Invalid <what>: <reason>", NotFound -> 404, ConcurrentUpdate -> 409),
``policy.authorize(context, rule, target)`` with the rule names of
``volapi.policies``.
"""
