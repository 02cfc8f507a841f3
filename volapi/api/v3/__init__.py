"""The v3 volume API controllers, and the contracts between their authors.

Routing (``root.py``): every resource is served both as ``/v3/<resource>``
and ``/v3/<project_id>/<resource>``; a project id in the URL that is not
the caller's is a 400 "Malformed request url", as in Cinder.

Engineer B's modules plug in by these exact names (``root.py`` mounts them
when the module exists):

- ``volapi.api.v3.snapshots.SnapshotsController``     -> /snapshots
- ``volapi.api.v3.attachments.AttachmentsController`` -> /attachments
- ``volapi.api.v3.workers.WorkersController``         -> /workers
- ``volapi.api.v3.volume_actions.dispatch(request, context, volume_id,
  body)`` answers ``POST /volumes/{volume_id}/action``; ``body`` is the
  parsed JSON object with exactly one key (the action); it returns a
  webob/pecan response (``rest.respond(data, status)``).

Services the volume controllers call (engineer B's ``volapi.volume.api``):

- ``created(context, volume)``: after the 'creating' row is committed,
  casts it to a worker (engineer C's rpc client).
- ``delete(context, volume, cascade=False, force=False, version=None)``:
  the compare-and-swap to 'deleting' and the cast.

Calls into ``volapi.volume`` run inside ``service_errors.translated()``,
which gives its exceptions their HTTP status.

Shared tools for every controller: ``rest.json(status)`` (dict -> JSON
response), ``pecan.request.ctx`` (RequestContext), ``pecan.request.
api_version`` / ``api_version_matches(min, max)``, ``validation.schema``,
``errors.*`` (raise them, or let db.exceptions through: ConditionNotMet ->
400 "Invalid <what>: <reason>", NotFound -> 404, ConcurrentUpdate -> 409),
``policy.authorize(context, rule, target)`` with the rule names of
``volapi.policies``.
"""
