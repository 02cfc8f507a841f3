"""Microversions of the placement API: the list, and how handlers use them.

A request names its version with ``OpenStack-API-Version: placement 1.x``
(``latest`` is the newest); none means 1.0. Versions outside the list get a
406, a malformed header a 400 (see ``volapi.placement.wsgi``). Handlers read
``req.environ[MICROVERSION_ENVIRON]``, a ``microversion_parse.Version`` with
``matches(min, max)``, or declare the versions they serve with
:func:`version_handler`.
"""
import collections

import microversion_parse
import webob.exc

SERVICE_TYPE = 'placement'
MICROVERSION_ENVIRON = '%s.microversion' % SERVICE_TYPE

# The canonical list, oldest first; what each one changed is in the
# placement API reference.
VERSIONS = [
    '1.0',
    '1.1',   # GET/PUT /resource_providers/{uuid}/aggregates
    '1.2',   # /resource_classes
    '1.3',   # member_of on GET /resource_providers
    '1.4',   # resources on GET /resource_providers
    '1.5',   # DELETE /resource_providers/{uuid}/inventories
    '1.6',   # /traits and /resource_providers/{uuid}/traits
    '1.7',   # PUT /resource_classes/{name} is a bodiless create-or-check
    '1.8',   # project_id and user_id required on PUT /allocations
    '1.9',   # GET /usages
    '1.10',  # GET /allocation_candidates
    '1.11',  # 'allocations' link on resource providers
    '1.12',  # PUT /allocations/{consumer} in the GET's dict form
    '1.13',  # POST /allocations
    '1.14',  # nested providers: parent/root uuids, in_tree
    '1.15',  # last-modified and cache-control headers
    '1.16',  # limit on allocation candidates
    '1.17',  # required traits on allocation candidates
    '1.18',  # required traits on GET /resource_providers
    '1.19',  # generation in provider aggregates
    '1.20',  # POST /resource_providers returns the provider
    '1.21',  # member_of on allocation candidates
    '1.22',  # forbidden traits (!TRAIT)
    '1.23',  # error codes in error bodies
    '1.24',  # repeated member_of
    '1.25',  # granular request groups
    '1.26',  # reserved may equal total
    '1.27',  # all inventories in provider summaries
    '1.28',  # consumer generations
    '1.29',  # nested providers in allocation candidates
    '1.30',  # POST /reshaper
    '1.31',  # in_tree on allocation candidates
    '1.32',  # forbidden aggregates (!member_of)
    '1.33',  # string request group suffixes
    '1.34',  # mappings in allocation candidates
    '1.35',  # root_required on allocation candidates
    '1.36',  # same_subtree on allocation candidates
    '1.37',  # re-parenting and un-parenting providers
    '1.38',  # consumer types
    '1.39',  # any-traits: required=in:T1,T2
]

# Versions as tuples, oldest first; parse once.
_PARSED = {v: microversion_parse.parse_version_string(v) for v in VERSIONS}
MIN_VERSION = _PARSED[VERSIONS[0]]
MAX_VERSION = _PARSED[VERSIONS[-1]]


def min_version_string():
    return VERSIONS[0]


def max_version_string():
    return VERSIONS[-1]


# Header value -> the Version it asks for, for headers naming a version on
# offer; bounded, as a header may be any string.
_ACCEPTED = {}
_MAX_ACCEPTED = 256


def extract_version(environ):
    """The requested Version, from the WSGI environ's headers.

    Raises ValueError (an unknown version: 406) or TypeError (a malformed
    one: 400), as microversion_parse does.
    """
    header = environ.get('HTTP_OPENSTACK_API_VERSION')
    version = _ACCEPTED.get(header)
    if version is None:
        headers = {'openstack-api-version': header} if header else {}
        version = microversion_parse.extract_version(headers, SERVICE_TYPE,
                                                     VERSIONS)
        # Parsed once per header value: Versions are immutable tuples.
        if len(_ACCEPTED) < _MAX_ACCEPTED:
            _ACCEPTED[header] = version
    return version


def _parse(version):
    if isinstance(version, tuple):
        return version
    return microversion_parse.parse_version_string(version)


# qualified function name -> [(min, max, function)], highest min first
_VERSIONED = collections.defaultdict(list)


def version_handler(min_ver, max_ver=None, status_code=404):
    """Serve a handler only from ``min_ver`` to ``max_ver`` (inclusive).

    Several functions of one name may be declared in one module for
    disjoint ranges; the request's version picks one. A version no range
    covers gets ``status_code`` (404 by default, as the resource does not
    exist at that version; 405 where a method is what is missing).
    """
    low = _parse(min_ver)
    high = _parse(max_ver) if max_ver else MAX_VERSION

    def decorator(fn):
        name = '%s.%s' % (fn.__module__, fn.__qualname__)
        variants = _VERSIONED[name]
        variants.append((low, high, fn))
        variants.sort(key=lambda item: item[0], reverse=True)

        def dispatch(req, *args, **kwargs):
            version = req.environ[MICROVERSION_ENVIRON]
            for first, last, variant in variants:
                if first <= version <= last:
                    return variant(req, *args, **kwargs)
            raise webob.exc.status_map[status_code]()

        dispatch.__name__ = fn.__name__
        dispatch.__qualname__ = fn.__qualname__
        dispatch.__module__ = fn.__module__
        dispatch.__doc__ = fn.__doc__
        return dispatch
    return decorator
