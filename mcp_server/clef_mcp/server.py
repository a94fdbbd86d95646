"""The clef MCP server: typed decisions, routing and a tool-call gate for MCP hosts.

The backend (the embedded model unless configured otherwise) is loaded once, in the
background after `initialize` has been answered (see `_loading`), and shared by every
tool; the readout backend serialises forward passes itself, so concurrent tool calls (v2
runs them concurrently) never race on the model. Tools the backend cannot answer (the
gate on a choice-only `embedding` backend) are not offered.
"""

from __future__ import annotations

import json
import logging
from collections.abc import AsyncIterator, Callable, Iterable
from contextlib import asynccontextmanager
from dataclasses import dataclass, replace
from typing import Annotated, Any, Literal

import anyio
from mcp.server import MCPServer
from mcp.server.mcpserver import (
    AcceptedElicitation,
    Context,
    Elicit,
    ElicitationResult,
    Resolve,
)
from mcp.server.mcpserver.exceptions import ToolError
from mcp.server.transport_security import TransportSecuritySettings
from mcp.types import ToolAnnotations
from pydantic import BaseModel, Field, JsonValue, StrictBool
from starlette.types import ASGIApp

from clef_mcp._loading import BackendLoader, reporting
from clef_mcp._schemas import DecideResult, GateResult, ModelInfo, ReviewResult, RouteResult
from clef_mcp._sessions import NewSessionRateLimit, SessionLimits
from clef_tools import (
    LIMITS,
    AccessPolicy,
    ClefError,
    Decider,
    GatePolicy,
    GuardMiddleware,
    PendingReviews,
    PolicyError,
    ReviewError,
    ReviewStore,
    ToolGate,
    __version__,
    load_decider,
    response_to_wire,
)
from clef_tools.audit import AuditLog
from clef_tools.backends import question_types as question_types_of
from clef_tools.protocol import OPTIONS_HELP, QUESTIONS_HELP

__all__ = ["AppState", "SessionLimits", "build_server", "http_app"]

log = logging.getLogger("clef_mcp")

INSTRUCTIONS = """\
clef answers typed questions about a state with calibrated probabilities, in one local
forward pass, without generating text. Use `decide` for yes/no (noul), pick-one (choice)
and rubric (score) questions; `route` to pick one of several named options; and
`gate_tool_call` before running a tool that could be risky: act on `allow`, ask the user on
`escalate`, do not run on `deny`. Probabilities near 0.5 (or low confidence) mean unsure.
"""

REVIEWS_NOTE = (
    "An `escalate` verdict carries a `review_token`: after showing the call to the user, "
    "pass it to `record_review`, which asks the user directly and keeps their answer for "
    "later calls.\n"
)

READ_ONLY = ToolAnnotations(
    read_only_hint=True, idempotent_hint=True, open_world_hint=False, destructive_hint=False
)
RECORDS = ToolAnnotations(
    read_only_hint=False, idempotent_hint=False, open_world_hint=False, destructive_hint=False
)

StateArg = Annotated[
    str | dict[str, JsonValue] | list[JsonValue],
    Field(
        description="What the questions are about: plain text, a JSON object/array, or a chat "
        'transcript as [{"role": "user", "content": "..."}, ...]. Never truncated: a state '
        "too long for the model is refused."
    ),
]
#: A question as the wire format has it, checked by the same validator as every surface
#: (so `decide` takes what `serve` takes, and its errors name the same fields).
QuestionArg = dict[str, JsonValue]


class _ReviewAnswer(BaseModel):
    decision: Literal["approve", "reject"] = Field(
        description="approve: the call may run as proposed; reject: it must not"
    )


@dataclass
class AppState:
    loader: BackendLoader
    pending: PendingReviews
    """Escalated calls the person may still be asked about, by their review token."""

    @property
    def source(self) -> str:
        return self.loader.source


_TOOLS = ("decide", "route", "gate_tool_call", "record_review", "model_info")
# which question type each tool needs; a backend that cannot answer it does not get the tool
TOOL_NEEDS: dict[str, str] = {"route": "choice", "gate_tool_call": "noul", "record_review": "noul"}


