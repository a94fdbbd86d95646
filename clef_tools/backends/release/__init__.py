"""The Clef-Flash release, run through the release folder's own code. Private modules;
the public names are re-exported by `clef_tools`."""
