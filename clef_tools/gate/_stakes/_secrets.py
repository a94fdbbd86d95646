"""Reads and sends of credentials the user's words do not ask for.

A key, a password or a project's secrets file is worth more to an injected instruction than
anything else a coding agent can reach, so a read of one needs the user's own words for it.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Mapping
from typing import Any

from clef_tools.gate._effects import CallEffect, words
from clef_tools.gate._evidence import text_values
from clef_tools.gate._grounding import (
    object_named,
)
from clef_tools.protocol._secrets import secrets_in

#: The most argument texts a call's credential check reads (the request is bounded before).
_MAX_TEXTS = 4096


def carries_secret(effect: CallEffect, args: Mapping[str, Any], said: str) -> bool:
    """Whether a call that reaches someone else carries a credential (a one-time code, a
    password, an API key) the user did not write: what an agent reads in an inbox is not
    what it may pass on; a read of another's server carries it in its link (`fetch(url=
    "https://…?k=sk-live-…")`). Commands are left out: they name their secrets by variable."""
    if (effect.read_only and not effect.external) or effect.source in ("shell", "sql"):
        return False
    if not (effect.external or effect.kinds & {"send", "pay", "grant"}):
        return False
    told = said.lower()
    texts = itertools.islice(text_values(args), _MAX_TEXTS)
    return any(secret.lower() not in told for text in texts for secret in secrets_in(text))


#: A file that holds a secret itself: a private key, a login file, cloud credentials.
_SECRET_FILE = (
    r"(?:^|[\\/])(?:id_rsa|id_ed25519|id_ecdsa|id_dsa|\.netrc|\.pgpass|\.pypirc"
    r"|\.git-credentials|credentials|credentials\.json|shadow|\.npmrc"
    r"|[^\\/]+\.(?:pem|p12|pfx))$"
)


_SECRET_FILE_PATH = re.compile(_SECRET_FILE, re.IGNORECASE)


#: Where keys and credentials are kept: those files, and the folders of SSH and GPG keys
#: and of cloud and registry logins.
_CREDENTIAL_PATH = re.compile(
    r"(?:^|[\\/])(?:\.ssh|\.gnupg|\.azure|\.kube|\.docker|\.config/gcloud)(?:[\\/]|$)|"
    # a project's secrets: its `.env` files (not `.env.example`), a `secrets.yml`
    r"(?:^|[\\/])(?:\.env(?:\.(?!example\b|sample\b|template\b|dist\b)[\w-]+)?"
    r"|secrets?\.(?:ya?ml|json|toml|env))$|" + _SECRET_FILE,
    re.IGNORECASE,
)


#: How a user points to such a file: by its name, or as the env or secrets file (not by
#: the name of its template, `.env.example`, which holds no values).
FILE_SAID = re.compile(
    r"(?<![\w-])\.env\b(?!\.(?:example|sample|template|dist)\b)"
    r"|\bsecrets?\.(?:ya?ml|json|toml|env)\b|\bdot-?env\b"
    r"|\b(?:env|environment|secrets?)\s+files?\b",
    re.IGNORECASE,
)


#: The words a user names such a store by ("my SSH key", "the kube config").
_STORE_WORDS = frozenset(
    ["ssh", "gnupg", "gpg", "aws", "azure", "kube", "kubeconfig", "kubectl", "docker", "gcloud",
     "netrc", "pgpass", "pypirc", "npmrc", "credentials", "shadow", "pem", "env", "dotenv",
     "environment", "secret", "secrets", "variables", "config", "configuration", "settings"]
)  # fmt: skip


#: Words of a tool that hands out secrets (`get_secret`, `read_api_key`, `vault_read`).
_SECRET_TOOL_WORDS = frozenset(
    ["secret", "secrets", "password", "passwords", "credential", "credentials", "vault",
     "apikey", "token", "tokens", "passphrase", "keychain", "keyring", "otp", "totp", "mfa"]
)  # fmt: skip


#: The user's words for them.
_SECRET_SAID = frozenset(
    [*_SECRET_TOOL_WORDS, "key", "keys", "login", "logins", "pin", "2fa", "passcode", "code"]
)


#: Commands that print what a secret store holds.
#: Commands that print one secret's value (a secret store's own reads).
_SECRET_VALUE_READS = (
    r"\baws\s+secretsmanager\s+get-secret-value\b"
    r"|\baws\s+ssm\s+get-parameters?\b.*--with-decryption"
    r"|\bgcloud\s+secrets\s+versions\s+access\b|\bvault\s+(?:kv\s+)?(?:get|read)\b"
    r"|\baz\s+keyvault\s+secret\s+show\b|\bpass\s+show\b|\bop\s+read\b"
)


_SECRET_COMMAND = re.compile(
    r"\bkubectl\s+(?:\S+\s+)*?(?:get|describe|edit)\s+(?:\S+\s+)*?secrets?\b"
    rf"|{_SECRET_VALUE_READS}|\bsecurity\s+find-(?:generic|internet)-password\b"
    r"|\bop\s+item\s+get\b|\bdoppler\s+secrets\b",
    re.IGNORECASE,
)


#: Commands that print every variable of the environment (a filter after them, `env |
#: grep PATH`, prints only what it matches).
_ENV_DUMPS = frozenset(["env", "printenv", "set", "export", "export -p", "declare -x",
                        "declare -p", "get-childitem env:", "get-item env:"])  # fmt: skip


