"""``[api] auth_strategy = keystone``: keystonemiddleware's auth_token guards
the API (no Keystone is needed to see it refuse a request without a token)
and the versions documents stay open."""
from keystonemiddleware import auth_token  # noqa: F401 (its options)
import webtest

from tests import base
from volapi.api import app


class KeystoneStrategyTest(base.DatabaseTestCase):

    def setUp(self):
        super().setUp()
        self.config.set('api', auth_strategy='keystone')
        # Where clients are told to authenticate; never contacted here.
        self.config.set('keystone_authtoken',
                        www_authenticate_uri='http://127.0.0.1:9/identity')
        self.app = webtest.TestApp(app.setup_app(self.config.conf))

    def test_no_token_is_401(self):
        response = self.app.get('/v3/volumes', status=401)
        self.assertIn('X-OpenStack-Request-Id', response.headers)
        self.assertIn('www-authenticate', {k.lower()
                                           for k in response.headers})

    def test_versions_need_no_token(self):
        self.app.get('/', status=300)
        self.app.get('/v3/', status=200)
