"""This process's log levels, read and changed while it runs (Cinder's
``service-get-log`` / ``service-set-log``, 3.32): the loggers oslo.log
made, chosen by a prefix of their names."""
import logging

from oslo_log import log

# The levels a request may set (Cinder's LOG_LEVELS), any case.
LEVELS = ('INFO', 'WARNING', 'ERROR', 'DEBUG')


def _loggers(prefix):
    return {name: adapter.logger
            for name, adapter in log.get_loggers().items()
            if name and name.startswith(prefix or '')}


def get(prefix=None):
    """{logger name: its effective level's name}."""
    return {name: logging.getLevelName(logger.getEffectiveLevel())
            for name, logger in _loggers(prefix).items()}


def set_level(prefix, level):
    """Set ``level`` (one of LEVELS) on every logger named ``prefix``..."""
    value = getattr(logging, level.upper())
    for logger in _loggers(prefix).values():
        logger.setLevel(value)
