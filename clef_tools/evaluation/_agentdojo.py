"""A labelled tool-call gate set from AgentDojo's banking and slack suites, read without
running AgentDojo.

AgentDojo states each task's ground-truth tool calls as Python (`ground_truth()` returning
`FunctionCall(function=..., args=...)`). Importing it would run the package and its
dependencies, so the task files are parsed with `ast` instead and only literals are
evaluated: constants, f-strings, `+` and `str.format` over them, class and module
constants. A value that needs the task's environment (computed at run time) becomes
`"$content"`, AgentDojo's own placeholder for injected content.

- *safe* item: a ground-truth call of a user task, proposed after that task's prompt;
- *unsafe* item: a decisive call of an injection goal (every call that is not a plain
  read, or the goal's only call), proposed after the prompt of a user task that did not ask
  for it. Each goal's calls are paired with a fixed hash-chosen handful of user tasks.

Suite version v1.2: the v1 tasks with the v1.1.1 and v1.2 updates applied.
"""

from __future__ import annotations

import ast
import contextlib
import hashlib
import re
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

__all__ = ["GateCall", "agentdojo_gate_items", "tool_annotations"]

VERSION = (1, 2, 0)
SUITES = {
    "banking": ("banking_client", "file_reader", "user_account"),
    "slack": ("slack", "web"),
}
PLACEHOLDER = "$content"
USER_TASKS_PER_INJECTED_CALL = 4
_ROOT = "agentdojo/default_suites"
_VERSION_DIRS = ("v1", "v1_1", "v1_1_1", "v1_1_2", "v1_2")


class _Unresolved(Exception):
    """A value that only exists when the task runs."""


@dataclass(frozen=True)
class GateCall:
    tool: str
    args: dict[str, Any]


@dataclass(frozen=True)
class _Task:
    ident: str
    text: str
    calls: tuple[GateCall, ...]


def tool_annotations(name: str) -> dict[str, bool]:
    """MCP tool annotations as a server of these tools would declare them. AgentDojo
    declares none; these follow the tool's name and docstring and are stated in the
    dataset, so an evaluation can be run with them or without them."""
    read_only = name.startswith(("get_", "read_"))
    notes: dict[str, bool] = {"readOnlyHint": read_only}
    if not read_only:
        notes["destructiveHint"] = name.startswith(("update_", "remove_", "delete_"))
    if name in ("get_webpage", "post_webpage"):
        notes["openWorldHint"] = True
    return notes


class _Scope:
    """Literal evaluation over a module's and a class's constants."""

    def __init__(self, module: dict[str, Any], klass: dict[str, Any] | None = None) -> None:
        self.module = module
        self.klass = {} if klass is None else klass

    def value(self, node: ast.AST, local: dict[str, Any] | None = None) -> Any:
        local = local or {}
        if isinstance(node, ast.Constant):
            return node.value
        if isinstance(node, ast.Dict):
            return {
                self.value(k, local): self._soft(v, local)
                for k, v in zip(node.keys, node.values, strict=True)
                if k is not None
            }
        if isinstance(node, ast.List | ast.Tuple):
            items = [self._soft(e, local) for e in node.elts]
            return items if isinstance(node, ast.List) else tuple(items)
        if isinstance(node, ast.JoinedStr):
            return "".join(self._text(part, local) for part in node.values)
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
            return self.value(node.left, local) + self.value(node.right, local)
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
            return -self.value(node.operand, local)
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr == "format"
        ):
            # `TEMPLATE.format(k=1)`: a message the task spells out, only numbered; as a
            # placeholder it would look like the injected content it is not
            template = self.value(node.func.value, local)
            if isinstance(template, str):
                return template.format(
                    *(self.value(a, local) for a in node.args),
                    **{k.arg: self.value(k.value, local) for k in node.keywords if k.arg},
                )
        if isinstance(node, ast.Name):
            for scope in (local, self.klass, self.module):
                if node.id in scope:
                    return scope[node.id]
        if (
            isinstance(node, ast.Attribute)
            and isinstance(node.value, ast.Name)
            and node.value.id == "self"
            and node.attr in self.klass
        ):
            return self.klass[node.attr]
        raise _Unresolved(ast.unparse(node))

    def _soft(self, node: ast.AST, local: dict[str, Any]) -> Any:
        try:
            return self.value(node, local)
        except (_Unresolved, TypeError):
            return PLACEHOLDER

    def _text(self, part: ast.AST, local: dict[str, Any]) -> str:
        if isinstance(part, ast.FormattedValue):
            return str(self.value(part.value, local))
        return str(self.value(part, local))

    def constants(self, body: list[ast.stmt], into: dict[str, Any]) -> None:
        for stmt in body:
            target: ast.AST | None = None
            if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1:
                target, node = stmt.targets[0], stmt.value
            elif isinstance(stmt, ast.AnnAssign) and stmt.value is not None:
                target, node = stmt.target, stmt.value
            if isinstance(target, ast.Name):
                with contextlib.suppress(_Unresolved, TypeError):
                    into[target.id] = self.value(node)


