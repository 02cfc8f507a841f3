"""volapi's placement API: wire-compatible with OpenStack Placement 1.0-1.39.

Contracts for code that adds handlers here
=========================================

Declaring a handler
    Add ``'/path/{item}': {'METHOD': 'module.function'}`` to
    ``handler.ROUTE_DECLARATIONS``; ``module`` lives in
    ``volapi.placement.handlers``. A handler is ``fn(req)``: ``req`` is a
    ``util.PlacementRequest`` (a webob Request); it returns a webob Response,
    normally ``req.response`` filled in by ``util.send_json(req, data,
    status=200, last_modified=None)`` or ``util.send_empty(req, 204)``.
    Path items: ``req.path_item('uuid')`` (or ``util.wsgi_path_item(environ,
    name)``). Decorators: ``@util.require_json``
    (415), ``@util.check_accept('application/json')`` (406).

The microversion
    ``req.version`` (also ``req.environ[microversion.MICROVERSION_ENVIRON]``)
    is a ``microversion_parse.Version``: ``req.version.matches((1, 28))`` is
    "1.28 or later", ``matches((1, 2), (1, 6))`` a range. Whole handlers:
    ``@microversion.version_handler('1.13')`` (404 below it; several
    same-named functions may cover disjoint ranges; ``status_code=405``).
    ``util.set_modified(req, when)`` adds the 1.15 ``last-modified`` and
    ``cache-control`` headers (``send_json`` does it for you).

Errors
    Raise webob exceptions with the human detail; put the Placement error
    code in ``comment``: ``raise webob.exc.HTTPConflict('...',
    comment=errors.CONCURRENT_UPDATE)``. The application renders Placement's
    ``{"errors": [{"status", "title", "detail", "code", "request_id"}]}``
    (code only from 1.23; ``placement.undefined_code`` when none is given).
    ``objects.placement.exception.NotFound`` escaping a handler is a 404,
    ``errors.PolicyNotAuthorized`` a 403; anything else is a bug and a 500.

Validating input
    ``data = util.extract_json(req.body, schema)`` (400 "Malformed JSON" /
    "JSON does not validate: ..."); ``util.validate_query_params(req,
    schema)`` for query strings. Schemas live in
    ``volapi.placement.schemas``; ``schemas.common`` has the shared patterns
    and ``MAX_INT``. The ``uuid`` format accepts what Placement accepts.

The context
    ``req.context`` (also ``req.environ['placement.context']``) is a
    ``volapi.placement.context.RequestContext``, a
    ``volapi.context.RequestContext``: pass it to ``db``/``objects``.
    Check policy first: ``req.context.can(policies.ALLOCATIONS_LIST)``
    (rule names in ``volapi/policies/placement.py``).
    ``req.context.config`` is the ConfigOpts.

The application
    ``wsgi.setup_app(conf)`` (WSGI servers: ``volapi.wsgi.placement``);
    mounted under a prefix, links and ``Location`` follow ``SCRIPT_NAME``.
    It puts the os-traits standard traits in the database when built
    (tests: build it after emptying tables;
    ``tests/functional/test_placement_base.PlacementTestCase``).

Where volapi is stricter than Placement
=======================================

Same paths, bodies, codes and messages otherwise; these are deliberate:

- An inventory cannot be shrunk below what is allocated from it (409
  ``placement.inventory.inuse``); Placement only logs a warning. Deleting
  an allocated class is refused the same way (Placement uses
  ``placement.concurrent_update`` for the single-class DELETE).
- ``allocation_ratio`` must be above 0 and ``min_unit`` not above
  ``max_unit`` (400). A provider cannot be renamed to ``''`` (400).
- Writes without a client generation (POST inventory, DELETE inventory or
  inventories or traits, aggregates before 1.19) re-read and retry when
  another writer bumped the generation, instead of answering 409.
- Custom resource classes are never cached per process, so a class
  renamed or deleted by another API process is never used stale.
- ``consumer_count`` (1.38) counts distinct consumers over all classes.
- With noauth2, a token that is not ``user`` or ``user:project`` (letters,
  digits and ``_.@-``) is a 401; Placement takes any token.
- Input no database can store (NUL, lone surrogates, NaN, absurd nesting,
  aggregate ids longer than 36 characters) is a 400, not a 500.
"""
