"""How a backend is named: the spec-string syntax, the families it can name, the options.

Every surface picks a backend with one string (`load_decider(spec)`, `--backend`,
`CLEF_TOOLS_MODEL`, `ClefDecisionModel(source=...)`). The string is parsed once, here,
into a `BackendSpec`; the registry (`_registry.OPENERS`) opens it. Help text and error
messages are made from the same table, so they cannot disagree with what is accepted.
This module imports no backend, so the floors below the engines (model files, the
readout's wheels) can read the syntax without importing what they sit under.

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
from typing import Any

from clef_tools.backends._engine_table import ENGINES
from clef_tools.protocol._types import SCORED_TYPES

__all__ = [
    "FAMILIES",
    "RELEASE_FILES",
    "BackendFamily",
    "BackendSpec",
    "LoadOptions",
    "answering_spec",
    "is_release_folder",
    "looks_like_path",
    "parse_spec",
    "question_types",
    "spec_forms",
]

#: What a Clef release folder holds besides the backbone weights (`load_release_model` reads them).
RELEASE_FILES = (
    "config.json",
    "joint_head_config.json",
    "joint_head.safetensors",
    "joint_schema_model.py",
)


@dataclass(frozen=True)
class BackendSpec:
    """`kind` names the family; `target` is what follows the keyword (a model name, a nested
    spec for `cascade`), the URL, or the path as written."""

    kind: str
    target: str
    raw: str


@dataclass(frozen=True)
class LoadOptions:
    """Everything `load_decider` accepts, with its defaults; each family reads the options
    it knows. The one place these defaults are written."""

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
    progress: bool | None = None
    """Progress lines and bars on stderr while loading (None: when stderr is a terminal)."""
    trust_release_code: bool = False
    api_key: str | None = field(default=None, repr=False)
    """A hosted backend's key or token (default: its environment variable); never shown."""
    examples: Any = None
    """An `ExampleIndex` or its file: choice questions whose options match its labels are
    answered from examples (the embedding tier), with any backend behind it for the rest."""


@dataclass(frozen=True)
class BackendFamily:
    """How one family's specs are written and what it can answer; how it opens is its
    entry in `_registry.OPENERS`, keyed by `kind`."""

    kind: str
    forms: tuple[str, ...]
    """How its specs are written, for help and error text."""
    summary: str
    keywords: frozenset[str] = frozenset()
    """Exact spec strings that name this family."""
    prefixes: tuple[str, ...] = ()
    """`keyword:` or `scheme://` beginnings that name it (the rest is the target)."""
    claims_path: Callable[[Path], bool] | None = None
    """For specs written as paths: whether this family owns that path."""
    options: tuple[str, ...] = ()
    """The `LoadOptions` fields it reads."""
    answers: frozenset[str] = frozenset(SCORED_TYPES)
    """The question types its backends can answer (known before anything loads)."""
    extra: str | None = None
    """The optional extra it needs (`pip install 'clef-tools[local]'`), checked before opening."""


def is_release_folder(path: Path) -> bool:
    return path.is_dir() and all((path / name).is_file() for name in RELEASE_FILES[1:])


_LOCAL = ("dtype", "device")
FAMILIES: tuple[BackendFamily, ...] = (
    BackendFamily(
        kind="readout",
        extra="local",
        forms=("embedded", "smollm2", "PATH.gguf", "./model-folder"),
        summary="one-pass readout of a local causal LM (embedded default: Qwen2.5-Coder-1.5B)",
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
        keywords=frozenset({"clef-flash"}),
        claims_path=is_release_folder,
        options=(*_LOCAL, "max_context_tokens", "trust_release_code"),
    ),
    BackendFamily(
        kind="systemone",
        forms=("http(s)://host[#model]", "systemone[:model]"),
        summary="any /v1/systemone server ($TYPESAFE_BASE_URL, $TYPESAFE_API_KEY)",
        keywords=frozenset({"systemone"}),
        prefixes=("systemone:", "http://", "https://"),
        options=("timeout", "api_key"),
    ),
    BackendFamily(
        kind="workers-ai",
        forms=("workers-ai[:@cf/model]",),
        summary="Cloudflare Workers AI ($CLOUDFLARE_ACCOUNT_ID, $CLOUDFLARE_API_TOKEN)",
        keywords=frozenset({"workers-ai"}),
        prefixes=("workers-ai:",),
        options=("timeout", "api_key"),
    ),
    *(
        BackendFamily(
            kind=engine.name,
            forms=(f"{engine.name}[:model]",),
            summary=engine.summary,
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


def family_of(spec: BackendSpec) -> BackendFamily:
    return next(f for f in FAMILIES if f.kind == spec.kind)


def answering_spec(spec: str | os.PathLike[str] | BackendSpec | None) -> BackendSpec:
    """The backend that answers what `spec` is asked: itself, or for a cascade the backend
    it falls back to (its embedding tier answers only the choices it is sure of)."""
    parsed = spec if isinstance(spec, BackendSpec) else parse_spec(spec)
    while parsed.kind == "cascade":
        parsed = parse_spec(parsed.target or "embedded")
    return parsed


def question_types(spec: str | os.PathLike[str] | BackendSpec | None) -> frozenset[str]:
    """What the backend `spec` names can answer, without opening it."""
    return family_of(answering_spec(spec)).answers


def spec_forms() -> str:
    """Every accepted spec form, for help and error text."""
    return ", ".join(f"'{form}'" for family in FAMILIES for form in family.forms)
