from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st
from langchain_core.messages import AIMessage, HumanMessage, SystemMessage, ToolMessage

from clef_tools import canonical_json, render_state
from clef_tools.protocol._media import first_media


def test_string_is_verbatim() -> None:
    assert render_state("  a\nb  ") == "  a\nb  "


def test_json_is_canonical_regardless_of_key_order() -> None:
    a = render_state({"b": 1, "a": [1, {"d": "é", "c": None}]})
    b = render_state({"a": [1, {"c": None, "d": "é"}], "b": 1})
    assert a == b == '{"a":[1,{"c":null,"d":"é"}],"b":1}'


def test_messages_become_a_role_tagged_transcript() -> None:
    msgs = [
        SystemMessage("be nice"),
        HumanMessage("delete my files"),
        AIMessage("", tool_calls=[{"name": "rm", "args": {"path": "/"}, "id": "1"}]),
        ToolMessage("done", tool_call_id="1", name="rm"),
    ]
    text = render_state(msgs)
    assert text == (
        "[system]: be nice\n\n[user]: delete my files\n\n"
        '[assistant]: \n[tool call] rm({"path":"/"})\n\n[tool (rm)]: done'
    )
    # OpenAI-style dicts render the same way as LangChain messages
    assert (
        render_state([{"role": "user", "content": "delete my files"}]) == "[user]: delete my files"
    )


@given(st.lists(st.text(max_size=30), min_size=1, max_size=6))
def test_appending_a_message_only_appends_text(contents: list[str]) -> None:
    msgs = [HumanMessage(c) if i % 2 == 0 else AIMessage(c) for i, c in enumerate(contents)]
    shorter = render_state(msgs[:-1]) if len(msgs) > 1 else ""
    assert render_state(msgs).startswith(shorter)


def test_nested_messages_become_json_objects() -> None:
    state = {"messages": [HumanMessage("hi")], "tool_call": {"name": "x", "args": {}}}
    assert canonical_json(state) == (
        '{"messages":[{"content":"hi","role":"user"}],"tool_call":{"args":{},"name":"x"}}'
    )


def test_media_parts_are_found_only_where_chat_apis_put_them() -> None:
    image = {"type": "image", "base64": "AAAA", "mime_type": "image/png"}
    transcript = [HumanMessage(content=[{"type": "text", "text": "look"}, image])]
    assert first_media(transcript) == ("state", 0, "content", 1)
    assert first_media({"role": "user", "content": [image]}) == ("state", "content", 0)
    assert first_media([{"type": "text", "text": "look"}, image]) == ("state", 1)
    # inside arbitrary JSON (tool arguments, a wrapped transcript) it is data
    assert first_media({"msgs": transcript}) is None
    attachments = {
        "tool_call": {
            "name": "send_email",
            "args": {"attachments": [{"type": "file", "file_id": "19"}]},
        }
    }
    assert first_media(attachments) is None
    assert first_media([image, "plain text"]) is None  # not a list of content parts
