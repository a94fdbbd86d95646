"""`clef-tools mcp-proxy`: an MCP server in front of another, gating every `tools/call`.

The host sees the upstream's tools, resources and prompts unchanged; a call the gate
allows is forwarded, one it escalates is put to the person through the host (elicitation:
mid-call before MCP 2026-07-28, an input-required round trip from then on) and forwarded
only on their approval, one it denies gets a tool error and never reaches the upstream.
The proxy sees no conversation, only calls and results: it can vouch alone for what a
call's effect shows to be harmless, and the rest is the person's to approve. Results go
into the session as provenance and taint for later calls.
"""

from __future__ import annotations

import json
import logging
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import Any, Literal

import anyio
import anyio.to_thread
import mcp_types as types
from mcp import Client
from mcp.server.context import ServerRequestContext
from mcp.server.lowlevel import Server
from mcp_types.version import is_version_at_least

from clef_tools import ToolGate
from clef_tools.audit import AuditLog, args_digest

__all__ = ["ProxyState", "build_proxy"]

log = logging.getLogger("clef_mcp.proxy")

_REVIEW_KEY = "clef-review"
_INPUT_REQUIRED_VERSION = "2026-07-28"
_MAX_RESULTS = 30
_RESULT_CHARS = 4000
_REVIEW_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "decision": {
            "type": "string",
            "enum": ["approve", "reject"],
            "title": "Run this call?",
            "description": "approve: run it once; reject: do not run it",
        }
    },
    "required": ["decision"],
}

Headless = Literal["deny"]


@dataclass
class ProxyState:
    upstream: Client
    gate: ToolGate
    tools: dict[str, types.Tool]
    audit: AuditLog | None = None
    results: list[dict[str, Any]] = field(default_factory=list)
    """The session's tool results (provenance and taint; never the user's words)."""


def build_proxy(
    upstream: Callable[[], Client],
    load_gate: Callable[[], ToolGate],
    *,
    audit: AuditLog | None = None,
    ask_timeout_s: float = 300.0,
    name: str = "clef-tools-proxy",
) -> Server[ProxyState]:
    """The gating server. `upstream` makes the client to the real server; `load_gate`
    loads the gate (off the event loop, once, before the first call)."""

    @asynccontextmanager
    async def lifespan(server: Server[ProxyState]) -> AsyncIterator[ProxyState]:
        gate = await anyio.to_thread.run_sync(load_gate)
        async with upstream() as client:
            tools = await _all_tools(client)
            state = ProxyState(client, gate, {t.name: t for t in tools}, audit)
            try:
                yield state
            finally:
                if audit is not None:
                    audit.close()

    async def list_tools(
        ctx: ServerRequestContext[ProxyState], params: types.PaginatedRequestParams | None
    ) -> types.ListToolsResult:
        state = ctx.lifespan_context
        tools = await _all_tools(state.upstream)
        state.tools = {t.name: t for t in tools}
        return types.ListToolsResult(tools=tools)

    async def call_tool(
        ctx: ServerRequestContext[ProxyState], params: types.CallToolRequestParams
    ) -> types.CallToolResult | types.InputRequiredResult:
        state = ctx.lifespan_context
        args = dict(params.arguments or {})
        tool = state.tools.get(params.name)
        if tool is None:
            return _refused(f"unknown tool {params.name!r}")
        decision = await state.gate.ajudge(
            params.name,
            args,
            description=tool.description,
            messages=list(state.results) or None,
            annotations=_hints(tool),
            caller_trusted=False,  # the upstream's annotations may raise the risk, not lower it
        )
        review: str | None = None
        if decision.verdict == "escalate":
            asked = await _ask_person(ctx, params, args, ask_timeout_s)
            if isinstance(asked, types.InputRequiredResult):
                return asked
            review = asked
        answered = "allow" if decision.verdict == "allow" or review == "approve" else "deny"
        row = None
        if state.audit is not None:
            row = state.audit.record(
                surface="mcp-proxy",
                tool=params.name,
                args=args,
                decision=decision.as_dict(),
                answered=answered if decision.verdict != "escalate" else "ask",
                session=ctx.session_id if hasattr(ctx, "session_id") else None,
            )
            if review in ("approve", "reject"):
                state.audit.review(review, row_id=row)
        if review in ("approve", "reject"):
            state.gate.record_review(
                params.name,
                args,
                review,
                description=tool.description,
                messages=list(state.results) or None,
                channel="mcp-elicitation",
            )
        if answered != "allow":
            if decision.verdict == "deny":
                return _refused("the gate denied this call")
            return _refused(
                "the person did not approve this call"
                if review is not None and review != "unavailable"
                else "the gate escalated this call and nobody could be asked"
            )
        result = await state.upstream.call_tool(params.name, args)
        state.results.append({"role": "tool", "content": _text_of(result)})
        del state.results[:-_MAX_RESULTS]
        return result

    async def list_resources(
        ctx: ServerRequestContext[ProxyState], params: types.PaginatedRequestParams | None
    ) -> types.ListResourcesResult:
        return await ctx.lifespan_context.upstream.list_resources(
            cursor=params.cursor if params else None
        )

    async def list_resource_templates(
        ctx: ServerRequestContext[ProxyState], params: types.PaginatedRequestParams | None
    ) -> types.ListResourceTemplatesResult:
        return await ctx.lifespan_context.upstream.list_resource_templates(
            cursor=params.cursor if params else None
        )

    async def read_resource(
        ctx: ServerRequestContext[ProxyState], params: types.ReadResourceRequestParams
    ) -> types.ReadResourceResult:
        state = ctx.lifespan_context
        result = await state.upstream.read_resource(str(params.uri))
        text = "\n".join(getattr(c, "text", "") for c in result.contents)[:_RESULT_CHARS]
        state.results.append({"role": "tool", "content": text})
        del state.results[:-_MAX_RESULTS]
        return result

    async def list_prompts(
        ctx: ServerRequestContext[ProxyState], params: types.PaginatedRequestParams | None
    ) -> types.ListPromptsResult:
        return await ctx.lifespan_context.upstream.list_prompts(
            cursor=params.cursor if params else None
        )

    async def get_prompt(
        ctx: ServerRequestContext[ProxyState], params: types.GetPromptRequestParams
    ) -> types.GetPromptResult:
        return await ctx.lifespan_context.upstream.get_prompt(params.name, params.arguments)

    return Server(
        name,
        lifespan=lifespan,
        on_list_tools=list_tools,
        on_call_tool=call_tool,
        on_list_resources=list_resources,
        on_list_resource_templates=list_resource_templates,
        on_read_resource=read_resource,
        on_list_prompts=list_prompts,
        on_get_prompt=get_prompt,
    )


