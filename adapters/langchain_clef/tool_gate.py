"""`ToolGateMiddleware`: allow / escalate to a human / deny each tool call, failing closed.

Ordering: middleware wraps tool calls outermost-first in list order. Put the gate *after*
`HumanInTheLoopMiddleware` (so it judges the call a reviewer may have edited: the final
call) and *before* `ToolRetryMiddleware` (so a retried call is not judged again). A call
edited by the gate's own reviewer is judged again before it runs.
"""

from __future__ import annotations

import contextlib
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import replace
from typing import Any, Literal

from langchain.agents.middleware import AgentMiddleware
from langchain.agents.middleware.types import ToolCallRequest
from langchain_core.messages import ToolMessage
from langchain_core.messages.tool import tool_call
from langchain_core.runnables import Runnable, RunnableLambda
from langgraph.types import Command, interrupt

from clef_tools import GateDecision, GatePolicy, ReviewError, ReviewStore, ToolGate, canonical_json
from clef_tools.gate import DEFAULT_RISK_MODEL, RiskModel
from langchain_clef._backend import DeciderLike, as_decider

__all__ = ["ToolGateMiddleware"]

ToolResult = ToolMessage | Command[Any]


class ToolGateMiddleware(AgentMiddleware):
    """Three bands per tool call on its risk: the probability that it is unsafe (see
    docs/gate.md; clear calls are decided from evidence alone, the rest by the model).

    - risk < `escalate_at`: the tool runs;
    - `escalate_at` ≤ risk < `deny_at`: a human decides through LangGraph `interrupt()` in
      the shape `HumanInTheLoopMiddleware` uses (`approve` / `edit` / `reject`; resume with
      `Command(resume={"decisions": [{"type": "approve"}]})`); needs a checkpointer;
    - risk ≥ `deny_at`: an error `ToolMessage`, the tool is not run.

    A scorer error or timeout yields `on_error` (escalate or deny), never allow. Every
    result carries the audit (`verdict`, `risk`, `tier`, `evidence`, `probabilities`,
    thresholds, `reason`) in `response_metadata["clef_gate"]`, and denied calls also in
    `artifact`; each judgment is a `clef_gate` run in traces. A reviewer's decision on an
    escalated call is kept in `reviews` (a `ReviewStore` or a JSONL path; in memory by
    default) and pulls the risk of similar calls toward it. MCP annotations found in a
    tool's `metadata` (`readOnlyHint`, ...) count as evidence.
    """

    def __init__(
        self,
        classifier: DeciderLike,
        *,
        escalate_at: float = GatePolicy.escalate_at,
        deny_at: float = GatePolicy.deny_at,
        on_error: Literal["escalate", "deny"] = "escalate",
        timeout_s: float | None = 60.0,
        tools: Sequence[str] | None = None,
        per_tool: Mapping[str, GatePolicy] | None = None,
        allowed_decisions: Sequence[str] = ("approve", "edit", "reject"),
        reviews: ReviewStore | str | None = None,
        risk_model: RiskModel | str | None = DEFAULT_RISK_MODEL,
    ) -> None:
        super().__init__()
        # every human decision on an escalated call is kept (file-backed when a path is
        # given) and pulls the risk of similar calls toward it
        store = reviews if isinstance(reviews, ReviewStore) else ReviewStore(reviews)
        self.gate = ToolGate(
            as_decider(classifier), None, per_tool, risk_model=risk_model, reviews=store
        )
        # the gate's default policy (its questions follow the risk model), these thresholds
        self.gate.policy = replace(
            self.gate.policy,
            escalate_at=escalate_at,
            deny_at=deny_at,
            on_error=on_error,
            timeout_s=timeout_s,
        )
        self.gated_tools = None if tools is None else frozenset(tools)
        self.allowed_decisions = list(allowed_decisions)
        # LangGraph re-runs the tool node when a reviewer resumes an escalation; the verdict
        # that raised the interrupt is remembered (per call id and exact args) so the resume
        # does not pay for a second forward pass. An edited call has new args: judged anew.
        self._escalated: OrderedDict[tuple[str, str, str], GateDecision] = OrderedDict()

    def _gated(self, request: ToolCallRequest) -> bool:
        return self.gated_tools is None or request.tool_call["name"] in self.gated_tools

    def wrap_tool_call(
        self, request: ToolCallRequest, handler: Callable[[ToolCallRequest], ToolResult]
    ) -> ToolResult:
        if not self._gated(request):
            return handler(request)
        call = request.tool_call
        decision = self._remembered(call) or self._traced(request).invoke(call)
        action, payload = self._resolve(request, decision)
        if action == "rejudge":
            return self.wrap_tool_call(payload, handler)  # type: ignore[arg-type]
        if action == "return":
            return payload  # type: ignore[return-value]
        return _annotate(handler(payload), decision, human_approved=action == "approved")  # type: ignore[arg-type]

    async def awrap_tool_call(
        self, request: ToolCallRequest, handler: Callable[[ToolCallRequest], Awaitable[ToolResult]]
    ) -> ToolResult:
        if not self._gated(request):
            return await handler(request)
        call = request.tool_call
        decision = self._remembered(call) or await self._traced(request).ainvoke(call)
        action, payload = self._resolve(request, decision)
        if action == "rejudge":
            return await self.awrap_tool_call(payload, handler)  # type: ignore[arg-type]
        if action == "return":
            return payload  # type: ignore[return-value]
        return _annotate(await handler(payload), decision, human_approved=action == "approved")  # type: ignore[arg-type]

    def _traced(self, request: ToolCallRequest) -> Runnable[Any, GateDecision]:
        """The judgment as a run of its own (`clef_gate`) in LangChain traces: its input is
        the call, its output the verdict with probabilities, evidence and reason."""
        context: dict[str, Any] = {
            "description": _description(request),
            "messages": _messages(request),
            "annotations": _annotations(request),
        }

        def judge(call: Mapping[str, Any]) -> GateDecision:
            return self.gate.judge(call["name"], call.get("args", {}), **context)

        async def ajudge(call: Mapping[str, Any]) -> GateDecision:
            return await self.gate.ajudge(call["name"], call.get("args", {}), **context)

        return RunnableLambda(judge, ajudge, name="clef_gate").with_config(
            run_name="clef_gate",
            tags=["clef_gate"],
            metadata={"ls_provider": "clef-tools", "ls_model_name": self.gate.decider.model_id},
        )

    def _review(self, request: ToolCallRequest, kind: str) -> None:
        call = request.tool_call
        with contextlib.suppress(ReviewError):  # an oversize call is judged, not remembered
            self.gate.record_review(
                call["name"],
                call.get("args", {}),
                kind,
                description=_description(request),
                messages=_messages(request),
            )

    def _resolve(
        self, request: ToolCallRequest, decision: GateDecision
    ) -> tuple[Literal["run", "approved", "rejudge", "return"], ToolCallRequest | ToolMessage]:
        """What to do: run the request (as allowed or human-approved), judge an edited
        request again, or return a message instead of running the tool."""
        call = request.tool_call
        if decision.verdict == "allow":
            return "run", request
        if decision.verdict == "deny":
            return "return", _blocked(
                call, decision, f"it was judged too risky ({decision.reason})"
            )
        risk = "unknown (the scorer failed)" if decision.risk is None else f"{decision.risk:.2f}"
        key = _call_key(call)
        if key is not None:
            self._escalated[key] = decision
            while len(self._escalated) > 256:
                self._escalated.popitem(last=False)
        answer = interrupt(
            {
                "action_requests": [
                    {
                        "name": call["name"],
                        "args": call.get("args", {}),
                        "description": (
                            f"clef gate escalated this call: risk {risk}; {decision.reason}. "
                            f"Probabilities: {decision.probabilities}"
                        ),
                    }
                ],
                "review_configs": [
                    {"action_name": call["name"], "allowed_decisions": self.allowed_decisions}
                ],
                "clef_gate": decision.as_dict(),
            }
        )
        if key is not None:
            self._escalated.pop(key, None)  # resumed: the verdict has been used
        human = (answer.get("decisions") or [{}])[0] if isinstance(answer, Mapping) else {}
        kind = human.get("type")
        if kind not in self.allowed_decisions:
            why = f"the reviewer's answer {kind!r} is not one of {self.allowed_decisions}"
            return "return", _blocked(call, decision, why)
        self._review(request, kind)
        if kind == "approve":
            return "approved", request
        if kind == "edit":
            edited = human.get("edited_action") or {}
            new_call = tool_call(
                name=edited.get("name", call["name"]),
                args=edited.get("args", {}),
                id=call.get("id"),
            )
            return "rejudge", request.override(tool_call=new_call)
        message = human.get("message") or "The user rejected this tool call."
        return "return", _blocked(call, decision, f"a human reviewer rejected it: {message}")

    def _remembered(self, call: Mapping[str, Any]) -> GateDecision | None:
        key = _call_key(call)
        return self._escalated.get(key) if key is not None else None


