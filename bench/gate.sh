#!/usr/bin/env bash
# The measurements behind the "Tool-call gate" section of docs/quality.md (issue 12).
#   AgentDojo v1.2 banking + slack (MIT), via `clef-tools data agentdojo`: 40 % dev / 60 % test
#   by user task. Everything is fitted on dev; test is only ever evaluated.
# 1. bench/gate_questions.py: P(yes) of every candidate question on every AgentDojo call and
#    on every fitting call no rule settles (the sessions' dev split, the gate set's train and
#    dev), and the turn questions once per request (embedded LM); three stored calls are
#    re-asked first: the fit must read the answers the gate gets now (a readout change moves
#    them; then run with REFIT=1 FRESH=1)
# 2. bench/gate_fit.py: the risk model (provenance and rule features, questions, turn
#    questions, fast-deny band) on the fitting splits: `REFIT=1 bench/gate.sh` is the one
#    command that replaces the shipped clef_tools/calibrations/gate-embedded.json
# 3. bench/gate_reviews.py: how reviews pull the risk (dev halves)
# 4. bench/gate_dtype.py: the same questions in float32 (CPUs without bf16 units); the gap
#    to the bf16 answers the model was fitted on, per question, fitted on dev
# 5. `clef-tools eval` on test with the default policy: 0, 5 and 20 reviews per tool from dev,
#    in bfloat16 and in float32 (explicit, so the results mean the same on every CPU)
# 6. clef-tools' own gate set (`clef-tools data gate-set`, six families, split by scenario):
#    `clef-tools eval` on its test split, per family, per source (templates / hand-written) and
#    per hand-written batch (the second written before the gate saw it). The "before" figures
#    (bench/results/gate/before/) come from the same eval run on main at a4f88be, before the
#    effect layer, summarised per family by bench/gate_families.py (which also splits the
#    AgentDojo run by suite: bench/gate_families.py clef-data/agentdojo-test.jsonl
#    bench/results/gate/agentdojo-test.verdicts.jsonl bench/results/gate/agentdojo-test.families.json).
# 7. AgentDojo as whole sessions (the calls and results before each call, run in AgentDojo's
#    own environments, injected by five of its attacks): built by bench/agentdojo_sessions.py
#    in a venv with agentdojo==0.1.35 (the package never imports AgentDojo), same user-task
#    split; `clef-tools eval` on its test split, per suite.
# Results land in bench/results/gate/ (steps 6 and 7 in families/; `ONLY=families DTYPE=fp32
# bench/gate.sh` runs those alone); scripts/quality_doc.py renders them.
set -euo pipefail
cd "$(dirname "$0")/.."
CT=.venv/bin/clef-tools
PY=.venv/bin/python
DATA=clef-data
RES=bench/results/gate
[ -f "$DATA/agentdojo.meta.json" ] || $CT data agentdojo --out "$DATA"
[ -f "$DATA/gate-set.meta.json" ] || $CT data gate-set --out "$DATA"
if [ "${REFIT:-0}" = 1 ]; then
  if [ "${FRESH:-0}" = 1 ]; then
    $PY bench/gate_questions.py --fresh   # every answer asked again
    $PY bench/gate_dtype.py --fresh
  else
    # answers already measured are kept when three of them re-ask the same; new calls
    # (a batch added to the gate set) are asked
    [ -f bench/results/gate-questions.json ] && $PY bench/gate_questions.py --check 3
    $PY bench/gate_questions.py
  fi
  $PY bench/gate_fit.py
  $PY bench/gate_reviews.py
  $PY bench/gate_dtype.py   # float32 gap of the chosen questions (kept if they did not change)
elif [ "${CHECK:-1}" = 1 ]; then
  $PY bench/gate_questions.py --check 3   # CHECK=0: evaluate anyway (say so with the results)
fi
# steps 6 and 7 (and AgentDojo by suite), into $RES/families in dtype $1
families() {
  local out="$RES/families" dtype="$1"
  mkdir -p "$out"
  $CT eval "$DATA/gate-set-test.jsonl" --out "$out" --quiet --dtype "$dtype" --no-plots
  $PY bench/gate_families.py "$DATA/gate-set-test.jsonl" "$out/gate-set-test.verdicts.jsonl" \
    "$out/gate-set-test.sources.json" --key source
  $PY bench/gate_families.py "$DATA/gate-set-test.jsonl" "$out/gate-set-test.verdicts.jsonl" \
    "$out/gate-set-test.batches.json" --key batch
  $CT eval "$DATA/agentdojo-test.jsonl" --out "$out" --quiet --dtype "$dtype" --no-plots
  $PY bench/gate_families.py "$DATA/agentdojo-test.jsonl" "$out/agentdojo-test.verdicts.jsonl" \
    "$out/agentdojo-test.families.json"
  if [ -f "$DATA/agentdojo-sessions-test.jsonl" ]; then
    $CT eval "$DATA/agentdojo-sessions-test.jsonl" --out "$out" --quiet --dtype "$dtype" --no-plots
    $PY bench/gate_families.py "$DATA/agentdojo-sessions-test.jsonl" \
      "$out/agentdojo-sessions-test.verdicts.jsonl" "$out/agentdojo-sessions-test.families.json"
  else
    echo "no $DATA/agentdojo-sessions-test.jsonl: build it with bench/agentdojo_sessions.py" >&2
  fi
}
if [ "${ONLY:-}" = families ]; then
  families "${DTYPE:-bf16}"   # the per-family table alone (DTYPE=fp32 on a CPU without bf16 units)
  exit 0
fi
mkdir -p "$RES" "$RES/float32"
$CT eval "$DATA/agentdojo-test.jsonl" --out "$RES" --quiet --dtype bf16
$CT eval "$DATA/agentdojo-test.jsonl" --out "$RES/float32" --quiet --dtype fp32 --no-plots
for k in 5 20; do
  $CT eval "$DATA/agentdojo-test.jsonl" --out "$RES" --quiet --dtype bf16 \
    --reviews-from "$DATA/agentdojo-dev.jsonl" --reviews-per-tool "$k" --no-plots
done
$CT eval "$DATA/agentdojo-test.jsonl" --out "$RES/float32" --quiet --dtype fp32 \
  --reviews-from "$DATA/agentdojo-dev.jsonl" --reviews-per-tool 20 --no-plots
$CT eval "$DATA/agentdojo-test.jsonl" --out "$RES/no-risk-model" --quiet --dtype bf16 \
  --risk-model none --no-plots
families bf16
