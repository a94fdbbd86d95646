"""The one-pass readout on a real small model (SmolLM2-135M, real forward passes)."""

from __future__ import annotations

import math
from typing import Any

import pytest
import torch
from langchain_core.decisions import Choice, ClassifierRequest, Noul, NoulCriteria, Score
from langchain_core.messages import AIMessage, HumanMessage

from clef_tools import ReadoutDecider, StateTooLongError, UnsupportedInputError
from clef_tools.backends.readout._forward import RowBatch
from clef_tools.backends.readout._labels import LETTERS, verify_labels
from clef_tools.backends.readout._prompt import choice_block, noul_block, score_block

STATE = "Order #4411: the customer was charged twice and wants one charge refunded today."
QUESTIONS: dict[str, Any] = {
    "refund": Noul(
        instructions="Is the customer asking for a refund?",
        criteria=NoulCriteria(true="money back", false="other"),
    ),
    "team": Choice(
        instructions="Which team handles this?",
        criteria={"billing": "payments", "shipping": "deliveries", "tech": "bugs", "sales": None},
    ),
    "urgency": Score(
        instructions="How urgent?", criteria=["can wait", "this week", "today", "right now"]
    ),
}


def _cold_row(
    decider: ReadoutDecider, state_text: str, block: str, label_ids: tuple[int, ...]
) -> torch.Tensor:
    """One question scored alone, from scratch, with a plain full forward and no cache."""
    text = decider.frame.prefix(state_text) + block + decider.frame.tail
    ids = decider.tokenizer(text, add_special_tokens=False)["input_ids"]
    with torch.inference_mode():
        logits = decider.model(input_ids=torch.tensor([ids])).logits[0, -1]
    return torch.softmax(logits[list(label_ids)].double(), dim=0)


@pytest.fixture
def plain(smollm2: ReadoutDecider) -> ReadoutDecider:
    """The same model without option rotation: one row per question."""
    return ReadoutDecider(smollm2.model, smollm2.tokenizer, model_id=smollm2.model_id, debias=False)


def test_one_pass_equals_cold_runs_per_question(plain: ReadoutDecider) -> None:
    response = plain.decide(STATE, QUESTIONS)
    d = plain
    block = noul_block("refund", QUESTIONS["refund"])
    cold_noul = _cold_row(d, STATE, block, d.yes_no.token_ids)
    # contextual calibration (on for noul by default): divide by the empty-state prior
    prior = _cold_row(d, "", block, d.yes_no.token_ids)
    expected = torch.softmax(cold_noul.log() - prior.log(), 0)[0].item()
    assert response.nouls["refund"].noul == pytest.approx(expected, abs=1e-4)
    assert abs(expected - cold_noul[0].item()) > 1e-3  # the correction is not a no-op here

    names = list(QUESTIONS["team"].criteria)
    cold_choice = _cold_row(
        d,
        STATE,
        choice_block("team", QUESTIONS["team"], names, LETTERS[:4]),
        d.letters.token_ids[:4],
    )
    got = response.choices["team"].probabilities
    for name, p in zip(names, cold_choice.tolist(), strict=True):
        assert got[name] == pytest.approx(p, abs=1e-4)

    cold_score = _cold_row(
        d,
        STATE,
        score_block("urgency", QUESTIONS["urgency"], LETTERS[:4]),
        d.levels.token_ids[:4],
    )
    assert list(response.scores["urgency"].probabilities.values()) == pytest.approx(
        cold_score.tolist(), abs=1e-4
    )
    assert response.scores["urgency"].score == pytest.approx(
        sum(i * p for i, p in enumerate(cold_score.tolist())), abs=1e-4
    )


def test_answers_do_not_depend_on_the_other_questions(smollm2_any: ReadoutDecider) -> None:
    """Bit-identical in fp32 and bf16: each row is its own forward, never padded next to
    another, so a question asked alone gets exactly the answer it gets among others."""
    fresh = ReadoutDecider(smollm2_any.model, smollm2_any.tokenizer, model_id="x")
    together = fresh.decide(STATE, QUESTIONS)
    for qid, question in QUESTIONS.items():
        alone = ReadoutDecider(smollm2_any.model, smollm2_any.tokenizer, model_id="x")
        assert alone.decide(STATE, {qid: question}).answers[qid] == together.answers[qid]


