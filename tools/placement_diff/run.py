"""Send the scenario to both servers and collect the differences."""
import json
import typing

from tools.placement_diff import allowed
from tools.placement_diff import compare
from tools.placement_diff import scenario
from tools.placement_diff import scenario_candidates

SECTIONS = [scenario.framework, scenario.resource_classes, scenario.traits,
            scenario.providers, scenario.inventories,
            scenario.aggregates_and_traits, scenario.allocations,
            scenario_candidates.reshaper, scenario_candidates.candidates]


class Difference(typing.NamedTuple):
    number: int
    request: compare.Request
    aspect: str
    placement: typing.Any
    volapi: typing.Any
    accepted: typing.Optional[str]  # the reason, if accepted

    def report(self):
        text = '#%d %s\n  %s:\n    placement: %s\n    volapi:    %s' % (
            self.number, self.request.describe(), self.aspect,
            _short(self.placement), _short(self.volapi))
        if self.accepted:
            text += '\n  accepted: %s' % self.accepted
        return text


def _short(value):
    text = value if isinstance(value, str) else json.dumps(value,
                                                           sort_keys=True)
    return text if len(text) < 1500 else text[:1500] + '...'


def resolve(value, placement_url):
    """``value`` with the scenario's generation placeholders (scenario.g,
    scenario.cg) replaced by Placement's current values."""
    if isinstance(value, dict):
        if set(value) == {'$generation'}:
            return _read(placement_url, '/resource_providers/%s'
                         % value['$generation'])['generation']
        if set(value) == {'$consumer_generation'}:
            return _read(placement_url, '/allocations/%s' % value[
                '$consumer_generation']).get('consumer_generation')
        return {k: resolve(v, placement_url) for k, v in value.items()}
    if isinstance(value, list):
        return [resolve(v, placement_url) for v in value]
    return value


def _read(url, path):
    response = compare.send(url, scenario.r('GET', path, version='1.28'))
    return json.loads(response.body)


def requests():
    for section in SECTIONS:
        yield from section()


def differences(placement_url, volapi_url, transcript=None):
    """(every difference, the unaccepted ones, number of requests);
    ``transcript``: a file to write every exchange to."""
    found = []
    count = 0
    for number, request in enumerate(requests()):
        count += 1
        if request.body is not None and not isinstance(request.body, bytes):
            request = request._replace(
                body=resolve(request.body, placement_url))
        reference = compare.send(placement_url, request)
        candidate = compare.send(volapi_url, request)
        if transcript:
            transcript.write('#%d %s\n  placement %d %s\n  volapi    %d %s\n'
                             % (number, request.describe(), reference.status,
                                reference.body[:3000].decode(errors='replace'),
                                candidate.status,
                                candidate.body[:3000].decode(errors='replace')))
        differences = compare.differences(reference, candidate,
                                          scenario.KNOWN)
        accepted = differences and allowed.reason(request, reference,
                                                  candidate)
        found.extend(Difference(number, request, aspect, mine, theirs,
                                accepted)
                     for aspect, mine, theirs in differences)
    return found, [d for d in found if not d.accepted], count
