"""`DecisionRouter`: one decision picks which runnable handles an input.

One `Choice` over the route descriptions decides; the chosen route's runnable runs on the
original input. Routes may also be described by example (`Route(..., examples=[...])`, as
semantic-router's utterances, or a whole `examples=` index from `clef-tools fit`): then an
example tier answers the route question first and the decision model only when unsure. Below `min_confidence` (or a route's own threshold) the `fallback` route
runs instead. The decision is a child run in traces, and with `include_decision=True` the
caller gets it back in a `RoutedResult`.
"""

from __future__ import annotations

import warnings
from collections.abc import AsyncIterator, Callable, Iterator, Mapping
from pathlib import Path
from typing import Any

from langchain_core.callbacks import AsyncCallbackManagerForChainRun, CallbackManagerForChainRun
from langchain_core.runnables import Runnable, RunnableConfig, RunnableSerializable
from langchain_core.runnables.config import patch_config
from pydantic import BaseModel, ConfigDict, Field, model_validator

from clef_tools import Decider, ExampleIndex, build_index, with_examples
from clef_tools.backends.embedding import Example, open_encoder
from clef_tools.decisions import (
    BaseDecisionModel,
    Choice,
    ChoiceAnswer,
    ClassifierRequest,
)
from langchain_clef._backend import as_decision_model, state_of
from langchain_clef.decision_model import ClefDecisionModel

__all__ = ["DecisionRouter", "Route", "RoutedResult"]

QUESTION_ID = "route"


class Route(BaseModel):
    """A destination: what runs, and when to pick it (the text the decision model reads)."""

    model_config = ConfigDict(arbitrary_types_allowed=True)

    runnable: Runnable[Any, Any]
    description: str
    threshold: float = Field(default=0.0, ge=0.0, le=1.0)
    """Minimum probability this route needs to be taken; below it the fallback runs."""
    examples: list[str] = Field(default_factory=list)
    """Inputs this route should handle; they join the router's example index."""


class RoutedResult(BaseModel):
    """The chosen route's output together with the decision behind it."""

    route: str
    answer: ChoiceAnswer
    fell_back: bool
    output: Any


