"""The Clef release backend, on a tiny stand-in release built here (real files, real forward).

The stand-in follows the documented loader interface; these tests check our glue: import
from the folder, `local_files_only` loading, the length check before inference, batching,
choice options mapped back from the release's alphabetical order, images handed to the
processor, and confidence recomputed with the TypeSafe formulas (the release reports
max-prob). The full-size model runs only where its weights are on disk.
"""

from __future__ import annotations

import base64
import io
import os
import shutil
from pathlib import Path
from typing import Any

import pytest
import torch
from _release import build_standin_release
from langchain_core.decisions import ClassifierRequest, State

from clef_tools import (
    ClefReleaseDecider,
    ModelUnavailableError,
    RequestValidationError,
    StateTooLongError,
    choice_confidence,
    load_decider,
    score_confidence,
)
from clef_tools.backends._factory import backend_kind
from clef_tools.backends.release._release import import_release_module

QUESTIONS: dict[str, Any] = {
    "refund": {"type": "noul", "instructions": "Is the customer asking for a refund?"},
    # insertion order differs from the release's alphabetical order on purpose
    "team": {
        "type": "choice",
        "instructions": "Which team?",
        "criteria": {"tech": "bugs", "billing": "money", "accounts": None},
    },
    "mood": {
        "type": "score",
        "instructions": "How upset?",
        "criteria": ["calm", "annoyed", "angry"],
    },
}
STATE = "Customer wrote: I was charged twice for my order and want a refund today."


@pytest.fixture(scope="module")
def release_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_standin_release(tmp_path_factory.mktemp("clef-release") / "clef-flash-standin")


@pytest.fixture(scope="module")
def release(release_dir: Path) -> ClefReleaseDecider:
    return ClefReleaseDecider(release_dir, trust_release_code=True, device="cpu", dtype="fp32")


def _direct(decider: ClefReleaseDecider, state: Any, questions: dict[str, Any]) -> list[Any]:
    """What the release's own functions give, called by hand (no clef-tools glue)."""
    module = decider.module
    record = {"model": "x", "state": state, "questions": questions}
    enc = module.encode_record(decider.tokenizer, record, processor=decider.processor)
    batch = module.collate_records([enc], decider.pad_token_id, torch.device("cpu"))
    with torch.inference_mode():
        logits = decider.model(batch)[0]
    return [
        dict(zip(q.option_ids, lg.softmax(-1).tolist(), strict=True))
        for q, lg in zip(enc.questions, logits, strict=True)
    ]


def test_answers_equal_the_release_functions_mapped_to_our_option_order(
    release: ClefReleaseDecider,
) -> None:
    response = release.decide(STATE, QUESTIONS)
    refund, team, mood = _direct(release, STATE, QUESTIONS)

    assert response.model == "clef-flash-standin"
    assert response.nouls["refund"].noul == pytest.approx(refund["true"], abs=1e-6)
    answer = response.choices["team"]
    assert list(answer.probabilities) == ["tech", "billing", "accounts"]
    for label, p in answer.probabilities.items():
        assert p == pytest.approx(team[label], abs=1e-6)
    assert answer.choice == max(team, key=team.__getitem__)
    # confidence is TypeSafe's formula, not the release's max-prob
    assert answer.confidence == pytest.approx(choice_confidence(list(team.values())))
    assert answer.confidence != pytest.approx(max(team.values()))
    levels = [mood[str(i)] for i in range(3)]
    assert response.scores["mood"].score == pytest.approx(sum(i * p for i, p in enumerate(levels)))
    assert response.scores["mood"].confidence == pytest.approx(score_confidence(levels))
    assert response.usage is not None and response.usage["input_tokens"] > 50


def test_batched_requests_equal_single_ones(release: ClefReleaseDecider) -> None:
    states: list[State] = [
        STATE,
        "short",
        STATE + " " + STATE,
        {"ticket": 7, "text": "login fails"},
    ]
    requests: list[ClassifierRequest] = [{"state": s, "questions": QUESTIONS} for s in states]
    batched = release.decide_batch(requests)
    for request, answer in zip(requests, batched, strict=True):
        alone = release.decide(request["state"], QUESTIONS)
        assert answer.nouls["refund"].noul == pytest.approx(alone.nouls["refund"].noul, abs=1e-5)
        for label, p in alone.choices["team"].probabilities.items():
            assert answer.choices["team"].probabilities[label] == pytest.approx(p, abs=1e-5)


