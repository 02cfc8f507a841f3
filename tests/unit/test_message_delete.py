"""objects.message.delete: one compare-and-swap of the live row, scoped to
a project when one is given."""
import sqlalchemy as sa

from objects import message
from tests import base

MESSAGES = message.MESSAGES


class MessageDeleteTest(base.DatabaseTestCase):

    def record(self, project_id):
        message.record(self.context, project_id, 'VOLUME', 'v-1',
                       message.SCHEDULE_ALLOCATE_VOLUME,
                       message.NO_BACKEND_AVAILABLE)
        with self.database.engine.connect() as conn:
            return conn.execute(sa.select(MESSAGES.c.id).where(
                MESSAGES.c.project_id == project_id)).scalar_one()

    def row(self, message_id):
        with self.database.engine.connect() as conn:
            return conn.execute(sa.select(MESSAGES).where(
                MESSAGES.c.id == message_id)).mappings().one()

    def test_deletes_once(self):
        message_id = self.record('project-a')
        self.assertTrue(message.delete(self.context, message_id))
        row = self.row(message_id)
        self.assertTrue(row['deleted'])
        self.assertIsNotNone(row['deleted_at'])
        self.assertFalse(message.delete(self.context, message_id))
        self.assertIsNone(message.get(self.context, message_id))

    def test_another_projects_message_is_left_alone(self):
        message_id = self.record('project-a')
        self.assertFalse(message.delete(self.context, message_id,
                                        project_id='project-b'))
        self.assertFalse(self.row(message_id)['deleted'])
        self.assertTrue(message.delete(self.context, message_id,
                                       project_id='project-a'))
