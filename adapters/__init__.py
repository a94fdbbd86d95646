"""LangChain and LangGraph surfaces for clef-tools decision models.

Names load on first use: `ClefDecisionModel` and `DecisionRouter` need only
langchain-core, while the graph helpers and the agent middlewares need the
`[langchain]` extra (langgraph, langchain) and say so when it is missing.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from langchain_clef.decision_model import ClefDecisionModel
    from langchain_clef.graph import decision_edge, decision_node
    from langchain_clef.router import DecisionRouter, Route, RoutedResult
    from langchain_clef.tool_gate import ToolGateMiddleware
    from langchain_clef.tool_selector import ToolSelectorMiddleware

_WHERE: dict[str, str] = {
    "ClefDecisionModel": "langchain_clef.decision_model",
    "DecisionRouter": "langchain_clef.router",
    "Route": "langchain_clef.router",
    "RoutedResult": "langchain_clef.router",
    "ToolGateMiddleware": "langchain_clef.tool_gate",
    "ToolSelectorMiddleware": "langchain_clef.tool_selector",
    "decision_edge": "langchain_clef.graph",
    "decision_node": "langchain_clef.graph",
}


def __getattr__(name: str) -> Any:
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module 'langchain_clef' has no attribute {name!r}")
    from clef_tools._extras import needs_extra

    with needs_extra(f"langchain_clef.{name}"):
        value = getattr(import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(__all__)


__all__ = [
    "ClefDecisionModel",
    "DecisionRouter",
    "Route",
    "RoutedResult",
    "ToolGateMiddleware",
    "ToolSelectorMiddleware",
    "decision_edge",
    "decision_node",
]
