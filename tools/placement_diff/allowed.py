"""Differences between volapi and Placement 16.0.0 accepted on purpose,
each with its reason. A rule sees the request and both responses and
returns why the difference is accepted, or None. Keep it short: each
rule is a place where a client can tell the two apart."""
import json


def _detail(response):
    try:
        return json.loads(response.body)['errors'][0]['detail']
    except (ValueError, KeyError, IndexError, TypeError):
        return ''


def placement_sql_error(request, placement, volapi):
    # Placement 16.0.0's own bugs on PostgreSQL: GET /usages at 1.38
    # groups by a column it does not select (GroupingError), and
    # GET /allocation_candidates with a forbidden trait binds trait names
    # where ids belong (InvalidTextRepresentation). volapi answers.
    if (placement.status == 500 and volapi.status < 500
            and 'psycopg2.errors.' in _detail(placement)):
        return ('Placement 16.0.0 fails with a 500 on PostgreSQL here '
                '(its SQL is wrong); volapi answers')
    return None


def placement_leaks_driver_error(request, placement, volapi):
    # POST .../inventories for a class the provider has: both 409, but
    # Placement's detail is the driver's IntegrityError (SQL statement and
    # parameters).
    if (placement.status == volapi.status == 409
            and 'psycopg2.errors.UniqueViolation' in _detail(placement)
            and 'already exists' in _detail(volapi)):
        return ("Placement's 409 detail is the database driver's error "
                "text; volapi's names the inventory that exists")
    return None


def limited_candidates_in_storage_order(request, placement, volapi):
    # GET /allocation_candidates?limit=N without randomizing keeps the
    # first N of a list whose order Placement takes from the database's
    # physical row order (PostgreSQL moves a row it updates to the end of
    # the table), which neither API documents; volapi keeps the oldest
    # providers first. Both must still answer N candidates.
    if (request.path.startswith('/allocation_candidates?')
            and 'limit=' in request.path
            and placement.status == volapi.status == 200):
        try:
            counts = {len(json.loads(r.body)['allocation_requests'])
                      for r in (placement, volapi)}
        except (ValueError, KeyError, TypeError):
            return None
        if len(counts) == 1:
            return ('which candidates a limit keeps follows an order '
                    'neither API documents')
    return None


RULES = [placement_sql_error, placement_leaks_driver_error,
         limited_candidates_in_storage_order]


def reason(request, placement, volapi):
    """Why the responses may differ, or None."""
    for rule in RULES:
        found = rule(request, placement, volapi)
        if found:
            return found
    return None
