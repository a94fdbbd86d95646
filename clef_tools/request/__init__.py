"""The request model: validation, the wire format, rendering, confidence, errors, limits.

Private modules; the public names are re-exported by `clef_tools`."""
