"""The LangChain/LangGraph examples run offline on the embedded model and do what they say."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

from clef_tools import Decider, ReadoutDecider
from clef_tools.backends.compose._calibration import with_calibration

pytestmark = pytest.mark.embedded
EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def _load(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(f"example_{name}", EXAMPLES / f"{name}.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


@pytest.fixture
def shipped(embedded: ReadoutDecider) -> Decider:
    """The embedded model as the examples' own `load_decider()` gives it: with its default
    calibration (the raw readout's choice probabilities are flatter than they should be, so
    a confidence threshold tuned for calibrated answers would sit on its edge)."""
    return with_calibration(embedded, "default")


def test_router_example(shipped: Decider) -> None:
    results = _load("router").main(shipped)
    assert [r.route for r in results] == ["billing", "shipping"]
    assert all(r.output.startswith(f"[{r.route}]") for r in results)


def test_gated_agent_example(embedded: ReadoutDecider) -> None:
    verdicts = _load("gated_agent").run(embedded)
    assert {k: v["verdict"] for k, v in verdicts.items()} == {
        "read_file": "allow",
        "send_email": "deny",
        "delete_file": "deny",
    }
    # the read the user asked for needs no forward pass
    assert verdicts["read_file"]["tier"] == "fast" and verdicts["read_file"]["risk"] < 0.05


def test_langgraph_example(embedded: ReadoutDecider) -> None:
    results = _load("langgraph_triage").main(embedded)
    assert [r["handled_by"] for r in results] == ["billing", "shipping"]
    assert all(r["triage"]["choice"] == r["handled_by"] for r in results)
