"""/v3/[{project_id}/]limits: Cinder's absolute limits of a project and
what it uses of them; no rate limits.

The maxima are the project's quota (objects.quota; -1 is Cinder's
"unlimited"); what is used is reported
as the quota API reports it, ``totalGigabytesUsed`` counting volumes and
snapshots, as Cinder's 'gigabytes' quota does. From microversion 3.39 an
administrator may name another project with ``?project_id=`` (the policy
decides, on that project).
"""
import pecan
from oslo_config import cfg

from objects import quota
from volapi.api import microversion as mv
from volapi.api import policy
from volapi.api import rest
from volapi.policies import limits as policies

CONF = cfg.CONF


def _absolute(limits, usage):
    return {
        'maxTotalVolumes': limits['volumes'],
        'maxTotalSnapshots': limits['snapshots'],
        'maxTotalVolumeGigabytes': limits['gigabytes'],
        'maxTotalBackups': limits['backups'],
        'maxTotalBackupGigabytes': limits['backup_gigabytes'],
        'totalVolumesUsed': usage['volumes'],
        'totalSnapshotsUsed': usage['snapshots'],
        'totalGigabytesUsed': usage['gigabytes'],
        'totalBackupsUsed': usage['backups'],
        'totalBackupGigabytesUsed': usage['backup_gigabytes'],
    }


class LimitsController:

    @pecan.expose(generic=True)
    @rest.json(200)
    def index(self, **params):
        request = pecan.request
        context = request.ctx
        project_id = context.project_id
        # Like Cinder: before 3.39 the parameter (as any other) is ignored.
        if request.api_version_matches(mv.LIMITS_ADMIN_FILTER):
            project_id = params.get('project_id') or project_id
        policy.authorize(context, policies.USED_LIMITS,
                         {'project_id': project_id})
        limits = quota.project_limits(context, CONF, project_id)
        usage = quota.reported_usage(context, CONF, project_id)
        return {'limits': {'rate': [],
                           'absolute': _absolute(limits, usage)}}
