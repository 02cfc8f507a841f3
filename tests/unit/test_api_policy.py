"""The volume API's default policies and the remembered decisions."""
import os

import fixtures

from oslo_policy import policy as oslo_policy

from tests import base
from volapi.api import errors
from volapi.api import policy
from volapi import context as volapi_context
from volapi import policies
from volapi import policy_decisions


def _context(project='p', roles=(), is_admin=False):
    return volapi_context.RequestContext(user_id='u', project_id=project,
                                         roles=list(roles),
                                         is_admin=is_admin)


class DefaultsTest(base.TestCase):

    def setUp(self):
        super().setUp()
        policy.init(self.config.conf)

    def test_owner_or_admin(self):
        target = {'project_id': 'p'}
        self.assertTrue(policy.authorize(_context('p'), 'volume:get',
                                         target))
        self.assertTrue(policy.authorize(_context('q', ['admin']),
                                         'volume:get', target))
        self.assertRaises(errors.Forbidden, policy.authorize,
                          _context('q'), 'volume:get', target)

    def test_admin_only_rules(self):
        for rule in ('volume_extension:volume_admin_actions:reset_status',
                     'volume_extension:types_manage', 'workers:cleanup'):
            self.assertFalse(policy.authorize(_context(), rule,
                                              do_raise=False), rule)
            self.assertTrue(policy.authorize(_context(roles=['admin']),
                                             rule), rule)

    def test_a_misspelt_rule_raises(self):
        self.assertRaises(oslo_policy.PolicyNotRegistered, policy.authorize,
                          _context(roles=['admin']), 'volume:gett')

    def test_rules_carry_operations_and_scope_types(self):
        documented = [rule for rule in policies.list_rules()
                      if isinstance(rule, oslo_policy.DocumentedRuleDefault)]
        self.assertIn('volume:update_readonly_flag',
                      [rule.name for rule in documented])
        for rule in documented:
            self.assertTrue(rule.operations, rule.name)
            self.assertEqual(['project'], rule.scope_types, rule.name)

    def test_rules_are_documented(self):
        names = [rule.name for rule in policies.list_rules()]
        self.assertEqual(len(names), len(set(names)))
        self.assertIn('volume:create', names)


class PolicyFileTest(base.TestCase):

    def test_context_is_admin_decides_who_is_admin(self):
        path = self.useFixture(fixtures.TempDir()).join('policy.yaml')
        with open(path, 'w') as f:
            f.write('"context_is_admin": "role:superuser"\n')
        self.config.set('oslo_policy', policy_file=path)
        policy.init(self.config.conf)
        self.assertTrue(policy.check_is_admin(_context(roles=['superuser'])))
        self.assertFalse(policy.check_is_admin(_context(roles=['admin'])))
        self.assertTrue(policy.authorize(
            _context(roles=['superuser']), 'workers:cleanup'))

    def test_a_changed_file_changes_decisions(self):
        directory = self.useFixture(fixtures.TempDir()).path
        path = os.path.join(directory, 'policy.yaml')
        with open(path, 'w') as f:
            f.write('"volume:get_all": "role:reader"\n')
        self.config.set('oslo_policy', policy_file=path)
        policy.init(self.config.conf)
        self.patch(policy_decisions, 'RELOAD_INTERVAL', 0)
        # Twice: the decision is then remembered against loaded rules.
        for _ in range(2):
            self.assertFalse(policy.authorize(_context(), 'volume:get_all',
                                              do_raise=False))
        with open(path, 'w') as f:
            f.write('"volume:get_all": ""\n')
        later = os.stat(path).st_mtime + 100  # newer, whatever the clock
        os.utime(path, (later, later))
        self.assertTrue(policy.authorize(_context(), 'volume:get_all'))
