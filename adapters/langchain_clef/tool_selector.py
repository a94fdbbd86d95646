"""`ToolSelectorMiddleware`: preselect the tools a model call gets, by decision model.

A drop-in alternative to LangChain's `LLMToolSelectorMiddleware` (same `max_tools` and
`always_include`), but instead of a generation it asks one yes/no question per candidate
tool — all tools in one decision request (64 per request, several requests in one batch
beyond that) — and keeps the tools whose P(relevant) reaches `threshold`, best first.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from typing import Any, Literal

from langchain.agents.middleware import AgentMiddleware
from langchain.agents.middleware.types import ModelRequest, ModelResponse
from langchain_core.runnables import Runnable, RunnableLambda
from langchain_core.tools import BaseTool

from clef_tools import LIMITS, ClefError
from clef_tools.decisions import ClassifierResponse, Noul
from langchain_clef._backend import DeciderLike, as_decider

__all__ = ["ToolSelectorMiddleware"]


class ToolSelectorMiddleware(AgentMiddleware):
    """Scores every candidate tool for relevance before each model call.

    Compared with `LLMToolSelectorMiddleware(model, system_prompt, max_tools,
    always_include, max_retries, on_parsing_failure)`: `max_tools` and `always_include`
    mean the same; `threshold` replaces the model's free choice; `on_error="keep_all"`
    (default) corresponds to `on_parsing_failure="all"`, `"raise"` to `"error"`. Provider
    tools given as dicts are always passed through, as there.
    """

    def __init__(
        self,
        classifier: DeciderLike,
        *,
        threshold: float = 0.5,
        max_tools: int | None = None,
        always_include: Sequence[str] = (),
        on_error: Literal["keep_all", "raise"] = "keep_all",
        max_messages: int = 20,
        instructions: str = (
            "Would the tool `{name}` help the assistant answer or act on the user's latest "
            "request in `messages`? Tool description: {description}"
        ),
    ) -> None:
        super().__init__()
        if not 0.0 <= threshold <= 1.0:
            raise ValueError(f"threshold must be in [0, 1], got {threshold}")
        if on_error not in ("keep_all", "raise"):
            raise ValueError(f"on_error must be 'keep_all' or 'raise', not {on_error!r}")
        self.decider = as_decider(classifier)
        self.threshold = threshold
        self.max_tools = max_tools
        self.always_include = frozenset(always_include)
        self.on_error = on_error
        self.max_messages = max_messages
        self.instructions = instructions
        self.last_scores: dict[str, float] = {}
        """P(relevant) per tool from the most recent selection (for inspection and tests)."""

    def _requests(self, request: ModelRequest) -> tuple[list[BaseTool], list[dict[str, Any]]]:
        candidates = [
            t
            for t in request.tools
            if isinstance(t, BaseTool) and t.name not in self.always_include
        ]
        state = {"messages": list(request.messages)[-self.max_messages :]}
        per = int(LIMITS["questions_per_request"])
        batches = []
        for start in range(0, len(candidates), per):
            chunk = candidates[start : start + per]
            questions = {
                f"tool_{start + i}": Noul(
                    instructions=self.instructions.format(
                        name=t.name, description=t.description or "(none)"
                    )
                )
                for i, t in enumerate(chunk)
            }
            batches.append({"state": state, "questions": questions})
        return candidates, batches

    def _traced(self) -> Runnable[list[Any], list[ClassifierResponse]]:
        """The relevance decisions as a run of their own (`clef_tool_selector`) in traces:
        its input is one request per batch of candidate tools, its output their answers
        with probabilities."""

        def score(batches: list[Any]) -> list[ClassifierResponse]:
            return self.decider.decide_batch(batches)

        async def ascore(batches: list[Any]) -> list[ClassifierResponse]:
            return await self.decider.adecide_batch(batches)

        return RunnableLambda(score, ascore, name="clef_tool_selector").with_config(
            run_name="clef_tool_selector",
            tags=["clef_tool_selector"],
            metadata={"ls_provider": "clef-tools", "ls_model_name": self.decider.model_id},
        )

    def _select(
        self, request: ModelRequest, responses: Sequence[ClassifierResponse]
    ) -> ModelRequest:
        candidates = [
            t
            for t in request.tools
            if isinstance(t, BaseTool) and t.name not in self.always_include
        ]
        scores: dict[str, float] = {}
        for response in responses:
            for qid, answer in response.nouls.items():
                scores[candidates[int(qid.removeprefix("tool_"))].name] = answer.noul
        self.last_scores = scores
        ranked = sorted(
            (t for t in candidates if scores[t.name] >= self.threshold),
            key=lambda t: -scores[t.name],
        )
        if self.max_tools is not None:
            ranked = ranked[: self.max_tools]
        keep = {t.name for t in ranked} | self.always_include
        tools = [t for t in request.tools if not isinstance(t, BaseTool) or t.name in keep]
        return request.override(tools=tools)

    def wrap_model_call(
        self, request: ModelRequest, handler: Callable[[ModelRequest], ModelResponse]
    ) -> ModelResponse:
        candidates, batches = self._requests(request)
        if not candidates:
            return handler(request)
        try:
            responses = self._traced().invoke(batches)
        except ClefError:
            if self.on_error == "raise":
                raise
            return handler(request)
        return handler(self._select(request, responses))

    async def awrap_model_call(
        self, request: ModelRequest, handler: Callable[[ModelRequest], Awaitable[ModelResponse]]
    ) -> ModelResponse:
        candidates, batches = self._requests(request)
        if not candidates:
            return await handler(request)
        try:
            responses = await self._traced().ainvoke(batches)
        except ClefError:
            if self.on_error == "raise":
                raise
            return await handler(request)
        return await handler(self._select(request, responses))
