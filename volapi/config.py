"""Process start-up: parse configuration, set up logging and the database."""
import os

from oslo_log import log as logging

from volapi import conf as volapi_conf

CONF = volapi_conf.CONF
_logging_registered = False


def setup(config_files=(), config_dir=None, prog='volapi', args=None,
          default_config_files=None):
    global _logging_registered
    if not _logging_registered:
        logging.register_options(CONF)
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
