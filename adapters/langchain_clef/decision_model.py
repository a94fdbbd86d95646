"""`ClefDecisionModel`: any clef-tools backend as a LangChain `BaseDecisionModel`.

It plugs into LangChain's stock `AutoModeMiddleware` and `ModelRouterMiddleware`
unchanged, and adds what the base class leaves out: input validation with errors that
name the question, a native async path, and a `batch` that hands all requests to the
backend together instead of one thread per request.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from langchain_core.runnables import RunnableConfig
from langchain_core.runnables.config import get_config_list
from pydantic import ConfigDict, Field, PrivateAttr, SecretStr, model_validator

from clef_tools import Decider, load_decider
from clef_tools.decisions import (
    BaseDecisionModel,
    ClassifierRequest,
    ClassifierResponse,
    Question,
    State,
)

__all__ = ["ClefDecisionModel"]


class ClefDecisionModel(BaseDecisionModel):
    """Decision model over a clef-tools `Decider` (embedded readout, local Clef, hosted).

    Pass a ready `decider`, or the `model` to open on first use — as in langchain-openai,
    `model` selects what answers: any backend spec that `clef_tools.load_decider` takes
    (`"embedded"`, `"smollm2"`, a `.gguf` or model folder, `"clef-flash"`,
    `"http://host:port"`, `"systemone"`, `"workers-ai"`, `"cascade"`). `source` is its
    older name, kept as an alias; the two naming different backends is an error.
    """

    # a misspelt option (`sourse="smollm2"`) must fail, not silently load the default model
    model_config = ConfigDict(arbitrary_types_allowed=True, extra="forbid")

    model: str = ""
    """The backend spec to open when no `decider` is given (default: the embedded model);
    also the model id reported to callbacks and LangSmith (with a `decider`: its id)."""
    source: str | None = None
    """The older name of `model` (an alias: give one or the other)."""
    decider: Decider | None = Field(default=None, exclude=True)
    """The backend; loaded from `source` on first use when absent."""
    examples: str | None = None
    """An example index file (`clef-tools fit`) to open `source` with: choice questions whose
    options match its labels are answered from those examples."""
    typesafe_api_key: SecretStr | None = None
    """Key for a `/v1/systemone` source (default: `$TYPESAFE_API_KEY`). Serialised as a
    secret reference, never as its value."""
    cloudflare_api_token: SecretStr | None = None
    """Token for a `workers-ai` source (default: `$CLOUDFLARE_API_TOKEN`), likewise."""
    _loaded: Decider | None = PrivateAttr(default=None)

    @model_validator(mode="after")
    def _fill_model(self) -> ClefDecisionModel:
        if self.decider is not None:
            self.model = self.model or self.decider.model_id
            return self
        if self.model and self.source and self.model != self.source:
            raise ValueError(
                f"model={self.model!r} and source={self.source!r} name different backends: "
                "`model` selects the backend (`source` is its older name); give one"
            )
        self.model = self.source = self.model or self.source or "embedded"
        return self

    @classmethod
    def is_lc_serializable(cls) -> bool:
        """A model opened from `source` serialises (secrets as references); a passed-in
        `decider` is process state and is left out."""
        return True

    @classmethod
    def get_lc_namespace(cls) -> list[str]:
        return ["langchain_clef", "decision_model"]

    @property
    def lc_secrets(self) -> dict[str, str]:
        return {
            "typesafe_api_key": "TYPESAFE_API_KEY",
            "cloudflare_api_token": "CLOUDFLARE_API_TOKEN",
        }

    @property
    def backend(self) -> Decider:
        """The decider, loading it on first use."""
        if self.decider is not None:
            return self.decider
        if self._loaded is None:
            self._loaded = load_decider(
                self.source, examples=self.examples, api_key=self._api_key()
            )
        return self._loaded

    def _api_key(self) -> str | None:
        from clef_tools.backends import parse_spec

        kind = parse_spec(self.source).kind
        secret = {"systemone": self.typesafe_api_key, "workers-ai": self.cloudflare_api_token}
        chosen = secret.get(kind)
        return chosen.get_secret_value() if chosen is not None else None

    @property
    def _provider(self) -> str:
        return "clef-tools"

    def _classify(self, state: State, questions: dict[str, Question]) -> ClassifierResponse:
        return self.backend.decide(state, questions)

    async def _aclassify(self, state: State, questions: dict[str, Question]) -> ClassifierResponse:
        return await self.backend.adecide(state, questions)

    def batch(
        self,
        inputs: list[ClassifierRequest],
        config: RunnableConfig | list[RunnableConfig] | None = None,
        *,
        return_exceptions: bool = False,
        **kwargs: Any,
    ) -> list[ClassifierResponse]:
        """All requests go to the backend in one call (one run per input in traces)."""
        if not inputs:
            return []
        return self._batch_with_config(
            self._classify_many,
            inputs,
            self._traced_configs(config, len(inputs)),
            return_exceptions=return_exceptions,
            run_type="llm",
        )

    async def abatch(
        self,
        inputs: list[ClassifierRequest],
        config: RunnableConfig | list[RunnableConfig] | None = None,
        *,
        return_exceptions: bool = False,
        **kwargs: Any,
    ) -> list[ClassifierResponse]:
        if not inputs:
            return []
        return await self._abatch_with_config(
            self._aclassify_many,
            inputs,
            self._traced_configs(config, len(inputs)),
            return_exceptions=return_exceptions,
            run_type="llm",
        )

    def _traced_configs(
        self, config: RunnableConfig | list[RunnableConfig] | None, n: int
    ) -> list[RunnableConfig]:
        """Each input's run carries `ls_provider` / `ls_model_name`, as `invoke`'s does."""
        return [self._traced_config(c) for c in get_config_list(config, n)]

    def _classify_many(
        self, inputs: Sequence[ClassifierRequest]
    ) -> list[ClassifierResponse | Exception]:
        return list(self.backend.decide_each(list(inputs)))

    async def _aclassify_many(
        self, inputs: Sequence[ClassifierRequest]
    ) -> list[ClassifierResponse | Exception]:
        import anyio.to_thread

        return await anyio.to_thread.run_sync(self._classify_many, inputs, abandon_on_cancel=True)