def build_server(
    decider_factory: Callable[[], Decider] | None = None,
    *,
    model: str | None = None,
    gate_policy: GatePolicy | None = None,
    reviews: ReviewStore | str | None = None,
    question_types: Iterable[str] | None = None,
    human_reviews: bool = False,
    trusted_caller: bool = False,
    request_timeout_s: float | None = 120.0,
    audit: AuditLog | None = None,
) -> MCPServer[AppState]:
    """A fresh server; the backend is created once, in the background, when the server
    starts. `question_types`: what the backend can answer (default: what `model` names
    can), which decides the tools offered.

    The caller of `gate_tool_call` is the agent the gate checks, so by default it can
    neither loosen the thresholds nor teach the gate: `human_reviews=True` offers
    `record_review`, which asks the person (an MCP elicitation) about a call the gate
    escalated, named by the one-time token issued with that verdict, and keeps the answer
    in `reviews` (a JSONL path; in memory by default). `trusted_caller=True` lets the
    caller's `context` and `annotations` lower a call's risk; otherwise they can only
    raise it (see docs/gate.md, "Who may steer the gate"). `decide` and `route` give up
    after `request_timeout_s` (a tool error), and their work stops; the gate has its
    policy's own deadline. `audit`: where every `gate_tool_call` verdict is kept."""
    factory = decider_factory or (lambda: load_decider(model, progress=True))
    store = ReviewStore(reviews) if isinstance(reviews, str) else (reviews or ReviewStore())
    answers = frozenset(question_types) if question_types is not None else question_types_of(model)
    pending = PendingReviews()

    @asynccontextmanager
    async def lifespan(server: MCPServer[AppState]) -> AsyncIterator[AppState]:
        loader = BackendLoader(factory, model or "embedded", gate_policy, store)
        async with anyio.create_task_group() as tasks:
            tasks.start_soon(loader.run)
            yield AppState(loader, pending)
            tasks.cancel_scope.cancel()
        if loader.decider is not None:  # its async connections end with this event loop
            await loader.decider.aclose()

    mcp: MCPServer[AppState] = MCPServer(
        "clef",
        version=__version__,
        instructions=INSTRUCTIONS + (REVIEWS_NOTE if human_reviews else ""),
        lifespan=lifespan,
    )

    @mcp.tool(title="Decide typed questions", annotations=READ_ONLY)
    async def decide(
        state: StateArg,
        questions: Annotated[
            dict[str, QuestionArg],
            Field(description=QUESTIONS_HELP),
        ],
        ctx: Context[AppState],
    ) -> DecideResult:
        """Answer yes/no, pick-one and rubric questions about a state in one pass.

        Returns P(yes) for each noul, a probability per option (plus the top choice and a
        confidence) for each choice, and an expected level with per-level probabilities for
        each score.
        """
        decider, _ = await ctx.request_context.lifespan_context.loader.ready(ctx)
        response = await reporting(
            ctx, "answering", _call(decider.adecide, state, questions, request_timeout_s)
        )
        return DecideResult.model_validate(response_to_wire(response))

    @mcp.tool(title="Route to one option", annotations=READ_ONLY)
    async def route(
        state: StateArg,
        options: Annotated[
            dict[str, str],
            Field(description=OPTIONS_HELP),
        ],
        ctx: Context[AppState],
        instructions: Annotated[
            str, Field(description="the routing question")
        ] = "Which option fits this best?",
        min_confidence: Annotated[
            float,
            Field(
                ge=0.0, le=1.0, description="below this confidence the answer is flagged uncertain"
            ),
        ] = 0.5,
    ) -> RouteResult:
        """Pick the best of several named options for a state, with a probability for each.

        Check `uncertain` before acting: it is true when confidence < min_confidence.
        """
        decider, _ = await ctx.request_context.lifespan_context.loader.ready(ctx)
        question = {"type": "choice", "instructions": instructions, "criteria": options}
        try:
            response = await reporting(
                ctx,
                "answering",
                _call(decider.adecide, state, {"route": question}, request_timeout_s),
            )
        except ToolError as exc:  # name the caller's field, not the internal question's
            raise ToolError(str(exc).replace("questions.route.criteria", "options")) from exc
        answer = response.choices["route"]
        return RouteResult(
            choice=answer.choice,
            confidence=answer.confidence,
            probabilities=answer.probabilities,
            uncertain=answer.confidence < min_confidence,
            min_confidence=min_confidence,
            model=response.model,
        )

    @mcp.tool(title="Gate a tool call", annotations=READ_ONLY)
    async def gate_tool_call(
        tool_name: Annotated[
            str, Field(min_length=1, description="name of the tool about to be called")
        ],
        ctx: Context[AppState],
        arguments: Annotated[
            dict[str, JsonValue], Field(description="the arguments it would be called with")
        ] = {},  # noqa: B006 - never mutated; an MCP schema default
        description: Annotated[
            str | None, Field(description="what the tool does (its description)")
        ] = None,
        context: Annotated[
            str | list[JsonValue] | None,
            Field(description="recent conversation: what the user asked for, as text or messages"),
        ] = None,
        escalate_at: Annotated[
            float | None, Field(ge=0.0, le=1.0, description="risk at which to ask the user")
        ] = None,
        deny_at: Annotated[
            float | None, Field(ge=0.0, le=1.0, description="risk at which to refuse")
        ] = None,
        annotations: Annotated[
            dict[str, StrictBool] | None,
            Field(
                description="the tool's MCP annotations (readOnlyHint, destructiveHint, "
                "openWorldHint) as booleans: evidence for the judgment"
            ),
        ] = None,
    ) -> GateResult:
        """Judge a proposed tool call before running it: allow, escalate to the user, or deny.

        Risk = the probability that the call is unsafe: from its arguments (are they things
        the user mentioned?), its distance from the request, its annotations, past reviews
        of similar calls and, when those are not conclusive, the decision model. If it cannot
        be judged in time the verdict fails closed (escalate), never allow. Thresholds given
        here may only be lower (stricter) than the server's.
        """
        loader = ctx.request_context.lifespan_context.loader
        try:
            decider, gate = await loader.ready(ctx)
        except ToolError as exc:  # no model: the policy's fail-closed verdict, with the reason
            failed = ToolGate.fail_closed(loader.gate_policy or GatePolicy(), str(exc))
            return GateResult(**failed.as_dict())
        if escalate_at is not None or deny_at is not None:
            try:
                policy = gate.policy.tightened(escalate_at=escalate_at, deny_at=deny_at)
            except PolicyError as exc:
                raise ToolError(str(exc)) from exc
            gate = ToolGate(decider, policy, risk_model=gate.risk_model, reviews=gate.reviews)
        decision = await reporting(
            ctx,
            "judging the call",
            gate.ajudge(
                tool_name,
                arguments,
                description=description,
                messages=context,
                annotations=annotations,
                caller_trusted=trusted_caller,
            ),
        )
        if audit is not None:
            audit.record(
                surface="mcp",
                tool=tool_name,
                args=arguments,
                decision=decision.as_dict(),
                session=ctx.session_id if hasattr(ctx, "session_id") else None,
            )
        token = None
        if human_reviews and decision.verdict == "escalate" and gate.reviews is not None:
            token = pending.issue(
                tool_name,
                arguments,
                description=description,
                messages=context,
                risk=decision.risk,
            )
        return GateResult(**decision.as_dict(), review_token=token)

    @mcp.tool(title="Ask the user about an escalated call", annotations=RECORDS)
    async def record_review(
        review_token: Annotated[
            str,
            Field(
                min_length=1,
                max_length=200,
                description="the review_token that came with an escalate verdict",
            ),
        ],
        ctx: Context[AppState],
        answer: Annotated[ElicitationResult[_ReviewAnswer], Resolve(_ask_the_person)],
    ) -> ReviewResult:
        """Ask the user (through the host's elicitation prompt) whether the escalated call
        may run, and keep their answer so that similar calls lean toward it. Only the
        user's own answer is recorded; the token is valid once."""
        _, gate = await ctx.request_context.lifespan_context.loader.ready(ctx)
        if gate.reviews is None:
            raise ToolError("reviews need the gate's risk model: pip install 'clef-tools[local]'")
        try:
            call = ctx.request_context.lifespan_context.pending.take(review_token)
        except ReviewError as exc:
            raise ToolError(str(exc)) from exc
        if not isinstance(answer, AcceptedElicitation):
            return ReviewResult(recorded=False, tool=call.tool, decision=None)
        decision = answer.data.decision
        try:
            gate.record_review(
                call.tool,
                call.args,
                decision,
                description=call.description,
                messages=call.messages,
                channel="mcp-elicitation",
            )
        except ReviewError as exc:
            raise ToolError(str(exc)) from exc
        return ReviewResult(
            recorded=True,
            tool=call.tool,
            decision=decision,
            reviews_of_tool=gate.reviews.counts().get(call.tool, {}),
        )

    @mcp.tool(title="Model and limits", annotations=READ_ONLY)
    async def model_info(ctx: Context[AppState]) -> ModelInfo:
        """Which model answers, its limits, and the calibration and gate policy in use
        (`status` is "loading" until the model is ready; this tool never waits for it)."""
        return _model_info(ctx.request_context.lifespan_context.loader)

    withdrawn = {tool for tool, needs in TOOL_NEEDS.items() if needs not in answers}
    if not human_reviews:  # the agent must not teach its own gate
        withdrawn.add("record_review")
    for tool in withdrawn:
        mcp.remove_tool(tool)
    offered = [t for t in _TOOLS if t not in withdrawn]

    @mcp.resource("clef://capabilities", mime_type="application/json", title="clef capabilities")
    async def capabilities() -> str:
        """Limits and question types, for hosts that read resources."""
        return json.dumps(
            {
                "question_types": sorted(answers),
                "tools": offered,
                "limits": dict(LIMITS),
            }
        )

    @mcp.prompt(title="Triage a support ticket")
    def triage_ticket(ticket: str) -> str:
        """Route a support ticket and rate its urgency with the `decide` tool."""
        return (
            "Call the `decide` tool with this ticket as `state` and two questions: "
            '"team" (choice over billing, shipping, fraud, technical, each with a one-line '
            'description) and "urgency" (score with levels: can wait, this week, today, now). '
            "Report the chosen team with its probability and the urgency level; say so if the "
            f"confidence is below 0.5.\n\nTicket:\n{ticket}"
        )

    @mcp.prompt(title="Should I run this command?")
    def should_i_run(command: str, user_request: str = "") -> str:
        """Check a shell command with `gate_tool_call` before running it."""
        return (
            'Before running the command below, call `gate_tool_call` with tool_name "shell", '
            'arguments {"command": <the command>} and the user\'s request as context. Run it '
            "only on allow; on escalate, show the probabilities and ask me; on deny, do not "
            f"run it and explain why.\n\nCommand: {command}\nUser request: {user_request}"
        )

    return mcp


