"""A machine's administration: settings, services, certificates, keys, secret stores
and server configurations."""

from __future__ import annotations

import itertools
from collections.abc import Sequence

from clef_tools.gate._effects import Effect, EffectKind
from clef_tools.gate._shell._common import flag_value, flags_of, operands_of


def settings_effects(tool: str, args: Sequence[str], text: str) -> list[Effect]:
    """A settings tool configures, unless it only lists (`crontab -l`, `iptables -L`,
    `ufw status`, `sysctl -a`, a bare `alias`, `history`); `crontab -r` removes every job,
    `history -c` the shell's history."""
    flags = flags_of(args)
    listing = {
        "crontab": "l" in flags,
        "iptables": bool(flags & {"L", "S", "--list", "--list-rules"}),
        "ufw": args[:1] in (["status"], ["app"]),
        "sysctl": "w" not in flags and not any("=" in a for a in args),
        "alias": not args,
        "export": not args or args == ["-p"],
        "ulimit": all(a.startswith("-") for a in args) and "S" not in flags and "H" not in flags,
        "history": not flags & {"c", "d", "w", "a", "r", "n", "s"},
    }
    if listing.get(tool, False):
        return [Effect("read", what=text)]
    if (tool == "crontab" and "r" in flags) or (tool == "history" and flags & {"c", "d"}):
        # every job removed; the shell's history cleared (or an entry of it)
        return [Effect("delete", reversible=False, what=text)]
    return [Effect("configure", what=text)]


def certbot_effects(tool: str, args: Sequence[str], text: str) -> list[Effect]:
    """`certbot certificates` lists what is installed; `renew` and `certonly` fetch new
    certificates from the authority (undone by the old ones' files); `delete` and `revoke`
    end one for good; a bare `certbot` also rewrites the web server's settings."""
    verb = next((a for a in args if not a.startswith("-")), "")
    if verb in ("certificates", "show_account"):
        return [Effect("read", "external", what=text)]
    if verb in ("delete", "revoke", "unregister"):
        return [Effect("delete", "external", reversible=False, what=text)]
    if verb in ("renew", "certonly"):
        return [Effect("modify", "external", what=text)]
    return [Effect("configure", "external", what=text)]


def ssh_add_effects(tool: str, args: Sequence[str], text: str) -> list[Effect]:
    """`ssh-add -l` lists the agent's keys; anything else adds a key to it or takes keys
    out (`-d`, `-D`), a change to the user's session only."""
    if flags_of(args) & {"l", "L", "T"}:
        return [Effect("read", what=text)]
    return [Effect("modify", what=text)]


def ssh_keygen_effects(tool: str, args: Sequence[str], text: str) -> list[Effect]:
    """`ssh-keygen -t ed25519 -f key`: a key pair made; `-l`, `-F`, `-y` read one; `-R`
    takes a host out of known_hosts; `-p` changes a key's passphrase."""
    flags = flags_of(args)
    if flags & {"l", "F", "y", "L", "B"}:
        return [Effect("read", what=text)]
    if flags & {"R", "p", "c"}:
        return [Effect("modify", what=text)]
    return [Effect("create", what=text)]


#: A secret store's subcommand words (HashiCorp Vault: `vault kv list secret/`, `vault
#: policy write`; 1Password: `op vault list`, `op item delete`). Printing a secret's value
#: is a read here: whether the user asked to see one is the stakes' question.
_STORE_READS = frozenset(
    ["list", "get", "read", "status", "lookup", "capabilities", "version", "whoami", "show",
     "template", "inspect", "metadata"]
)  # fmt: skip


_STORE_DELETES = frozenset(["delete", "destroy", "revoke", "disable", "remove", "archive"])


_STORE_GRANTS = frozenset(["grant", "provision", "confirm", "invite"])


_STORE_CHANGES = frozenset(
    ["put", "write", "patch", "edit", "set", "enable", "tune", "move", "rollback", "undelete",
     "import", "rotate", "renew", "seal", "unseal", "step-down", "create", "add", "restore"]
)  # fmt: skip


_STORE_VALUE_FLAGS = frozenset(
    ["--vault", "--account", "--fields", "--format", "--field", "-field", "-format", "-mount",
     "--mount", "-address", "-namespace", "--tags", "--categories", "--category", "--title",
     "--expires-in", "--emails"]
)  # fmt: skip


def secret_store_effects(tool: str, args: Sequence[str], text: str) -> list[Effect]:
    """Vault's and 1Password's CLIs by their subcommand: a policy written, a token made or a
    vault opened to a person grants access; a secret put, patched or rolled back changes
    it; `destroy`, and a secrets engine disabled (every secret under its mount), are gone
    for good. What it acts on is the path or item after the subcommand words."""
    operands = operands_of(args, _STORE_VALUE_FLAGS)
    lead = list(itertools.takewhile(
        lambda o: o in _STORE_READS | _STORE_DELETES | _STORE_GRANTS | _STORE_CHANGES
        | {"kv", "secrets", "policy", "token", "auth", "audit", "operator", "lease", "item",
           "vault", "document", "user", "group", "account", "connect", "service-account",
           "events-api", "plugin", "share"},
        operands[:4],
    ))  # fmt: skip
    words = set(lead)
    # a value given on the command line (`vault kv put secret/app password=…`) is no object
    objects = tuple(o for o in operands[len(lead) : len(lead) + 4] if "=" not in o)
    if words & _STORE_GRANTS or lead[:2] in (["policy", "write"], ["token", "create"]):
        return [Effect("grant", "external", reversible=False, what=text, objects=objects)]
    if tool == "op" and lead[:2] == ["item", "share"]:
        return [Effect("send", "external", reversible=False, what=text, objects=objects)]
    if words & _STORE_DELETES:
        everything = "destroy" in words or lead[:2] in (["secrets", "disable"], ["vault", "delete"])
        return [Effect("delete", "external", reversible=False, high_impact=everything,
                       what=text, objects=objects)]  # fmt: skip
    if words & _STORE_CHANGES:
        kind: EffectKind = "create" if words & {"create", "add"} else "modify"
        sealed = bool(words & {"seal", "step-down"})
        return [Effect(kind, "external", high_impact=sealed, what=text, objects=objects)]
    if words & _STORE_READS or lead == ["secrets"] or not operands:
        return [Effect("read", "external", what=text, objects=objects)]
    return [Effect("unknown", "external", what=text, objects=objects)]


