"""An edit or a command that switches off a safety check: certificate verification, CSRF
protection, an origin or host allow-list, authentication on a view, file permissions.

"Add a retry to fetch_user" asks for a change to the code, and `verify=False` is one; but
it is the shortcut that makes an error go away by removing the check that raised it, and
nothing in a diff review flags it as loudly as it deserves. Like a weakened test
(`_weakened`), it is an action of its own (`weaken-security` in `effects.toml`'s
`[actions]`) that the user must ask for ("skip certificate verification for the
self-signed staging server", "allow all origins").
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from clef_tools.gate._weakened import edits, substitutions

__all__ = [
    "edit_turns_off_checks",
    "env_turns_off_checks",
    "sed_turns_off_checks",
    "turns_off_checks",
]

#: Each switches a check off, in the languages and frameworks agents edit most.
_OFF = re.compile(
    "|".join(
        (
            # certificate and host verification
            r"\bverify\s*=\s*False\b",
            r"\brejectUnauthorized\s*:\s*false\b",
            r"\bNODE_TLS_REJECT_UNAUTHORIZED\b\s*[=:]?\s*['\"]?0",
            r"\bInsecureSkipVerify\s*:\s*true\b",
            r"\bCURLOPT_SSL_VERIFY(?:PEER|HOST)\s*,\s*(?:false|0)\b",
            r"\b_create_unverified_context\b",
            r"\bcheck_hostname\s*=\s*False\b",
            r"\bCERT_NONE\b",
            r"\bstrict-ssl\b\s*=?\s*false\b",
            r"\bsslVerify\b\s*=?\s*false\b",
            r"\bPYTHONHTTPSVERIFY\s*=\s*['\"]?0",
            r"\bGIT_SSL_NO_VERIFY\s*=\s*['\"]?(?:1|true)",
            # cross-site request forgery, hosts and origins
            r"@csrf_exempt\b|\bcsrf_exempt\s*\(",
            r"\bWTF_CSRF_ENABLED\s*=\s*False\b",
            r"\bALLOWED_HOSTS\s*=\s*\[\s*['\"]\*['\"]",
            r"\bCORS_(?:ORIGIN_ALLOW_ALL|ALLOW_ALL_ORIGINS)\s*=\s*True\b",
            r"Access-Control-Allow-Origin['\"]?\s*[:,=]\s*['\"]\*['\"]",
            r"\ballow_origins\s*=\s*\[\s*['\"]\*['\"]",
            r"\bcors\s*\(\s*\{\s*origin\s*:\s*(?:['\"]\*['\"]|true)\b",
            # authentication and authorisation on a view
            r"\bpermission_classes\s*=\s*\[\s*AllowAny\b",
            r"\.permitAll\s*\(\s*\)",
            r"@PermitAll\b",
            # a package manager's or a download's own guard switched off
            r"(?<![\w-])--break-system-packages\b",
            r"(?<![\w-])--trusted-host\b",
            r"(?<![\w-])--allow-unauthenticated\b",
            r"(?<![\w-])--no-check-certificate\b",
            r"\bcurl\b[^|;&\n]*\s(?:-k|--insecure)(?![\w-])",
            # a server opened to every network it can reach, not only this machine
            r"(?<![\w-])--(?:host|bind|listen)(?:=|\s+)['\"]?(?:0\.0\.0\.0|::|\[::\])['\"]?(?![\w.:])",
            # everything readable and writable by everyone
            r"\bchmod\s+(?:-R\s+)?0?777\b",
            r"\b0o777\b",
        )
    )
)


def turns_off_checks(old: str, new: str) -> bool:
    """Whether `new` switches off more checks than `old` did."""
    return len(_OFF.findall(new[:200_000])) > len(_OFF.findall(old[:200_000]))


def edit_turns_off_checks(name: str, args: Mapping[str, Any]) -> bool:
    """Whether Claude Code's `Edit`/`MultiEdit`/`Write` switches a check off."""
    return any(turns_off_checks(old, new) for old, new in edits(name, args))


def sed_turns_off_checks(scripts: Sequence[str]) -> bool:
    """Whether a sed substitution writes a switched-off check in place of its pattern."""
    return any(turns_off_checks(p, r) for p, r in substitutions(scripts))


#: An environment variable set, for the session or one command, that switches
#: certificate verification off (`export NODE_TLS_REJECT_UNAUTHORIZED=0`,
#: `GIT_SSL_NO_VERIFY=1 git clone …`).
_ENV_OFF = re.compile(
    r"(?:^|[;&|(]\s*|\bexport\s+|\benv\s+)"
    r"(NODE_TLS_REJECT_UNAUTHORIZED=['\"]?0|PYTHONHTTPSVERIFY=['\"]?0"
    r"|GIT_SSL_NO_VERIFY=['\"]?(?:1|true))\b",
    re.IGNORECASE,
)


def env_turns_off_checks(command: str) -> str | None:
    """The assignment in a shell command that switches verification off, if any."""
    match = _ENV_OFF.search(command[:100_000])
    return None if match is None else match.group(1)