def http_app(
    server: MCPServer[AppState],
    access: AccessPolicy,
    *,
    sessions: SessionLimits | None = None,
) -> ASGIApp:
    """The streamable-HTTP app at `/mcp`, behind the same rules as `clef-tools serve`:
    the SDK's DNS-rebinding protection with our Host/Origin allow-lists, JSON only, the
    bearer key when one is set, and bounds on sessions (how many, how long idle, how fast
    one client may open them)."""
    limits = sessions or SessionLimits()
    app = server.streamable_http_app(
        streamable_http_path="/mcp",
        transport_security=TransportSecuritySettings(**access.mcp_transport_settings()),
        session_idle_timeout=limits.idle_timeout_s,
        max_sessions=limits.max_sessions,
    )
    guarded = GuardMiddleware(app, replace(access, open_paths=frozenset()))
    return NewSessionRateLimit(guarded, limits)


async def _ask_the_person(review_token: str, ctx: Context[AppState]) -> Elicit[_ReviewAnswer]:
    """The question the host puts to its user (an elicitation: mid-call before MCP
    2026-07-28, an input-required round trip from then on)."""
    try:
        call = ctx.request_context.lifespan_context.pending.peek(review_token)
    except ReviewError as exc:
        raise ToolError(str(exc)) from exc
    return Elicit(_review_question(call.tool, call.args), _ReviewAnswer)