async def _all_tools(client: Client) -> list[types.Tool]:
    tools: list[types.Tool] = []
    cursor: str | None = None
    for _ in range(100):  # a bounded walk: an upstream that pages forever is cut
        page = await client.list_tools(cursor=cursor, cache_mode="refresh")
        tools.extend(page.tools)
        cursor = page.next_cursor
        if not cursor:
            break
    return tools


def _hints(tool: types.Tool) -> dict[str, bool] | None:
    if tool.annotations is None:
        return None
    hints = tool.annotations.model_dump(by_alias=True, exclude_none=True)
    return {k: v for k, v in hints.items() if isinstance(v, bool)} or None


async def _ask_person(
    ctx: ServerRequestContext[ProxyState],
    params: types.CallToolRequestParams,
    args: dict[str, Any],
    timeout_s: float,
) -> str | types.InputRequiredResult:
    """'approve' / 'reject' (the person's answer), 'declined', or 'unavailable' (no way to
    ask, or no answer in time); on 2026-07-28+ the first round is an InputRequiredResult."""
    capabilities = ctx.session.client_capabilities
    elicitation = capabilities.elicitation if capabilities is not None else None
    if elicitation is None:
        return "unavailable"
    message = _question(params.name, args)
    version = ctx.session.protocol_version
    if version and is_version_at_least(version, _INPUT_REQUIRED_VERSION):
        answer = (params.input_responses or {}).get(_REVIEW_KEY)
        digest = args_digest({"tool": params.name, "args": args})
        if answer is None or params.request_state != digest:
            request = types.ElicitRequest(
                params=types.ElicitRequestFormParams(
                    message=message, requested_schema=_REVIEW_SCHEMA
                )
            )
            return types.InputRequiredResult(
                input_requests={_REVIEW_KEY: request}, request_state=digest
            )
        return _decision(answer)
    try:
        with anyio.fail_after(timeout_s):
            result = await ctx.session.elicit_form(message, _REVIEW_SCHEMA)
    except TimeoutError:
        return "unavailable"
    except Exception as exc:  # the host could not ask: nobody approved it
        log.info("elicitation failed: %s", exc)
        return "unavailable"
    return _decision(result)


def _decision(result: Any) -> str:
    if isinstance(result, dict):
        action, content = result.get("action"), result.get("content")
    else:
        action, content = getattr(result, "action", None), getattr(result, "content", None)
    if action != "accept" or not isinstance(content, dict):
        return "declined"
    decision = content.get("decision")
    return decision if decision in ("approve", "reject") else "declined"


def _question(tool: str, args: dict[str, Any]) -> str:
    shown = json.dumps(args, ensure_ascii=False, sort_keys=True, default=str)
    if len(shown) > 2000:
        shown = shown[:2000] + " …"
    return f"The agent wants to call `{tool}` with {shown}. Run it?"


def _refused(why: str) -> types.CallToolResult:
    return types.CallToolResult(
        content=[types.TextContent(type="text", text=f"clef-tools gate: {why}")], is_error=True
    )


def _text_of(result: types.CallToolResult) -> str:
    parts = [getattr(c, "text", "") for c in result.content]
    if result.structured_content is not None:
        parts.append(json.dumps(result.structured_content, ensure_ascii=False, default=str))
    return "\n".join(p for p in parts if p)[:_RESULT_CHARS]
