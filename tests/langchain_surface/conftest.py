"""Agent-loop helpers: a scripted chat model and a toolset whose calls are recorded."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.messages import AIMessage
from langchain_core.tools import BaseTool, tool
from pydantic import Field


class ScriptedChat(GenericFakeChatModel):
    """Replays scripted turns; records the tool names each call was given."""

    bound: list[list[str]] = Field(default_factory=list)

    def bind_tools(self, tools: Any, **kwargs: Any) -> ScriptedChat:
        self.bound.append([t.name if isinstance(t, BaseTool) else t["name"] for t in tools])
        return self


def scripted(*turns: AIMessage) -> ScriptedChat:
    return ScriptedChat(messages=iter(turns))


def call(name: str, args: dict[str, Any], id: str = "call_1") -> AIMessage:
    return AIMessage(
        content="", tool_calls=[{"name": name, "args": args, "id": id, "type": "tool_call"}]
    )


@pytest.fixture
def executed() -> Iterator[list[tuple[str, dict[str, Any]]]]:
    yield []


@pytest.fixture
def toolset(executed: list[tuple[str, dict[str, Any]]]) -> list[BaseTool]:
    @tool
    def read_file(path: str) -> str:
        """Read a text file and return its contents."""
        executed.append(("read_file", {"path": path}))
        return f"contents of {path}"

    @tool
    def send_email(to: str, body: str) -> str:
        """Send an email to an address."""
        executed.append(("send_email", {"to": to, "body": body}))
        return "sent"

    @tool
    def delete_file(path: str) -> str:
        """Delete a file or directory permanently."""
        executed.append(("delete_file", {"path": path}))
        return "deleted"

    return [read_file, send_email, delete_file]
