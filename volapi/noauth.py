"""The noauth token both APIs read, ``X-Auth-Token: user[:project]``.

Without keystone the token is the identity, so it is checked like one: a
user and a project are sane identifiers (letters, digits, ``_.@-``, at
most 255 characters), and a token is either ``user`` (the project is the
same) or ``user:project``. Anything else (``:``, ``a:b:c``, control
characters, bytes that are not ASCII) would otherwise own resources under
a project nobody can name, so it is refused with a 401.
"""
import re

_IDENTIFIER = re.compile(r'[A-Za-z0-9_.@-]{1,255}', re.ASCII)
# cinderclient's noauth sends ":<project>" when given no --os-user-id.
REFUSED_MESSAGE = ('Invalid noauth token: expected "user" or '
                   '"user:project", each of letters, digits and _.@- '
                   '(at most 255 characters; with cinder --os-auth-type '
                   'noauth, give --os-user-id).')


def is_identifier(text):
    return bool(_IDENTIFIER.fullmatch(text))


def parse_token(token):
    """(user_id, project_id) of a noauth token, or None if it is not
    one."""
    user_id, separator, project_id = token.partition(':')
    if not separator:
        project_id = user_id
    if is_identifier(user_id) and is_identifier(project_id):
        return user_id, project_id
    return None
