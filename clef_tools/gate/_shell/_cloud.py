"""Cloud and container CLIs (docker, kubectl, helm, terraform, pulumi, aws, gcloud, az,
gh, and the hosting platforms), by the operation each command names."""

from __future__ import annotations

import re
from collections.abc import Sequence

from clef_tools.gate._effects import Effect
from clef_tools.gate._shell._common import (
    KUBE_SCOPE_FLAGS,
    OPERATION,
    VALUE_FLAGS,
    copy_effect,
    flag_value,
    flag_values,
    flags_of,
    operands_of,
    shell_words,
)


def _terraform_local(operands: Sequence[str], args: Sequence[str], text: str) -> Effect | None:
    """Terraform's commands that touch only this checkout: the configuration checked
    (`validate`), described (`providers`, `graph`, `version`, `output`), formatted (`fmt`, which
    rewrites the files unless told `-check`), and the workspace the next commands act on
    listed or picked (`workspace select staging`)."""
    sub = operands[0] if operands else ""
    if sub in ("validate", "providers", "graph", "version") or (
        sub == "workspace" and operands[1:2] in (["list"], ["show"])
    ):
        return Effect("read", what=text)
    if sub == "output":
        # the state's outputs, from wherever the state is kept (sensitive ones masked)
        return Effect("read", "external", what=text)
    if sub == "fmt":
        if "-check" in args or "--check" in args:
            return Effect("read", what=text)
        return Effect("modify", what=text, routine=True, action="format-in-place")
    if sub == "workspace" and operands[1:2] == ["select"]:
        return Effect("modify", what=text, objects=tuple(operands[2:3]))
    if sub == "state" and operands[1:2] in (["list"], ["show"], ["pull"]):
        return Effect("read", "external", what=text)
    if (sub == "state" and operands[1:2] in (["rm"], ["mv"])) or sub == "import":
        # what terraform tracks changed, not the resources themselves (`state rm` forgets
        # one and leaves it standing; `import` takes one in)
        return Effect("modify", "external", what=text, objects=tuple(operands[2:4]))
    if sub == "init":
        if {"-migrate-state", "-force-copy"} & set(args):
            return Effect("modify", "external", reversible=False, what=text)
        if "-upgrade" in args:
            return Effect("configure", "external", what=text, action="upgrade")
        # the providers and modules the configuration pins, fetched into .terraform
        return Effect("execute", what=text, routine=True)
    return None


def _public_acl(args: Sequence[str]) -> bool:
    """A cloud CLI's access list that lets anyone read (`--acl public-read`, `AllUsers`)."""
    acl = " ".join(flag_values(args, ("--acl", "-a", "--grants"), ("--acl", "--grants")))
    return re.search(r"public|allusers|authenticated", acl, re.I) is not None


#: `gh api`'s flags that send fields, which make the request a POST unless told otherwise.
_GH_API_FIELDS = frozenset(["-f", "-F", "--field", "--raw-field", "--input"])


_GH_VALUE_FLAGS = _GH_API_FIELDS | frozenset(
    ["-X", "--method", "-H", "--header", "-q", "--jq", "-t", "--template", "--ref", "-R",
     "--repo", "-b", "--branch", "-L", "--limit", "-w", "--workflow", "-u", "--user"]
)  # fmt: skip


def _gh_actions(args: Sequence[str], text: str) -> list[Effect] | None:
    """GitHub's CLI on a repository's Actions and its REST API: a run watched or read, run
    again or cancelled; a workflow started, switched on or off; `gh api` a read unless it
    sends fields or names another method (a `DELETE` deletes; any other write is unknown)."""
    operands = operands_of(args, _GH_VALUE_FLAGS)
    group, sub = [*operands[:2], "", ""][:2]
    rest = tuple(operands[2:3])
    if group == "run" and sub in ("watch", "view", "list"):
        return [Effect("read", "external", what=text)]
    if group == "run" and sub == "download":
        return [Effect("create", "external", what=text, objects=rest, fetched=True)]
    if group == "run" and sub == "rerun":
        return [Effect("configure", "external", what=text, objects=rest, action="ci-rerun")]
    if group == "run" and sub == "cancel":
        # a run stopped, as a job is killed: "cancel run 8813" asks for it; it can be re-run
        return [Effect("delete", "external", what=text, objects=rest, action="ci-cancel")]
    if group == "workflow":
        # a workflow goes by its file's name ("the nightly workflow" is `nightly.yml`)
        rest = tuple(re.sub(r"\.ya?ml$", "", o) for o in rest)
    if group == "workflow" and sub == "run":
        return [Effect("execute", "external", what=text, objects=rest, action="workflow-run")]
    if group == "workflow" and sub in ("enable", "disable"):
        return [Effect("configure", "external", what=text, objects=rest)]
    if group != "api":
        return None
    method = (flag_value(args, ("-X", "--method"), ("--method",)) or "").upper()
    sends = bool(set(args) & _GH_API_FIELDS)
    path = tuple(operands[1:2])
    if method in ("", "GET") and (not sends or method == "GET"):
        return [Effect("read", "external", what=text, objects=path)]
    if method == "DELETE":
        return [Effect("delete", "external", reversible=False, what=text, objects=path)]
    return [Effect("unknown", "external", what=text, objects=path)]


