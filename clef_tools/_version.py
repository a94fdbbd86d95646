"""The package version, read from the installed distribution's metadata (one place:
`pyproject.toml`)."""

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("clef-tools")
except PackageNotFoundError:  # pragma: no cover - a source tree that was never installed
    __version__ = "0+unknown"

__all__ = ["__version__"]
