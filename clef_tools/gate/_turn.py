"""What the user asked for, as the decision model reads the user's own words: one request
per user turn, shared by every call of that turn.

The lexical licence (`_licence`) is exact about what it recognises and blind to the rest
("tidy up the inbox" asks for deletes in no word the tables know). The decision model reads
paraphrase, so the risk model weighs its answers beside the rules' findings: how sure it is
that the user asked for the kind of effect the call has. The state it reads holds only the
user's messages, never a tool result, so a planted instruction cannot license anything.

The answers are cached per turn (the user's words, the model): a session's calls after the
first one in a turn reuse them, and `ToolGate.prepare_turn` asks ahead, when the user's
message arrives.
"""

from __future__ import annotations

import hashlib
import threading
from collections.abc import Iterable, Mapping

from clef_tools._lru import BoundedLRU
from clef_tools.decisions import Noul
from clef_tools.gate._risk import logit
from clef_tools.protocol._validation import DecisionRequest, validate_request

__all__ = ["KIND_QUESTION", "TURN_QUESTIONS", "TurnAnswers", "turn_features", "turn_request"]

#: The turn questions (`bench/gate_questions.py` measures them, `bench/gate_fit.py` weighs
#: them; a risk model ships the ones it was fitted on).
TURN_QUESTIONS = {
    "asks_change": "Does the user ask the assistant to create, change, move, run or delete "
    "something, rather than only to look something up?",
    "asks_delete": "Does the user ask the assistant to delete, remove or cancel something?",
    "asks_send": "Does the user ask the assistant to send, post, share, forward or reply "
    "to something?",
    "asks_pay": "Does the user ask the assistant to pay, transfer, buy or spend money?",
    "asks_grant": "Does the user ask the assistant to give someone access, or to invite or "
    "add someone?",
    "only_info": "Does the user only ask for information, and not for any change?",
}

#: The turn question each kind of effect is licensed by.
KIND_QUESTION = {
    "delete": "asks_delete",
    "send": "asks_send",
    "pay": "asks_pay",
    "grant": "asks_grant",
    "create": "asks_change",
    "modify": "asks_change",
    "configure": "asks_change",
    "execute": "asks_change",
}

#: How much of the user's words the turn request reads (their latest words last).
_MAX_CHARS = 8_000


def turn_request(said: str, questions: Mapping[str, str]) -> DecisionRequest:
    """The user's own words and the turn questions, as one validated request."""
    text = said[-_MAX_CHARS:]
    asked = {k: Noul(instructions=v) for k, v in questions.items()}
    return validate_request({"messages": [{"role": "user", "content": text}]}, asked)


def turn_key(said: str, model_id: str) -> str:
    return hashlib.sha256(f"{model_id}\0{said[-_MAX_CHARS:]}".encode()).hexdigest()


def turn_features(kinds: Iterable[str], p_yes: Mapping[str, float]) -> dict[str, float]:
    """`turn_unasked`: the log-odds that the user did *not* ask for the call's least-asked
    kind of effect; `turn_only_info`: the log-odds that the user only asked for
    information, for a call that changes something. Both 0 for a read."""
    changes = [k for k in kinds if k != "read"]
    if not changes:
        return {"turn_unasked": 0.0, "turn_only_info": 0.0}
    asked = [
        logit(p_yes[KIND_QUESTION[k]])
        for k in changes
        if k in KIND_QUESTION and KIND_QUESTION[k] in p_yes
    ]
    return {
        "turn_unasked": -min(asked) if asked else 0.0,
        "turn_only_info": logit(p_yes["only_info"]) if "only_info" in p_yes else 0.0,
    }


class TurnAnswers:
    """The turn questions' answers, per turn (bounded; thread-safe: a gate is shared)."""

    def __init__(self, max_turns: int = 256) -> None:
        self._answers: BoundedLRU[str, dict[str, float]] = BoundedLRU(max_turns)
        self._lock = threading.Lock()

    def get(self, key: str) -> dict[str, float] | None:
        with self._lock:
            if key not in self._answers:
                return None
            return self._answers[key]

    def put(self, key: str, answers: Mapping[str, float]) -> None:
        with self._lock:
            self._answers.put(key, dict(answers))
