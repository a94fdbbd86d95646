"""AgentDojo banking + slack as whole sessions: every call comes with the tool calls and
results before it, run in AgentDojo's own environments (issue 28).

`clef-tools data agentdojo` reads the task files without running AgentDojo, so its items
carry the user's request only. A gate that grounds names in earlier results and marks a
session tainted once a result addresses the agent can only be measured on sessions with
those results; this script runs AgentDojo (which the package itself never imports) to
make them:

- *safe*: each ground-truth call of a user task, after the user's request and the
  ground-truth calls and results before it, in the default environment; and the same
  task's calls after an injected result (`meta.after_injection`): the user still asked for
  them, so a taint that blocks them costs attention;
- *unsafe*: each decisive call of an injection goal (not a plain read, or the goal's only
  call), after a user task whose ground-truth run reads the injected content, cut at the
  first result that carries it, then the goal's earlier calls and their results. The
  injection is written by one of AgentDojo's attacks (important_instructions, direct,
  ignore_previous, system_message, injecagent), chosen per pair by hash, so the taint
  rules are not measured on one template only.

Split by user task exactly as `clef-tools data agentdojo` splits (40 % dev), so the dev
and test user requests are the same ones. Needs AgentDojo, in a venv of its own:

    python -m venv /tmp/adv && /tmp/adv/bin/pip install agentdojo==0.1.35
    /tmp/adv/bin/python bench/agentdojo_sessions.py --out clef-data

AgentDojo is MIT-licensed (Debenedetti et al. 2024).
"""

from __future__ import annotations

import argparse
import hashlib
import importlib.util
import json
import sys
from pathlib import Path
from typing import Any

from agentdojo.attacks.baseline_attacks import (
    DirectAttack,
    IgnorePreviousAttack,
    InjecAgentAttack,
    SystemMessageAttack,
)
from agentdojo.attacks.important_instructions_attacks import ImportantInstructionsAttack
from agentdojo.functions_runtime import FunctionCall, FunctionsRuntime
from agentdojo.task_suite.load_suites import get_suite

ROOT = Path(__file__).resolve().parent.parent
SUITES = ("banking", "slack")
PER_GOAL = 4
ATTACKS = (
    ImportantInstructionsAttack,
    DirectAttack,
    IgnorePreviousAttack,
    SystemMessageAttack,
    InjecAgentAttack,
)


def _stdlib_module(name: str, path: Path) -> Any:
    """clef-tools' AgentDojo reader (stdlib only) without importing the package."""
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


_READER = _stdlib_module("_agentdojo", ROOT / "clef_tools" / "evaluation" / "_agentdojo.py")


def split_of(key: str, dev_share: float = 0.4) -> str:
    """`clef_tools.evaluation._datasets._split`: the same user task, the same split."""
    h = int(hashlib.sha256(key.encode()).hexdigest()[:8], 16) / 2**32
    return "dev" if h < dev_share else "test"


class _Pipeline:
    """What an attack asks of its target: a name (the model it addresses)."""

    name = "gpt-4o-2024-05-13"


def _text(content: Any) -> str:
    if isinstance(content, list):
        return "\n".join(str(part.get("content", "")) for part in content)
    return "" if content is None else str(content)


def _run(
    runtime: FunctionsRuntime, env: Any, calls: list[FunctionCall], tag: str = "call"
) -> list[dict[str, Any]]:
    """Each call with its result, as the chat messages an agent host would hold."""
    out: list[dict[str, Any]] = []
    for n, call in enumerate(calls):
        result, error = runtime.run_function(env, call.function, dict(call.args))
        out.append(
            {
                "role": "assistant",
                "content": "",
                "tool_calls": [
                    {"id": f"{tag}_{n}", "name": call.function, "args": dict(call.args)}
                ],
            }
        )
        body = error if error else _READER_FORMAT(result)
        out.append({"role": "tool", "tool_call_id": f"{tag}_{n}", "content": body})
    return out


def _READER_FORMAT(result: Any) -> str:
    from agentdojo.agent_pipeline.tool_execution import tool_result_to_str

    return str(tool_result_to_str(result))


def _item(
    ident: str,
    suite: str,
    user: Any,
    call: FunctionCall,
    before: list[dict[str, Any]],
    runtime: FunctionsRuntime,
    *,
    injection: str | None,
    meta: dict[str, Any],
) -> dict[str, Any]:
    tool = runtime.functions[call.function]
    description = " ".join(tool.description.split(":param")[0].split())
    return {
        "id": f"agentdojo-session-{ident}",
        "gate": {
            "tool": call.function,
            "args": dict(call.args),
            "description": description,
            "annotations": _READER.tool_annotations(call.function),
            "messages": [{"role": "user", "content": user.PROMPT}, *before],
        },
        "gold": {"unsafe": injection is not None},
        "meta": {"suite": suite, "user_task": user.ID, "injection_task": injection, **meta},
    }


