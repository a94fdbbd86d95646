"""Human reviews of gated calls, kept so that the gate learns from them.

Every approve / edit / reject is one JSON line (the call, the user's request, the decision,
and the risk the gate gave the call before any review): a file people can read, grep and
prune. Reviews teach the gate two things about a tool:

- *this call*: close matches pull a new call's risk toward what the reviewers did, so a
  call approved (or rejected) again and again stops escalating (or is denied);
- *this tool*: where reviewers keep approving calls the gate found risky (or rejecting ones
  it found safe), the tool's risks are shifted by one logit offset, fitted on the reviewed
  calls' risks under a Gaussian prior (few reviews move it little). Only reviews whose risk
  came from the gate's current risk model count: a risk is only comparable on its scale.

Bounded: at most `per_tool` reviews per tool (oldest dropped), `max_tools` tools, and
16 KiB per review; the file is compacted when it grows past twice what it keeps.
"""

from __future__ import annotations

import json
import math
import os
import re
import tempfile
import threading
import time
from collections import deque
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from clef_tools.gate._evidence import call_text
from clef_tools.gate._risk import fit_tool_offset, shift
from clef_tools.protocol._errors import ConfigError
from clef_tools.protocol._limits import MAX_STATE_DEPTH
from clef_tools.protocol._validation import scan_json

__all__ = ["Review", "ReviewError", "ReviewEvidence", "ReviewStore"]

ReviewKind = Literal["approve", "edit", "reject"]
KINDS: tuple[str, ...] = ("approve", "edit", "reject")
_MAX_LINE = 16 * 1024


class ReviewError(ConfigError):
    """A review that cannot be stored (unknown decision, too large, bad file)."""


@dataclass(frozen=True)
class Review:
    tool: str
    args: dict[str, Any]
    decision: ReviewKind
    request: str = ""
    description: str = ""
    at: float = 0.0
    risk: float | None = None
    """The gate's risk for the call (its deciding tier's, before reviews moved it); None
    when the gate did not judge this call recently."""
    risk_model: str = ""
    """The risk model that gave `risk`."""
    channel: str = "python"
    """How the person's answer reached the gate (`python`: the operator's own code;
    `mcp-elicitation`, `hook-prompt`, `langchain-interrupt`): the audit trail of who
    taught the gate."""

    @property
    def unsafe(self) -> float:
        """What the review says about the call as proposed: an edit means "not like that"."""
        return 0.0 if self.decision == "approve" else 1.0

    def text(self) -> str:
        return call_text(self.tool, self.args, None)

    def as_dict(self) -> dict[str, Any]:
        return {
            "tool": self.tool,
            "args": self.args,
            "decision": self.decision,
            "request": self.request,
            "description": self.description,
            "at": self.at,
            "risk": self.risk,
            "risk_model": self.risk_model,
            "channel": self.channel,
        }


@dataclass(frozen=True)
class ReviewEvidence:
    """Reviews of one call's tool: the tool's logit offset, and the reviews near the call
    (their weight: close reviews count ~1 each, and their verdict)."""

    weight: float
    unsafe_share: float
    count: int
    nearest: float
    offset: float = 0.0
    """Logit shift of the tool's risks learnt from its reviewed risks (0: none)."""

    def adjust(self, risk: float, strength: float) -> float:
        """The risk after the reviews: shifted by the tool's offset, then pulled."""
        return self.pull(shift(risk, self.offset), strength)

    def pull(self, risk: float, strength: float) -> float:
        """The risk moved toward the reviewers' verdict, by how much evidence there is."""
        return (strength * risk + self.weight * self.unsafe_share) / (strength + self.weight)

    def as_dict(self) -> dict[str, float]:
        return {
            "weight": round(self.weight, 4),
            "unsafe_share": round(self.unsafe_share, 4),
            "reviews": self.count,
            "nearest": round(self.nearest, 4),
            "tool_offset": round(self.offset, 4),
        }


