"""Process start-up: parse configuration, set up logging and the database."""
import os

from oslo_log import log as logging

from volapi import conf as volapi_conf

CONF = volapi_conf.CONF
_logging_registered = False
# alembic announces each plugin it loads at INFO, seven lines in front of
# every volapi-manage db command. oslo.db logs a traceback when its retries
# of a lost connection or a deadlock give up: an outage, which volapi
# reports itself where it is handled (a 503 and a warning in the APIs, one
# line from volapi-manage), with the error but no traceback.
QUIET_LOGGERS = ['alembic.runtime.plugins=WARN', 'oslo_db.api=CRITICAL']


def setup(config_files=(), config_dir=None, prog='volapi', args=None,
          default_config_files=None):
    global _logging_registered
    if not _logging_registered:
        logging.register_options(CONF)
        logging.set_defaults(default_log_levels=(
            logging.get_default_log_levels() + QUIET_LOGGERS))
        _logging_registered = True
    if default_config_files is None:
        default_config_files = [f for f in config_files if f] or None
    CONF([] if args is None else args, project='volapi', prog=prog,
         default_config_files=default_config_files,
         default_config_dirs=[config_dir] if config_dir else None)
    logging.setup(CONF, 'volapi')
    os.makedirs(CONF.state_path, exist_ok=True)
    from db import session
    session.configure_from_conf(CONF)
    return CONF
