"""The upstream names clef-tools relies on exist, and every use goes through one module.

langchain-core's decision types are under redesign upstream; when a release renames one,
this fails naming it, and `clef_tools/decisions.py` is the one file to change.
"""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import pytest

from clef_tools.decisions import UPSTREAM_NAMES

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize(
    ("module", "name"), [(m, n) for m, names in UPSTREAM_NAMES.items() for n in names]
)
def test_each_upstream_name_relied_on_exists(module: str, name: str) -> None:
    assert hasattr(importlib.import_module(module), name), f"{module}.{name} is gone upstream"


def test_the_decision_types_are_imported_from_one_adapter_module() -> None:
    offenders = []
    for folder in ("clef_tools", "adapters", "mcp_server"):
        for path in (ROOT / folder).rglob("*.py"):
            if path == ROOT / "clef_tools" / "decisions.py":
                continue
            for node in ast.walk(ast.parse(path.read_text())):
                if isinstance(node, ast.ImportFrom) and node.module == "langchain_core.decisions":
                    offenders.append(str(path.relative_to(ROOT)))
                if isinstance(node, ast.Import) and any(
                    a.name == "langchain_core.decisions" for a in node.names
                ):
                    offenders.append(str(path.relative_to(ROOT)))
    assert offenders == []


def test_the_adapter_names_every_decision_type_it_exports() -> None:
    import clef_tools.decisions as adapter

    exported = set(adapter.__all__) - {"UPSTREAM_NAMES"}
    assert exported == set(UPSTREAM_NAMES["langchain_core.decisions"])
    upstream = importlib.import_module("langchain_core.decisions")
    for name in exported:
        assert getattr(adapter, name) is getattr(upstream, name)
