import pytest

import clef_tools


@pytest.mark.parametrize("package", ["clef_tools", "langchain_clef", "clef_mcp"])
def test_all_lists_exactly_the_public_names_and_each_resolves(package: str) -> None:
    import importlib

    module = importlib.import_module(package)
    assert sorted(dir(module)) == sorted(module.__all__)
    for name in module.__all__:
        assert getattr(module, name) is not None, name
    with pytest.raises(AttributeError, match="no attribute 'nonexistent'"):
        getattr(module, "nonexistent")  # noqa: B009


def test_importing_the_packages_and_building_the_cli_loads_no_heavy_dependency() -> None:
    """`import clef_tools` and `clef-tools --help` cost ~0.5 s, not the 2-3 s torch takes;
    each heavy import happens when what needs it is first used."""
    import subprocess
    import sys

    probe = (
        "import sys, clef_tools, langchain_clef, clef_mcp\n"
        "from clef_tools.cli._main import _parser\n"
        "_parser()\n"
        "heavy = ('torch', 'transformers', 'numpy', 'starlette', 'uvicorn', 'mcp', 'langgraph', 'langchain', 'matplotlib')\n"
        "print(sorted(m for m in heavy if m in sys.modules))"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]", done.stderr
    # the packages alone load not even pydantic: every name is resolved on first use
    bare = "import sys, clef_tools, langchain_clef, clef_mcp; print('pydantic' in sys.modules)"
    done = subprocess.run([sys.executable, "-c", bare], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "False", done.stderr


def test_the_core_never_imports_a_surface() -> None:
    """Imports flow one way: surfaces (`langchain_clef`, `clef_mcp`) import the core, and
    the core finds surface commands through entry points only."""
    import ast
    from pathlib import Path

    surfaces = ("clef_mcp", "langchain_clef", "mcp_server", "adapters")
    offenders = []
    for path in Path(clef_tools.__file__).parent.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            names = (
                [a.name for a in node.names]
                if isinstance(node, ast.Import)
                else [node.module or ""]
                if isinstance(node, ast.ImportFrom)
                else []
            )
            offenders += [f"{path.name}: {n}" for n in names if n.split(".")[0] in surfaces]
    assert offenders == []


def test_the_core_is_laid_out_in_floors() -> None:
    """No import circle, no module importing a floor above its own (lazy imports count),
    every core module on a floor: the picture in docs/how-it-works.md holds."""
    import subprocess
    import sys

    from _paths import ROOT

    done = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "import_graph.py"), "--check"],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "0 circles, 0 upward imports" in done.stdout


def test_surface_commands_come_through_entry_points() -> None:
    from importlib.metadata import entry_points

    commands = {e.name: e.value for e in entry_points(group="clef_tools.commands")}
    assert commands == {"mcp": "clef_mcp.cli:register", "mcp-proxy": "clef_mcp.cli:register_proxy"}


def test_backends_describe_themselves_through_info(smollm2: clef_tools.ReadoutDecider) -> None:
    info = smollm2.info()
    assert (info.kind, info.model_id, info.dtype) == ("readout", smollm2.model_id, "float32")
    assert info.max_context_tokens == smollm2.max_context_tokens and info.calibration is None
    calibrated = clef_tools.CalibratedDecider(smollm2, clef_tools.Calibration(id="c1")).info()
    assert calibrated.calibration == "c1" and calibrated.kind == "readout"
    assert info.supported_types == frozenset({"noul", "choice", "score"})
    cached = clef_tools.CachedDecider(smollm2).info()
    assert cached.kind == "cached" and cached.dtype == "float32"
    remote = clef_tools.SystemOneClient("http://127.0.0.1:9", model="m").info()
    assert remote.kind == "systemone" and remote.details["url"] == "http://127.0.0.1:9/v1/systemone"


async def test_score_is_the_one_error_boundary() -> None:
    from clef_tools.testing import BrokenDecider

    request = clef_tools.validate_request("x", {"q": {"type": "noul", "instructions": "?"}})
    with pytest.raises(clef_tools.BackendError, match="CUDA out of memory"):
        BrokenDecider().score([request])
    with pytest.raises(clef_tools.BackendError, match="CUDA out of memory"):
        await BrokenDecider().ascore([request])
    each = await BrokenDecider().adecide_each([{"state": "x", "questions": {}}, request])
    assert isinstance(each[0], clef_tools.RequestValidationError)
    assert isinstance(each[1], clef_tools.BackendError)


def test_a_new_backend_is_one_registry_entry(monkeypatch: pytest.MonkeyPatch) -> None:
    """What adding a backend takes: its module (here `InstantDecider`), how it is written
    (a `BackendFamily`) and how it opens (an opener)."""
    from clef_tools.backends import _registry, _spec
    from clef_tools.testing import InstantDecider

    instant = _spec.BackendFamily(
        kind="instant",
        forms=("instant",),
        summary="uniform answers at once",
        keywords=frozenset({"instant"}),
    )
    monkeypatch.setattr(_spec, "FAMILIES", (*_spec.FAMILIES, instant))
    monkeypatch.setitem(_registry.OPENERS, "instant", lambda spec, options: InstantDecider())
    assert isinstance(clef_tools.load_decider("instant"), InstantDecider)
    assert "'instant'" in _spec.spec_forms()
    assert _spec.parse_spec("./instant").kind == "readout"  # a path is never a keyword


async def test_every_surface_reports_the_package_version(
    smollm2: clef_tools.ReadoutDecider,
) -> None:
    import subprocess
    import sys

    from mcp import Client

    from clef_mcp import build_server

    done = subprocess.run(
        [sys.executable, "-m", "clef_tools.cli", "--version"], capture_output=True, text=True
    )
    assert done.returncode == 0 and done.stdout.strip() == f"clef-tools {clef_tools.__version__}"
    async with Client(build_server(lambda: smollm2)) as client:
        assert client.server_info is not None
        assert (client.server_info.name, client.server_info.version) == (
            "clef",
            clef_tools.__version__,
        )


def test_a_misspelt_option_is_refused_not_ignored() -> None:
    """`sourse="smollm2"` used to be dropped silently and the heavy default model loaded."""
    from pydantic import ValidationError

    from langchain_clef import ClefDecisionModel

    with pytest.raises(ValidationError, match="sourse"):
        ClefDecisionModel(sourse="smollm2")  # type: ignore[call-arg]
    assert ClefDecisionModel(model="smollm2").source == "smollm2"