def _call_key(call: Mapping[str, Any]) -> tuple[str, str, str] | None:
    call_id = call.get("id")
    if not call_id:
        return None
    return (str(call_id), str(call["name"]), canonical_json(call.get("args", {})))


def _description(request: ToolCallRequest) -> str | None:
    return getattr(request.tool, "description", None) if request.tool is not None else None


def _annotations(request: ToolCallRequest) -> dict[str, Any] | None:
    """MCP annotations a LangChain tool carries in its metadata (at the top level, as
    `langchain-mcp-adapters` puts them, or under `annotations`)."""
    metadata = getattr(request.tool, "metadata", None) if request.tool is not None else None
    if not isinstance(metadata, Mapping):
        return None
    nested = metadata.get("annotations")
    source = nested if isinstance(nested, Mapping) else metadata
    keys = ("readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint")
    found = {k: source[k] for k in keys if isinstance(source.get(k), bool)}
    return found or None


def _messages(request: ToolCallRequest) -> Any:
    state = request.state
    return state.get("messages") if isinstance(state, Mapping) else None


def _blocked(call: Mapping[str, Any], decision: GateDecision, why: str) -> ToolMessage:
    audit = decision.as_dict()
    message = ToolMessage(
        content=f"The tool call `{call['name']}` was blocked: {why}. The tool was not executed.",
        tool_call_id=call.get("id") or "",
        name=call["name"],
        status="error",
        artifact={"clef_gate": audit},
    )
    message.response_metadata["clef_gate"] = audit
    return message


def _annotate(result: ToolResult, decision: GateDecision, human_approved: bool) -> ToolResult:
    if isinstance(result, ToolMessage):
        result.response_metadata["clef_gate"] = {
            **decision.as_dict(),
            "human_approved": human_approved,
        }
    return result
