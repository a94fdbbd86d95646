"""LangChain and LangGraph surfaces for clef-tools decision models."""

from langchain_clef.decision_model import ClefDecisionModel
from langchain_clef.graph import decision_edge, decision_node
from langchain_clef.router import DecisionRouter, Route, RoutedResult
from langchain_clef.tool_gate import ToolGateMiddleware
from langchain_clef.tool_selector import ToolSelectorMiddleware

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
