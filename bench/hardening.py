"""Denial-of-service figures for `clef-tools serve` (the hardening issue, items 5–8).

    PYTHONPATH=<tree> .venv/bin/python bench/hardening.py --label after

The server runs in its own process from whatever clef-tools `PYTHONPATH` points at, so the
same script measures an old checkout (`--label before`) and the current one. Measured:

- item 5: a 15 MB body of duplicate keys and a body of 1.15 M invalid questions: reply
  size, time, server peak RSS growth, and the longest `/healthz` stall meanwhile;
- item 6: ten 64-question requests on SmolLM2 that hit a 0.3 s deadline, then the CPU
  seconds the server burns in the following 10 s;
- item 7: 100 clients trickling their headers: server file descriptors after 15 s;
- item 8: a 12000² PNG (small file, huge bitmap) and non-image bytes labelled PNG, sent
  to a Clef release stand-in (the backend that decodes images): status and RSS growth.

Writes bench/results/hardening-<label>.json.
"""

from __future__ import annotations

import argparse
import base64
import io
import json
import os
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any

import httpx

HERE = Path(__file__).parent
ROOT = HERE.parent

SERVER = r"""
import sys
import clef_tools
print(clef_tools.__file__, file=sys.stderr)
sys.path.insert(0, TESTS)
from clef_tools import serve, load_decider
kind, port, release = sys.argv[1], int(sys.argv[2]), sys.argv[3]
if kind == "uniform":  # answers at once; defined here so old trees run it too
    from clef_tools import Decider, RequestScores

    class Uniform(Decider):
        model_id = "uniform"

        def _score(self, requests):
            return [
                RequestScores(
                    probabilities={
                        q: [1 / (2 if x.type == "noul" else len(x.criteria))]
                        * (2 if x.type == "noul" else len(x.criteria))
                        for q, x in r.questions.items()
                    },
                    input_tokens=0,
                )
                for r in requests
            ]

    backend = Uniform()
elif kind == "release":
    import inspect
    from clef_tools import ClefReleaseDecider
    opt_in = "trust_release_code" in inspect.signature(ClefReleaseDecider).parameters
    extra = {"trust_release_code": True} if opt_in else {}  # older trees had no opt-in
    backend = ClefReleaseDecider(release, device="cpu", dtype="fp32", **extra)
else:
    backend = load_decider("smollm2", dtype="fp32")
serve(backend, port=port, request_timeout_s=0.3, log_level="warning")
"""


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def server(kind: str, release: str = "") -> Iterator[tuple[str, int]]:
    port = _free_port()
    code = SERVER.replace("TESTS", repr(str(ROOT / "tests")))
    proc = subprocess.Popen(
        [sys.executable, "-c", code, kind, str(port), release],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        cwd=tempfile.gettempdir(),  # not the repo: `-c` puts the working directory first
    )
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 180
    while True:
        try:
            if httpx.get(f"{url}/healthz", timeout=1).status_code == 200:
                break
        except httpx.HTTPError:
            pass
        if proc.poll() is not None or time.monotonic() > deadline:
            raise RuntimeError(f"{kind} server did not start")
        time.sleep(0.2)
    try:
        yield url, proc.pid
    finally:
        proc.terminate()
        proc.wait(timeout=30)


def _status(pid: int, field: str) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1]) * 1024
    return 0


def _cpu_seconds(pid: int) -> float:
    parts = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(parts[11]) + int(parts[12])) / os.sysconf("SC_CLK_TCK")


def _fds(pid: int) -> int:
    return len(os.listdir(f"/proc/{pid}/fd"))


def _stall_while(url: str, work: Any) -> tuple[Any, float]:
    """Run `work()` while polling /healthz every 50 ms; the longest health round trip."""
    worst = 0.0
    done = threading.Event()

    def poll() -> None:
        nonlocal worst
        with httpx.Client(timeout=120) as client:
            while not done.is_set():
                start = time.monotonic()
                with suppress(httpx.HTTPError):
                    client.get(f"{url}/healthz")
                worst = max(worst, time.monotonic() - start)
                time.sleep(0.05)

    thread = threading.Thread(target=poll)
    thread.start()
    try:
        result = work()
    finally:
        done.set()
        thread.join()
    return result, worst


