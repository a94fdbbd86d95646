"""`clef-tools`: answer `/v1/systemone` requests from the shell, inspect and warm the model,
serve, evaluate, calibrate, fit. One module per group of commands; `options` holds what
they share."""

from clef_tools.cli._main import main

__all__ = ["main"]
