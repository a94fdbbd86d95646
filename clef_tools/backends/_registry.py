"""Kind → opener: how each backend family named in `_spec.FAMILIES` is opened.

The top of the backends floor: it imports every engine (lazily, so torch loads only for
local models) and the compositions that wrap them. Adding a backend is its engine module,
one `BackendFamily` entry in `_spec.FAMILIES` (how it is written) and one opener here.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from clef_tools.backends._spec import BackendSpec, LoadOptions, family_of, parse_spec

if TYPE_CHECKING:
    from clef_tools.backends._base import Decider

__all__ = ["OPENERS", "Opener", "open_backend"]

Opener = Callable[[BackendSpec, LoadOptions], "Decider"]


def _open_readout(spec: BackendSpec, o: LoadOptions) -> Decider:
    from clef_tools.backends.readout._load import load_readout

    return load_readout(
        spec.target,
        dtype=o.dtype,
        device=o.device or "cpu",
        debias=o.debias,
        max_context_tokens=o.max_context_tokens,
        contextual=o.contextual,
        prefix_cache_tokens=o.prefix_cache_tokens,
        progress=o.progress,
    )


def _open_release(spec: BackendSpec, o: LoadOptions) -> Decider:
    from clef_tools.backends.release._release import DEFAULT_MAX_TOKENS, ClefReleaseDecider

    return ClefReleaseDecider(
        spec.target or None,
        trust_release_code=o.trust_release_code,
        device=o.device,
        dtype=o.dtype,
        max_context_tokens=o.max_context_tokens or DEFAULT_MAX_TOKENS,
    )


def _open_systemone(spec: BackendSpec, o: LoadOptions) -> Decider:
    from clef_tools.backends.hosted._systemone_client import SystemOneClient

    if spec.raw.startswith(("http://", "https://")):
        base, _, remote_model = spec.raw.partition("#")
        return SystemOneClient(
            base, model=remote_model or None, timeout=o.timeout, api_key=o.api_key
        )
    return SystemOneClient(model=spec.target or None, timeout=o.timeout, api_key=o.api_key)


def _open_workers_ai(spec: BackendSpec, o: LoadOptions) -> Decider:
    from clef_tools.backends.hosted._workers_ai import CLEF_FLASH, WorkersAIClient

    return WorkersAIClient(model=spec.target or CLEF_FLASH, timeout=o.timeout, api_token=o.api_key)


def _open_engine(spec: BackendSpec, o: LoadOptions) -> Decider:
    from clef_tools.backends.hosted._engines import EngineClient

    return EngineClient(spec.kind, model=spec.target or None, api_key=o.api_key, timeout=o.timeout)


def _open_embedding(spec: BackendSpec, o: LoadOptions) -> Decider:
    from clef_tools.backends.embedding._embedding import EmbeddingDecider

    # with an index and no folder, the index's own encoder is opened (see EmbeddingDecider)
    return EmbeddingDecider(spec.target or None, examples=o.examples)


def _open_cascade(spec: BackendSpec, o: LoadOptions) -> Decider:
    from clef_tools.backends.compose._cascade import CascadeDecider
    from clef_tools.backends.embedding._embedding import EmbeddingDecider

    # the inner tier is opened bare: the calibration applies once, per tier, around the cascade
    fast = EmbeddingDecider(examples=o.examples) if o.examples is not None else None
    return CascadeDecider(_open_uncalibrated(parse_spec(spec.target or "embedded"), o), fast)


def _engine_openers() -> dict[str, Opener]:
    from clef_tools.backends._engine_table import ENGINES

    return dict.fromkeys(ENGINES, _open_engine)


OPENERS: dict[str, Opener] = {
    "readout": _open_readout,
    "release": _open_release,
    "systemone": _open_systemone,
    "workers-ai": _open_workers_ai,
    **_engine_openers(),
    "embedding": _open_embedding,
    "cascade": _open_cascade,
}


def open_backend(spec: BackendSpec, options: LoadOptions) -> Decider:
    """The backend `spec` names, wrapped in its calibration (every family alike), with the
    example index in front of it when `options.examples` names one."""
    from clef_tools.backends.compose._calibration import with_calibration

    decider = with_calibration(_open_uncalibrated(spec, options), options.calibration)
    if options.examples is None or "examples" in family_of(spec).options:
        return decider  # families that read `examples` put the index in their fast tier
    from clef_tools.backends.compose._cascade import with_examples

    # an LM (or a remote) answers what the examples do not cover, calibrated as ever; the
    # example tier carries its own temperature, fitted on the index's rows
    return with_examples(decider, options.examples)


def _open_uncalibrated(spec: BackendSpec, options: LoadOptions) -> Decider:
    from clef_tools._extras import needs_extra, require_extra

    # a local family on a hosted-only install names the extra it needs
    family = family_of(spec)
    if family.extra is not None:
        require_extra(family.extra, f"the backend {spec.raw!r}")
    with needs_extra(f"the backend {spec.raw!r}"):
        return OPENERS[spec.kind](spec, options)
