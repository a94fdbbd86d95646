"""LangChain and LangGraph surfaces for clef-tools decision models.

Names load on first use: `ClefDecisionModel` and `DecisionRouter` need only
langchain-core, while the graph helpers and the agent middlewares need the
`[langchain]` extra (langgraph, langchain) and say so when it is missing.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from clef_tools._lazy import lazy_names

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

__getattr__, __dir__ = lazy_names(__name__, _WHERE, __all__)
