"""The user message (Cinder's ``messages`` API) a worker records when the
backend fails an operation, as Cinder's volume manager records them: by
the transition that ends the operation failed. It is written in that
transition's transaction, so a message never tells of a failure the
database does not show."""
from objects import message

# failed transition -> (message resource type, action, detail)
BY_TRANSITION = {
    'create_failed': (message.VOLUME, message.CREATE_VOLUME_FROM_BACKEND,
                      message.DRIVER_FAILED_CREATE),
    'extend_failed': (message.VOLUME, message.EXTEND_VOLUME,
                      message.DRIVER_FAILED_EXTEND),
    'snapshot_create_failed': (message.VOLUME_SNAPSHOT,
                               message.SNAPSHOT_CREATE,
                               message.SNAPSHOT_CREATE_ERROR),
    'snapshot_delete_failed': (message.VOLUME_SNAPSHOT,
                               message.SNAPSHOT_DELETE,
                               message.SNAPSHOT_DELETE_ERROR),
    'backup_create_failed': (message.VOLUME_BACKUP, message.BACKUP_CREATE,
                             message.BACKUP_CREATE_DRIVER_ERROR),
    'backup_delete_failed': (message.VOLUME_BACKUP, message.BACKUP_DELETE,
                             message.BACKUP_DELETE_DRIVER_ERROR),
    'backup_restore_failed': (message.VOLUME_BACKUP, message.BACKUP_RESTORE,
                              message.BACKUP_RESTORE_ERROR),
}


def recorder(failed, resource):
    """A step ``fn(ctx)`` recording the message of ``failed`` about
    ``resource`` in the caller's transaction, or None if Cinder records
    none for it."""
    if failed not in BY_TRANSITION:
        return None
    resource_type, action, detail = BY_TRANSITION[failed]
    return lambda ctx: message.record(ctx, resource.project_id,
                                      resource_type, resource.id, action,
                                      detail)