#: Hosting platforms' CLIs, whose subcommands name what they do (`fly status`, `heroku
#: config:set`, `vercel rm`): the app is a flag's value (`--app acme-prod`).
PAAS = frozenset(["fly", "flyctl", "vercel", "heroku", "netlify", "railway", "render"])


_PAAS_READ = frozenset(["config", "info", "inspect", "releases", "ps", "open", "whoami", "env"])


_PAAS_CONFIGURE = frozenset(
    ["deploy", "promote", "redeploy", "rollback", "scale", "restart", "set", "unset", "secrets",
     "add", "link", "alias", "certs", "domains", "regions", "suspend", "resume"]
)  # fmt: skip


def paas_effects(tool: str, args: Sequence[str], text: str) -> list[Effect]:
    operands = operands_of(args, frozenset(["-a", "--app", "-r", "--remote", "--scope", "-t"]))
    parts = [p for o in operands[:2] for p in o.lower().split(":")]
    app = flag_value(args, ("-a", "--app")) or ""
    # what it acts on: the app, and the operands after the subcommand (`vercel rm acme-x`)
    objects = ((app,) if app else ()) + tuple(o for o in operands[1:4] if ":" not in o or "//" in o)
    if "scale" in parts:
        # `heroku ps:scale web=2`: the process type, and how many of it
        objects = tuple(p for o in objects for p in o.split("=", 1) if p)
    if set(parts) & (shell_words("cloud_delete") | {"destroy"}):
        return [Effect("delete", "external", reversible=False, high_impact=True, what=text,
                       objects=objects)]  # fmt: skip
    if set(parts) & _PAAS_CONFIGURE or (tool == "vercel" and not parts):
        # a bare `vercel` deploys the folder (`--prod`: to the production site)
        deploys = bool(set(parts) & {"deploy", "promote", "redeploy"}) or not parts
        return [Effect("configure", "external", what=text, objects=objects,
                       action="deploy" if deploys else "")]  # fmt: skip
    if not parts or set(parts) & (shell_words("cloud_read") | _PAAS_READ):
        return [Effect("read", "external", what=text, objects=objects)]
    return [Effect("unknown", "external", what=text)]


#: Pulumi's commands that only read: the preview of a change, a stack's outputs.
_PULUMI_READ = frozenset(["preview", "whoami", "about", "version", "logs", "help"])


_PULUMI_STACK_READ = frozenset(["ls", "output", "history", "export", "graph"])


def _pulumi(operands: Sequence[str], text: str) -> Effect:
    """`pulumi preview` reads; `pulumi up` changes what the stack runs, as `terraform
    apply` does; `pulumi destroy` removes every resource of the stack."""
    first = operands[0] if operands else ""
    second = operands[1] if len(operands) > 1 else ""
    if first == "destroy":
        return Effect("delete", "external", reversible=False, high_impact=True, what=text)
    if first in ("up", "update"):
        return Effect("configure", "external", reversible=False, high_impact=True, what=text)
    if first == "refresh":
        return Effect("configure", "external", what=text)
    if (
        first in _PULUMI_READ
        or (first == "stack" and (not second or second in _PULUMI_STACK_READ))
        or (first == "config" and second in ("", "get"))
    ):
        return Effect("read", "external", what=text)
    return Effect("unknown", "external", what=text)


