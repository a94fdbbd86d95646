"""The one-pass readout of a local causal LM: prompt, labels, forward pass, prefix cache.
Private modules; the public names are re-exported by `clef_tools`."""
