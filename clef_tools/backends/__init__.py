"""The backend contract (`Decider`), the registry of backend families, and backends built on others.

Private modules; the public names are re-exported by `clef_tools`."""
