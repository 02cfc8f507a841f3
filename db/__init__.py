"""volapi's database layer: models, the compare-and-swap primitive, migrations.

It imports nothing of volapi above it.
"""
from db.conditions import Case  # noqa: F401
from db.conditions import Expect  # noqa: F401
from db.conditions import Filter  # noqa: F401
from db.conditions import Not  # noqa: F401
