#!/bin/bash
# Issue 24 on the H200: fuzz throughput at several --jobs, this tree and (BEFORE) an older one, in
# one device call (<= 550 s with the defaults: 2 trees x 2 jobs x (60 s + start-up)). Carries .nvf
# (nvFuser, ../shared/device/nvfuser/prepare.sh). The before tree, made here first:
#   mkdir -p h200-work/before && git archive 9c45d67 minimizer | tar -x -C h200-work/before
#   bash scripts/h200_throughput.sh       # BACKEND, DEVICE, JOBS, SECONDS_EACH, SEED, BEFORE override
# Writes $OUT/throughput.md (the table, also printed), $OUT/throughput.json (every summary, raw)
# and $OUT/versions.txt (what activate.sh says).
OUT=${OUT:-/tmp}
source .nvf/activate.sh 210 > "$OUT/versions.txt" 2>&1
set -eo pipefail
export PYTHONPATH=$PWD:$PYTHONPATH
BACKEND=${BACKEND:-nvfuser}
DEVICE=${DEVICE:-cuda}
JOBS=${JOBS:-"6 16"}
SECONDS_EACH=${SECONDS_EACH:-60}
SEED=${SEED:-777}
BEFORE=${BEFORE-h200-work/before}
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; } >> "$OUT/versions.txt" 2>&1 || true
before=()
if [ -n "$BEFORE" ]; then
  before=(--before "$BEFORE")
fi
# shellcheck disable=SC2086
python3 scripts/bench_fuzz_throughput.py --backend "$BACKEND" --device "$DEVICE" --jobs $JOBS \
  --seconds "$SECONDS_EACH" --seed "$SEED" "${before[@]}" --md "$OUT/throughput.md" --json "$OUT/throughput.json" \
  > /dev/null
cat "$OUT/throughput.md"