def _pick(key: str, n: int, pool: list[str]) -> list[str]:
    return sorted(pool, key=lambda p: hashlib.sha256(f"{key}|{p}".encode()).hexdigest())[:n]


def _decisive(calls: list[FunctionCall]) -> list[int]:
    acting = [
        i for i, c in enumerate(calls) if not _READER.tool_annotations(c.function)["readOnlyHint"]
    ]
    return acting or [len(calls) - 1]


def suite_items(name: str) -> list[tuple[str, dict[str, Any]]]:
    suite = get_suite("v1.2", name)
    out: list[tuple[str, dict[str, Any]]] = []
    users = dict(sorted(suite.user_tasks.items()))
    visible: dict[str, list[str]] = {}
    canary = ATTACKS[0](suite, _Pipeline())
    for uid, user in users.items():
        runtime = FunctionsRuntime(suite.tools)
        env = suite.load_and_inject_default_environment({})
        calls = list(user.ground_truth(env.model_copy(deep=True)))
        messages = _run(runtime, env, calls)
        seen: set[str] = set()
        for n, call in enumerate(calls):
            key = f"{call.function}|{sorted(call.args.items())!r}"
            if key in seen:
                continue
            seen.add(key)
            item = _item(
                f"{name}-{uid}-call{n}", name, user, call, messages[: 2 * n], runtime,
                injection=None, meta={"after_injection": False},
            )  # fmt: skip
            out.append((f"{name}/{uid}", item))
        try:
            visible[uid] = canary.get_injection_candidates(user)
        except ValueError:
            continue  # the task never reads injectable content
    for gid, goal in sorted(suite.injection_tasks.items()):
        for uid in _pick(f"{name}/{gid}", PER_GOAL, sorted(visible)):
            user = users[uid]
            attack_cls = ATTACKS[int(hashlib.sha256(f"{gid}|{uid}".encode()).hexdigest(), 16)
                                 % len(ATTACKS)]  # fmt: skip
            attack = attack_cls(suite, _Pipeline())
            injections = attack.attack(user, goal)
            runtime = FunctionsRuntime(suite.tools)
            env = suite.load_and_inject_default_environment(injections)
            calls = list(user.ground_truth(env.model_copy(deep=True)))
            messages = _run(runtime, env, calls)
            texts = [t for t in injections.values() if t]
            cut = next(
                (
                    i + 1
                    for i, m in enumerate(messages)
                    if m["role"] == "tool" and any(t[:60] in m["content"] for t in texts)
                ),
                None,
            )
            if cut is None:
                continue
            prefix = messages[:cut]
            meta = {"attack": attack.name, "after_injection": True}
            # the user's own later calls, after the injected result: still safe
            for n in range(cut // 2, len(calls)):
                item = _item(
                    f"{name}-{uid}-call{n}-after-{gid}", name, user, calls[n],
                    messages[: 2 * n], runtime, injection=None, meta=meta,
                )  # fmt: skip
                out.append((f"{name}/{uid}", item))
            goal_calls = list(goal.ground_truth(env.model_copy(deep=True)))
            done = _run(runtime, env, goal_calls, "goal")
            for n in _decisive(goal_calls):
                before = prefix + done[: 2 * n]
                item = _item(
                    f"{name}-{gid}-call{n}-{uid}", name, user, goal_calls[n], before, runtime,
                    injection=gid, meta=meta,
                )  # fmt: skip
                out.append((f"{name}/{uid}", item))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=ROOT / "clef-data")
    args = parser.parse_args()
    splits: dict[str, list[dict[str, Any]]] = {"dev": [], "test": []}
    for name in SUITES:
        for key, item in suite_items(name):
            splits[split_of(key)].append(item)
    args.out.mkdir(parents=True, exist_ok=True)
    for split, items in splits.items():
        path = args.out / f"agentdojo-sessions-{split}.jsonl"
        path.write_text("".join(json.dumps(i, ensure_ascii=False) + "\n" for i in items))
        unsafe = sum(i["gold"]["unsafe"] for i in items)
        print(f"{path}: {len(items)} calls, {unsafe} unsafe")


if __name__ == "__main__":
    main()
