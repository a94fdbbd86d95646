"""One request, four ways, one answer: the embedded model called directly, through
`clef-tools serve` + `SystemOneClient` (real loopback HTTP), through LangChain's
`ClefDecisionModel` over that HTTP client, and through the MCP server over it.

Probabilities agree to the documented 1e-4 (prefix-cache reuse changes the last float
bits; the wire itself is exact).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from _loopback import serving
from mcp import Client

from clef_mcp import build_server
from clef_tools import ReadoutDecider, SystemOneClient, create_app
from langchain_clef import ClefDecisionModel

STATE = "My card was stolen yesterday and there are two charges I did not make."
QUESTIONS: dict[str, Any] = {
    "team": {
        "type": "choice",
        "instructions": "Which team should handle this customer message?",
        "criteria": {
            "fraud": "stolen cards, unauthorised transactions",
            "shipping": "delivery, tracking, lost or late parcels",
            "billing": "charges, refunds, invoices",
        },
    },
    "urgent": {"type": "noul", "instructions": "Is this urgent?"},
}


@pytest.fixture(scope="module")
def served(embedded: ReadoutDecider) -> Iterator[str]:
    with serving(create_app(embedded)) as url:
        yield url


def _same(answers: dict[str, Any], direct: Any) -> None:
    assert answers["team"]["choice"] == direct.choices["team"].choice
    assert answers["team"]["probabilities"] == pytest.approx(
        direct.choices["team"].probabilities, abs=1e-4
    )
    assert answers["urgent"]["noul"] == pytest.approx(direct.nouls["urgent"].noul, abs=1e-4)


@pytest.mark.embedded
async def test_direct_http_langchain_and_mcp_agree(embedded: ReadoutDecider, served: str) -> None:
    direct = embedded.decide(STATE, QUESTIONS)
    assert direct.choices["team"].choice == "fraud"

    client = SystemOneClient(served)
    over_http = client.decide(STATE, QUESTIONS)
    _same(over_http.model_dump()["answers"], direct)
    assert over_http.model == embedded.model_id

    via_langchain = await ClefDecisionModel(decider=client).ainvoke(
        {"state": STATE, "questions": QUESTIONS}
    )
    _same(via_langchain.model_dump()["answers"], direct)

    async with Client(build_server(lambda: client)) as mcp_client:
        result = await mcp_client.call_tool("decide", {"state": STATE, "questions": QUESTIONS})
    assert not result.is_error
    assert result.structured_content is not None
    _same(result.structured_content["answers"], direct)
    await client.aclose()
