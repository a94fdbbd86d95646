import sys

from clef_mcp import main

if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