def flood() -> dict[str, Any]:
    dup = b'{"state": {' + b",".join(b'"k": 1' for _ in range(2_100_000)) + b'}, "questions": {}}'
    many = json.dumps({"state": "x", "questions": {str(i): 0 for i in range(1_150_000)}}).encode()
    out: dict[str, Any] = {
        "duplicate_body_mb": round(len(dup) / 1e6, 1),
        "questions_body_mb": round(len(many) / 1e6, 1),
    }
    with server("uniform") as (url, pid):
        base = _status(pid, "VmHWM")
        for name, body in (("duplicate_keys", dup), ("invalid_questions", many)):
            start = time.monotonic()
            response, stall = _stall_while(
                url,
                lambda body=body: httpx.post(
                    f"{url}/v1/systemone",
                    content=body,
                    headers={"content-type": "application/json"},
                    timeout=300,
                ),
            )
            out[name] = {
                "status": response.status_code,
                "reply_mb": round(len(response.content) / 1e6, 3),
                "seconds": round(time.monotonic() - start, 2),
                "healthz_worst_s": round(stall, 2),
            }
        out["peak_rss_growth_mb"] = round((_status(pid, "VmHWM") - base) / 1e6)
    return out


def timeouts() -> dict[str, Any]:
    big: dict[str, Any] = {
        "state": "A long complaint about a parcel. " * 20,
        "questions": {
            f"q{i}": {"type": "noul", "instructions": f"Statement {i}?"} for i in range(64)
        },
    }
    with server("smollm2") as (url, pid):
        statuses = []
        for i in range(10):
            big["state"] += f" ({i})"
            statuses.append(httpx.post(f"{url}/v1/systemone", json=big, timeout=60).status_code)
        before = _cpu_seconds(pid)
        time.sleep(10)
        burnt = _cpu_seconds(pid) - before
    return {"statuses": sorted(set(statuses)), "cpu_seconds_in_10s_after": round(burnt, 1)}


def slow_clients(n: int = 100) -> dict[str, Any]:
    with server("uniform") as (url, pid):
        host, port = url.removeprefix("http://").split(":")
        base = _fds(pid)
        socks = []
        for _ in range(n):
            s = socket.create_connection((host, int(port)))
            s.sendall(b"POST /v1/systemone HTTP/1.1\r\nHost: 127.0.0.1\r\n")
            socks.append(s)
        time.sleep(1)
        opened = _fds(pid) - base
        for _ in range(14):  # trickle one header byte a second
            for s in socks:
                with suppress(OSError):
                    s.sendall(b"X")
            time.sleep(1)
        left = _fds(pid) - base
        alive = httpx.get(f"{url}/healthz", timeout=5).status_code
        for s in socks:
            s.close()
    return {
        "clients": n,
        "extra_fds_after_1s": opened,
        "extra_fds_after_15s": left,
        "healthz": alive,
    }


def images() -> dict[str, Any]:
    sys.path.insert(0, str(ROOT / "tests"))
    from _release import build_standin_release
    from PIL import Image

    folder = build_standin_release(Path(os.environ.get("TMPDIR", "/tmp")) / "hardening-release")
    buf = io.BytesIO()
    Image.new("L", (12000, 12000)).save(buf, format="PNG", optimize=True)
    huge = buf.getvalue()

    def request(data: bytes) -> dict[str, Any]:
        block = {
            "type": "image",
            "base64": base64.b64encode(data).decode(),
            "mime_type": "image/png",
        }
        return {
            "state": [{"role": "user", "content": [{"type": "text", "text": "look"}, block]}],
            "questions": {"q": {"type": "noul", "instructions": "Is it blank?"}},
        }

    out: dict[str, Any] = {"png_kb": round(len(huge) / 1024)}
    with server("release", str(folder)) as (url, pid):
        base = _status(pid, "VmHWM")
        for name, data in (("bomb_png", huge), ("not_an_image", b"MZ" + b"\x00" * 5000)):
            response = httpx.post(f"{url}/v1/systemone", json=request(data), timeout=300)
            out[name] = response.status_code
        out["peak_rss_growth_mb"] = round((_status(pid, "VmHWM") - base) / 1e6)
    return out


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--label", required=True)
    parser.add_argument(
        "--only", nargs="*", default=["flood", "timeouts", "slow_clients", "images"]
    )
    args = parser.parse_args()
    results: dict[str, Any] = {"label": args.label}
    for name in args.only:
        results[name] = globals()[name]()
        print(name, json.dumps(results[name]), flush=True)
    out = HERE / "results" / f"hardening-{args.label}.json"
    out.write_text(json.dumps(results, indent=2) + "\n")
    print(f"wrote {out}")


if __name__ == "__main__":
    main()