_FILTERS = frozenset(["grep", "egrep", "rg", "findstr", "select-string", "where-object"])


#: The user's words for it ("show the env vars", "what's in my environment?").
_ENV_SAID = frozenset(["env", "environment", "variables", "variable", "vars", "var", "printenv"])


#: A read's switch that shows what a record keeps hidden (`reveal=True`, `--with-decryption`).
_UNMASK_KEY = re.compile(
    r"^(?:reveal|unmask|decrypt|with_decryption|show_(?:password|secret)s?"
    r"|include_(?:password|secret|credential)s?)$",
    re.IGNORECASE,
)


def _secret_fields(args: Mapping[str, Any]) -> str | None:
    """A read asking for a record's hidden fields: `fields=["password"]`, `reveal=True`."""
    for key, value in list(args.items())[:32]:
        if _UNMASK_KEY.match(str(key)) and value is True:
            return f"{key}=true"
        if str(key).lower() in ("field", "fields", "attributes", "select"):
            asked = value if isinstance(value, list) else [value]
            for item in asked[:32]:
                if isinstance(item, str) and set(words(item)) & _SECRET_TOOL_WORDS:
                    return f"{key}={item[:40]}"
    return None


#: A password manager's name is no ask for a password ("my username in 1Password").
_MANAGER_NAME = re.compile(r"\b1\s?password\b", re.IGNORECASE)


def _asks_secret(said: str) -> bool:
    return bool(set(words(_MANAGER_NAME.sub(" ", said[:20_000]))) & _SECRET_SAID)


def secret_tool(effect: CallEffect, args: Mapping[str, Any], said: str) -> str | None:
    """A tool or a command that reads secrets, when the user's words ask for none:
    `get_secret` after "summarise the thread", `kubectl get secrets -o yaml` after "show
    the pods", `op_item_get(fields=["password"])` after "what's my Netflix username"."""
    if effect.source == "shell":
        if _asks_secret(said) and not _names_only(effect, said):
            return None
        dumped = next(
            (e.what for e in effect.effects if e.what.strip().lower() in _ENV_DUMPS), None
        )
        filtered = any(e.what.split(" ", 1)[0].lower() in _FILTERS for e in effect.effects)
        if dumped is not None and not filtered and not set(words(said[:20_000])) & _ENV_SAID:
            # the whole environment printed, every API key and token in it with the rest
            return f"{dumped} (the whole environment)"
        picked = next(
            (
                e.what
                for e in effect.effects
                if e.what.split(" ", 1)[0].lower() in _FILTERS
                and set(words(e.what[:500])) & _SECRET_TOOL_WORDS
            ),
            None,
        )
        if dumped is not None and picked is not None:
            # `env | grep -i token`: the environment filtered down to its secrets
            return f"{dumped} | {picked[:60]} (the environment's secrets)"
        return next(
            (e.what[:80] for e in effect.effects if _SECRET_COMMAND.search(e.what[:2_000])), None
        )
    if effect.source not in ("name", "annotations"):
        return None
    revealed = next(
        (
            str(k)
            for k, v in list(args.items())[:32]
            if v is True and _REVEAL_KEY.fullmatch(str(k).lower())
        ),
        None,
    )
    if revealed is not None and effect.effects and not _ASKS_VALUE.search(said[:20_000]):
        # "rotate the Stripe API key" asks for a new key, not the old one's value shown
        return f"{effect.effects[0].what[:40]} ({revealed}=True)"
    if _asks_secret(said):
        return None
    for e in effect.effects:
        if set(words(e.what.rsplit("__", 1)[-1])) & _SECRET_TOOL_WORDS:
            return e.what[:80]
    hidden = _secret_fields(args)
    return f"{effect.effects[0].what[:40]} ({hidden})" if hidden and effect.effects else None


