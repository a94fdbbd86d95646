"""The eval plots as drawn: titles inside the figure, yes/no on its own axis, every answered
bin visible, the guide lines named."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from clef_tools.evaluation._plots import draw_plots
from clef_tools.evaluation._run import Outcome

LONG = "a-long-dataset-name-for-one-panel (qwen2.5-coder-1.5b-instruct-q4_k_m, calibration x)"


def _outcomes() -> list[Outcome]:
    out = []
    for i in range(40):
        p = 0.55 + i * 0.0112  # bins 1-9; bin 0 (0.50-0.55) holds only the wrong ones
        out.append(Outcome(f"n{i}", "q", "noul", ["yes", "no"], [p, 1 - p], 0 if i % 3 else 1))
    # a bin answered and always wrong: accuracy 0, still drawn
    out += [Outcome(f"w{i}", "q", "noul", ["yes", "no"], [0.52, 0.48], 1) for i in range(3)]
    return out


def test_plots_fit_their_titles_and_use_the_whole_axis(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import matplotlib.pyplot as plt

    figures: list[Any] = []
    monkeypatch.setattr(plt, "close", figures.append)
    paths = draw_plots(_outcomes(), tmp_path, LONG, prefix="t.")
    assert [p.name for p in paths] == ["t.reliability.png", "t.coverage.png"]
    for fig in figures:
        renderer = fig.canvas.get_renderer()
        box = fig.bbox
        texts = [fig._suptitle] if fig._suptitle is not None else []
        texts += [ax.title for ax in fig.axes]
        for text in texts:
            if not text.get_text():
                continue
            extent = text.get_window_extent(renderer)
            assert extent.x0 >= box.x0 - 1 and extent.x1 <= box.x1 + 1, text.get_text()
        for ax in fig.axes:
            assert min(t.get_fontsize() for t in ax.texts) >= 8 if ax.texts else True
    reliability, coverage = figures
    (noul,) = reliability.axes
    assert noul.get_xlim() == (0.5, 1.0)  # a yes/no confidence is never below 0.5
    heights = [bar.get_height() for bar in noul.patches]
    assert len(heights) == 10 and min(heights) > 0  # the always-wrong bin is visible
    labels = {t.get_text() for t in coverage.axes[0].texts}
    assert {"99% accuracy", "95% accuracy"} <= labels
    monkeypatch.undo()
    for fig in figures:
        plt.close(fig)
