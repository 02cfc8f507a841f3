"""Errors of the placement API: the error codes of its error bodies
(``errors[].code``, from 1.23), the exception a refused policy raises and
Placement's words for a refused request body.

A handler attaches a code to the webob exception it raises with ``comment=``:
``raise webob.exc.HTTPConflict(msg, comment=errors.CONCURRENT_UPDATE)``;
the application moves it into the body (and out of the human text). These
strings are API: they are Placement's and never change.
"""
import webob.exc

from volapi import json_intake

DEFAULT = 'placement.undefined_code'
INVENTORY_INUSE = 'placement.inventory.inuse'
CONCURRENT_UPDATE = 'placement.concurrent_update'
DUPLICATE_NAME = 'placement.duplicate_name'
PROVIDER_IN_USE = 'placement.resource_provider.inuse'
PROVIDER_CANNOT_DELETE_PARENT = (
    'placement.resource_provider.cannot_delete_parent')
RESOURCE_PROVIDER_NOT_FOUND = 'placement.resource_provider.not_found'
ILLEGAL_DUPLICATE_QUERYPARAM = 'placement.query.duplicate_key'
QUERYPARAM_BAD_VALUE = 'placement.query.bad_value'
QUERYPARAM_MISSING_VALUE = 'placement.query.missing_value'
ALLOCATION_NOT_FOUND = 'placement.allocation.not_found'


class PolicyNotAuthorized(Exception):
    """A policy rule refused the caller: a 403."""

    def __init__(self, action):
        self.action = action
        super().__init__(
            'Policy does not allow %s to be performed.' % action)

    def format_message(self):
        return self.args[0]


def refused_body(exc):
    """The webob error answering a body json_intake refused, in
    Placement's words."""
    if isinstance(exc, json_intake.UnsupportedMediaType):
        return webob.exc.HTTPUnsupportedMediaType(
            'The media type %s is not supported, use %s'
            % (exc.media_type or 'None', json_intake.JSON_MEDIA_TYPE))
    if isinstance(exc, json_intake.Malformed):
        return webob.exc.HTTPBadRequest('Malformed JSON: %s' % exc)
    return webob.exc.HTTPBadRequest('JSON does not validate: %s' % exc)
