"""One table of backend families: how a spec string is recognised, opened and described.

Every surface picks a backend with one string (`load_decider(spec)`, `--backend`,
`CLEF_TOOLS_MODEL`, `ClefDecisionModel(source=...)`). The string is parsed once, here,
into a `BackendSpec`; the family it names opens it. Help text and error messages are made
from the same table, so they cannot disagree with what is accepted. Adding a backend is
one module plus one `BackendFamily` entry below.

Keywords always win over files and folders of the same name. MCP hosts start servers in
their own working directory, so a folder called `embedded/` or `smollm2/` lying there
must never be taken for a backend: a model or release folder is only used when the spec
is written as a path (it has a separator: `./embedded`, `/models/flash`) or names a
`.gguf` file.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from clef_tools.hosted._engine_table import ENGINES

if TYPE_CHECKING:
    from clef_tools.backends._decider import Decider

__all__ = [
    "FAMILIES",
    "BackendFamily",
    "BackendSpec",
    "LoadOptions",
    "answering_spec",
    "looks_like_path",
    "open_backend",
    "parse_spec",
    "question_types",
    "spec_forms",
]


@dataclass(frozen=True)
class BackendSpec:
    """`kind` names the family; `target` is what follows the keyword (a model name, a nested
    spec for `cascade`), the URL, or the path as written."""

    kind: str
    target: str
    raw: str


@dataclass(frozen=True)
class LoadOptions:
    """Everything `load_decider` accepts; each family reads the options it knows."""

    dtype: Any = None
    device: str | None = None
    debias: bool | Iterable[str] = ("choice",)
    calibration: Any = "default"
    """`"default"` (the shipped calibration for the opened backend, if any), `"none"`, a
    calibration file or a `Calibration`; applied once, around the whole backend."""
    max_context_tokens: int | None = None
    contextual: Iterable[str] = ("noul",)
    prefix_cache_tokens: int = 16384
    timeout: float | None = None
    progress: bool = False
    trust_release_code: bool = False
    api_key: str | None = field(default=None, repr=False)
    """A hosted backend's key or token (default: its environment variable); never shown."""
    examples: Any = None
    """An `ExampleIndex` or its file: choice questions whose options match its labels are
    answered from examples (the embedding tier), with any backend behind it for the rest."""


@dataclass(frozen=True)
class BackendFamily:
    kind: str
    forms: tuple[str, ...]
    """How its specs are written, for help and error text."""
    summary: str
    open: Callable[[BackendSpec, LoadOptions], Decider]
    keywords: frozenset[str] = frozenset()
    """Exact spec strings that name this family."""
    prefixes: tuple[str, ...] = ()
    """`keyword:` or `scheme://` beginnings that name it (the rest is the target)."""
    claims_path: Callable[[Path], bool] | None = None
    """For specs written as paths: whether this family owns that path."""
    options: tuple[str, ...] = ()
    """The `LoadOptions` fields it reads."""
    answers: frozenset[str] = frozenset({"noul", "choice", "score"})
    """The question types its backends can answer (known before anything loads)."""
    extra: str | None = None
    """The optional extra it needs (`pip install 'clef-tools[local]'`), checked before opening."""


# -- how each family opens (imports stay lazy: torch only loads for local models) ------


def _open_readout(spec: BackendSpec, o: LoadOptions) -> Decider:
    from clef_tools.local._load import load_readout

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
    from clef_tools.backends._release import DEFAULT_MAX_TOKENS, ClefReleaseDecider

    return ClefReleaseDecider(
        spec.target or None,
        trust_release_code=o.trust_release_code,
        device=o.device,
        dtype=o.dtype,
        max_context_tokens=o.max_context_tokens or DEFAULT_MAX_TOKENS,
    )


def _open_systemone(spec: BackendSpec, o: LoadOptions) -> Decider:
    from clef_tools.hosted._systemone_client import SystemOneClient

    if spec.raw.startswith(("http://", "https://")):
        base, _, remote_model = spec.raw.partition("#")
        return SystemOneClient(
            base, model=remote_model or None, timeout=o.timeout, api_key=o.api_key
        )
    return SystemOneClient(model=spec.target or None, timeout=o.timeout, api_key=o.api_key)