class DecisionRouter(RunnableSerializable[Any, Any]):
    """Routes each input to one of `routes` by a decision model's `Choice`."""

    model_config = ConfigDict(arbitrary_types_allowed=True)

    classifier: BaseDecisionModel
    """The decision model that picks the route (`classifier=`, as LangChain's
    `ModelRouterMiddleware` names it); a clef `Decider` is wrapped in `ClefDecisionModel`."""
    routes: dict[str, Route]
    instructions: str = "Which route should handle this input?"
    min_confidence: float = Field(default=0.0, ge=0.0, le=1.0)
    fallback: str | None = None
    include_decision: bool = False
    state_from: Callable[[Any], Any] = state_of
    """Turns an input into the state the question is about (default: its `messages`, or itself)."""
    examples: ExampleIndex | str | Path | None = None
    """An example index (or its file) whose labels are route names; routes' own `examples`
    are added to (a copy of) it. Needs a clef decision model."""

    def __init__(
        self,
        *,
        classifier: BaseDecisionModel | Decider | None = None,
        routes: Mapping[str, Route | tuple[Runnable[Any, Any], str]],
        instructions: str = "Which route should handle this input?",
        min_confidence: float = 0.0,
        fallback: str | None = None,
        include_decision: bool = False,
        state_from: Callable[[Any], Any] = state_of,
        examples: ExampleIndex | str | Path | None = None,
        **kwargs: Any,
    ) -> None:
        # Spelled out so type checkers see what `_coerce` accepts: a clef `Decider` as well
        # as any LangChain decision model, and `(runnable, description)` pairs as routes.
        fields: dict[str, Any] = {
            "classifier": classifier,
            "routes": routes,
            "instructions": instructions,
            "min_confidence": min_confidence,
            "fallback": fallback,
            "include_decision": include_decision,
            "state_from": state_from,
            "examples": examples,
        }
        super().__init__(**fields, **kwargs)

    @model_validator(mode="before")
    @classmethod
    def _coerce(cls, data: Any) -> Any:
        if isinstance(data, Mapping):
            data = dict(data)
            if "decision_model" in data:  # the name before 0.2
                warnings.warn(
                    "DecisionRouter(decision_model=...) is now classifier=..., as in "
                    "LangChain's ModelRouterMiddleware",
                    DeprecationWarning,
                    stacklevel=4,
                )
                old = data.pop("decision_model")
                data["classifier"] = data.get("classifier") or old
            if isinstance(data.get("classifier"), Decider):
                data["classifier"] = as_decision_model(data["classifier"])
            routes = data.get("routes") or {}
            data["routes"] = {
                k: Route(runnable=v[0], description=v[1]) if isinstance(v, tuple) else v
                for k, v in routes.items()
            }
        return data

    @model_validator(mode="after")
    def _check(self) -> DecisionRouter:
        if len(self.routes) < 2:
            raise ValueError("a router needs at least two routes")
        if self.fallback is not None and self.fallback not in self.routes:
            raise ValueError(
                f"fallback {self.fallback!r} is not one of the routes {list(self.routes)}"
            )
        if self.examples is not None or any(r.examples for r in self.routes.values()):
            self._use_examples()
        return self

    def _use_examples(self) -> None:
        """Put an example tier (index + routes' examples) in front of the decision model."""
        if not isinstance(self.classifier, ClefDecisionModel):
            raise ValueError(
                "routes with examples need a clef decision model (ClefDecisionModel or a clef "
                f"Decider), not {type(self.classifier).__name__}"
            )
        given = self.examples
        if isinstance(given, ExampleIndex):
            index = given.copy()
        elif given is not None:
            index = ExampleIndex.load(given)
        else:
            encoder = open_encoder()
            index = ExampleIndex(encoder.model_id, encoder.dim)
        routed = [
            Example(text, name, QUESTION_ID)
            for name, route in self.routes.items()
            for text in route.examples
        ]
        if routed:
            index = build_index(routed, into=index)
        inner = self.classifier
        self.classifier = ClefDecisionModel(
            decider=with_examples(inner.backend, index), model=inner.model
        )

    # -- deciding -------------------------------------------------------------------

    def _request(self, value: Any) -> ClassifierRequest:
        question = Choice(
            instructions=self.instructions,
            criteria={k: r.description for k, r in self.routes.items()},
        )
        return ClassifierRequest(state=self.state_from(value), questions={QUESTION_ID: question})

    def _pick(self, answer: ChoiceAnswer) -> tuple[str, bool]:
        chosen = answer.choice
        weak = (
            answer.confidence < self.min_confidence
            or answer.probabilities[chosen] < self.routes[chosen].threshold
        )
        if weak and self.fallback is not None:
            return self.fallback, True
        return chosen, False

    def _wrap(self, name: str, answer: ChoiceAnswer, fell_back: bool, output: Any) -> Any:
        if self.include_decision:
            return RoutedResult(route=name, answer=answer, fell_back=fell_back, output=output)
        return output

    # -- invoke ---------------------------------------------------------------------

    def invoke(self, input: Any, config: RunnableConfig | None = None, **kwargs: Any) -> Any:
        return self._call_with_config(self._invoke, input, config, run_type="chain")

    def _invoke(
        self, value: Any, run_manager: CallbackManagerForChainRun, config: RunnableConfig
    ) -> Any:
        child = patch_config(config, callbacks=run_manager.get_child())
        answer = self.classifier.invoke(
            self._request(value), patch_config(child, run_name="decision")
        ).choices[QUESTION_ID]
        name, fell_back = self._pick(answer)
        output = self.routes[name].runnable.invoke(
            value, patch_config(child, run_name=f"route:{name}")
        )
        return self._wrap(name, answer, fell_back, output)

    async def ainvoke(self, input: Any, config: RunnableConfig | None = None, **kwargs: Any) -> Any:
        return await self._acall_with_config(self._ainvoke, input, config, run_type="chain")

    async def _ainvoke(
        self, value: Any, run_manager: AsyncCallbackManagerForChainRun, config: RunnableConfig
    ) -> Any:
        child = patch_config(config, callbacks=run_manager.get_child())
        response = await self.classifier.ainvoke(
            self._request(value), patch_config(child, run_name="decision")
        )
        answer = response.choices[QUESTION_ID]
        name, fell_back = self._pick(answer)
        output = await self.routes[name].runnable.ainvoke(
            value, patch_config(child, run_name=f"route:{name}")
        )
        return self._wrap(name, answer, fell_back, output)

    # -- batch: all decisions in one decision-model batch, then one batch per route ----

    def batch(
        self,
        inputs: list[Any],
        config: RunnableConfig | list[RunnableConfig] | None = None,
        *,
        return_exceptions: bool = False,
        **kwargs: Any,
    ) -> list[Any]:
        if not inputs:
            return []
        # One "DecisionRouter" run per input, with the decision and the branch nested in it.
        return self._batch_with_config(
            self._batch, inputs, config, return_exceptions=return_exceptions, run_type="chain"
        )

    def _batch(
        self,
        inputs: list[Any],
        run_manager: list[CallbackManagerForChainRun],
        config: list[RunnableConfig],
    ) -> list[Any]:
        # `config[i]` already carries run i's child callbacks (names must be these for
        # Runnable._batch_with_config to pass them)
        children = config
        responses = self.classifier.batch(
            [self._request(v) for v in inputs],
            [patch_config(c, run_name="decision") for c in children],
            return_exceptions=True,
        )
        outputs: list[Any] = list(responses)
        groups: dict[str, list[tuple[int, ChoiceAnswer, bool]]] = {}
        for i, response in enumerate(responses):
            if isinstance(response, Exception):
                continue
            answer = response.choices[QUESTION_ID]
            name, fell_back = self._pick(answer)
            groups.setdefault(name, []).append((i, answer, fell_back))
        for name, members in groups.items():
            results = self.routes[name].runnable.batch(
                [inputs[i] for i, _, _ in members],
                [patch_config(children[i], run_name=f"route:{name}") for i, _, _ in members],
                return_exceptions=True,
            )
            for (i, answer, fell_back), result in zip(members, results, strict=True):
                outputs[i] = (
                    result
                    if isinstance(result, Exception)
                    else self._wrap(name, answer, fell_back, result)
                )
        return outputs

    # -- stream: decide, then pass the chosen route's stream through ----------------------

    def stream(
        self, input: Any, config: RunnableConfig | None = None, **kwargs: Any
    ) -> Iterator[Any]:
        yield from self._transform_stream_with_config(iter([input]), self._stream, config, **kwargs)

    def _stream(
        self, inputs: Iterator[Any], run_manager: CallbackManagerForChainRun, config: RunnableConfig
    ) -> Iterator[Any]:
        value = next(inputs)
        child = patch_config(config, callbacks=run_manager.get_child())
        response = self.classifier.invoke(
            self._request(value), patch_config(child, run_name="decision")
        )
        name, _ = self._pick(response.choices[QUESTION_ID])
        yield from self.routes[name].runnable.stream(
            value, patch_config(child, run_name=f"route:{name}")
        )

    async def astream(
        self, input: Any, config: RunnableConfig | None = None, **kwargs: Any
    ) -> AsyncIterator[Any]:
        async def one() -> AsyncIterator[Any]:
            yield input

        async for chunk in self._atransform_stream_with_config(
            one(), self._astream, config, **kwargs
        ):
            yield chunk

    async def _astream(
        self,
        inputs: AsyncIterator[Any],
        run_manager: AsyncCallbackManagerForChainRun,
        config: RunnableConfig,
    ) -> AsyncIterator[Any]:
        value = await inputs.__anext__()
        child = patch_config(config, callbacks=run_manager.get_child())
        response = await self.classifier.ainvoke(
            self._request(value), patch_config(child, run_name="decision")
        )
        name, _ = self._pick(response.choices[QUESTION_ID])
        async for chunk in self.routes[name].runnable.astream(
            value, patch_config(child, run_name=f"route:{name}")
        ):
            yield chunk
