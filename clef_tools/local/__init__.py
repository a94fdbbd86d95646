"""Local causal-LM readouts: loading models without a hub, the one-pass readout, prefix caching.

Private modules; the public names are re-exported by `clef_tools`."""