#: openssl's subcommands that only inspect: a certificate, a key, a server's handshake.
_OPENSSL_READS = frozenset(
    ["x509", "req", "verify", "version", "ciphers", "list", "asn1parse", "crl", "pkey", "rsa",
     "ec", "s_client", "s_time", "speed", "dgst", "pkcs7", "pkcs12", "rand", "prime",
     "errstr", "ocsp", "storeutl", "base64", "enc"]
)  # fmt: skip


def openssl_effects(tool: str, args: Sequence[str], text: str) -> list[Effect]:
    """`openssl x509 -in cert.pem -noout -text` reads; whatever writes with `-out` (a key,
    a request, a converted certificate) writes that file, over one of the same name
    (`-out server.key` can be the server's key). `s_client` talks to the server named."""
    sub = next(iter(operands_of(args)), "")
    out = flag_value(args, ("-out", "-keyout"))
    if out:
        return [Effect("modify", what=text, objects=(out,))]
    if sub in ("s_client", "s_time", "ocsp"):
        return [Effect("read", "external", what=text)]
    if sub in _OPENSSL_READS or sub.startswith("gen") or not sub:
        # a key made without `-out` is printed, not kept
        return [Effect("read", what=text)]
    return [Effect("unknown", what=text)]


#: Ansible's modules that only gather: whether a host answers, its facts, a message.
_ANSIBLE_READS = frozenset(
    ["ping", "setup", "gather_facts", "debug", "stat", "slurp", "service_facts",
     "package_facts", "ansible.builtin.ping", "ansible.builtin.setup",
     "ansible.builtin.gather_facts", "ansible.builtin.debug", "ansible.builtin.stat"]
)  # fmt: skip


def ansible_effects(tool: str, args: Sequence[str], text: str) -> list[Effect]:
    """`ansible web -m ping` and `ansible-inventory --list` read the hosts; any other module
    run on them (`-m shell -a …`, `-m apt`) is a person's to check."""
    if tool == "ansible-lint" and set(args) & {"--fix", "--write"}:
        return [Effect("modify", what=text, routine=True, action="autofix")]
    if tool in ("ansible-inventory", "ansible-doc", "ansible-lint"):
        return [Effect("read", what=text)]
    if tool == "ansible-config":
        return (
            [Effect("read", what=text)]
            if set(args) & {"list", "dump", "view"}
            else [Effect("unknown", what=text)]
        )
    module = flag_value(args, ("-m", "--module-name"))
    if tool == "ansible" and (module in _ANSIBLE_READS or "--list-hosts" in args):
        return [Effect("read", "external", what=text)]
    return [Effect("unknown", "external", what=text)]


#: A web server told to read its configuration again (`nginx -s reload`, `apachectl graceful`).
SERVER_RELOAD = frozenset(["reload", "reopen", "graceful", "restart"])


def server_config_effects(tool: str, args: Sequence[str], text: str) -> list[Effect]:
    """`nginx -t`, `apachectl configtest`, `sshd -t` test a configuration; `nginx -s
    reload`, `apachectl graceful` apply it; `-s stop`, `apachectl stop` stop the server."""
    flags = flags_of(args)
    words = {a.lower() for a in args if not a.startswith("-")}
    if flags & {"t", "T", "v", "V", "h", "?"} or words & {"configtest", "status"}:
        return [Effect("read", what=text)]
    if words & {"stop", "quit", "graceful-stop"}:
        return [Effect("configure", reversible=False, high_impact=True, what=text)]
    if words & (SERVER_RELOAD | {"start"}):
        return [Effect("configure", what=text, action="restart")]
    return [Effect("unknown", what=text)]


#: What `systemctl` and `service` do that only reads (`systemctl status nginx`).
_SERVICE_READ = frozenset(
    ["status", "is-active", "is-enabled", "is-failed", "list-units", "list-unit-files",
     "list-timers", "list-sockets", "show", "cat", "list-dependencies"]
)  # fmt: skip


_SERVICE_RESTART = frozenset(
    ["restart", "reload", "try-restart", "reload-or-restart", "try-reload-or-restart",
     "condrestart", "force-reload"]
)  # fmt: skip


def _service_verb(tool: str, args: Sequence[str]) -> str:
    """What `systemctl VERB unit` or `service unit VERB` is asked to do."""
    words = [a for a in args if not a.startswith("-")]
    return words[0] if tool == "systemctl" and words else (words[1] if len(words) > 1 else "")


def service_reads(tool: str, args: Sequence[str]) -> bool:
    """`systemctl status nginx`, `service nginx status`: the verb is a reading one."""
    return _service_verb(tool, args) in _SERVICE_READ


def service_restarts(tool: str, args: Sequence[str]) -> bool:
    """`systemctl restart nginx`, `service nginx reload`: the service back as it was."""
    return _service_verb(tool, args) in _SERVICE_RESTART
