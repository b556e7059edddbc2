#!/bin/bash
# Issue 25 on the H200, ONE device call (<= 580 s): a generative and a seeded (`--seeds corpus/*.py
# corpus/seeds`: the real fusions, not the small repros under corpus/findings; SEEDS overrides) nvFuser campaign of FMIN_T seconds each, run CONCURRENTLY with the same --jobs
# (16 cores: JOBS each), each minimizing its new buckets into its own corpus; then every filed
# repro.min.py of both run outside fmin (scripts/h200_outside.sh), then scripts/compare_seeded.py:
# programs and programs/min of each, distinct root causes of each, the ones only seeded found.
# Device call from the project root, .nvf carried:
#   run(command="bash scripts/h200_seeded.sh", carry=[".nvf"], timeout_s=600)
# CPU stand-in (no nvFuser, no GPU; what was tested):
#   OUT=/tmp/out NVF=none BACKEND=inductor DEVICE=cpu FMIN_T=20 JOBS=1 bash scripts/h200_seeded.sh
# Knobs: FMIN_T (240), JOBS (8), MT (--minimize-time, 30), MB (--minimize-budget, 120), SEED (2031),
# BACKEND (nvfuser), DEVICE (cuda), NVF (.nvf; `none` or a missing activate.sh: skip activation),
# DEADLINE (script seconds after which no more outside runs start, 540).
# Leaves under $OUT (8 files): versions.txt, generative.txt, seeded.txt (campaign summaries),
# outside.txt (both corpora's outside runs), compare.txt, gen.json, seeded.json (summaries),
# corpora.tgz (both corpora).
out=${OUT:-/tmp/out}
mkdir -p "$out"
NVF=${NVF:-.nvf}
if [ "$NVF" != none ] && [ -f "$NVF/activate.sh" ]; then
  source "$NVF/activate.sh" 210 > "$out/versions.txt" 2>&1
else
  echo "no nvFuser activation (NVF=$NVF)" > "$out/versions.txt"
fi
set -uo pipefail
NVF_PATH=${PYTHONPATH:-}                      # nvFuser's, without fmin: what the outside runs get
export PYTHONPATH=$PWD:$NVF_PATH PYTHONUNBUFFERED=1
command -v nvidia-smi > /dev/null && nvidia-smi --query-gpu=name,driver_version --format=csv,noheader >> "$out/versions.txt" 2>&1
python3 -c "import torch; print('torch', torch.__version__)" >> "$out/versions.txt" 2>&1
W=/tmp/fmin-h200/seeded
rm -rf "$W" && mkdir -p "$W"
T=${FMIN_T:-240}
MB=${MB:-120}
common=(--backend "${BACKEND:-nvfuser}" --device "${DEVICE:-cuda}" --jobs "${JOBS:-8}" --time "$T"
        --seed "${SEED:-2031}" --timeout 120 --minimize-time "${MT:-30}" --minimize-budget "$MB" -q)
timeout $((T + MB + 150)) python3 -m minimizer fuzz "${common[@]}" --corpus "$W/generative" \
    --summary "$out/gen.json" > "$out/generative.txt" 2>&1 &
gen=$!
timeout $((T + MB + 150)) python3 -m minimizer fuzz "${common[@]}" --seeds ${SEEDS:-corpus/*.py corpus/seeds} --corpus "$W/seeded" \
    --summary "$out/seeded.json" > "$out/seeded.txt" 2>&1 &
sed=$!
wait $gen; echo "generative campaign exit status $?" >> "$out/generative.txt"
wait $sed; echo "seeded campaign exit status $?" >> "$out/seeded.txt"
echo "campaigns done at ${SECONDS}s" >> "$out/versions.txt"

python3 scripts/compare_seeded.py "$out/gen.json" "$W/generative" "$out/seeded.json" "$W/seeded" \
    > "$out/compare.txt" 2>&1
tar czf "$out/corpora.tgz" -C "$W" generative seeded      # before the outside runs: a killed call keeps them
for c in generative seeded; do
  echo "== $c" >> "$out/outside.txt"
  NVF_PATH=$NVF_PATH DEADLINE=${DEADLINE:-540} bash scripts/h200_outside.sh "$W/$c" "$out/outside.txt"
done
echo "done at ${SECONDS}s" >> "$out/versions.txt"
cat "$out/versions.txt" "$out/compare.txt"
