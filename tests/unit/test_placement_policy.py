"""Placement policy defaults: admin or service."""
import fixtures

from tests import base
from volapi import context as volapi_context
from volapi.placement import context
from volapi.placement import errors
from volapi.placement import policy


class TestPolicy(base.TestCase):

    def setUp(self):
        super().setUp()
        self.addCleanup(policy.reset)

    def make(self, roles):
        return context.RequestContext(user_id='u', project_id='p',
                                      roles=roles, config=self.config.conf)

    def test_admin_and_service_may(self):
        for roles in (['admin'], ['service'], ['reader', 'service']):
            self.make(roles).can('placement:resource_providers:list')

    def test_others_may_not(self):
        for roles in ([], ['member'], ['reader']):
            error = self.assertRaises(
                errors.PolicyNotAuthorized, self.make(roles).can,
                'placement:allocations:manage')
            self.assertEqual('Policy does not allow '
                             'placement:allocations:manage to be performed.',
                             str(error))

    def test_defaults_that_are_not_admin_or_service(self):
        # As Placement 16.0.0: usages also for readers of the project,
        # reshaping for services only.
        reader = self.make(['reader'])
        reader.can('placement:usages', target={'project_id': 'p'})
        self.assertRaises(errors.PolicyNotAuthorized, reader.can,
                          'placement:usages', target={'project_id': 'q'})
        self.make(['service']).can('placement:reshaper:reshape')
        self.assertRaises(errors.PolicyNotAuthorized,
                          self.make(['admin']).can,
                          'placement:reshaper:reshape')

    def test_credentials_are_context_attributes(self):
        # Decisions are remembered by these attributes' values: they must
        # be exactly what oslo.policy is given.
        ctx = self.make(['admin'])
        ctx.user_domain_id, ctx.service_roles = 'domain', ['service']
        values = ctx.to_policy_values()
        self.assertEqual(sorted(values), sorted(volapi_context.POLICY_VALUE_NAMES))
        for name in volapi_context.POLICY_VALUE_NAMES:
            self.assertEqual(values[name], getattr(ctx, name))

    def test_remembered_decision_is_per_credentials(self):
        action = 'placement:allocations:update'
        self.make(['admin']).can(action)
        self.assertRaises(errors.PolicyNotAuthorized, self.make([]).can,
                          action)
        self.make(['admin']).can(action)

    def test_every_rule_has_a_default(self):
        names = [rule.name for rule in policy.list_rules()]
        self.assertEqual(len(names), len(set(names)))
        self.assertIn('placement:reshaper:reshape', names)

    def test_policy_file_overrides_a_default(self):
        import os
        self.addCleanup(policy.reset)
        directory = self.useFixture(fixtures.TempDir()).path
        path = os.path.join(directory, 'policy.yaml')
        with open(path, 'w') as handle:
            handle.write('"placement:traits:list": "@"\n')
        policy.get_enforcer(self.config.conf)  # registers [oslo_policy]
        policy.reset()
        self.config.set(group='oslo_policy', policy_file=path)
        self.make([]).can('placement:traits:list')
        self.assertRaises(errors.PolicyNotAuthorized, self.make([]).can,
                          'placement:traits:update')
