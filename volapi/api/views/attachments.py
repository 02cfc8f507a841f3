"""Attachment bodies as Cinder's v3 attachments view builder returns them."""


def summary(attachment):
    return {'id': attachment.id,
            'status': attachment.attach_status,
            'instance': attachment.instance_uuid,
            'volume_id': attachment.volume_id}


def detail(attachment):
    view = summary(attachment)
    view.update(attached_at=attachment.attach_time or '',
                detached_at=attachment.detach_time or '',
                attach_mode=attachment.attach_mode,
                connection_info=attachment.connection_info_dict())
    return view


def show(attachment):
    return {'attachment': detail(attachment)}


def collection(attachments, detailed=False):
    build = detail if detailed else summary
    return {'attachments': [build(a) for a in attachments]}