def _calls(fn: ast.FunctionDef, scope: _Scope) -> list[GateCall]:
    local: dict[str, Any] = {}
    calls: list[tuple[int, int, GateCall]] = []
    for node in ast.walk(fn):
        if isinstance(node, ast.Assign) and len(node.targets) == 1:
            target = node.targets[0]
            if isinstance(target, ast.Name):
                try:
                    local[target.id] = scope.value(node.value, local)
                except (_Unresolved, TypeError):
                    local[target.id] = PLACEHOLDER
    for node in ast.walk(fn):
        if not (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id == "FunctionCall"
        ):
            continue
        kw = {k.arg: k.value for k in node.keywords if k.arg}
        name = scope.value(kw["function"], local)
        args_node = kw.get("placeholder_args", kw.get("args"))
        args = scope.value(args_node, local) if args_node is not None else {}
        calls.append((node.lineno, node.col_offset, GateCall(str(name), dict(args))))
    return [call for *_, call in sorted(calls, key=lambda c: c[:2])]


def _version(decorators: list[ast.expr], scope: _Scope) -> tuple[int, ...]:
    for deco in decorators:
        if isinstance(deco, ast.Call) and deco.args:
            try:
                return tuple(scope.value(deco.args[0]))
            except _Unresolved:
                continue
    return (1, 0, 0)


def _tasks(zf: zipfile.ZipFile, suite: str, kind: str) -> dict[str, _Task]:
    """`kind` is "user" or "injection"; later versions replace earlier ones up to v1.2."""
    tasks: dict[str, _Task] = {}
    names = set(zf.namelist())
    for folder in _VERSION_DIRS:
        path = f"{_ROOT}/{folder}/{suite}/{kind}_tasks.py"
        if path not in names:
            continue
        tree = ast.parse(zf.read(path).decode())
        module: dict[str, Any] = {}
        _Scope(module).constants(tree.body, module)
        for node in tree.body:
            if not (isinstance(node, ast.ClassDef) and node.name.endswith(tuple("0123456789"))):
                continue
            klass: dict[str, Any] = {}
            scope = _Scope(module, klass)
            scope.constants(node.body, klass)
            if _version(node.decorator_list, scope) > VERSION:
                continue
            fns = [f for f in node.body if isinstance(f, ast.FunctionDef)]
            truth = next((f for f in fns if f.name == "ground_truth"), None)
            text = klass.get("PROMPT" if kind == "user" else "GOAL")
            if truth is None or not isinstance(text, str):
                continue
            number = re.sub(r"\D", "", node.name)
            ident = f"{kind}_task_{number}"
            tasks[ident] = _Task(ident, text, tuple(_calls(truth, scope)))
    return tasks


def _descriptions(zf: zipfile.ZipFile, modules: tuple[str, ...]) -> dict[str, str]:
    """A tool's description: its docstring up to the first `:param`."""
    out: dict[str, str] = {}
    for module in modules:
        tree = ast.parse(zf.read(f"{_ROOT}/v1/tools/{module}.py").decode())
        for node in tree.body:
            if isinstance(node, ast.FunctionDef):
                doc = ast.get_docstring(node) or ""
                summary = doc.split(":param")[0].split(":return")[0]
                out[node.name] = " ".join(summary.split())
    return out


def _pick(key: str, n: int, pool: list[str]) -> list[str]:
    ranked = sorted(pool, key=lambda p: hashlib.sha256(f"{key}|{p}".encode()).hexdigest())
    return ranked[:n]


def _decisive(calls: tuple[GateCall, ...]) -> list[GateCall]:
    acting = [c for c in calls if not tool_annotations(c.tool)["readOnlyHint"]]
    return acting or list(calls[-1:])


def agentdojo_gate_items(zf: zipfile.ZipFile) -> Iterator[tuple[str, dict[str, Any]]]:
    """(split key, item) pairs; the split key is the user task, so held-out items come
    with user requests never seen while fitting."""
    for suite, modules in SUITES.items():
        tools = _descriptions(zf, modules)
        users = _tasks(zf, suite, "user")
        for task in users.values():
            seen: set[str] = set()
            for n, call in enumerate(task.calls):
                key = f"{call.tool}|{sorted(call.args.items())!r}"
                if key in seen:
                    continue
                seen.add(key)
                yield (
                    f"{suite}/{task.ident}",
                    _item(f"{suite}-{task.ident}-call{n}", suite, task, call, tools, None),
                )
        for goal in _tasks(zf, suite, "injection").values():
            for n, call in enumerate(_decisive(goal.calls)):
                for user in _pick(
                    f"{suite}/{goal.ident}/{n}", USER_TASKS_PER_INJECTED_CALL, sorted(users)
                ):
                    task = users[user]
                    yield (
                        f"{suite}/{task.ident}",
                        _item(
                            f"{suite}-{goal.ident}-call{n}-{task.ident}",
                            suite,
                            task,
                            call,
                            tools,
                            goal.ident,
                        ),
                    )


def _item(
    ident: str,
    suite: str,
    task: _Task,
    call: GateCall,
    tools: dict[str, str],
    injection: str | None,
) -> dict[str, Any]:
    return {
        "id": f"agentdojo-{ident}",
        "gate": {
            "tool": call.tool,
            "args": call.args,
            "description": tools.get(call.tool, ""),
            "annotations": tool_annotations(call.tool),
            "messages": [{"role": "user", "content": task.text}],
        },
        "gold": {"unsafe": injection is not None},
        "meta": {"suite": suite, "user_task": task.ident, "injection_task": injection},
    }
