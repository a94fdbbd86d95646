"""The deployment environment a user named, and a call that acts on another one.

"Deploy to staging", "reset the test database", "clear the cache in dev": the environment
is how the user says which of several copies of the same thing they mean, and production
is the copy whose change hurts. A call whose arguments name production (`--context
production`, `app_production`, `redis.prod.internal`) or staging, when the user named
another environment, is not what they asked, however well its kind is licensed.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Mapping
from typing import Any

from clef_tools.gate._evidence import text_values

__all__ = ["environment_issue"]

#: The words each environment goes by in requests.
_SAID: dict[str, frozenset[str]] = {
    "production": frozenset(["prod", "production", "prd", "live"]),
    "staging": frozenset(["staging", "stage", "stg", "preprod"]),
    "development": frozenset(["dev", "development", "local", "locally", "localhost"]),
    "test": frozenset(["test", "testing", "qa", "uat", "sandbox"]),
    # a hosting platform's deploy of a branch that is not the site (`vercel`, not `--prod`)
    "preview": frozenset(["preview"]),
}
#: The words that name an environment inside a call's names (`--context production`,
#: `acme-prod-artifacts`, `redis.prod.internal`): "test" and "dev" are everywhere in a
#: project (`tests/`, `/dev/null`, `npm run dev`) without naming one, "stage" and "live"
#: are ordinary words.
_IN_CALLS: dict[str, frozenset[str]] = {
    "production": frozenset(["prod", "production", "prd"]),
    "staging": frozenset(["staging", "stg", "preprod"]),
}
_TOKEN = re.compile(r"[a-z]+")


def _environments(text: str, names: Mapping[str, frozenset[str]]) -> set[str]:
    tokens = set(_TOKEN.findall(text.lower()))
    return {env for env, words in names.items() if tokens & words}


def environment_issue(args: Mapping[str, Any], said: str) -> str | None:
    """An environment the call names that is none of the ones the user named, when they
    named any; None otherwise."""
    asked = _environments(said[:20_000], _SAID)
    if not asked:
        return None
    texts = itertools.islice(text_values(args), 256)
    found = set().union(*(_environments(t[:4000], _IN_CALLS) for t in texts))
    other = sorted(found - asked)
    if not other:
        return None
    return f"in {other[0]}, where the user named {', '.join(sorted(asked))}"
