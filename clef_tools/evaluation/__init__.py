"""Measuring decisions on labelled data: datasets, metrics, the eval run, calibration fits.

Private modules; the public names are re-exported by `clef_tools`."""
