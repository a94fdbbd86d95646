"""Backends built on other backends: calibration, the cascade, the result cache.

The classes are re-exported by `clef_tools`; the calibration file format and the cascade's
fusion rule are public here for studies that fit or combine tiers offline."""

from typing import TYPE_CHECKING

from clef_tools._lazy import lazy_names

if TYPE_CHECKING:
    from clef_tools.backends.compose._calibration import CALIBRATION_FORMAT
    from clef_tools.backends.compose._cascade import fuse

_WHERE = {
    "CALIBRATION_FORMAT": "clef_tools.backends.compose._calibration",
    "fuse": "clef_tools.backends.compose._cascade",
}
__all__ = ["CALIBRATION_FORMAT", "fuse"]

__getattr__, __dir__ = lazy_names(__name__, _WHERE, __all__)
