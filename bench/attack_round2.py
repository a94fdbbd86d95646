"""The second attack pass (issue 26), re-run against the real entry points on loopback.

    .venv/bin/python bench/attack_round2.py [--model smollm2]

Starts `clef-tools serve` and `clef-tools mcp --http` as subprocesses (the console script,
as users run them) and sends each category the attack pass found: the 200 KB request of
64 questions × 255 options, a client that leaves mid-decision, 32 trickling bodies beside
real requests, 200 invalid bodies, a lone-surrogate key, a 10 MiB `model` field, a flood of
MCP `initialize`, and readiness while the model is busy. Every request has a client
timeout (a hang counts), every loop is bounded in count and time, and only 127.0.0.1 is
contacted. Reports per category the status counts, 5xx and hangs, and each server's peak
RSS. Writes bench/results/attack-round2.json.
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import subprocess
import sys
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any

import httpx

HERE = Path(__file__).parent
CLI = Path(sys.executable).with_name("clef-tools")
NOUL = {"q": {"type": "noul", "instructions": "Is this about a parcel?"}}
BODY = {"state": "My parcel never arrived", "questions": NOUL}
CLIENT_TIMEOUT_S = 60.0


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def process(*args: str, ready_path: str) -> Iterator[tuple[str, subprocess.Popen[bytes]]]:
    port = _free_port()
    proc = subprocess.Popen(
        [str(CLI), *args, "--port", str(port)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 300
    try:
        while time.monotonic() < deadline:
            with suppress(httpx.HTTPError):
                if httpx.get(url + ready_path, timeout=2).status_code < 500:
                    break
            if proc.poll() is not None:
                raise RuntimeError(proc.stderr.read().decode() if proc.stderr else "died")
            time.sleep(0.5)
        yield url, proc
    finally:
        proc.terminate()
        with suppress(subprocess.TimeoutExpired):
            proc.wait(timeout=20)
        if proc.poll() is None:
            proc.kill()


def _rss_peak_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def _cpu_s(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


class Tally:
    def __init__(self) -> None:
        self.statuses: Counter[str] = Counter()
        self.hangs = 0

    def post(self, url: str, content: bytes, **headers: str) -> httpx.Response | None:
        try:
            r = httpx.post(url, content=content, headers=headers, timeout=CLIENT_TIMEOUT_S)
        except httpx.TimeoutException:
            self.hangs += 1
            return None
        self.statuses[str(r.status_code)] += 1
        return r

    def report(self, **extra: Any) -> dict[str, Any]:
        fives = sum(n for s, n in self.statuses.items() if s.startswith("5") and s != "503")
        return {"statuses": dict(self.statuses), "5xx": fives, "hangs": self.hangs, **extra}


def huge_request(url: str) -> dict[str, Any]:
    body = {
        "state": "hello",
        "questions": {
            f"q{i}": {
                "type": "choice",
                "instructions": "Which?",
                "criteria": {f"o{j}": "x" for j in range(255)},
            }
            for i in range(64)
        },
    }
    raw = json.dumps(body).encode()
    tally = Tally()
    start = time.monotonic()
    tally.post(url + "/v1/systemone", raw)
    return tally.report(bytes=len(raw), seconds=round(time.monotonic() - start, 2))


def client_leaves(url: str, pid: int) -> dict[str, Any]:
    body = json.dumps(
        {
            "state": "A parcel that never came, in detail. " * 20,
            "questions": {
                f"q{i}": {"type": "noul", "instructions": f"Statement {i}?"} for i in range(64)
            },
        }
    ).encode()
    port = int(url.rsplit(":", 1)[1])
    with socket.create_connection(("127.0.0.1", port)) as conn:
        conn.sendall(
            b"POST /v1/systemone HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: application/json\r\n"
            + f"content-length: {len(body)}\r\n\r\n".encode()
            + body
        )
        time.sleep(1.0)
    time.sleep(1.0)
    before = _cpu_s(pid)
    time.sleep(5.0)
    return {"cpu_s_in_5s_after_leaving": round(_cpu_s(pid) - before, 2)}


def trickling_bodies(url: str, n: int = 32) -> dict[str, Any]:
    port = int(url.rsplit(":", 1)[1])
    conns = []
    for _ in range(n):
        conn = socket.create_connection(("127.0.0.1", port))
        conn.sendall(
            b"POST /v1/systemone HTTP/1.1\r\nhost: 127.0.0.1\r\n"
            b"content-type: application/json\r\ncontent-length: 1000\r\n\r\n{"
        )
        conns.append(conn)
    tally = Tally()
    try:
        for _ in range(10):
            tally.post(url + "/v1/systemone", json.dumps(BODY).encode())
    finally:
        for conn in conns:
            conn.close()
    return tally.report()


def invalid_bodies(url: str, n: int = 200) -> dict[str, Any]:
    tally = Tally()
    threads = [
        threading.Thread(target=tally.post, args=(url + "/v1/systemone", b"{not json"))
        for _ in range(n)
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join(CLIENT_TIMEOUT_S)
    return tally.report()


def small_holes(url: str) -> dict[str, Any]:
    tally = Tally()
    surrogate = b'{"\\ud800": 1, "state": "x", "questions": {"q": {"type": "noul"}}}'
    tally.post(url + "/v1/systemone", surrogate)
    tally.post(url + "/v1/systemone", json.dumps({**BODY, "model": "m" * (10 << 20)}).encode())
    return tally.report()


def readiness_while_busy(url: str) -> dict[str, Any]:
    body = json.dumps(
        {
            "state": "A long complaint. " * 40,
            "questions": {f"q{i}": {"type": "noul", "instructions": f"S{i}?"} for i in range(64)},
        }
    ).encode()
    busy = threading.Thread(target=Tally().post, args=(url + "/v1/systemone", body))
    busy.start()
    time.sleep(0.5)
    start = time.monotonic()
    alive = httpx.get(url + "/healthz", timeout=CLIENT_TIMEOUT_S)
    alive_ms = (time.monotonic() - start) * 1000
    ready = httpx.get(url + "/readyz", timeout=CLIENT_TIMEOUT_S)
    busy.join(CLIENT_TIMEOUT_S)
    return {
        "healthz": alive.status_code,
        "healthz_ms": round(alive_ms, 1),
        "readyz": ready.status_code,
        "readyz_body": ready.json(),
    }


def session_flood(url: str, n: int = 1000) -> dict[str, Any]:
    init = {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "initialize",
        "params": {
            "protocolVersion": "2025-06-18",
            "capabilities": {},
            "clientInfo": {"name": "flood", "version": "0"},
        },
    }
    headers = {"content-type": "application/json", "accept": "application/json, text/event-stream"}
    tally = Tally()
    with httpx.Client(timeout=CLIENT_TIMEOUT_S) as http:
        start = time.monotonic()
        for _ in range(n):
            try:
                r = http.post(url + "/mcp", json=init, headers=headers)
                tally.statuses[str(r.status_code)] += 1
            except httpx.TimeoutException:
                tally.hangs += 1
        flood_s = time.monotonic() - start
        # after the flood: how long until a new client gets a session
        start = time.monotonic()
        while time.monotonic() - start < 120:
            if http.post(url + "/mcp", json=init, headers=headers).status_code == 200:
                break
            time.sleep(0.25)
        wait_s = time.monotonic() - start
    return tally.report(flood_s=round(flood_s, 1), new_client_waited_s=round(wait_s, 2))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--model", default="smollm2")
    parser.add_argument("--out", type=Path, default=HERE / "results" / "attack-round2.json")
    args = parser.parse_args()
    result: dict[str, Any] = {"model": args.model, "serve": {}, "mcp": {}}
    with process("serve", "--model", args.model, "--quiet", ready_path="/readyz") as (url, proc):
        attacks: tuple[tuple[str, Callable[[], dict[str, Any]]], ...] = (
            ("huge_request", lambda: huge_request(url)),
            ("client_leaves", lambda: client_leaves(url, proc.pid)),
            ("trickling_bodies", lambda: trickling_bodies(url)),
            ("invalid_bodies", lambda: invalid_bodies(url)),
            ("small_holes", lambda: small_holes(url)),
            ("readiness_while_busy", lambda: readiness_while_busy(url)),
        )
        for name, run in attacks:
            result["serve"][name] = run()
            print(name, json.dumps(result["serve"][name]), flush=True)
        result["serve"]["peak_rss_mb"] = round(_rss_peak_mb(proc.pid), 1)
    mcp = ("mcp", "--http", "--model", args.model, "--quiet")
    with process(*mcp, ready_path="/mcp") as (url, proc):
        result["mcp"]["session_flood"] = session_flood(url)
        print("session_flood", json.dumps(result["mcp"]["session_flood"]), flush=True)
        result["mcp"]["peak_rss_mb"] = round(_rss_peak_mb(proc.pid), 1)
    categories = [*result["serve"].values(), *result["mcp"].values()]
    result["totals"] = {
        "5xx": sum(c.get("5xx", 0) for c in categories if isinstance(c, dict)),
        "hangs": sum(c.get("hangs", 0) for c in categories if isinstance(c, dict)),
    }
    args.out.write_text(json.dumps(result, indent=2) + "\n")
    print(json.dumps(result["totals"]))


if __name__ == "__main__":
    main()
