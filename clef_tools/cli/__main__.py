"""`python -m clef_tools.cli`."""

from clef_tools.cli import main

raise SystemExit(main())