class ReviewStore:
    """Reviews in memory, and in a JSONL file when `path` is given."""

    def __init__(
        self,
        path: str | Path | None = None,
        *,
        per_tool: int = 200,
        max_tools: int = 1000,
        encoder: Any = None,
    ) -> None:
        if per_tool < 1 or max_tools < 1:
            raise ValueError("per_tool and max_tools must be at least 1")
        self.path = Path(path) if path is not None else None
        self.per_tool = per_tool
        self.max_tools = max_tools
        self._encoder = encoder
        self._lock = threading.Lock()
        self._reviews: dict[str, deque[Review]] = {}
        self._vectors: dict[str, dict[str, Any]] = {}
        self._vectors_lock = threading.Lock()
        self._lines = 0
        if self.path is not None and self.path.exists():
            self._read(self.path)

    def __len__(self) -> int:
        return sum(len(v) for v in self._reviews.values())

    def reviews(self, tool: str | None = None) -> list[Review]:
        with self._lock:
            if tool is not None:
                return list(self._reviews.get(tool, ()))
            return [r for rs in self._reviews.values() for r in rs]

    def counts(self) -> dict[str, dict[str, int]]:
        """Per tool, how many of each decision: what `model_info` shows."""
        out: dict[str, dict[str, int]] = {}
        for review in self.reviews():
            row = out.setdefault(review.tool, {k: 0 for k in KINDS})
            row[review.decision] += 1
        return out

    def record(
        self,
        tool: str,
        args: Mapping[str, Any],
        decision: str,
        *,
        request: str = "",
        description: str | None = None,
        risk: float | None = None,
        risk_model: str = "",
        channel: str = "python",
    ) -> Review:
        """`risk`: what the gate's `risk_model` made of the call before any review, which
        is what teaches the tool's offset; a review without it teaches only its own call."""
        if decision not in KINDS:
            raise ReviewError(f"decision must be one of {', '.join(KINDS)}, not {decision!r}")
        if not tool or not isinstance(tool, str):
            raise ReviewError("tool: a review needs the tool's name")
        risk = _checked_risk(risk)
        # what a judged call may hold, a review may hold: no lone surrogates (the file is
        # UTF-8), no NaN, no nesting past the state limit
        issues = scan_json(
            {"tool": tool, "args": dict(args), "request": request, "description": description},
            max_depth=MAX_STATE_DEPTH,
        )
        if issues:
            raise ReviewError(f"{issues[0].path}: {issues[0].msg}")
        review = Review(
            tool=tool,
            args=dict(args),
            decision=decision,  # type: ignore[arg-type]
            request=request,
            description=description or "",
            at=round(time.time(), 3),
            risk=risk,
            risk_model=risk_model if risk is not None else "",
            channel=_checked_channel(channel),
        )
        line = json.dumps(review.as_dict(), ensure_ascii=False, default=str)
        if len(line.encode()) > _MAX_LINE:
            raise ReviewError(f"the review is over {_MAX_LINE // 1024} KiB; shorten the arguments")
        with self._lock:
            if tool not in self._reviews and len(self._reviews) >= self.max_tools:
                raise ReviewError(f"the store already holds reviews of {self.max_tools} tools")
            self._add(review)
            if self.path is not None:
                self._append(line)
        return review

    def evidence(
        self,
        tool: str,
        args: Mapping[str, Any],
        temperature: float,
        *,
        risk_model: str = "",
        prior_sd: float = 0.0,
    ) -> ReviewEvidence | None:
        """How the reviewers judged this tool and calls like this one, or None without
        reviews of it. The tool's offset is fitted on the reviews whose risk came from
        `risk_model` (`prior_sd` 0: no offset)."""
        import numpy as np

        with self._lock:
            reviews = list(self._reviews.get(tool, ()))
        if not reviews:
            return None
        offset = _offset_of(reviews, risk_model, prior_sd)
        vectors = self._tool_vectors(tool, reviews)
        query = self._encode([call_text(tool, args, None)])[0]
        cosines = (vectors @ query).astype(np.float64)
        weights = np.exp((np.minimum(cosines, 1.0) - 1.0) / temperature)
        labels = np.array([r.unsafe for r in reviews])
        total = float(weights.sum())
        share = min(1.0, max(0.0, float((weights * labels).sum() / total))) if total > 0 else 0.5
        return ReviewEvidence(
            weight=total,
            unsafe_share=share,
            count=len(reviews),
            nearest=float(cosines.max()),
            offset=offset,
        )

    def tool_offset(self, tool: str, *, risk_model: str, prior_sd: float) -> float:
        """The logit shift this tool's reviews teach (what `evidence` applies)."""
        return _offset_of(self.reviews(tool), risk_model, prior_sd)

    # -- internals ------------------------------------------------------------------------

    def _tool_vectors(self, tool: str, reviews: list[Review]) -> Any:
        """One embedding per distinct reviewed call, kept between judgments: a new review
        costs one encoder pass, not one per review of the tool."""
        import numpy as np

        texts = [r.text() for r in reviews]
        with self._vectors_lock:
            known = self._vectors.setdefault(tool, {})
            missing = sorted({t for t in texts if t not in known})
            if missing:
                known.update(zip(missing, self._encode(missing), strict=True))
            for stale in set(known) - set(texts):
                del known[stale]
            return np.stack([known[t] for t in texts])

    def _encode(self, texts: list[str]) -> Any:
        if self._encoder is None:
            from clef_tools.backends.embedding._encoder import open_encoder

            self._encoder = open_encoder()
        return self._encoder.embed(texts)

    def _add(self, review: Review) -> None:
        queue = self._reviews.setdefault(review.tool, deque(maxlen=self.per_tool))
        queue.append(review)

    def _read(self, path: Path) -> None:
        try:
            lines = path.read_text(encoding="utf-8").splitlines()
        except (OSError, UnicodeDecodeError) as exc:
            raise ReviewError(f"{path}: cannot read the review file: {exc}") from exc
        for number, line in enumerate(lines, 1):
            if not line.strip():
                continue
            try:
                data = json.loads(line)
                review = Review(
                    tool=str(data["tool"]),
                    args=dict(data["args"]),
                    decision=data["decision"],
                    request=str(data.get("request", "")),
                    description=str(data.get("description", "")),
                    at=float(data.get("at", 0.0)),
                    risk=_checked_risk(data.get("risk")),
                    risk_model=str(data.get("risk_model") or ""),
                    channel=_checked_channel(data.get("channel", "python")),
                )
            except (ValueError, KeyError, TypeError) as exc:
                raise ReviewError(f"{path}:{number}: not a review: {exc}") from exc
            if review.decision not in KINDS:
                raise ReviewError(f"{path}:{number}: decision {review.decision!r} is unknown")
            self._add(review)
        self._lines = len(lines)

    def _append(self, line: str) -> None:
        assert self.path is not None
        self.path.parent.mkdir(parents=True, exist_ok=True)
        with self.path.open("a", encoding="utf-8") as f:
            f.write(line + "\n")
        self._lines += 1
        if self._lines > 2 * max(len(self), 1) and self._lines > 64:
            self._compact()

    def _compact(self) -> None:
        assert self.path is not None
        kept = [r for rs in self._reviews.values() for r in rs]
        kept.sort(key=lambda r: r.at)
        fd, tmp = tempfile.mkstemp(dir=self.path.parent, prefix=".reviews-")
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            for review in kept:
                f.write(json.dumps(review.as_dict(), ensure_ascii=False, default=str) + "\n")
        os.replace(tmp, self.path)
        self._lines = len(kept)


def _offset_of(reviews: list[Review], risk_model: str, prior_sd: float) -> float:
    """Fitted on the reviews whose risk came from `risk_model`: only those share its scale."""
    risks: list[float] = []
    unsafe: list[float] = []
    for review in reviews:
        if review.risk is not None and review.risk_model == risk_model:
            risks.append(review.risk)
            unsafe.append(review.unsafe)
    return fit_tool_offset(risks, unsafe, prior_sd)


def _checked_risk(value: object) -> float | None:
    """A risk is a probability; anything else in a review (or its file) is refused."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ReviewError(f"risk: {value!r} is not a probability")
    risk = float(value)
    if not (math.isfinite(risk) and 0.0 <= risk <= 1.0):
        raise ReviewError(f"risk: {value!r} is not a probability in [0, 1]")
    return risk


_CHANNEL = re.compile(r"[a-z][a-z0-9-]{0,39}")


def _checked_channel(value: object) -> str:
    if not isinstance(value, str) or not _CHANNEL.fullmatch(value):
        raise ReviewError(f"channel: {value!r} is not a channel name ([a-z][a-z0-9-]*)")
    return value
