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


def amount_beyond_max_int(request, placement, volapi):
    # A resource amount in a query above 2147483647 (no inventory can
    # hold it): volapi refuses it (volapi.placement's stricter list);
    # Placement finds nothing, or fails in the database for one beyond
    # 64 bits.
    if (volapi.status == 400 and placement.status in (200, 500)
            and 'requires amount <= 2147483647' in _detail(volapi)):
        return ('an amount above 2147483647 is a 400 in volapi; Placement '
                'answers no candidates (or a 500)')
    return None


RULES = [placement_sql_error, placement_leaks_driver_error,
         amount_beyond_max_int]


def reason(request, placement, volapi):
    """Why the responses may differ, or None."""
    for rule in RULES:
        found = rule(request, placement, volapi)
        if found:
            return found
    return None