def _open_workers_ai(spec: BackendSpec, o: LoadOptions) -> Decider:
    from clef_tools.hosted._workers_ai import CLEF_FLASH, WorkersAIClient

    return WorkersAIClient(model=spec.target or CLEF_FLASH, timeout=o.timeout, api_token=o.api_key)


def _open_engine(spec: BackendSpec, o: LoadOptions) -> Decider:
    from clef_tools.hosted._engines import EngineClient

    return EngineClient(spec.kind, model=spec.target or None, api_key=o.api_key, timeout=o.timeout)


def _open_embedding(spec: BackendSpec, o: LoadOptions) -> Decider:
    from clef_tools.backends._embedding import EmbeddingDecider

    # with an index and no folder, the index's own encoder is opened (see EmbeddingDecider)
    return EmbeddingDecider(spec.target or None, examples=o.examples)


def _open_cascade(spec: BackendSpec, o: LoadOptions) -> Decider:
    from clef_tools.backends._cascade import CascadeDecider
    from clef_tools.backends._embedding import EmbeddingDecider

    # the inner tier is opened bare: the calibration applies once, per tier, around the cascade
    fast = EmbeddingDecider(examples=o.examples) if o.examples is not None else None
    return CascadeDecider(_open_uncalibrated(parse_spec(spec.target or "embedded"), o), fast)


def _is_release_folder(path: Path) -> bool:
    from clef_tools.backends._release import is_release_folder

    return is_release_folder(path)


_LOCAL = ("dtype", "device")
FAMILIES: tuple[BackendFamily, ...] = (
    BackendFamily(
        kind="readout",
        extra="local",
        forms=("embedded", "smollm2", "PATH.gguf", "./model-folder"),
        summary="one-pass readout of a local causal LM (embedded default: Qwen2.5-Coder-1.5B)",
        open=_open_readout,
        keywords=frozenset({"", "embedded", "default", "smollm2"}),
        options=(
            *_LOCAL,
            "debias",
            "contextual",
            "max_context_tokens",
            "prefix_cache_tokens",
            "progress",
        ),
    ),
    BackendFamily(
        kind="release",
        extra="local",
        forms=("clef-flash", "./clef-release-folder"),
        summary="the Clef-Flash weights through the release's own code "
        "($CLEF_FLASH_PATH; needs --trust-release-code)",
        open=_open_release,
        keywords=frozenset({"clef-flash"}),
        claims_path=_is_release_folder,
        options=(*_LOCAL, "max_context_tokens", "trust_release_code"),
    ),
    BackendFamily(
        kind="systemone",
        forms=("http(s)://host[#model]", "systemone[:model]"),
        summary="any /v1/systemone server ($TYPESAFE_BASE_URL, $TYPESAFE_API_KEY)",
        open=_open_systemone,
        keywords=frozenset({"systemone"}),
        prefixes=("systemone:", "http://", "https://"),
        options=("timeout", "api_key"),
    ),
    BackendFamily(
        kind="workers-ai",
        forms=("workers-ai[:@cf/model]",),
        summary="Cloudflare Workers AI ($CLOUDFLARE_ACCOUNT_ID, $CLOUDFLARE_API_TOKEN)",
        open=_open_workers_ai,
        keywords=frozenset({"workers-ai"}),
        prefixes=("workers-ai:",),
        options=("timeout", "api_key"),
    ),
    *(
        BackendFamily(
            kind=engine.name,
            forms=(f"{engine.name}[:model]",),
            summary=engine.summary,
            open=_open_engine,
            keywords=frozenset({engine.name}),
            prefixes=(f"{engine.name}:",),
            options=("timeout", "api_key"),
        )
        for engine in ENGINES.values()
    ),
    BackendFamily(
        kind="embedding",
        extra="local",
        forms=("embedding[:ENCODER-DIR]",),
        summary="sentence-embedding similarity (choice questions only; default encoder "
        "all-MiniLM-L6-v2, or a sentence-transformers folder)",
        open=_open_embedding,
        answers=frozenset({"choice"}),
        keywords=frozenset({"embedding"}),
        prefixes=("embedding:",),
        options=("examples",),
    ),
    BackendFamily(
        kind="cascade",
        extra="local",
        forms=("cascade[:SPEC]",),
        summary="embedding tier first, then SPEC (default embedded) when unsure",
        open=_open_cascade,
        keywords=frozenset({"cascade"}),
        prefixes=("cascade:",),
        options=("examples", "all of SPEC's"),
    ),
)


