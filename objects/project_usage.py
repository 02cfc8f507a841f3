"""What a project holds, counted from its live rows (GET /limits)."""
import sqlalchemy as sa

from db import models
from db import session

VOLUMES = models.Volume.__table__
SNAPSHOTS = models.Snapshot.__table__


def _live(table, project_id, size_column):
    return sa.select(
        sa.func.count(), sa.func.coalesce(sa.func.sum(size_column), 0)
    ).where(table.c.project_id == project_id,
            table.c.deleted == sa.false())


def get(context, project_id):
    """{'volumes', 'volume_gigabytes', 'snapshots', 'snapshot_gigabytes'}
    of the project, read in one snapshot."""
    with session.reader.connection.using(context) as conn:
        volumes, volume_gb = conn.execute(_live(
            VOLUMES, project_id, VOLUMES.c.size)).one()
        snapshots, snapshot_gb = conn.execute(_live(
            SNAPSHOTS, project_id, SNAPSHOTS.c.volume_size)).one()
    return {'volumes': volumes, 'volume_gigabytes': int(volume_gb),
            'snapshots': snapshots, 'snapshot_gigabytes': int(snapshot_gb)}