def cloud_effects(tool: str, args: Sequence[str], text: str) -> list[Effect]:
    operands = operands_of(args)
    verbs = set(operands[:3])
    if tool == "terraform":
        local = _terraform_local(operands, args, text)
        if local is not None:
            return [local]
    if tool == "pulumi":
        return [_pulumi(operands, text)]
    if tool in ("docker", "podman") and operands[:2] in (["image", "prune"], ["builder", "prune"]):
        # images and build cache nothing uses: pulled or built again when needed, like a
        # project's build output ("remove the dangling images" asks for it)
        return [Effect("delete", what=text, action="rebuild")]
    if tool == "kubectl" and _replaced_pods(args):
        # `kubectl delete pod worker-5c6b7d-q9z8r`: its deployment starts a new one, the
        # usual way to restart a pod; what it served is cut off meanwhile
        return [Effect("configure", "external", reversible=False, what=text, action="restart")]
    if verbs & shell_words("cloud_delete"):
        return [Effect("delete", "external", reversible=False, high_impact=True, what=text)]
    if any(re.match(r"(?:list|get|describe|show)(?:-|$)", v) for v in verbs) and not any(
        re.match(r"(?:put|set|add|attach|create|delete|update|remove|detach)(?:-|$)", v)
        for v in verbs
    ):
        # `aws iam list-attached-user-policies`, `aws s3api get-bucket-acl`: reads, as are
        # `gcloud iam service-accounts list` and `kubectl get networkpolicies`
        return [Effect("read", "external", what=text)]
    if any(re.search(r"acl|polic|permission|iam|role", v) for v in verbs):
        return [Effect("grant", "external", reversible=False, high_impact=True, what=text)]
    # `aws ec2 terminate-instances`, `aws ec2 stop-instances`: the operation's first word
    operation = next((v.split("-", 1)[0] for v in operands[:3] if re.fullmatch(OPERATION, v)), "")
    if operation in shell_words("cloud_delete") or operation in ("deregister", "purge", "revoke"):
        action = "terminate" if operation == "terminate" else ""
        return [
            Effect(
                "delete", "external", reversible=False, high_impact=True, what=text, action=action
            )
        ]
    if operation in ("stop", "start", "reboot", "restart"):
        return [Effect("configure", "external", what=text, action=operation)]
    if operation == "create" and tool == "aws":
        # `aws rds create-db-snapshot`: a new thing made (policies and grants are above);
        # `create-bucket --acl public-read`: made readable by anyone
        made = [Effect("create", "external", what=text)]
        if _public_acl(args):
            made.append(Effect("grant", "external", reversible=False, high_impact=True,
                               what=text, action="public"))  # fmt: skip
        return made
    if tool == "aws" and (operation == "invoke" or "invoke" in verbs):
        # `aws lambda invoke`: the function run, with whatever it does
        return [Effect("execute", "external", reversible=False, what=text)]
    powered = verbs & {"stop", "start", "reboot", "restart", "reset", "suspend", "resume"}
    if tool in ("gcloud", "az") and powered:
        # `gcloud compute instances stop test-vm`, `az vm restart`: as `aws ec2 stop-instances`
        return [Effect("configure", "external", what=text, action=sorted(powered)[0])]
    copy = verbs & {"cp", "sync", "mv"}
    if copy and tool in ("aws", "gsutil", "gcloud", "az"):
        effects = [copy_effect(operands_of(args, VALUE_FLAGS, dash=True), "mv" in copy, text)]
        if _public_acl(args):
            # `--acl public-read`: the copy is readable by anyone
            effects.append(
                Effect("grant", "external", reversible=False, high_impact=True, what=text)
            )
        if "sync" in copy and any(a.startswith("--delete") for a in args):
            # as `rsync --delete`: what the destination holds and the source lacks is gone
            effects.append(Effect("delete", effects[0].reach, reversible=False, what=text))
        return effects
    if tool == "terraform" and "apply" in verbs:
        return [Effect("configure", "external", reversible=False, high_impact=True, what=text)]
    if tool == "gh":
        actions = _gh_actions(args, text)
        if actions is not None:
            return actions
    if tool == "gh" and "review" in verbs and flags_of(args) & {"--approve", "a"}:
        # an approval lets the change through the repository's review rule
        return [Effect("grant", "external", reversible=False, what=text, action="approve")]
    if tool == "gh" and verbs & {"comment", "review"}:
        return [Effect("send", "external", what=text)]
    if tool == "gh" and operands[:2] == ["release", "create"] and "--draft" not in args:
        # a release published: its tag, notes and files go out to everyone watching the
        # repository, as a package leaves for its registry (a draft is only kept)
        return [Effect("send", "external", reversible=False, what=text, action="release",
                       objects=tuple(operands[2:3]))]  # fmt: skip
    if tool == "gh" and "create" in verbs:  # a pull request or an issue, like `create_issue`
        # opened for others to see: the user asks for that in so many words ("open a PR",
        # "file an issue"), not by asking for a fix
        kind = {"pr": "pull-request", "issue": "file-issue"}.get(operands[0] if operands else "")
        return [Effect("create", "external", what=text, action=kind or "")]
    if tool == "gh" and verbs & {"merge", "close", "edit", "reopen"}:
        # `gh pr merge --admin`: the branch's protection (its reviews and checks) bypassed
        bypass = "merge" in verbs and "--admin" in args
        return [Effect("modify", "external", reversible="merge" not in verbs, what=text,
                       action="weaken-security" if bypass else "")]  # fmt: skip
    if tool == "gh" and verbs & {"checkout", "clone", "sync"}:
        # a pull request's branch, or a repository, fetched into this machine
        return [Effect("modify", what=text)]
    if tool == "gh" and verbs & {"checks", "diff", "browse"}:
        return [Effect("read", "external", what=text)]
    if tool == "kubectl" and operands[:1] == ["port-forward"]:
        # a local port that reaches the cluster's service: nothing there changes
        return [Effect("read", "external", what=text, objects=tuple(operands[1:2]))]
    if tool == "kubectl" and operands[:1] == ["drain"]:
        # the node's pods evicted and the node cordoned; `--delete-emptydir-data` and
        # `--force` let the pods' local data and unmanaged pods go with them
        drained = [Effect("configure", "external", what=text, objects=tuple(operands[1:2]))]
        if {"--delete-emptydir-data", "--delete-local-data", "--force"} & set(args):
            drained.append(Effect("delete", "external", reversible=False, what=text,
                                  objects=tuple(operands[1:2])))  # fmt: skip
        return drained
    if tool == "kubectl" and operands[:2] == ["rollout", "undo"]:
        # the deployment's previous revision back: a change asked for as a rollback
        return [Effect("modify", "external", what=text, action="revert")]
    if tool == "kubectl" and operands[:2] in (["rollout", "status"], ["rollout", "history"]):
        return [Effect("read", "external", what=text)]
    if tool in ("kubectl", "helm") and verbs & shell_words("cloud_configure"):
        return [Effect("configure", "external", what=text)]
    if tool in ("docker", "podman") and verbs & {"restart", "start", "unpause"}:
        # `docker restart web`: running again, but what it was serving is cut off, so the
        # container must be the one the user named
        return [Effect("configure", reversible=False, what=text)]
    if tool in ("docker", "podman") and verbs & {"stop", "kill", "pause"}:
        # like `systemctl stop`: what the container served is down until someone starts it
        return [Effect("configure", reversible=False, high_impact=True, what=text)]
    if tool in ("docker", "podman") and (
        operands[:1] == ["run"] or operands[:2] == ["container", "run"]
    ):
        return [_container_run(args, text)]
    if tool in ("docker", "podman") and operands[:1] == ["build"]:
        # an image built from the project's own Dockerfile, on this machine
        return [Effect("execute", what=text, routine=True)]
    if tool in ("docker", "podman") and operands[:1] == ["tag"]:
        # another name for an image on this machine: removed with `docker rmi`
        return [Effect("create", what=text)]
    if tool in ("docker", "podman") and operands[:1] == ["push"]:
        return [Effect("send", "external", reversible=False, what=text)]
    if tool in ("docker", "podman") and operands[:2] == ["compose", "down"]:
        # the project's services stopped and their containers removed, made again by `up`;
        # `-v` removes their volumes too, with the data in them
        volumes = bool(flags_of(args) & {"v", "--volumes"})
        return [
            Effect(
                "delete",
                reversible=not volumes,
                high_impact=volumes,
                what=text,
                action="delete-volumes" if volumes else "",
            )
        ]
    if tool == "helm" and verbs & {"rollback"}:
        # a release's previous revision back, asked for as a rollback: on the release, the
        # revision number is how far back
        release = tuple(operands[1:2])
        return [Effect("modify", "external", what=text, action="revert", objects=release)]
    if tool == "helm" and verbs & {"install", "upgrade"}:
        return [Effect("configure", "external", what=text)]
    if tool in ("docker", "podman") and operands[:2] in (["compose", "up"], ["compose", "build"]):
        # the project's own services, started from its compose file, stopped the same way
        # (on the services it names, if any)
        action = "compose-up" if operands[1] == "up" else "compose-build"
        return [Effect("configure", what=text, action=action, objects=tuple(operands[2:8]))]
    if verbs & shell_words("cloud_read"):
        return [Effect("read", "local" if tool in ("docker", "podman") else "external", what=text)]
    return [Effect("unknown", "external", what=text)]


