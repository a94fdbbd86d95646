"""Backends built on other backends: calibration, the cascade, the result cache.
Private modules; the public names are re-exported by `clef_tools`."""