def test_a_row_scores_the_same_alone_or_in_a_batch(smollm2_any: ReadoutDecider) -> None:
    d = smollm2_any
    names = list(QUESTIONS["team"].criteria)
    rows = [
        choice_block("team", QUESTIONS["team"], names[s:] + names[:s], LETTERS[:4])
        for s in range(4)
    ]
    prefix = d._ids(d.frame.prefix(STATE))
    suffixes = [d._ids(block + d.frame.tail) for block in rows]
    labels = [d.letters.token_ids[:4]] * 4
    cache = d._forward.prefill(prefix)
    together = d._forward.score_rows(cache, len(prefix), RowBatch(suffixes, labels))
    for i in range(4):
        alone = d._forward.score_rows(cache, len(prefix), RowBatch([suffixes[i]], [labels[i]]))
        assert torch.equal(alone[0], together[i])
    assert not torch.equal(together[0], together[1])  # the rotations are really different


def test_prefix_and_batch_are_each_run_once(
    smollm2: ReadoutDecider, monkeypatch: pytest.MonkeyPatch
) -> None:
    d = ReadoutDecider(smollm2.model, smollm2.tokenizer, model_id="x", prefix_cache_tokens=0)
    calls: list[tuple[str, int]] = []
    fwd = d._forward
    real_prefill, real_rows = fwd.prefill, fwd.score_rows

    def prefill(*a: Any) -> Any:
        calls.append(("prefill", 1))
        return real_prefill(*a)

    def score_rows(c: Any, p: Any, rows: RowBatch) -> Any:
        calls.append(("rows", len(rows.suffixes)))
        return real_rows(c, p, rows)

    monkeypatch.setattr(fwd, "prefill", prefill)
    monkeypatch.setattr(fwd, "score_rows", score_rows)
    d.decide(STATE, QUESTIONS)  # the noul's empty-state prior is cached after this
    calls.clear()
    d.decide(STATE, QUESTIONS)
    # 1 noul row + 4 rotations of the 4-option choice (default debias) + 1 score row
    assert calls == [("prefill", 1), ("rows", 6)]


def test_usage_counts_prefix_once(plain: ReadoutDecider) -> None:
    one = plain.decide(STATE, {"refund": QUESTIONS["refund"]})
    three = plain.decide(STATE, QUESTIONS)
    assert one.usage is not None and three.usage is not None
    state_tokens = len(plain.tokenizer(STATE)["input_ids"])
    # two more questions cost their own blocks, not another copy of the state
    assert three.usage["input_tokens"] - one.usage["input_tokens"] < 2 * (60 + 40)
    assert three.usage["input_tokens"] < 3 * one.usage["input_tokens"] - state_tokens
    assert one.model == "smollm2-135m-instruct-q4_1"


def test_batch_equals_individual_requests(smollm2: ReadoutDecider) -> None:
    reqs: list[ClassifierRequest] = [
        {"state": STATE, "questions": QUESTIONS},
        {
            "state": [HumanMessage("my parcel never arrived"), AIMessage("sorry!")],
            "questions": {"team": QUESTIONS["team"]},
        },
    ]
    batched = smollm2.decide_batch(reqs)
    for req, got in zip(reqs, batched, strict=True):
        alone = smollm2.decide(req["state"], req["questions"])
        assert got.model_dump() == alone.model_dump()


async def test_async_twin_matches_sync(smollm2: ReadoutDecider) -> None:
    sync = smollm2.decide(STATE, QUESTIONS)
    got = await smollm2.adecide(STATE, QUESTIONS)
    assert got.model_dump() == sync.model_dump()