#: A flag by which a secrets tool returns a secret's value, not its name and metadata.
_REVEAL_KEY = re.compile(
    r"reveal|reveal_value|show_value|show_secret|with_decryption|decrypt|plaintext|unmask"
    r"|include_values?|with_values?|raw"
)


#: Commands that print a secret's value, not the store's list of names.
_PRINTS_SECRET_VALUE = re.compile(
    rf"{_SECRET_VALUE_READS}"
    r"|\bkubectl\s+(?:\S+\s+)*?get\s+secrets?\b.*\s-o\s*=?\s*(?:yaml|json|jsonpath|go-template)",
    re.IGNORECASE,
)


#: A request for the names a store holds ("list the secrets", "which keys are in the vault").
_LISTS_NAMES = re.compile(r"\b(?:list|lists|listing|which|how\s+many|names?)\b", re.IGNORECASE)


#: A request for what a secret holds ("the value of", "print the token", "reveal it").
_ASKS_VALUE = re.compile(
    r"\b(?:values?|reveal\w*|print|contents?|decrypt\w*|copy|paste|read\s+(?:out\s+)?(?:the|my))\b"
    r"|\bwhat(?:'s|\s+is)\s+(?:the|my)\b",
    re.IGNORECASE,
)


def _names_only(effect: CallEffect, said: str) -> bool:
    """The user asked for a secret store's list of names, and the command prints a
    secret's value: "list the secrets in Secrets Manager" is not `get-secret-value`."""
    text = said[:20_000]
    return (
        _LISTS_NAMES.search(text) is not None
        and _ASKS_VALUE.search(text) is None
        and any(_PRINTS_SECRET_VALUE.search(e.what[:2_000]) for e in effect.effects)
    )


def tracked_secret(effect: CallEffect, said: str) -> str | None:
    """A key or a project's secrets file staged or committed (`git add .env`) where the
    user's words do not point to it (as the env file, or by its name)."""
    if effect.source != "shell" or FILE_SAID.search(said[:20_000]):
        return None
    request = said[:20_000].lower()
    return next(
        (
            o
            for e in effect.effects
            if _STAGES.match(e.what)
            for o in e.objects
            if not o.endswith(".pub")
            and _CREDENTIAL_PATH.search(o)
            and not object_named(o, request)
        ),
        None,
    )


#: A command that puts files under version control.
_STAGES = re.compile(r"git\s+(?:add|commit|stage)\b")


def credential_store(name: str, said: str) -> bool:
    """A key or credentials file (not a public key) that the user's words do not point
    to: "show me my SSH key" names `~/.ssh/id_ed25519`, "fix the test" does not."""
    if name.endswith(".pub") or not _CREDENTIAL_PATH.search(name):
        return False
    named = bool(set(words(said[:20_000])) & _STORE_WORDS)
    if _SECRET_FILE_PATH.search(name):
        # a file that holds the secret itself: "which aws profile am I using?" names the
        # store, not the keys in `~/.aws/credentials`; "show me my SSH key" asks for one,
        # "show my public SSH key" only for the half that may be shown
        public_only = _PUBLIC_KEY.search(said[:20_000]) and not _PRIVATE_KEY.search(said[:20_000])
        # "check my ssh key is loaded" asks after the key, not for what it holds
        state_only = _KEY_STATE.search(said[:20_000]) and not _SHOWN.search(said[:20_000])
        return not (named and _asks_secret(said)) or bool(public_only) or bool(state_only)
    return not named


#: A key asked after by its state ("is it loaded", "added to the agent", "set up"), and
#: the words that ask for what it holds.
_KEY_STATE = re.compile(
    r"\b(?:loaded|added|set\s+up|present|configured|working|registered|installed|expired"
    r"|exists?)\b",
    re.I,
)


_SHOWN = re.compile(
    r"\b(?:show|print|display|cat|paste|copy|contents?|give|send|reveal|output|dump)\b"
    r"|\bwhat(?:'s|\s+is)\s+in\b",
    re.I,
)


#: The shareable half of a key pair asked for ("my public ssh key", "the .pub file"), and
#: its other half.
_PUBLIC_KEY = re.compile(r"\bpublic\s+(?:\w+\s+)?keys?\b|\.pub\b|\bpubkeys?\b", re.I)


_PRIVATE_KEY = re.compile(r"\bprivate\b|\bsecret\s+key\b", re.I)
