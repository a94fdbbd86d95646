"""A server whose backend answers instantly (uniform probabilities): MCP stdio by default,
`/v1/systemone` HTTP with `--http PORT`.

Only for the benchmarks: with the model's time taken out, what is left of a round trip
is the surface's own overhead (protocol, validation, schemas, thread hops).
"""

from __future__ import annotations

from collections.abc import Sequence

from langchain_core.decisions import Noul

from clef_mcp import build_server
from clef_tools import Decider, DecisionRequest, RequestScores


class UniformDecider(Decider):
    @property
    def model_id(self) -> str:
        return "uniform"

    def _score(self, requests: Sequence[DecisionRequest]) -> list[RequestScores]:
        out = []
        for req in requests:
            probs = {}
            for qid, q in req.questions.items():
                n = 2 if isinstance(q, Noul) else len(q.criteria)  # type: ignore[union-attr]
                probs[qid] = [1.0 / n] * n
            out.append(RequestScores(probabilities=probs, input_tokens=0))
        return out


if __name__ == "__main__":
    import sys

    if len(sys.argv) == 3 and sys.argv[1] == "--http":
        from clef_tools import serve

        serve(UniformDecider(), port=int(sys.argv[2]), log_level="warning")
    else:
        build_server(UniformDecider, model="uniform").run()
