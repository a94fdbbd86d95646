"""`python -m clef_tools.cli`."""

from clef_tools.cli._main import main

raise SystemExit(main())
