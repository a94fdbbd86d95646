"""Which folders of the core one request runs in, measured by tracing it.

    .venv/bin/python bench/request_path.py   # bench/results/request-path.json

One `POST /v1/systemone` (through `create_app`, in process) and one MCP `decide` tool call
(the SDK's client against `build_server`, in memory) are answered by SmolLM2 (warm) while a
profiler notes the folder of every core function called, on every thread that works for
the request (the torch thread included). Reported: the folders, in the order the request
first enters them, and how many boundaries that path crosses (folders − 1); and, finer,
every move between folders (a helper called from another folder counts each time).
"""

from __future__ import annotations

import asyncio
import json
import sys
import threading
from pathlib import Path
from types import FrameType
from typing import Any

import clef_tools

CORE = Path(clef_tools.__file__).resolve().parent
OUT = Path(__file__).resolve().parent / "results" / "request-path.json"
BODY = {
    "state": "My card was charged twice for the same order.",
    "questions": {
        "refund": {"type": "noul", "instructions": "Is the customer asking for a refund?"},
        "topic": {
            "type": "choice",
            "instructions": "Topic?",
            "criteria": {"billing": "", "delivery": "", "login": ""},
        },
    },
}


class FolderTrace:
    """The sequence of core folders entered, per thread, outermost calls first."""

    def __init__(self) -> None:
        self.entries: list[str] = []
        self._depth: dict[int, list[str]] = {}
        self.active = False
        """Only calls made while active are noted (start-up and warm-up are not the path)."""

    def _folder(self, frame: FrameType) -> str | None:
        path = Path(frame.f_code.co_filename)
        try:
            rel = path.resolve().relative_to(CORE)
        except ValueError:
            return None
        return str(rel.parent) if str(rel.parent) != "." else "clef_tools"

    def __call__(self, frame: FrameType, event: str, arg: Any) -> None:
        if not self.active or event not in ("call", "return"):
            return
        if frame.f_code.co_name == "<module>":
            return
        folder = self._folder(frame)
        if folder is None:
            return
        stack = self._depth.setdefault(threading.get_ident(), [])
        if event == "call":
            if not stack or stack[-1] != folder:
                self.entries.append(folder)
            stack.append(folder)
        elif stack:
            stack.pop()
            if stack and stack[-1] != folder:
                self.entries.append(stack[-1])

    def folders(self) -> list[str]:
        return list(dict.fromkeys(self.entries))

    def path(self) -> list[str]:
        out: list[str] = []
        for folder in self.entries:
            if not out or out[-1] != folder:
                out.append(folder)
        return out


def _start(trace: FolderTrace | None) -> None:
    if trace is not None:
        trace.active = True
    elif _CURRENT:
        _CURRENT[-1].active = False


_CURRENT: list[FolderTrace] = []


def traced(run: Any) -> FolderTrace:
    """Profile every thread (threads started from now, this one, the readout's torch
    thread) for the whole run; `run` switches the trace on around the one request."""
    from clef_tools.backends.local import run_on_torch_thread

    trace = FolderTrace()
    _CURRENT.append(trace)
    threading.setprofile(trace)
    sys.setprofile(trace)
    run_on_torch_thread(lambda: sys.setprofile(trace))
    try:
        run(trace)
    finally:
        run_on_torch_thread(lambda: sys.setprofile(None))
        sys.setprofile(None)
        threading.setprofile(None)
        _CURRENT.pop()
    return trace


def serve_request(decider: clef_tools.Decider, trace: FolderTrace | None = None) -> None:
    from starlette.testclient import TestClient

    with TestClient(clef_tools.create_app(decider), base_url="http://127.0.0.1") as client:
        client.get("/healthz")  # started: what follows is one request
        _start(trace)
        try:
            client.post("/v1/systemone", json=BODY).raise_for_status()
        finally:
            _start(None)


def mcp_decide(decider: clef_tools.Decider, trace: FolderTrace | None = None) -> None:
    from mcp import Client

    from clef_mcp import build_server

    async def go() -> None:
        arguments = {"state": BODY["state"], "questions": BODY["questions"]}
        async with Client(build_server(lambda: decider)) as client:
            await client.call_tool("decide", arguments)  # the server has loaded its backend
            _start(trace)
            try:
                await client.call_tool("decide", arguments)
            finally:
                _start(None)

    asyncio.run(go())


def summary(trace: FolderTrace) -> dict[str, Any]:
    folders = trace.folders()
    return {
        "folders": folders,
        "boundaries": len(folders) - 1,
        "moves_between_folders": len(trace.path()) - 1,
    }


def main() -> None:
    decider = clef_tools.load_decider("smollm2", dtype="fp32")
    serve_request(decider)  # warm: first-call imports are not the path
    mcp_decide(decider)
    report = {
        "what": "folders of clef_tools one request passes through (bench/request_path.py)",
        "backend": decider.info().kind,
        "serve_post_systemone": summary(traced(lambda t: serve_request(decider, t))),
        "mcp_decide": summary(traced(lambda t: mcp_decide(decider, t))),
    }
    OUT.write_text(json.dumps(report, indent=2) + "\n")
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
