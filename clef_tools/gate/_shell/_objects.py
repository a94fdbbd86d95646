"""What a command acts on: the files, hosts, resources and settings it names."""

from __future__ import annotations

import re
from collections.abc import Sequence

from clef_tools.gate._shell._common import KUBE_SCOPE_FLAGS, OPERATION, operands_of, shell_words
from clef_tools.gate._shell._frameworks import runs_manage_py

_CLOUD_WORDS = frozenset(
    {"cp", "sync", "mv", "restart", "s3", "s3api", "status", "undo",
     # GitHub's CLI: `gh pr create --base main` acts on main, not on "pr create"
     "pr", "issue", "repo", "release", "run", "workflow", "create", "merge", "edit", "close",
     "comment", "review", "checkout", "view", "list"}
)  # fmt: skip


_UFW_RULES = frozenset(
    [
        "allow",
        "deny",
        "reject",
        "limit",
        "delete",
        "insert",
        "route",
        "proto",
        "port",
        "to",
        "from",
        "any",
        "in",
        "out",
        "on",
    ]
)


_PORT_SPEC = re.compile(r"\d{1,5}(?::\d{1,5})?/(?:tcp|udp)", re.IGNORECASE)


_OBJECT_VALUE_FLAGS = {
    "ssh-keygen": frozenset(["-t", "-N", "-C", "-b", "-P", "-a", "-O", "-Z"]),
    "tar": frozenset(["-C", "--directory"]),
    # a commit's message, author and date are what it says, not what it acts on
    "git": frozenset(["-m", "--message", "--author", "--date", "-F", "--file"]),
    "gcloud": frozenset(
        [
            "--zone",
            "--region",
            "--project",
            "--format",
            "--account",
            "--configuration",
            "--filter",
            "--limit",
        ]
    ),
    # where a command runs (its namespace, its cluster), not what it acts on
    "kubectl": KUBE_SCOPE_FLAGS,
    "helm": KUBE_SCOPE_FLAGS,
    "az": frozenset(
        [
            "-g",
            "--resource-group",
            "--subscription",
            "--output",
            "-o",
            "--query",
            "--location",
            "-l",
        ]
    ),
}


#: A file mode as chmod takes it: octal, or symbolic (`u+x`, `go-rwx`, `a=r,u+w`).
_MODE = re.compile(r"[0-7]{3,4}|(?:[ugoa]*[-+=][rwxXst]*)(?:,[ugoa]*[-+=][rwxXst]*)*")


def command_objects(argv: Sequence[str]) -> tuple[str, ...]:
    """What a simple command acts on: its operands, less a subcommand and conventional names."""
    if not argv:
        return ()
    tool = argv[0].rsplit("/", 1)[-1]
    operands = operands_of(argv[1:], _OBJECT_VALUE_FLAGS.get(tool, frozenset()))
    if tool == "tar" and operands and len(argv) > 1 and operands[0] == argv[1]:
        operands = operands[1:] if re.fullmatch(r"[A-Za-z]+", operands[0]) else operands
    if tool.startswith("python") and argv[1:2] == ["-m"]:
        operands = operands[1:]  # `python -m venv .venv`: the module runs, on `.venv`
    if tool == "service":
        operands = operands[:1]  # `service nginx reload`: the service, then its verb
    elif tool in shell_words("subcommand_tools"):
        # `aws s3 cp`, `kubectl rollout restart`: the command's own words up front
        verbs = (
            shell_words("cloud_read") | shell_words("cloud_configure") | shell_words("cloud_delete")
        )
        lead = 1
        at: int | None = None
        if tool in ("gcloud", "az", "doctl"):
            # `gcloud compute instances stop test-vm`: groups, then the verb, then objects
            acts = verbs | {"stop", "start", "reboot", "restart", "reset", "suspend", "resume",
                            "create", "update", "ssh", "deallocate"}  # fmt: skip
            at = next((n for n, o in enumerate(operands[:5]) if o in acts), None)
            lead = at + 1 if at is not None else 1
        # after such a verb, only objects (`az group delete rg-prod`: a name, though it is
        # written like an operation)
        while (
            at is None
            and lead < min(3, len(operands))
            and (
                operands[lead] in verbs
                or operands[lead] in _CLOUD_WORDS
                # `aws ec2 stop-instances`: an operation, named by its verb and noun
                or (tool in ("aws", "az", "gcloud") and re.fullmatch(OPERATION, operands[lead]))
            )
        ):
            lead += 1
        operands = operands[lead:]
    elif runs_manage_py(tool, operands):
        operands = operands[2:]  # `manage.py migrate app 0041` acts on app, 0041
    elif tool == "chmod" and operands and _MODE.fullmatch(operands[0]):
        operands = operands[1:]  # `chmod 600 key`: the mode is what is set, on the key
    elif tool == "ufw":
        # `ufw allow 8080/tcp` acts on port 8080; `allow` is what it does to it
        operands = [
            o.split("/", 1)[0] if _PORT_SPEC.fullmatch(o) else o
            for o in operands
            if o.lower() not in _UFW_RULES
        ]
    implicit = shell_words("implicit_operands")
    return tuple(o for o in operands if o.lower() not in implicit)[:32]
