"""volapi's version, as oslo.reports (the Guru Meditation report) asks."""
from importlib import metadata


class VersionInfo:

    def vendor_string(self):
        return 'volapi'

    def product_string(self):
        return 'volapi'

    def version_string_with_package(self):
        try:
            return metadata.version('volapi')
        except metadata.PackageNotFoundError:
            return 'unknown'


INFO = VersionInfo()
