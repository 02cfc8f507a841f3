"""Default type bodies (3.62), as Cinder's view builder returns them."""


def _item(default):
    return {'project_id': default.project_id,
            'volume_type_id': default.volume_type_id}


def show(default):
    return {'default_type': _item(default)}


def collection(defaults):
    return {'default_types': [_item(default) for default in defaults]}
