"""The multiattach rule of a volume type's extra specs, decided in Python
(volume create, retype) and in SQL (retype_done): both must agree."""
import sqlalchemy as sa

from db import models
from db import session
from objects import volume_type
from tests import base
from tests import volume_rows as rows

CASES = [('<is> True', True), (' <IS> true ', True), ('True', False),
         ('<is> False', False), ('', False), (None, False)]


class MultiattachRuleTest(base.DatabaseTestCase):

    def test_python_and_sql_agree(self):
        for value, expected in CASES:
            with self.subTest(value=value):
                type_id = rows.volume_type(self.context)
                specs = {}
                if value is not None:
                    rows.insert(self.context, models.VolumeTypeExtraSpec,
                                volume_type_id=type_id, key='multiattach',
                                value=value)
                    specs['multiattach'] = value
                self.assertEqual(expected, volume_type.is_multiattach(specs))
                with session.reader.connection.using(self.context) as conn:
                    in_sql = conn.execute(sa.select(
                        volume_type.multiattach_criterion(type_id))).scalar()
                self.assertEqual(expected, bool(in_sql))
