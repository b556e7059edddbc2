#!/bin/bash
# The H200 measurements of the bug-list session (issues 22, 24, 25; docs/fuzz.md), one device call
# per phase, from the project root, with nvFuser 0.2.36 carried (.nvf, see docs/h200.md):
#   old:  the fuzz campaign of issue 22 (seed 20261204, the 2 085 programs it judged, --jobs 12,
#         minimizing as it did) run by the fmin of that day (commit 9c45d67, copied to .old/ and
#         carried) on a copy of corpus/findings: its new buckets are the "27 buckets" the issue
#         triaged, which today's `fmin merge-findings` must collapse into root causes.
#            git archive 9c45d67 minimizer corpus pyproject.toml | tar -x -C .old
#            carry: .nvf/nvfuser-210.tar.xz .nvf/activate.sh .nvf/abi_shim.so .nvf/libcst-*.whl .old
#            bash scripts/h200_bug_list.sh old "$OUT"        -> $OUT/old.tgz
set -u
phase=$1
out=${2:-/tmp/out}
mkdir -p "$out"
W=/tmp/fmin-h200
mkdir -p "$W"
source .nvf/activate.sh 210 > "$W/versions.txt" 2>&1
export PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv > "$W/gpu.txt" 2>&1
nproc >> "$W/gpu.txt"

if [ "$phase" = old ]; then
  rm -rf "$W/old-corpus" && cp -r .old/corpus/findings "$W/old-corpus"
  ls "$W/old-corpus" > "$W/old-before.txt"
  ( cd .old && time PYTHONPATH=$PWD:${PYTHONPATH:-} timeout 560 python3 -m minimizer fuzz --backend nvfuser \
      --max-examples 2085 --jobs 12 --seed 20261204 --minimize-time 60 --minimize-budget 230 \
      --corpus "$W/old-corpus" --summary "$W/old-summary.json" ) > "$W/old-campaign.txt" 2>&1
  echo "rc=$?" >> "$W/old-campaign.txt"
  mkdir -p "$W/old-new"
  for d in "$W"/old-corpus/*/; do
    b=$(basename "$d"); grep -qx "$b" "$W/old-before.txt" || cp -r "$d" "$W/old-new/$b"
  done
  ls "$W/old-new" | wc -l >> "$W/old-campaign.txt"
  tar czf "$out/old.tgz" -C "$W" old-new old-campaign.txt old-summary.json versions.txt gpu.txt
fi
