"""volapi-status: ``volapi-status upgrade check`` (oslo.upgradecheck), run
after upgrading the code and before starting the services on it."""
import sys

from oslo_upgradecheck import common_checks
from oslo_upgradecheck import upgradecheck

from volapi import config


class Checks(upgradecheck.UpgradeCommands):
    """Each check returns an upgradecheck.Result."""

    def check(self):
        # The command line is parsed by now: connect to the database named.
        from db import session
        session.configure_from_conf(config.CONF)
        return super().check()

    @staticmethod
    def _schema_is_current():
        from db import migration
        current, newest = migration.version(), migration.heads()
        return current == newest, current, newest

    def _check_schema(self):
        is_current, current, newest = self._schema_is_current()
        if not is_current:
            return upgradecheck.Result(
                upgradecheck.Code.FAILURE,
                'The database schema is at %s, the code needs %s: run '
                '"volapi-manage db sync".' % (current or 'nothing', newest))
        return upgradecheck.Result(upgradecheck.Code.SUCCESS)

    def _check_incomplete_consumers(self):
        from objects.placement import consumer
        from volapi import context
        # Counting needs the current tables; on an older schema the
        # schema check already says what to run.
        if not self._schema_is_current()[0]:
            return upgradecheck.Result(
                upgradecheck.Code.FAILURE,
                'Not checked: the schema is not current; run '
                '"volapi-manage db sync" first.')
        missing = consumer.count_incomplete_consumers(
            context.get_admin_context())
        if missing:
            return upgradecheck.Result(
                upgradecheck.Code.WARNING,
                '%d consumers have allocations but no consumer record: run '
                '"volapi-manage db online_data_migrations".' % missing)
        return upgradecheck.Result(upgradecheck.Code.SUCCESS)

    _upgrade_checks = (
        ('Database schema', _check_schema),
        ('Consumer records', _check_incomplete_consumers),
        ('Policy file JSON to YAML migration',
         (common_checks.check_policy_json, {'conf': config.CONF})),
    )


def main(argv=None):
    return upgradecheck.main(config.CONF, 'volapi', Checks(),
                             sys.argv[1:] if argv is None else argv)


if __name__ == '__main__':
    sys.exit(main())
