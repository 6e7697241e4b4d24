"""The words of a work diary, which the code, the tests and the user's pages do not use: history lives
in docs/history.md and docs/changelog.md."""

import re

#: A sitting of work ("sess" + "ion", spelled apart so that this file passes the check it defines).
SITTING = re.compile(r"\bsess(?:ion)s?\b", re.I)
#: An issue named by its number, with or without "#".
ISSUE_N = re.compile(r"\bissues? #?\d", re.I)
#: A version named by its number, or a range of them.
VERSION_N = re.compile(r"\bversions? \d+", re.I)
