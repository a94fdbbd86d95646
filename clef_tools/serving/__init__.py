"""`clef-tools serve`: the HTTP app, its access guard, body rules and a bounded uvicorn runner.

Private modules; the public names are re-exported by `clef_tools`."""