#: Flags that pick pods by something other than their names.
_ANY_POD_FLAGS = frozenset(
    ["--all", "-A", "--all-namespaces", "-l", "--selector", "--field-selector", "-f", "--filename"]
)


#: A pod a deployment's replica set made (`worker-5c6b7d9f8-q9z8r`): deleted, it is replaced.
_REPLICA_POD = re.compile(r"^[a-z0-9]([a-z0-9-]*[a-z0-9])?-[a-z0-9]{6,10}-[a-z0-9]{5}$")


def _replaced_pods(args: Sequence[str]) -> bool:
    """`kubectl delete pod NAME…` naming only pods a deployment replaces (not `--all`, not
    a label selector, not a bare pod nothing brings back)."""
    operands = operands_of(args, KUBE_SCOPE_FLAGS)
    if operands[:1] != ["delete"] or len(operands) < 3 or operands[1] not in ("pod", "pods", "po"):
        return False
    if any(a.split("=", 1)[0] in _ANY_POD_FLAGS for a in args[:64]):
        return False
    return all(_REPLICA_POD.match(name) for name in operands[2:10])


#: `docker run`'s options that take a value (`-p 8080:80`, `--name api`).
_RUN_VALUE_FLAGS = frozenset(
    ["-p", "--publish", "-v", "--volume", "-e", "--env", "--env-file", "--name", "-w",
     "--workdir", "--network", "--net", "-u", "--user", "--entrypoint", "-m", "--memory",
     "--cpus", "-l", "--label", "--mount", "--add-host", "--hostname", "-h", "--restart",
     "--pull", "--platform", "--device", "--cap-add", "--cap-drop", "--ipc", "--pid",
     "--log-driver", "--log-opt", "--security-opt", "--tmpfs", "--ulimit", "--dns",
     "--gpus", "--shm-size", "--uts", "--userns", "--cgroupns"]
)  # fmt: skip


