"""Write the generated pages (docs/quality.md, docs/performance.md) from bench/results/.

    .venv/bin/python scripts/docs_tables.py          # write them
    .venv/bin/python scripts/docs_tables.py --check  # exit 1 if a committed page is stale

Tables of figures live only in these pages; the README and the other docs link to them.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
import perf_doc  # sibling scripts, found via the line above
import quality_doc

PAGES = {quality_doc.OUT: quality_doc.render, perf_doc.OUT: perf_doc.render}


def main(argv: list[str]) -> int:
    stale = []
    for path, render in PAGES.items():
        text = render()
        if "--check" in argv:
            if not path.exists() or path.read_text() != text:
                stale.append(path.name)
        else:
            path.write_text(text)
            sys.stdout.write(f"wrote {path.relative_to(perf_doc.ROOT)}\n")
    if stale:
        sys.stdout.write(f"stale: {', '.join(stale)}; run scripts/docs_tables.py\n")
    return 1 if stale else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
