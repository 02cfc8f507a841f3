"""Remembered policy decisions (volapi.policy_decisions), shared by the
volume and placement APIs: asked once per rules, action, target and
credentials; asked again when one of those changes or cannot be hashed."""
import os

import fixtures
from oslo_policy import policy as oslo_policy

from tests import base
from volapi import context as volapi_context
from volapi.placement import context as placement_context
from volapi.placement import errors as placement_errors
from volapi.placement import policy as placement_policy
from volapi import policy_decisions


def _context(roles=(), project='p'):
    return volapi_context.RequestContext(user_id='u', project_id=project,
                                         roles=list(roles))


class DecisionsTest(base.TestCase):

    def setUp(self):
        super().setUp()
        self.enforcer = oslo_policy.Enforcer(self.config.conf)
        self.enforcer.register_default(
            oslo_policy.RuleDefault('thing:do', 'role:admin'))
        self.decisions = policy_decisions.Decisions(self.enforcer)
        self.asked = []

    def allowed(self, context, target=None, action='thing:do'):
        target = {'project_id': 'p'} if target is None else target

        def decide():
            self.asked.append(action)
            return self.enforcer.enforce(action, target,
                                         context.to_policy_values())
        return self.decisions.allowed(action, target, context, decide)

    def test_asked_once_per_credentials_and_target(self):
        admin, member = _context(['admin']), _context(['member'])
        self.assertTrue(self.allowed(admin))
        self.assertTrue(self.allowed(_context(['admin'])))
        self.assertFalse(self.allowed(member))
        self.assertFalse(self.allowed(member))
        self.assertTrue(self.allowed(admin, {'project_id': 'q'}))
        self.assertEqual(3, len(self.asked))

    def test_each_action_asked_once(self):
        member = _context(['member'])
        self.enforcer.register_default(
            oslo_policy.RuleDefault('thing:see', '@'))

        def decide(action):
            self.asked.append(action)
            return self.enforcer.enforce(action, {'project_id': 'p'},
                                         member.to_policy_values())
        for _ in range(2):
            self.assertEqual([False, True], self.decisions.allowed_each(
                ('thing:do', 'thing:see'), {'project_id': 'p'}, member,
                decide))
        self.assertEqual(['thing:do', 'thing:see'], self.asked)
        self.assertFalse(self.allowed(member))
        self.assertEqual(2, len(self.asked))

    def test_unhashable_target_is_asked_every_time(self):
        target = {'project_id': 'p', 'metadata': {'a': 'b'}}
        for _ in range(2):
            self.assertTrue(self.allowed(_context(['admin']), target))
        self.assertEqual(2, len(self.asked))

    def test_bounded(self):
        self.patch(policy_decisions, 'MAX_REMEMBERED', 2)
        for project in ('a', 'b', 'c'):
            self.allowed(_context(['admin']), {'project_id': project})
        self.assertEqual(1, len(self.decisions._decisions))
        self.allowed(_context(['admin']), {'project_id': 'c'})
        self.assertEqual(3, len(self.asked))


class PlacementPolicyFileTest(base.TestCase):
    """A changed policy file changes placement's decisions too."""

    def test_a_changed_file_changes_decisions(self):
        self.addCleanup(placement_policy.reset)
        path = os.path.join(self.useFixture(fixtures.TempDir()).path,
                            'policy.yaml')
        with open(path, 'w') as f:
            f.write('"placement:traits:list": "@"\n')
        placement_policy.get_enforcer(self.config.conf)  # its options
        placement_policy.reset()
        self.config.set('oslo_policy', policy_file=path)
        ctx = placement_context.RequestContext(
            user_id='u', project_id='p', roles=[], config=self.config.conf)
        # Twice: the decision is then remembered against loaded rules.
        self.patch(policy_decisions, 'RELOAD_INTERVAL', 0)
        ctx.can('placement:traits:list')
        ctx.can('placement:traits:list')
        with open(path, 'w') as f:
            f.write('"placement:traits:list": "role:admin"\n')
        later = os.stat(path).st_mtime + 100  # newer, whatever the clock
        os.utime(path, (later, later))
        self.assertRaises(placement_errors.PolicyNotAuthorized, ctx.can,
                          'placement:traits:list')
