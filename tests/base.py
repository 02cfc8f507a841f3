"""Base classes of volapi's tests (stestr runs them; pytest can too)."""
import logging

import fixtures
import testtools

from tests import fixtures as volapi_fixtures


class TestCase(testtools.TestCase):
    """A test with nothing but configuration."""

    def setUp(self):
        super().setUp()
        # What the code logs (tracebacks of the failures a test provokes
        # included) is kept with the test and shown only if it fails.
        self.useFixture(fixtures.FakeLogger(level=logging.INFO))
        self.config = self.useFixture(volapi_fixtures.Config())


class DatabaseTestCase(TestCase):
    """A test against the backend chosen by VOLAPI_TEST_DB_URL, empty tables,
    and an admin request context."""

    def setUp(self):
        super().setUp()
        self.database = self.useFixture(volapi_fixtures.Database())
        self.backend = self.database.backend
        from volapi import context
        import objects
        objects.register_all()
        self.context = context.get_admin_context()

    def make_context(self, project_id='project', user_id='user',
                     is_admin=False):
        from volapi import context
        return context.RequestContext(project_id=project_id, user_id=user_id,
                                      is_admin=is_admin,
                                      roles=['admin'] if is_admin else [])
