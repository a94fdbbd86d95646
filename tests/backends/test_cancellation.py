"""A caller that gives up frees the model: abandoned work stops between forwards."""

from __future__ import annotations

import anyio
import pytest
from langchain_core.decisions import Noul

from clef_tools import ReadoutDecider

STATE = "Customer wrote: my parcel is two weeks late and nobody answers my emails."


async def test_a_timed_out_caller_stops_the_forwards(smollm2: ReadoutDecider) -> None:
    d = ReadoutDecider(smollm2.model, smollm2.tokenizer, model_id="x", prefix_cache_tokens=0)
    questions = {f"q{i}": Noul(instructions=f"Is statement number {i} true?") for i in range(64)}
    with pytest.raises(TimeoutError):
        with anyio.fail_after(0.3):
            await d.adecide(STATE, questions)
    await anyio.sleep(0.3)  # the forward in flight at the deadline may still finish
    stopped_at = d._forward.forwards
    await anyio.sleep(1.5)
    assert d._forward.forwards == stopped_at  # nothing more ran after the caller left
    # a full answer needs 64 prior rows + 64 rows + prefixes; far fewer ran
    assert stopped_at < 64
    # the decider is fine afterwards, and the same request still gets its full answer
    answer = await d.adecide(STATE, {"q0": questions["q0"]})
    assert 0.0 < answer.nouls["q0"].noul < 1.0


@pytest.mark.slow
async def test_work_queued_behind_a_cancelled_caller_never_starts(
    smollm2: ReadoutDecider,
) -> None:
    def fresh() -> ReadoutDecider:
        return ReadoutDecider(smollm2.model, smollm2.tokenizer, model_id="x")

    slow = {f"q{i}": Noul(instructions=f"Is statement number {i} true?") for i in range(24)}
    alone = fresh()
    await alone.adecide(STATE, slow)
    d = fresh()
    async with anyio.create_task_group() as tg:
        tg.start_soon(d.adecide, STATE, slow)  # occupies the torch thread
        await anyio.sleep(0.05)
        with anyio.move_on_after(0.05):
            await d.adecide("a different state that would need its own prefill", slow)
    await anyio.sleep(0.5)
    # the first request ran to the end; the abandoned second one added nothing
    assert d._forward.forwards == alone._forward.forwards