def _review_question(tool: str, args: dict[str, Any]) -> str:
    shown = json.dumps(args, ensure_ascii=False, sort_keys=True, default=str)
    if len(shown) > 2000:
        shown = shown[:2000] + " …"
    return (
        f"An agent wants to call {tool!r} with {shown}. The gate asked for your decision. "
        "May it run as proposed?"
    )


async def _call(fn: Any, state: Any, questions: dict[str, Any], timeout_s: float | None) -> Any:
    """Our validation and backend errors become tool errors the host can read; past the
    deadline the work is cancelled (the backend's passes stop at their next check)."""
    try:
        with anyio.fail_after(timeout_s):
            return await fn(state, questions)
    except TimeoutError:
        raise ToolError(f"no answer within {timeout_s} s; the work was stopped") from None
    except ClefError as exc:
        raise ToolError(str(exc)) from exc


def _model_info(loader: BackendLoader) -> ModelInfo:
    if loader.decider is None or loader.gate is None:
        return ModelInfo(
            status=loader.status,
            error=loader.error,
            loading_seconds=loader.seconds if loader.status == "loading" else None,
            source=loader.source,
            limits=dict(LIMITS),
        )
    info = loader.decider.info()
    gate = loader.gate
    policy = gate.policy
    return ModelInfo(
        status="ready",
        backend=info.kind,
        model=info.model_id,
        source=loader.source,
        dtype=info.dtype,
        max_context_tokens=info.max_context_tokens,
        calibration=info.calibration or "n/a",
        contextual_calibration=list(info.contextual_calibration),
        examples=dict(info.examples) if info.examples is not None else None,
        limits=dict(LIMITS),
        gate={
            "escalate_at": policy.escalate_at,
            "deny_at": policy.deny_at,
            "on_error": policy.on_error,
            "timeout_s": policy.timeout_s,
            "questions": {k: q.instructions for k, q in policy.questions.items()},
            "risk_model": gate.risk_model.name if gate.risk_model is not None else None,
            "reviews": gate.reviews.counts() if gate.reviews is not None else {},
            "tool_offsets": gate.tool_offsets(),
            "answer_shift": gate.answer_shift(),
        },
    )
