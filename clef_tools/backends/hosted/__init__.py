"""Clients of hosted `/v1/systemone` endpoints: retries, error mapping, where secrets may go.

Private modules; the public names are re-exported by `clef_tools`."""
