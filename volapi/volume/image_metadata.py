"""A volume's image metadata (Cinder's ``volume_image_metadata``): the
properties of the image it was made from, or set by
``os-set_image_metadata``.

Each change is the volume's ``update_metadata`` transition (it exists, is
the caller's, and is not in 'maintenance', as in Cinder) with the rows'
change in the same transaction. A snapshot takes a copy of its volume's
when it is made, and a volume made from a snapshot or a volume takes its
source's, in their creates' transactions (volapi.volume.snapshots,
volapi.volume.create).
"""
from objects import metadata as metadata_rows
from volapi.volume import api as volume_api


class ImageMetadataNotFound(volume_api.ReferenceNotFound):

    def __init__(self, volume_id):
        # Cinder's words (GlanceMetadataNotFound).
        super().__init__('Glance metadata for volume/snapshot %s cannot be '
                         'found.' % volume_id)


def get(context, volume_id, authorize=None):
    volume = volume_api.get_volume(context, volume_id)
    if authorize is not None:
        authorize(volume)
    return metadata_rows.VOLUME_IMAGE.get(context, volume.id)


def set_keys(context, volume_id, metadata, authorize=None):
    """Set the keys of ``metadata`` (the others stay); returns the whole
    image metadata the transaction left."""
    def change(ctx, volume):
        metadata_rows.VOLUME_IMAGE.update(ctx, volume.id, metadata)
        return metadata_rows.VOLUME_IMAGE.get(ctx, volume.id)

    return volume_api.change_metadata(context, volume_id, authorize, {},
                                      change)


def unset_key(context, volume_id, key, authorize=None):
    if not volume_api.change_metadata(
            context, volume_id, authorize, {},
            lambda ctx, volume: metadata_rows.VOLUME_IMAGE.delete(
                ctx, volume.id, key)):
        raise ImageMetadataNotFound(volume_id)
