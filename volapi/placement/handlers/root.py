"""GET / : the version document, served without authentication."""
from volapi.placement import microversion
from volapi.placement import util


def home(req):
    min_version = microversion.min_version_string()
    document = {'versions': [{
        'id': 'v%s' % min_version,
        'max_version': microversion.max_version_string(),
        'min_version': min_version,
        # One version of the API, so it is the current one.
        'status': 'CURRENT',
        # A relative link to "here", as Placement: no proxy bookkeeping.
        'links': [{'rel': 'self', 'href': ''}],
    }]}
    return util.send_json(req, document)
