"""The Transfer object: a volume offered to another project (Cinder's
volume transfers).

A live transfer is seen by the project that owns its volume (and by
administrators), as Cinder scopes it: through the volume, not through the
transfer's own ``source_project_id``; the transfer of a volume deleted
(an administrator's force delete) is seen by nobody.
"""
import sqlalchemy as sa

from db import exceptions
from db import models
from db import session
from objects import base
from objects import fields
from objects import pagination

TRANSFERS = models.Transfer.__table__
VOLUMES = models.Volume.__table__


def _scope(project_id):
    """The clauses on ``transfers`` that its volume is live (a volume
    deleted takes its transfer along, as Cinder's volume_destroy does) and,
    unless ``project_id`` is None, belongs to ``project_id``."""
    of_project = [] if project_id is None else [
        VOLUMES.c.project_id == project_id]
    return [sa.exists().where(VOLUMES.c.id == TRANSFERS.c.volume_id,
                              VOLUMES.c.deleted == sa.false(), *of_project)]


@base.register
class Transfer(base.VolapiPersistentObject, base.VolapiObjectDictCompat):
    # Version 1.0: initial version
    VERSION = '1.0'

    model = models.Transfer

    fields = dict({
        'id': fields.UUIDField(),
        'volume_id': fields.UUIDField(),
        'display_name': fields.StringField(nullable=True),
        'salt': fields.StringField(nullable=True),
        'crypt_hash': fields.StringField(nullable=True),
        'expires_at': fields.DateTimeField(nullable=True),
        'no_snapshots': fields.BooleanField(default=False),
        'source_project_id': fields.StringField(nullable=True),
        'destination_project_id': fields.StringField(nullable=True),
        'accepted': fields.BooleanField(default=False),
    }, **base.SOFT_DELETE_FIELDS)

    @classmethod
    def get_live(cls, context, transfer_id, project_id=None):
        """The live transfer, NotFound if there is none or (with
        ``project_id``) its volume is another project's."""
        scope = _scope(project_id)
        with session.reader.connection.using(context) as conn:
            row = conn.execute(sa.select(TRANSFERS).where(
                TRANSFERS.c.id == transfer_id,
                TRANSFERS.c.deleted == sa.false(), *scope)
            ).mappings().first()
        if row is None:
            raise exceptions.NotFound(cls.model.cas_name, transfer_id)
        return cls._from_row(context, row)

    @classmethod
    def get_all(cls, context, project_id=None, filters=None, limit=None,
                marker=None, offset=None, sort_keys=('created_at',),
                sort_dirs=('desc',)):
        """Live transfers (of ``project_id``'s volumes, or all), whose
        columns equal ``filters``; keyset paging as objects.pagination
        does it, a marker the caller cannot see being a transfer not
        found."""
        scope = _scope(project_id)
        try:
            rows = pagination.live_rows(context, TRANSFERS, scope, filters,
                                        limit, marker, sort_keys, sort_dirs,
                                        offset)
        except pagination.MarkerNotFound:
            raise exceptions.NotFound(cls.model.cas_name, marker) from None
        return [cls._from_row(context, row) for row in rows]