def looks_like_path(raw: str) -> bool:
    """Written as a path: has a separator, starts with `~`, or names a `.gguf` file."""
    seps = {"/", os.sep, *([os.altsep] if os.altsep else [])}
    return any(s in raw for s in seps) or raw.startswith("~") or raw.endswith(".gguf")


def parse_spec(spec: str | os.PathLike[str] | None) -> BackendSpec:
    """`None` means `$CLEF_TOOLS_MODEL`, else `embedded`. Keywords first, then paths."""
    raw = (os.environ.get("CLEF_TOOLS_MODEL") or "embedded") if spec is None else os.fspath(spec)
    for family in FAMILIES:
        if raw in family.keywords:
            return BackendSpec(family.kind, raw if family.kind == "readout" else "", raw)
        for prefix in family.prefixes:
            if raw.startswith(prefix):
                target = raw if prefix.endswith("//") else raw[len(prefix) :]
                return BackendSpec(family.kind, target, raw)
    if looks_like_path(raw):
        path = Path(raw).expanduser()
        for family in FAMILIES:
            if family.claims_path is not None and family.claims_path(path):
                return BackendSpec(family.kind, raw, raw)
    # everything else is a readout model; resolve_model says what is wrong with it
    return BackendSpec("readout", raw, raw)


def open_backend(spec: BackendSpec, options: LoadOptions) -> Decider:
    """The backend `spec` names, wrapped in its calibration (every family alike), with the
    example index in front of it when `options.examples` names one."""
    from clef_tools.backends._calibration import with_calibration

    decider = with_calibration(_open_uncalibrated(spec, options), options.calibration)
    if options.examples is None or "examples" in _family(spec).options:
        return decider  # families that read `examples` put the index in their fast tier
    from clef_tools.backends._cascade import with_examples

    # an LM (or a remote) answers what the examples do not cover, calibrated as ever; the
    # example tier carries its own temperature, fitted on the index's rows
    return with_examples(decider, options.examples)


def _family(spec: BackendSpec) -> BackendFamily:
    return next(f for f in FAMILIES if f.kind == spec.kind)


def _open_uncalibrated(spec: BackendSpec, options: LoadOptions) -> Decider:
    from clef_tools._extras import needs_extra, require_extra

    # a local family on a hosted-only install names the extra it needs
    family = _family(spec)
    if family.extra is not None:
        require_extra(family.extra, f"the backend {spec.raw!r}")
    with needs_extra(f"the backend {spec.raw!r}"):
        return family.open(spec, options)


def answering_spec(spec: str | os.PathLike[str] | None) -> BackendSpec:
    """The backend that answers what `spec` is asked: itself, or for a cascade the backend
    it falls back to (its embedding tier answers only the choices it is sure of)."""
    parsed = parse_spec(spec)
    while parsed.kind == "cascade":
        parsed = parse_spec(parsed.target or "embedded")
    return parsed


def question_types(spec: str | os.PathLike[str] | None) -> frozenset[str]:
    """What the backend `spec` names can answer, without opening it."""
    return _family(answering_spec(spec)).answers


def spec_forms() -> str:
    """Every accepted spec form, for help and error text."""
    return ", ".join(f"'{form}'" for family in FAMILIES for form in family.forms)
