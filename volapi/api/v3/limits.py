"""/v3/[{project_id}/]limits: Cinder's absolute limits of a project and
what it uses of them; no rate limits.

volapi enforces no quotas yet, so every maximum is -1, Cinder's
"unlimited". What is used is counted from the project's live volumes and
snapshots; ``totalGigabytesUsed`` counts both, as Cinder's 'gigabytes'
quota does. From microversion 3.39 an administrator may name another
project with ``?project_id=`` (the policy decides, on that project).
"""
import pecan

from volapi.api import policy
from volapi.api import rest
from volapi.policies import limits as policies
import objects.project_usage

UNLIMITED = -1
PROJECT_FILTER_VERSION = (3, 39)


def _absolute(usage):
    return {
        'maxTotalVolumes': UNLIMITED,
        'maxTotalSnapshots': UNLIMITED,
        'maxTotalVolumeGigabytes': UNLIMITED,
        'maxTotalBackups': UNLIMITED,
        'maxTotalBackupGigabytes': UNLIMITED,
        'totalVolumesUsed': usage['volumes'],
        'totalSnapshotsUsed': usage['snapshots'],
        'totalGigabytesUsed': (usage['volume_gigabytes'] +
                               usage['snapshot_gigabytes']),
        'totalBackupsUsed': 0,
        'totalBackupGigabytesUsed': 0,
    }


class LimitsController:

    @pecan.expose(generic=True)
    @rest.json(200)
    def index(self, **params):
        request = pecan.request
        context = request.ctx
        project_id = context.project_id
        # Like Cinder: before 3.39 the parameter (as any other) is ignored.
        if request.api_version_matches(PROJECT_FILTER_VERSION):
            project_id = params.get('project_id') or project_id
        policy.authorize(context, policies.USED_LIMITS,
                         {'project_id': project_id})
        usage = objects.project_usage.get(context, project_id)
        return {'limits': {'rate': [], 'absolute': _absolute(usage)}}
