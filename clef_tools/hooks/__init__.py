"""The gate where agents run: hook events from coding-agent hosts (Claude Code), answered
by a resident gate. The client side (`_client`) imports only the stdlib; the names below
load on first use."""

from __future__ import annotations

from typing import TYPE_CHECKING

from clef_tools._lazy import lazy_names

if TYPE_CHECKING:
    from clef_tools.hooks._engine import HookEngine
    from clef_tools.hooks._install import install_hooks

__all__ = ["HookEngine", "install_hooks"]

__getattr__, __dir__ = lazy_names(
    __name__,
    {
        "HookEngine": "clef_tools.hooks._engine",
        "install_hooks": "clef_tools.hooks._install",
    },
    __all__,
)