#: Host namespaces a container may share (`--network host`): it then reaches past itself.
_HOST_SHARED = frozenset(["--net", "--network", "--pid", "--ipc", "--uts", "--userns"])


#: Host folders whose mount hands a container the machine: its root, its configuration,
#: people's homes, the Docker socket (and with it every other container).
_HOST_MOUNT = re.compile(r"^(?:/|/etc|/root|/home|/Users|~|/var/run/docker\.sock)/?$")


def _container_run(args: Sequence[str], text: str) -> Effect:
    """`docker run [options] image [command]`: the image run on this machine, as the image
    the user named; one given the host's root, socket, network or privileges reaches past
    itself."""
    rest = list(args[1:] if args[:1] == ["run"] else args[2:])
    pairs: list[tuple[str, str]] = []
    n = 0
    while n < len(rest) and rest[n].startswith("-"):
        flag, _, value = rest[n].partition("=")
        if not value and flag in _RUN_VALUE_FLAGS and n + 1 < len(rest):
            value, n = rest[n + 1], n + 1
        pairs.append((flag, value))
        n += 1
    image = rest[n] if n < len(rest) else ""
    escapes = any(
        flag == "--privileged"
        or (flag in _HOST_SHARED and value.lower() == "host")
        or (flag == "--cap-add" and value.lower() in ("all", "sys_admin"))
        or (flag in ("-v", "--volume") and bool(_HOST_MOUNT.match(value.split(":", 1)[0])))
        or (
            flag == "--mount"
            and any(
                _HOST_MOUNT.match(part.split("=", 1)[1])
                for part in value.split(",")
                if part.startswith(("source=", "src="))
            )
        )
        for flag, value in pairs
    )
    return Effect(
        "execute",
        "local",
        reversible=not escapes,
        high_impact=escapes,
        what=text,
        objects=(image.rsplit(":", 1)[0],) if image else (),
    )
