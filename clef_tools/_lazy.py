"""Package faces whose names load on first use (PEP 562): `import clef_tools` costs
milliseconds and needs none of the optional extras."""

from __future__ import annotations

import sys
from collections.abc import Callable, Mapping
from importlib import import_module
from typing import Any

from clef_tools._extras import needs_extra

__all__ = ["lazy_names"]


def lazy_names(
    package: str, where: Mapping[str, str], public: list[str]
) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """`__getattr__` and `__dir__` for a package whose public names (`where`: name → the
    module defining it) load on first use (PEP 562). A name whose extra is missing raises
    `MissingExtraError`; a loaded name is kept in the package, so it costs one import."""

    def getattr_(name: str) -> Any:
        module = where.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        with needs_extra(f"{package}.{name}"):
            value = getattr(import_module(module), name)
        setattr(sys.modules[package], name, value)
        return value

    def dir_() -> list[str]:
        return sorted(public)

    return getattr_, dir_
