"""Patterns shared by the placement schemas."""

_UUID_CHAR = '[0-9a-fA-F-]'
UUID_PATTERN = '^%s{36}$' % _UUID_CHAR

_RC_TRAIT_CHAR = '[A-Z0-9_]'
RC_PATTERN = '^%s+$' % _RC_TRAIT_CHAR
CUSTOM_RC_PATTERN = '^CUSTOM_%s+$' % _RC_TRAIT_CHAR
CUSTOM_TRAIT_PATTERN = CUSTOM_RC_PATTERN
CONSUMER_TYPE_PATTERN = RC_PATTERN
CONSUMER_TYPE_GET_PATTERN = '%s|^all|^unknown$' % CONSUMER_TYPE_PATTERN

# The largest value an integer column holds (signed 32 bits).
MAX_INT = 2147483647
# The largest single-precision float, the bound of allocation_ratio.
SQL_SP_FLOAT_MAX = 3.40282e+38
# Request group suffixes: numbers (1.25), then names (1.33).
GROUP_PAT = r'[1-9][0-9]*'
GROUP_PAT_1_33 = r'[a-zA-Z0-9_-]{1,64}'
