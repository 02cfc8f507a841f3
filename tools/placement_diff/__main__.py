"""python -m tools.placement_diff [--db-url URL] [--venv DIR]: serve
Placement 16.0.0 and volapi's placement side by side, send both the
scenario, print each difference; exit 1 on any not accepted."""
import argparse
import os
import sys

from tools.placement_diff import run
from tools.placement_diff import servers


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument('--db-url', default=os.environ.get(
        'VOLAPI_TEST_PG_URL'), help='a PostgreSQL server where scratch '
        'databases may be made (default $VOLAPI_TEST_PG_URL)')
    parser.add_argument('--venv', help='virtualenv for Placement, kept '
                        'between runs (default: a temporary one)')
    parser.add_argument('--transcript', type=argparse.FileType('w'),
                        help='write every request and both responses here')
    args = parser.parse_args()
    if not args.db_url:
        parser.error('no --db-url and no $VOLAPI_TEST_PG_URL')
    with servers.both(args.db_url, args.venv, log=sys.stderr) as (
            placement, volapi):
        found, unaccepted, count = run.differences(placement.url, volapi.url,
                                                   args.transcript)
    for difference in found:
        print(difference.report())
    print('%d requests, %d differences, %d not accepted'
          % (count, len(found), len(unaccepted)))
    return 1 if unaccepted else 0


if __name__ == '__main__':
    sys.exit(main())
