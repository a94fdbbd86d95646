"""The example index: build, file format and refusals, scoring, and every surface's path.

All embeddings are real (the bundled all-MiniLM-L6-v2); the LM is SmolLM2 (real weights).
Option names are opaque codes without descriptions, so only the examples can tell them
apart: a right answer here is the examples' doing.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from langchain_core.decisions import Choice
from safetensors.numpy import load_file, save_file

from clef_tools import (
    CascadeDecider,
    EmbeddingDecider,
    ExampleIndex,
    ExampleIndexError,
    ReadoutDecider,
    build_index,
    load_decider,
    read_examples,
    with_examples,
)
from clef_tools.backends.embedding import Example, open_encoder
from clef_tools.backends.embedding._scoring import fit_index_temperature

ROWS = [
    ("my card was stolen yesterday", "team_a"),
    ("someone used my card without permission", "team_a"),
    ("there is a payment I never made", "team_a"),
    ("where is my parcel", "team_b"),
    ("the package never arrived", "team_b"),
    ("my delivery is two weeks late", "team_b"),
    ("I was charged twice for one order", "team_c"),
    ("the invoice amount is wrong", "team_c"),
    ("please refund the double charge", "team_c"),
]
CODES: dict[str, Any] = {"team_a": None, "team_b": None, "team_c": None}
QUESTION = {"type": "choice", "instructions": "Which team handles this?", "criteria": CODES}


@pytest.fixture(scope="module")
def index() -> ExampleIndex:
    return build_index([Example(t, label) for t, label in ROWS])


def _csv(path: Path, rows: list[tuple[str, str]] = ROWS) -> Path:
    path.write_text("text,label\n" + "".join(f'"{t}",{label}\n' for t, label in rows))
    return path


# -- the file -------------------------------------------------------------------------


def test_round_trip_keeps_rows_vectors_and_model(index: ExampleIndex, tmp_path: Path) -> None:
    path = index.save(tmp_path / "team.clef")
    back = ExampleIndex.load(path)
    assert back.texts == index.texts and back.labels == index.labels
    assert back.model == "all-MiniLM-L6-v2" and back.dim == 384
    assert np.abs(back.vectors - index.vectors).max() < 1e-3  # stored as float16
    assert back.describe()["labels"] == {"team_a": 3, "team_b": 3, "team_c": 3}
    assert back.describe()["source"] == str(path)


def test_a_damaged_or_foreign_file_is_refused_by_name(index: ExampleIndex, tmp_path: Path) -> None:
    path = index.save(tmp_path / "team.clef")
    garbage = tmp_path / "garbage.clef"
    garbage.write_bytes(b"\x00\x01not safetensors at all")
    with pytest.raises(ExampleIndexError, match=r"garbage\.clef: not a readable example index"):
        ExampleIndex.load(garbage)

    plain = tmp_path / "weights.safetensors"
    save_file({"w": np.zeros((2, 2), np.float32)}, str(plain))
    with pytest.raises(ExampleIndexError, match="not a clef-tools example index"):
        ExampleIndex.load(plain)

    from safetensors import safe_open

    with safe_open(str(path), framework="np") as f:
        meta = dict(f.metadata())
    tensors = load_file(str(path))
    edited = json.loads(meta["manifest"])
    edited["labels"][0] = "team_c"  # relabel a row without updating the checksum
    save_file(tensors, str(tmp_path / "edited.clef"), {**meta, "manifest": json.dumps(edited)})
    with pytest.raises(ExampleIndexError, match="checksum mismatch"):
        ExampleIndex.load(tmp_path / "edited.clef")

    save_file(tensors, str(tmp_path / "v9.clef"), {**meta, "format": "clef-tools.examples/9"})
    with pytest.raises(ExampleIndexError, match="examples/9"):
        ExampleIndex.load(tmp_path / "v9.clef")

    with pytest.raises(ExampleIndexError, match="no such example index"):
        ExampleIndex.load(tmp_path / "missing.clef")


def test_an_index_from_another_model_is_refused(tmp_path: Path) -> None:
    other = ExampleIndex("some-other-encoder", 384)
    other.add(["a"], ["team_a"], np.eye(1, 384, dtype=np.float32))
    with pytest.raises(ExampleIndexError, match=r"some-other-encoder.*rebuild"):
        EmbeddingDecider(examples=other)


def test_rows_are_bounded_and_checked() -> None:
    small = ExampleIndex("all-MiniLM-L6-v2", 384, max_rows=2)
    one = np.eye(1, 384, dtype=np.float32)
    with pytest.raises(ExampleIndexError, match="row 0: text of 8001 characters"):
        small.add(["x" * 8001], ["a"], one)
    with pytest.raises(ExampleIndexError, match="NaN"):
        small.add(["x"], ["a"], one * np.nan)
    small.add(["x", "y"], ["a", "b"], np.vstack([one, one]))
    with pytest.raises(ExampleIndexError, match="at most 2 rows"):
        small.add(["z"], ["a"], one)


def test_read_examples_from_csv_and_system_one_jsonl(tmp_path: Path) -> None:
    assert [(e.text, e.label) for e in read_examples(_csv(tmp_path / "x.csv"))] == ROWS
    jsonl = tmp_path / "x.jsonl"
    row = {"state": "lost card", "questions": {"t": QUESTION}, "gold": {"t": "team_a"}}
    jsonl.write_text(json.dumps(row) + "\n" + json.dumps({"text": "late", "label": "team_b"}))
    got = read_examples(jsonl, question="t")
    assert [(e.text, e.label, e.question) for e in got] == [
        ("lost card", "team_a", "t"),
        ("late", "team_b", "t"),
    ]
    (tmp_path / "broken.jsonl").write_text('{"text": "a", "label": "b"}\n{oops\n')
    with pytest.raises(ExampleIndexError, match=r"broken\.jsonl:2: not JSON"):
        read_examples(tmp_path / "broken.jsonl")
    (tmp_path / "bad.csv").write_text("message,team\nhello,a\n")
    with pytest.raises(ExampleIndexError, match="'text' and 'label'"):
        read_examples(tmp_path / "bad.csv")


# -- scoring --------------------------------------------------------------------------


def test_examples_decide_what_option_names_cannot(index: ExampleIndex) -> None:
    bare = EmbeddingDecider()
    taught = EmbeddingDecider(examples=index)
    cases = {
        "a thief took my card and bought things": "team_a",
        "the courier lost my order": "team_b",
        "you billed me two times": "team_c",
    }
    for state, gold in cases.items():
        answer = taught.decide(state, {"team": QUESTION})
        assert answer.choices["team"].choice == gold, state
        # nine rows are too few to calibrate: sure of the right team, but not near-certain
        assert 0.45 < answer.choices["team"].probabilities[gold] < 0.9
        assert answer.tiers == {"team": "examples"}  # type: ignore[attr-defined]
        without = bare.decide(state, {"team": QUESTION}).choices["team"].probabilities
        assert max(without.values()) < 0.6  # the codes alone say little
        assert answer.choices["team"].probabilities[gold] > without[gold]


def test_questions_the_index_does_not_serve_are_answered_as_before(index: ExampleIndex) -> None:
    other = {"type": "choice", "instructions": "Which?", "criteria": {"red": None, "blue": None}}
    state = "the sky on a clear day"
    taught = EmbeddingDecider(examples=index).decide(state, {"c": other})
    bare = EmbeddingDecider().decide(state, {"c": other})
    assert taught.tiers == {"c": "embedding"}  # type: ignore[attr-defined]
    assert taught.choices["c"].probabilities == pytest.approx(bare.choices["c"].probabilities)


def test_rows_fitted_for_one_question_serve_only_that_one() -> None:
    only_team = build_index([Example(t, label, "team") for t, label in ROWS])
    assert only_team.serves("team", list(CODES))
    assert not only_team.serves("other", list(CODES))
    assert only_team.describe()["questions"] == ["team"]


def test_a_recorded_decision_becomes_an_example(index: ExampleIndex) -> None:
    grown = index.copy()
    grown.record({"tool": "refund", "amount": 12}, "team", "team_d")
    assert grown.count == index.count + 1 and index.count == len(ROWS)
    options = [*CODES, "team_d"]
    assert grown.serves("team", options) and "team_d" not in index.labels


def test_leave_one_out_temperature_follows_how_separable_the_labels_are() -> None:
    rng = np.random.default_rng(0)
    centres = rng.normal(size=(4, 32))
    labels = [str(i % 4) for i in range(200)]
    tight = centres[[i % 4 for i in range(200)]] + 0.05 * rng.normal(size=(200, 32))
    noise = rng.normal(size=(200, 32))
    for v in (tight, noise):
        v /= np.linalg.norm(v, axis=1, keepdims=True)
    t_tight = fit_index_temperature(tight.astype(np.float32), labels, 2)
    t_noise = fit_index_temperature(noise.astype(np.float32), labels, 2)
    assert t_tight is not None and t_noise is not None
    # separable labels earn sharp probabilities; random ones are flattened towards uniform
    assert t_tight < 0.05 < 0.5 < t_noise
    assert fit_index_temperature(tight[:10].astype(np.float32), labels[:10], 2) is None


# -- the LM behind it -------------------------------------------------------------------


def test_an_lm_behind_examples(index: ExampleIndex, smollm2: ReadoutDecider) -> None:
    cascade = with_examples(smollm2, index)
    questions: dict[str, Any] = {
        "team": QUESTION,
        "urgent": {"type": "noul", "instructions": "Is it urgent?"},
    }
    response = cascade.decide("a thief took my card and bought things", questions)
    assert response.tiers == {"team": "examples", "urgent": "lm"}  # type: ignore[attr-defined]
    alone = smollm2.decide(
        "a thief took my card and bought things", {"urgent": questions["urgent"]}
    )
    assert response.nouls["urgent"].noul == pytest.approx(alone.nouls["urgent"].noul, abs=1e-6)


def test_unsure_examples_ask_the_lm_with_few_shot_lines(
    index: ExampleIndex, smollm2: ReadoutDecider
) -> None:
    cascade = with_examples(smollm2, index)
    assert isinstance(cascade, CascadeDecider)
    cascade.examples_threshold = 1.01  # nothing is sure enough: every answer is fused
    state = "a thief took my card and bought things"
    fused = cascade.decide(state, {"team": QUESTION})
    assert fused.tiers == {"team": "examples+lm"}  # type: ignore[attr-defined]
    examples_only = EmbeddingDecider(examples=index).decide(state, {"team": QUESTION})
    a = fused.choices["team"].probabilities
    b = examples_only.choices["team"].probabilities
    assert sum(a.values()) == pytest.approx(1.0) and a != pytest.approx(b, abs=1e-4)

    cascade.few_shot = 8
    shot = cascade._with_few_shot(
        state, "team", Choice(instructions="Which team handles this?", criteria=CODES)
    )
    text = str(shot.instructions)
    assert text.startswith("Which team handles this?") and "my card was stolen" in text
    # lines are ordered by option, so the same neighbours always give the same prompt
    assert text.index("-> team_a") < text.index("-> team_b") < text.index("-> team_c")


def test_load_decider_takes_examples(index: ExampleIndex, tmp_path: Path) -> None:
    path = index.save(tmp_path / "team.clef")
    emb = load_decider("embedding", examples=path)
    assert isinstance(emb, EmbeddingDecider) and emb.examples is not None
    held = emb.info().examples
    assert held is not None and held["count"] == len(ROWS)
    cascade = load_decider("cascade:smollm2", examples=index)
    assert cascade.info().examples == index.describe()
    answer = cascade.decide("the courier lost my order", {"team": QUESTION})
    assert answer.choices["team"].choice == "team_b"


# -- surfaces -----------------------------------------------------------------------------


def _cli(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "clef_tools.cli", *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        timeout=300,
    )


@pytest.mark.slow
def test_cli_fit_add_and_decide(tmp_path: Path) -> None:
    data = _csv(tmp_path / "teams.csv")
    out = tmp_path / "teams.clef"
    done = _cli("fit", str(data), "--out", str(out), "--quiet", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["count"] == len(ROWS)
    more = _csv(tmp_path / "more.csv", [("my card got cloned", "team_a")])
    done = _cli("fit", str(more), "--out", str(out), "--add", "--quiet", cwd=tmp_path)
    assert json.loads(done.stdout)["count"] == len(ROWS) + 1

    request = tmp_path / "req.json"
    request.write_text(
        json.dumps({"state": "the courier lost my order", "questions": {"t": QUESTION}})
    )
    args = ("decide", str(request), "--model", "embedding", "--quiet")
    done = _cli(*args, "--examples", str(out), cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    answer = json.loads(done.stdout)["answers"]["t"]
    assert answer["choice"] == "team_b" and answer["tier"] == "examples"

    (tmp_path / "bad.clef").write_bytes(b"nope")
    done = _cli(*args, "--examples", str(tmp_path / "bad.clef"), cwd=tmp_path)
    assert done.returncode == 2
    assert "bad.clef: not a readable example index" in done.stderr
    assert "Traceback" not in done.stderr


def test_v1_models_says_what_the_index_holds(index: ExampleIndex) -> None:
    import httpx
    from _loopback import serving

    from clef_tools import create_app

    body = {"state": "you billed me two times", "questions": {"t": QUESTION}}
    with serving(create_app(EmbeddingDecider(examples=index))) as url:
        models = httpx.get(f"{url}/v1/models", timeout=60).json()
        answer = httpx.post(f"{url}/v1/systemone", json=body, timeout=120).json()
    held = models["models"][0]["examples"]
    assert held["labels"] == {"team_a": 3, "team_b": 3, "team_c": 3}
    assert held["model"] == "all-MiniLM-L6-v2"
    assert answer["answers"]["t"]["choice"] == "team_c"


async def test_mcp_model_info_and_decide_use_the_index(
    index: ExampleIndex, smollm2: ReadoutDecider
) -> None:
    from mcp import Client

    from clef_mcp import build_server

    async with Client(build_server(lambda: with_examples(smollm2, index))) as client:
        # a tool call waits for the background load; model_info never does
        result = await client.call_tool(
            "decide", {"state": "the courier lost my order", "questions": {"t": QUESTION}}
        )
        info = await client.call_tool("model_info", {})
    assert info.structured_content is not None and result.structured_content is not None
    assert info.structured_content["examples"]["count"] == len(ROWS)
    answer = result.structured_content["answers"]["t"]
    assert answer["choice"] == "team_b" and answer["tier"] == "examples"


def test_router_routes_by_example(smollm2: ReadoutDecider) -> None:
    from langchain_core.decisions import BaseDecisionModel
    from langchain_core.runnables import RunnableLambda

    from langchain_clef import DecisionRouter, Route

    def route(name: str, texts: list[str]) -> Route:
        return Route(runnable=RunnableLambda(lambda _: name), description="", examples=texts)

    by_team: dict[str, list[str]] = {}
    for text, label in ROWS:
        by_team.setdefault(label, []).append(text)
    router = DecisionRouter(
        classifier=smollm2,
        routes={name: route(name, texts) for name, texts in by_team.items()},
        include_decision=True,
    )
    result = router.invoke("the courier lost my order")
    assert result.route == "team_b" and result.answer.probabilities["team_b"] > 0.45

    class Foreign(BaseDecisionModel):
        @property
        def _provider(self) -> str:
            return "elsewhere"

        def _classify(self, state: Any, questions: Any) -> Any:
            raise AssertionError("never called")

    with pytest.raises(ValueError, match="need a clef decision model"):
        DecisionRouter(
            classifier=Foreign(model="x"),
            routes={name: route(name, texts) for name, texts in by_team.items()},
        )


def test_the_encoder_is_shared() -> None:
    assert open_encoder() is EmbeddingDecider().encoder


def test_a_request_paths_texts_are_embedded_once_and_kept_safe() -> None:
    """A turn's request is embedded once for all its calls; a kept vector is the one a
    fresh pass gives, and what a caller does to its array does not reach the next caller."""
    encoder = open_encoder()
    request, call = "refund order 4471 to Lena", 'refund_order({"order_id": "4471"})'
    fresh = encoder.embed([request, call, "x" * 50, "y" * 50, "z" * 50])  # not kept: a bulk call
    forwards = 0
    original = encoder.embed_tensor

    def counted(texts: list[str]) -> Any:
        nonlocal forwards
        forwards += 1
        return original(texts)

    encoder.embed_tensor = counted  # type: ignore[method-assign]
    try:
        first = encoder.embed([request, call])
        first[0][:] = 0.0  # the caller's own copy
        again = encoder.embed([request, "another call of the same turn"])
        repeat = encoder.embed([request])
    finally:
        del encoder.embed_tensor
    assert forwards == 2  # the request once, the second call once; the third was kept
    assert np.allclose(again[0], fresh[0], atol=1e-5) and np.allclose(
        repeat[0], fresh[0], atol=1e-5
    )
    assert np.allclose(first[1], fresh[1], atol=1e-5)


def test_a_sentence_transformers_folder_with_dense_layers_and_a_prompt(tmp_path: Path) -> None:
    """Another encoder is a folder: its Dense layers and classification prompt are applied
    as sentence-transformers would, and an index built with it is refused by MiniLM."""
    import shutil

    import torch
    from safetensors.torch import save_file as save_torch

    bundled = open_encoder()
    folder = tmp_path / "rotated-minilm"
    shutil.copytree(bundled.path, folder)
    rotation = torch.linalg.qr(torch.randn(384, 384, generator=torch.Generator().manual_seed(0)))[0]
    (folder / "2_Dense").mkdir()
    save_torch({"linear.weight": rotation.contiguous()}, str(folder / "2_Dense/model.safetensors"))
    (folder / "2_Dense/config.json").write_text(
        json.dumps(
            {
                "in_features": 384,
                "out_features": 384,
                "bias": False,
                "activation_function": "torch.nn.modules.linear.Identity",
            }
        )
    )
    modules = json.loads((folder / "modules.json").read_text())
    modules.insert(
        2, {"idx": 2, "name": "2", "path": "2_Dense", "type": "sentence_transformers.models.Dense"}
    )
    (folder / "modules.json").write_text(json.dumps(modules))
    (folder / "config_sentence_transformers.json").write_text(
        json.dumps({"prompts": {"Classification": "task: classification | query: "}})
    )
    other = open_encoder(folder)
    assert other.prompt == "task: classification | query: " and other.model_id != bundled.model_id
    got = other.embed(["where is my parcel"])[0]
    base = bundled.embed(["task: classification | query: where is my parcel"])[0]
    # a rotation keeps unit length, so normalising after it changes nothing
    assert np.allclose(got, (rotation.numpy() @ base), atol=1e-5)

    index = build_index([Example(t, label) for t, label in ROWS], encoder=other)
    assert index.model == other.model_id and index.encoder_path == str(other.path)
    with pytest.raises(ExampleIndexError, match="rebuild"):
        EmbeddingDecider(bundled.path, examples=index)  # MiniLM cannot read these vectors
    # without a path, the index's own encoder is opened again (its id must still match)
    hinted = EmbeddingDecider(examples=index.save(tmp_path / "rotated.clef"))
    assert hinted.encoder is other
    answer = hinted.decide("the courier lost my order", {"t": QUESTION})
    assert answer.choices["t"].choice == "team_b"
    spec = load_decider(f"embedding:{folder}")
    assert isinstance(spec, EmbeddingDecider) and spec.encoder is other
    # `fit --add` reopens the index's own encoder rather than the default one
    more = _csv(tmp_path / "more.csv", [("my card got cloned", "team_a")])
    out = str(tmp_path / "rotated.clef")
    done = _cli("fit", str(more), "--out", out, "--add", "--quiet", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    added = json.loads(done.stdout)
    assert added["count"] == len(ROWS) + 1 and added["model"] == other.model_id
    # a folder changed since (or swapped) is not opened on the index's word
    (folder / "config_sentence_transformers.json").write_text(json.dumps({"prompts": {}}))
    with pytest.raises(ExampleIndexError, match="rebuild"):
        EmbeddingDecider(examples=tmp_path / "rotated.clef")


def test_none_of_these_wins_when_the_input_is_unlike_every_example(index: ExampleIndex) -> None:
    from clef_tools.backends.embedding._scoring import fit_none_floor, is_none_option, loo_scores

    assert is_none_option("None of these") and is_none_option("out-of-scope")
    assert not is_none_option("team_a")
    rng = np.random.default_rng(1)
    centres = rng.normal(size=(4, 32))
    vectors = centres[[i % 4 for i in range(200)]] + 0.3 * rng.normal(size=(200, 32))
    vectors = (vectors / np.linalg.norm(vectors, axis=1, keepdims=True)).astype(np.float32)
    labels = [str(i % 4) for i in range(200)]
    floor = fit_none_floor(vectors, labels, 2)
    found = loo_scores(vectors, labels, 2)
    assert floor is not None and found is not None
    own = found[0][np.arange(found[1].size), found[1]]
    assert np.mean(own >= floor) == pytest.approx(0.95, abs=0.01)  # 5 % fall below it

    with_none = index.copy()
    with_none.none_floor = float(
        np.sort(with_none.vectors @ with_none.vectors.T, axis=1)[:, -3].min()
    )
    question = {**QUESTION, "criteria": {**CODES, "none_of_these": "none of the above"}}
    decider = EmbeddingDecider(examples=with_none)
    unlike = decider.decide("what a lovely sunny day for a picnic", {"t": question}).choices["t"]
    like = decider.decide("the courier lost my order", {"t": question}).choices["t"]
    assert unlike.choice == "none_of_these" and like.choice == "team_b"
    assert with_none.describe()["none_floor"] == with_none.none_floor


def test_labelled_out_of_scope_examples_never_make_out_of_scope_worse() -> None:
    """Out-of-scope rows are scattered: on their own they once pulled the none option below
    the floor it scores without them (recall 0.86 → 0.04 on a held-out intent set)."""
    from clef_tools.backends.embedding import ExampleIndex

    rng = np.random.default_rng(7)
    dim = 32
    centres = rng.normal(size=(4, dim))

    def unit(v: Any) -> Any:
        return (v / np.linalg.norm(v, axis=-1, keepdims=True)).astype(np.float32)

    in_scope = unit(centres[[i % 4 for i in range(120)]] + 0.3 * rng.normal(size=(120, dim)))
    labels = [f"intent_{i % 4}" for i in range(120)]
    scattered = unit(rng.normal(size=(12, dim)))  # labelled out-of-scope rows, all over
    bare = ExampleIndex("toy", dim)
    bare.add([f"t{i}" for i in range(120)], labels, in_scope)
    bare.refit_temperature()
    labelled = ExampleIndex("toy", dim)
    labelled.add(
        [f"t{i}" for i in range(132)],
        labels + ["out_of_scope"] * 12,
        np.vstack([in_scope, scattered]),
    )
    labelled.refit_temperature()
    # the floor is fitted on in-scope rows: the same with or without out-of-scope rows
    assert bare.none_floor is not None and labelled.none_floor == pytest.approx(bare.none_floor)
    options = [*(f"intent_{k}" for k in range(4)), "out_of_scope"]
    held_out = unit(rng.normal(size=(200, dim)))  # messages of intents the index never saw
    near = unit(centres[[i % 4 for i in range(200)]] + 0.3 * rng.normal(size=(200, dim)))

    def picks(index: ExampleIndex, queries: Any) -> list[str]:
        out = []
        for q in queries:
            logits = index.option_logits(q, "t", options, [0.0] * len(options))
            assert logits is not None
            out.append(options[int(np.argmax(logits))])
        return out

    recall_bare = np.mean([p == "out_of_scope" for p in picks(bare, held_out)])
    recall_labelled = np.mean([p == "out_of_scope" for p in picks(labelled, held_out)])
    assert recall_bare > 0.5 and recall_labelled >= recall_bare
    # and in-scope messages keep their intents
    kept = np.mean([p != "out_of_scope" for p in picks(labelled, near)])
    assert kept > 0.9


def test_an_index_too_small_to_calibrate_says_so_and_is_not_sure_of_itself() -> None:
    from clef_tools.backends.embedding._index import SmallIndexWarning

    rows = [
        (f"{verb} my {thing}", label)
        for label, verb in (("billing", "refund"), ("shipping", "track"), ("tech", "fix"))
        for thing in ("order", "card", "phone", "account", "parcel")
    ]  # 15 rows, as a user's first try
    with pytest.warns(SmallIndexWarning, match="15 rows: too few to calibrate"):
        tiny = build_index([Example(t, label, "team") for t, label in rows])
    question = {"type": "choice", "instructions": "Which team?",
                "criteria": {"billing": None, "shipping": None, "tech": None}}  # fmt: skip
    answer = EmbeddingDecider(examples=tiny).decide("refund my order", {"team": question})
    probabilities = answer.choices["team"].probabilities
    assert answer.choices["team"].choice == "billing"
    assert probabilities["billing"] < 0.95  # a row it holds verbatim, and still not certain
