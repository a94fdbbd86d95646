"""`clef-tools mcp-proxy` between the MCP SDK's own client and a small upstream server
written with the SDK: every hop a real process speaking MCP over stdio."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import Client, StdioServerParameters
from mcp.types import ElicitResult

UPSTREAM = Path(__file__).with_name("_upstream_server.py")


def _proxied(log: Path, audit: Path) -> StdioServerParameters:
    return StdioServerParameters(
        command=sys.executable,
        args=["-m", "clef_tools.cli", "mcp-proxy", "--model", "smollm2", "--dtype", "fp32",
              "--quiet", "--audit", str(audit), "--", sys.executable, str(UPSTREAM), str(log)],
    )  # fmt: skip


def _ran(log: Path) -> list[str]:
    return log.read_text().split() if log.exists() else []


def _session(log: Path, audit: Path, answer: str | None) -> dict[str, Any]:
    """One client session through the proxy; `answer`: the person's reply when asked
    (None: the client cannot ask anyone)."""
    asked: list[str] = []

    async def person(context: object, params: Any) -> ElicitResult:
        asked.append(params.message)
        return ElicitResult(action="accept", content={"decision": answer})

    async def main() -> dict[str, Any]:
        callback = person if answer is not None else None
        async with Client(_proxied(log, audit), elicitation_callback=callback) as client:
            tools = {t.name: t for t in (await client.list_tools()).tools}
            read = await client.call_tool("read_note", {"title": "groceries"})
            delete = await client.call_tool("delete_all_notes", {"confirm": True})
            resources = await client.list_resources()
        return {
            "tools": tools,
            "read": read,
            "delete": delete,
            "resources": resources,
            "asked": asked,
        }

    result: dict[str, Any] = anyio.run(main)
    return result


def _direct(log: Path) -> dict[str, Any]:
    async def main() -> dict[str, Any]:
        params = StdioServerParameters(command=sys.executable, args=[str(UPSTREAM), str(log)])
        async with Client(params) as client:
            tools = {t.name: t for t in (await client.list_tools()).tools}
            read = await client.call_tool("read_note", {"title": "groceries"})
        return {"tools": tools, "read": read}

    result: dict[str, Any] = anyio.run(main)
    return result


@pytest.mark.slow
def test_the_proxy_forwards_reads_and_runs_a_destructive_call_only_when_approved(
    tmp_path: Path,
) -> None:
    direct = _direct(tmp_path / "direct.log")

    declined_log = tmp_path / "declined.log"
    declined = _session(declined_log, tmp_path / "audit.sqlite", "reject")
    # the tools as the upstream offers them: names, schemas, annotations
    for name, tool in direct["tools"].items():
        assert declined["tools"][name].model_dump() == tool.model_dump()
    assert declined["read"].model_dump() == direct["read"].model_dump()
    assert str(declined["resources"].resources[0].uri) == "notes://index"
    assert len(declined["asked"]) == 1 and "delete_all_notes" in declined["asked"][0]
    assert declined["delete"].is_error
    assert _ran(declined_log) == ["read_note"]  # the upstream never saw the delete

    approved_log = tmp_path / "approved.log"
    approved = _session(approved_log, tmp_path / "audit.sqlite", "approve")
    assert not approved["delete"].is_error
    assert approved["delete"].content[0].text == "deleted 42 notes"
    assert _ran(approved_log) == ["read_note", "delete_all_notes"]

    nobody_log = tmp_path / "nobody.log"
    nobody = _session(nobody_log, tmp_path / "audit.sqlite", None)
    assert nobody["delete"].is_error and "nobody could be asked" in nobody["delete"].content[0].text
    assert _ran(nobody_log) == ["read_note"]

    listed = subprocess.run(
        [sys.executable, "-m", "clef_tools.cli", "audit", str(tmp_path / "audit.sqlite"), "--json"],
        capture_output=True, text=True, timeout=60, check=True,
    )  # fmt: skip
    rows = [json.loads(line) for line in listed.stdout.splitlines()]
    deletes = [r for r in rows if r["tool"] == "delete_all_notes"]
    assert [r["reviewer"] for r in deletes] == ["reject", "approve", None]
    assert all(r["surface"] == "mcp-proxy" for r in rows)


def test_the_proxy_needs_an_upstream() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "clef_tools.cli", "mcp-proxy", "--model", "smollm2"],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert done.returncode == 2
    assert "mcp-proxy" in done.stderr and "Traceback" not in done.stderr
