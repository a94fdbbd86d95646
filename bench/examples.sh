#!/usr/bin/env bash
# The measurements behind the "Examples" section of docs/quality.md (issue 15), all with
# `clef-tools fit` and `clef-tools eval` on public data; test splits are never fitted on.
#   BANKING77 (PolyAI, CC-BY-4.0): index = train split, report on the test split
#   BFCL v4 live_multiple (Apache-2.0): index = gold tool calls of the dev split, report on test
# Results land in bench/results/examples/<run>/; scripts/quality_doc.py renders them.
# Resumable: a run whose result exists is skipped.
set -euo pipefail
cd "$(dirname "$0")/.."
CT=.venv/bin/clef-tools
DATA=clef-data
RES=bench/results/examples
for set in banking77 bfcl; do
  [ -f "$DATA/$set.meta.json" ] || $CT data "$set" --out "$DATA"
done
[ -f "$DATA/banking77-train.clef" ] || $CT fit "$DATA/banking77-train.jsonl" --out "$DATA/banking77-train.clef" --quiet
[ -f "$DATA/bfcl-live-multiple-dev.clef" ] ||
  $CT fit "$DATA/bfcl-live-multiple-dev.jsonl" --out "$DATA/bfcl-live-multiple-dev.clef" --quiet

run() {  # out-folder data [eval options...]
  local out=$1 data=$2
  shift 2
  [ -f "$out/$(basename "$data" .jsonl).json" ] && return 0
  $CT eval "$data" --out "$out" --quiet "$@"
}

B77=$DATA/banking77-test.jsonl
# the example tier alone, every test item
run "$RES/embedding-examples" "$B77" --model embedding --examples "$DATA/banking77-train.clef"
# the embedded LM behind it, on a fixed sample (the LM costs seconds per unsure item)
run "$RES/embedded-examples" "$B77" --model embedded --examples "$DATA/banking77-train.clef" --limit 300
run "$RES/embedding-examples-300" "$B77" --model embedding --examples "$DATA/banking77-train.clef" --limit 300

LM=$DATA/bfcl-live-multiple-test.jsonl
run "$RES/bfcl-embedding" "$LM" --model embedding
run "$RES/bfcl-embedding-examples" "$LM" --model embedding --examples "$DATA/bfcl-live-multiple-dev.clef"

# optional: EmbeddingGemma-300M as the encoder (GEMMA=DIR from bench/fetch_embeddinggemma.py);
# slow to index (~9 min for the train split on 2 cores), so only a 500-item test sample
if [ -n "${GEMMA:-}" ]; then
  [ -f "$DATA/banking77-train-gemma.clef" ] ||
    $CT fit "$DATA/banking77-train.jsonl" --out "$DATA/banking77-train-gemma.clef" --encoder "$GEMMA" --quiet
  run "$RES/gemma-examples-500" "$B77" --model embedding --examples "$DATA/banking77-train-gemma.clef" --limit 500
  run "$RES/minilm-examples-500" "$B77" --model embedding --examples "$DATA/banking77-train.clef" --limit 500
fi
