"""What every local engine shares: model files resolved without a hub (folders, GGUF, the
embedded wheels), the dedicated torch thread.

`run_on_torch_thread` is public here for tools that must act on that thread (a profiler
tracing a request, say); the rest is private."""

from typing import TYPE_CHECKING

from clef_tools._lazy import lazy_names

if TYPE_CHECKING:
    from clef_tools.backends.local._torch_thread import run_on_torch_thread

_WHERE = {"run_on_torch_thread": "clef_tools.backends.local._torch_thread"}
__all__ = ["run_on_torch_thread"]

__getattr__, __dir__ = lazy_names(__name__, _WHERE, __all__)