@pytest.mark.slow
@pytest.mark.parametrize("n", [77, 255])
def test_choices_beyond_the_label_alphabet(
    smollm2: ReadoutDecider, n: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    names = [f"intent_{i:03d}" for i in range(n)]
    question = Choice(
        instructions="Which intent?",
        criteria={name: f"topic number {i}" for i, name in enumerate(names)},
    )
    rows_seen: list[int] = []
    real = smollm2._forward.score_rows

    def score_rows(c: Any, p: Any, rows: RowBatch) -> Any:
        rows_seen.append(len(rows.suffixes))
        return real(c, p, rows)

    monkeypatch.setattr(smollm2._forward, "score_rows", score_rows)
    answer = smollm2.decide("I need help with topic number 5", {"intent": question}).choices[
        "intent"
    ]
    groups = math.ceil(n / 26)
    # stage 1: every group in one batch; stage 2: the shortlist, in 4 rotations
    assert rows_seen == [groups, 4]
    assert list(answer.probabilities) == names
    assert sum(answer.probabilities.values()) == pytest.approx(1.0)
    assert all(p > 0 for p in answer.probabilities.values())
    assert answer.choice == max(answer.probabilities, key=answer.probabilities.__getitem__)


def test_tournament_keeps_stage_one_odds_within_a_group(smollm2: ReadoutDecider) -> None:
    names = [f"opt{i}" for i in range(60)]
    question = Choice(instructions="Pick one.", criteria=dict.fromkeys(names))
    probs = smollm2.decide("opt7", {"q": question}).choices["q"].probabilities
    # Options of one stage-1 group that missed the shortlist keep their stage-1 odds.
    group = names[:20]
    d = smollm2
    cold = _cold_row(
        d, "opt7", choice_block("q", question, group, LETTERS[:20]), d.letters.token_ids[:20]
    )
    ranked = sorted(range(20), key=lambda i: -cold[i].item())
    a, b = ranked[-1], ranked[-2]  # the two weakest: certainly not shortlisted
    assert probs[group[a]] / probs[group[b]] == pytest.approx(
        cold[a].item() / cold[b].item(), rel=1e-3
    )


def test_debias_averages_rotations(smollm2: ReadoutDecider, plain: ReadoutDecider) -> None:
    d = ReadoutDecider(
        smollm2.model, smollm2.tokenizer, model_id="x", debias=True, debias_rotations=4
    )
    q = {"team": QUESTIONS["team"], "refund": QUESTIONS["refund"]}
    unrotated = plain.decide(STATE, q)
    debiased = d.decide(STATE, q)
    names = list(QUESTIONS["team"].criteria)
    # by hand: average log-probs over the 4 rotations of the option list, then softmax
    logs = torch.zeros(4, dtype=torch.float64)
    for s in range(4):
        order = names[s:] + names[:s]
        p = _cold_row(
            d,
            STATE,
            choice_block("team", QUESTIONS["team"], order, LETTERS[:4]),
            d.letters.token_ids[:4],
        )
        for j, name in enumerate(order):
            logs[names.index(name)] += math.log(p[j].item()) / 4
    expected = torch.softmax(logs, 0).tolist()
    assert list(debiased.choices["team"].probabilities.values()) == pytest.approx(
        expected, abs=1e-4
    )
    assert debiased.choices["team"].probabilities != unrotated.choices["team"].probabilities
    # the default rotates choices the same way
    assert smollm2.decide(STATE, q).choices["team"].probabilities == pytest.approx(
        debiased.choices["team"].probabilities, abs=1e-4
    )


def test_labels_are_verified_at_the_boundary(smollm2: ReadoutDecider) -> None:
    ctx = smollm2.frame.answer_context
    assert verify_labels(smollm2.tokenizer, ctx, list(LETTERS)) is not None
    # two-digit labels are several tokens: refused, not silently read from their first token
    assert verify_labels(smollm2.tokenizer, ctx, ["10", "11"]) is None


def test_state_longer_than_context_is_refused_not_truncated(smollm2: ReadoutDecider) -> None:
    small = ReadoutDecider(smollm2.model, smollm2.tokenizer, model_id="x", max_context_tokens=64)
    with pytest.raises(StateTooLongError) as info:
        small.decide("word " * 200, {"refund": QUESTIONS["refund"]})
    assert info.value.path == "state" and info.value.limit == 64 and info.value.tokens > 200


def test_images_are_refused_by_a_text_only_model(smollm2: ReadoutDecider) -> None:
    state = [
        HumanMessage(
            content=[{"type": "image", "base64": "iVBORw0KGgo=", "mime_type": "image/png"}]
        )
    ]
    with pytest.raises(UnsupportedInputError) as info:
        smollm2.decide(state, {"refund": QUESTIONS["refund"]})
    assert info.value.path == "state.0.content.0"


def test_box_questions_are_refused_by_name(smollm2: ReadoutDecider) -> None:
    with pytest.raises(UnsupportedInputError, match=r"questions\.where\.type"):
        smollm2.decide("s", {"where": {"type": "box", "instructions": "find the cat"}})


def test_score_debiasing_adds_a_highest_first_row(smollm2: ReadoutDecider) -> None:
    d = ReadoutDecider(smollm2.model, smollm2.tokenizer, model_id="x", debias=("score",))
    question = {"urgency": QUESTIONS["urgency"]}
    rows = d._plan(d.prepare([{"state": STATE, "questions": question}])[0]).rows
    assert [r.kind for r in rows] == ["score", "score"]
    assert "lowest first" in rows[0].block and "highest first" in rows[1].block
    # the labels stay with their levels; only the listing order changes
    assert rows[1].block.index("D: ") < rows[1].block.index("A: ")
    asc = _cold_row(d, STATE, rows[0].block, d.levels.token_ids[:4])
    desc = _cold_row(d, STATE, rows[1].block, d.levels.token_ids[:4])
    want = torch.softmax((asc.log() + desc.log()) / 2, 0)
    got = d.decide(STATE, question).scores["urgency"].probabilities
    assert list(got.values()) == pytest.approx(want.tolist(), abs=1e-4)
    assert abs(want[0].item() - asc[0].item()) > 1e-4  # the second row changed the answer
