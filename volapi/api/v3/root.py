"""/v3: the resources, with or without a project id in the URL."""
import importlib

import pecan

from volapi.api import errors
from volapi.api.v3 import types
from volapi.api.v3 import volumes

# (attribute, module, class) of controllers other engineers provide; each is
# mounted once its module exists (see volapi/api/v3/__init__.py).
PLUGGED = (
    ('snapshots', 'volapi.api.v3.snapshots', 'SnapshotsController'),
    ('attachments', 'volapi.api.v3.attachments', 'AttachmentsController'),
    ('workers', 'volapi.api.v3.workers', 'WorkersController'),
)


def _plugged_controllers():
    found = {}
    for attribute, module_name, class_name in PLUGGED:
        try:
            module = importlib.import_module(module_name)
        except ModuleNotFoundError as e:
            if e.name != module_name:
                raise  # the module exists but is broken: say so
            continue
        found[attribute] = getattr(module, class_name)()
    return found


class Resources:
    """What /v3/ and /v3/{project_id}/ both serve."""

    def __init__(self):
        self.volumes = volumes.VolumesController()
        self.types = types.TypesController()
        for attribute, controller in _plugged_controllers().items():
            setattr(self, attribute, controller)


class ProjectResources:
    """/v3/{project_id}/...: the same resources, after the project id in
    the URL was checked against the caller's."""

    def __init__(self, resources):
        self.resources = resources

    @pecan.expose()
    def _lookup(self, project_id, *remainder):
        if project_id != pecan.request.ctx.project_id:
            raise errors.BadRequest('Malformed request url')
        if not remainder:
            raise errors.NotFound()
        return self.resources, remainder


class V3Controller:

    def __init__(self):
        resources = Resources()
        self._project = ProjectResources(resources)
        for name, value in vars(resources).items():
            setattr(self, name, value)

    @pecan.expose()
    def _lookup(self, *remainder):
        return self._project, remainder


class RootController:

    def __init__(self):
        self.v3 = V3Controller()
