"""What volume types and group types share: a named, possibly private
type whose name is unique among live types (the ``live_name`` unique
constraint), made by a plain insert and renamed by a compare-and-swap."""
import uuid

from oslo_utils import timeutils


def new_row(obj):
    """The row that inserts type object ``obj`` (an id given if it has
    none), created now."""
    if not obj.obj_attr_is_set('id'):
        obj.id = str(uuid.uuid4())
    return {'id': obj.id, 'name': obj.name, 'live_name': obj.name,
            'description': obj.description if obj.obj_attr_is_set(
                'description') else None,
            'is_public': obj.is_public, 'deleted': False,
            'created_at': timeutils.utcnow()}


def changed_values(name=None, description=None, is_public=None):
    """The columns an update that gives these sets (a new name takes the
    live name with it)."""
    values = {}
    if name is not None:
        values.update(name=name, live_name=name)
    if description is not None:
        values['description'] = description
    if is_public is not None:
        values['is_public'] = is_public
    return values