def test_too_long_is_refused_before_inference_never_truncated(
    release_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    short = ClefReleaseDecider(
        release_dir, trust_release_code=True, device="cpu", dtype="fp32", max_context_tokens=600
    )
    calls: list[int] = []
    original = short.model.forward

    def forward(batch: Any) -> Any:
        calls.append(1)
        return original(batch)

    monkeypatch.setattr(short.model, "forward", forward)
    long_state = "refund please " * 300
    with pytest.raises(StateTooLongError) as err:
        short.decide(long_state, QUESTIONS)
    assert err.value.tokens > 600 and err.value.limit == 600
    assert err.value.path == "state"
    assert calls == []  # refused before any forward pass
    # ... whereas the release on its own would have cut the state to fit
    module = short.module
    enc = module.encode_record(
        short.tokenizer, {"state": long_state, "questions": QUESTIONS}, max_length=600
    )
    assert len(enc.input_ids) <= 600


def test_images_reach_the_processor(release: ClefReleaseDecider) -> None:
    from PIL import Image

    def png(colour: tuple[int, int, int]) -> str:
        buf = io.BytesIO()
        Image.new("RGB", (8, 8), colour).save(buf, format="PNG")
        return base64.b64encode(buf.getvalue()).decode()

    def state(colour: tuple[int, int, int]) -> list[dict[str, Any]]:
        return [
            {
                "role": "user",
                "content": [
                    {"type": "text", "text": "Is this receipt a duplicate?"},
                    {"type": "image", "base64": png(colour), "mime_type": "image/png"},
                ],
            }
        ]

    red = release.decide(state((255, 0, 0)), QUESTIONS).nouls["refund"].noul
    blue = release.decide(state((0, 0, 255)), QUESTIONS).nouls["refund"].noul
    text_only = (
        release.decide(
            [
                {
                    "role": "user",
                    "content": [{"type": "text", "text": "Is this receipt a duplicate?"}],
                }
            ],
            QUESTIONS,
        )
        .nouls["refund"]
        .noul
    )
    assert len({round(red, 6), round(blue, 6), round(text_only, 6)}) == 3


def test_an_image_its_decoder_refuses_is_a_422(release: ClefReleaseDecider) -> None:
    """The header passes the size check, the body is garbage: a 422 naming the image,
    not a 500 from inside Pillow."""
    import struct
    import zlib

    ihdr = b"IHDR" + struct.pack(">IIBBBBB", 10, 10, 8, 2, 0, 0, 0)
    broken = (
        b"\x89PNG\r\n\x1a\n"
        + struct.pack(">I", 13)
        + ihdr
        + struct.pack(">I", zlib.crc32(ihdr))
        + b"\x00\x00\x00\x04IDATjunk"
    )
    block = {"type": "image", "base64": base64.b64encode(broken).decode(), "mime_type": "image/png"}
    with pytest.raises(RequestValidationError) as info:
        release.decide([{"role": "user", "content": [block]}], QUESTIONS)
    assert info.value.issues[0].path == "state.0.content.0"
    assert "cannot be decoded" in info.value.issues[0].msg


def test_missing_files_and_the_env_var(
    release_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    broken = tmp_path / "broken"
    shutil.copytree(release_dir, broken)
    (broken / "joint_head.safetensors").unlink()
    with pytest.raises(ModelUnavailableError, match=r"joint_head\.safetensors"):
        ClefReleaseDecider(broken, trust_release_code=True)
    monkeypatch.delenv("CLEF_FLASH_PATH", raising=False)
    with pytest.raises(ModelUnavailableError, match="CLEF_FLASH_PATH"):
        load_decider("clef-flash", trust_release_code=True)
    monkeypatch.setenv("CLEF_FLASH_PATH", str(release_dir))
    decider = load_decider("clef-flash", device="cpu", dtype="fp32", trust_release_code=True)
    assert isinstance(decider, ClefReleaseDecider)
    explicit = load_decider(release_dir, device="cpu", trust_release_code=True)
    assert isinstance(explicit, ClefReleaseDecider)


def test_release_code_runs_only_on_an_explicit_opt_in(
    release_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The attack: a folder named like a keyword, holding a release whose Python file
    leaves a mark when imported, in the working directory an MCP host starts us in."""
    marker = tmp_path / "ran"
    for name in ("embedded", "smollm2", "clef-flash", "embedding", "myrelease"):
        folder = tmp_path / name
        shutil.copytree(release_dir, folder)
        with (folder / "joint_schema_model.py").open("a") as f:
            f.write(f"\nopen({str(marker)!r}, 'w').write('pwned')\n")
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("CLEF_FLASH_PATH", raising=False)
    for spec in ("embedded", "smollm2", "clef-flash", "embedding", None):
        kind = backend_kind(spec)
        assert kind != "release" or spec == "clef-flash", spec
    assert backend_kind("./embedded") == "release"  # a path names the folder explicitly
    with pytest.raises(ModelUnavailableError, match="trust_release_code"):
        load_decider("./embedded")
    monkeypatch.setenv("CLEF_FLASH_PATH", str(tmp_path / "smollm2"))
    with pytest.raises(ModelUnavailableError, match="trust_release_code"):
        load_decider("clef-flash")
    with pytest.raises(ModelUnavailableError, match=r"write \./myrelease"):
        load_decider("myrelease")  # a bare word is never looked up as a folder
    assert not marker.exists()


def test_a_loader_without_the_release_api_is_refused(tmp_path: Path) -> None:
    (tmp_path / "joint_schema_model.py").write_text("def load_release_model(): ...\n")
    with pytest.raises(ModelUnavailableError, match="encode_record"):
        import_release_module(tmp_path)


@pytest.mark.slow
def test_full_size_clef_flash_when_its_weights_exist() -> None:
    path = os.environ.get("CLEF_FLASH_PATH")
    if not path or not (Path(path) / "joint_schema_model.py").is_file():
        pytest.skip(
            "full-size Clef-Flash weights are not on this machine (set CLEF_FLASH_PATH to the "
            "release folder to run this; it needs ~19 GB in bf16, a GPU for usable speed)"
        )
    decider = load_decider("clef-flash")
    response = decider.decide(
        "Customer wrote: I was charged twice for my order and want one charge refunded.",
        QUESTIONS,
    )
    assert response.nouls["refund"].noul > 0.5
    assert response.choices["team"].choice == "billing"


async def test_concurrent_callers_share_padded_forwards(
    release_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import asyncio

    decider = ClefReleaseDecider(
        release_dir, trust_release_code=True, device="cpu", dtype="fp32", batch_window_ms=20
    )
    forwards: list[int] = []
    original = decider.model.forward

    def forward(batch: Any) -> Any:
        forwards.append(len(batch["records"]))
        return original(batch)

    monkeypatch.setattr(decider.model, "forward", forward)
    states = [f"Customer {i}: {'refund ' * i}please" for i in range(8)]
    serial = [decider.decide(s, QUESTIONS) for s in states]
    forwards.clear()
    together = await asyncio.gather(*(decider.adecide(s, QUESTIONS) for s in states))
    assert sum(forwards) == 8 and len(forwards) < 8  # rows shared forward passes
    for a, b in zip(serial, together, strict=True):
        assert b.nouls["refund"].noul == pytest.approx(a.nouls["refund"].noul, abs=1e-5)
        for label, p in a.choices["team"].probabilities.items():
            assert b.choices["team"].probabilities[label] == pytest.approx(p, abs=1e-5)


async def test_one_bad_request_does_not_fail_its_batch(release_dir: Path) -> None:
    import asyncio

    decider = ClefReleaseDecider(
        release_dir,
        trust_release_code=True,
        device="cpu",
        dtype="fp32",
        max_context_tokens=600,
        batch_window_ms=20,
    )
    results = await asyncio.gather(
        decider.adecide("short and fine", QUESTIONS),
        decider.adecide("refund please " * 300, QUESTIONS),  # too long
        decider.adecide("also fine", QUESTIONS),
        return_exceptions=True,
    )
    assert isinstance(results[1], StateTooLongError)
    assert not isinstance(results[0], Exception) and not isinstance(results[2], Exception)


async def test_a_cancelled_caller_leaves_the_batch_intact(release_dir: Path) -> None:
    import asyncio

    decider = ClefReleaseDecider(
        release_dir, trust_release_code=True, device="cpu", dtype="fp32", batch_window_ms=50
    )
    impatient = asyncio.create_task(decider.adecide("I give up", QUESTIONS))
    patient = asyncio.create_task(decider.adecide(STATE, QUESTIONS))
    await asyncio.sleep(0.01)
    impatient.cancel()
    answer = await patient
    assert impatient.cancelled()
    assert answer.nouls["refund"].noul == pytest.approx(
        decider.decide(STATE, QUESTIONS).nouls["refund"].noul, abs=1e-5
    )


def test_a_huge_request_is_batched_alone(release_dir: Path) -> None:
    from clef_tools.backends.release._release import _Encoded

    decider = ClefReleaseDecider(
        release_dir,
        trust_release_code=True,
        device="cpu",
        dtype="fp32",
        batch_size=8,
        batch_tokens=1000,
        max_context_tokens=1000,
    )
    sizes = [100, 120, 900, 110, 130]
    chunks = decider._chunks([_Encoded(i, None, n) for i, n in enumerate(sizes)])
    assert [[e.tokens for e in c] for c in chunks] == [[100, 110, 120, 130], [900]]
    assert all(len(c) * max(e.tokens for e in c) <= 1000 for c in chunks)


def test_cli_model_reports_the_release_folder(
    release_dir: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import json

    from clef_tools.cli import main

    monkeypatch.delenv("CLEF_FLASH_PATH", raising=False)
    monkeypatch.setenv("CLEF_TOOLS_MODEL", str(release_dir))  # the folder named by the env
    assert main(["model"]) == 0
    info = json.loads(capsys.readouterr().out)
    assert info["backend"] == "release" and info["path"] == str(release_dir.resolve())
    monkeypatch.setenv("CLEF_FLASH_PATH", str(release_dir))
    assert main(["model", "--backend", "clef-flash"]) == 0
    assert json.loads(capsys.readouterr().out)["path"] == str(release_dir.resolve())


def test_answers_equal_the_release_modules_own_systemone(release: ClefReleaseDecider) -> None:
    """The stand-in follows the published module's interface, `systemone()` included: our
    answers equal what that function returns for the same wire request, to its 4-dp
    rounding, except for confidence (ours is TypeSafe's formula, the release's max-prob)."""
    wire = {"model": release.model_id, "state": STATE, "questions": QUESTIONS}
    theirs = release.module.systemone(release.model, release.processor, wire)
    ours = release.decide(STATE, QUESTIONS)
    assert ours.usage is not None
    assert ours.usage["input_tokens"] == theirs["usage"]["input_tokens"]
    assert ours.nouls["refund"].noul == pytest.approx(theirs["answers"]["refund"]["noul"], abs=5e-5)
    team = theirs["answers"]["team"]
    assert ours.choices["team"].choice == team["choice"]
    assert ours.choices["team"].probabilities == pytest.approx(team["probabilities"], abs=5e-5)
    assert max(ours.choices["team"].probabilities.values()) == pytest.approx(
        team["confidence"], abs=5e-5
    )
    mood = theirs["answers"]["mood"]
    assert ours.scores["mood"].score == pytest.approx(mood["score"], abs=5e-4)
    # the Python answer keys levels by int; the wire (theirs) by their string
    ours_levels = {str(k): v for k, v in ours.scores["mood"].probabilities.items()}
    assert ours_levels == pytest.approx(mood["probabilities"], abs=5e-5)
    assert {str(k): v for k, v in ours.scores["mood"].legend.items()} == mood["legend"]


@pytest.mark.parametrize("marker", ["model_type", "video_preprocessor_config.json"])
def test_a_qwen3_5_release_without_torchvision_says_what_to_install(
    release_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, marker: str
) -> None:
    """The real release's processor (Qwen3-VL's) needs torchvision even for text: say so
    before loading, with the command for this torch build, instead of failing inside
    transformers."""
    import json
    import shutil
    import sys

    from clef_tools import MissingExtraError

    folder = tmp_path / "clef-flash"
    shutil.copytree(release_dir, folder)
    if marker == "model_type":
        config = json.loads((folder / "config.json").read_text())
        (folder / "config.json").write_text(json.dumps({**config, "model_type": "qwen3_5"}))
    else:
        (folder / marker).write_text("{}")
    monkeypatch.setitem(sys.modules, "torchvision", None)  # as if not installed
    with pytest.raises(MissingExtraError) as caught:
        ClefReleaseDecider(folder, trust_release_code=True, device="cpu", dtype="fp32")
    error = caught.value
    assert error.extra == "release" and error.missing_module == "torchvision"
    import torch

    minor = int(torch.__version__.split(".")[1])
    assert f"torchvision==0.{minor + 15}.*" in str(error)
    if torch.version.cuda is None:  # a CPU torch must not be sent to PyPI's CUDA build
        assert "download.pytorch.org/whl/cpu" in str(error)


def test_a_torchvision_built_for_another_torch_is_named(
    release_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import importlib.abc
    import shutil
    import sys

    class BrokenBuild(importlib.abc.MetaPathFinder):
        def find_spec(self, name: str, path: Any, target: Any = None) -> None:
            if name == "torchvision":
                raise OSError("libc10_cuda.so: cannot open shared object file")
            return None

    folder = tmp_path / "clef-flash"
    shutil.copytree(release_dir, folder)
    (folder / "video_preprocessor_config.json").write_text("{}")
    monkeypatch.delitem(sys.modules, "torchvision", raising=False)
    monkeypatch.setattr(sys, "meta_path", [BrokenBuild(), *sys.meta_path])
    with pytest.raises(ModelUnavailableError, match="does not import next to this torch") as caught:
        ClefReleaseDecider(folder, trust_release_code=True, device="cpu", dtype="fp32")
    assert "libc10_cuda.so" in str(caught.value) and "torchvision==" in str(caught.value)


def test_a_plain_release_does_not_need_torchvision(release: ClefReleaseDecider) -> None:
    from clef_tools.backends.release._release import check_processor_dependencies

    check_processor_dependencies(release.path)  # the stand-in's Qwen2 backbone: no video part
