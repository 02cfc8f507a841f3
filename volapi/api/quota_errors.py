"""The API errors of a refused claim: Cinder's 413 ``overLimit`` for the
quota, 400 for a pool without room (an extend or a snapshot goes where its
volume is)."""
from objects import quota
from volapi.api import errors
from volapi.volume import claims


def of_claim(exc):
    """The API error for a claim's refusal ``exc``; None for any other
    exception."""
    if isinstance(exc, quota.OverQuota):
        return over_limit(exc)
    if isinstance(exc, claims.NoRoom):
        return errors.BadRequest('Invalid volume: %s.' % exc)
    return None


def over_limit(exc):
    """The API error for objects.quota.OverQuota ``exc``, in Cinder's
    words (cinder.exception's quota errors)."""
    if exc.resource == 'gigabytes':
        return errors.OverLimit(
            'Requested volume or snapshot exceeds allowed gigabytes quota. '
            'Requested %(requested)sG, quota is %(quota)sG and '
            '%(consumed)sG has been consumed.' % {
                'requested': exc.requested, 'quota': exc.limit,
                'consumed': exc.in_use})
    if exc.resource == 'per_volume_gigabytes':
        return errors.OverLimit(
            'Requested volume size %dG is larger than maximum allowed limit '
            '%dG.' % (exc.requested, exc.limit))
    if exc.resource == 'snapshots':
        return errors.OverLimit(
            'Maximum number of snapshots allowed (%d) exceeded' % exc.limit)
    return errors.OverLimit(
        "Maximum number of volumes allowed (%d) exceeded for quota '%s'."
        % (exc.limit, exc.resource))
