#!/bin/bash
# Issue 22, parts 3 and 5, on the H200: a new nvFuser campaign of FMIN_T seconds (default 200)
# whose new buckets are minimized and filed — fmin runs each repro.min.py standalone and records
# it in the bucket's finding.json — then every filed repro.min.py run once more OUTSIDE fmin, the
# way a maintainer runs it: copied alone into an empty directory, `env -i` with only what the
# machine needs to import torch and nvFuser (PATH, HOME, the nvFuser PYTHONPATH without fmin,
# LD_LIBRARY_PATH, LD_PRELOAD for the ABI shim) plus the variables its header states, `python3
# repro.min.py`. Then the bug list (corpus/report.md).
# Device call from the project root, .nvf carried (bash ../shared/device/nvfuser/prepare.sh here):
#   run(command="bash scripts/h200_buglist.sh", carry=[".nvf"], timeout_s=600)
# A second, optional call files the committed corpus the same way (its nvFuser buckets replayed by
# `fmin fuzz --recheck`, each reduced one re-filed and run standalone; $OUT/findings.tgz is the
# refiled corpus/findings to unpack over the repository's):
#   run(command="bash scripts/h200_buglist.sh recheck", carry=[".nvf"], timeout_s=600)
# Knobs: FMIN_T (campaign seconds, 200), MB (--minimize-budget, 180), SEED (2031), JOBS (4), DEADLINE
# (seconds after which no more outside runs start, 560: the call's limit is 600).
# Leaves under $OUT: versions.txt, campaign.txt (the summary: the bug list's rows for what it
# found, "new buckets run standalone"), summary.json, junit.xml, rerun.txt (per bucket: fmin's
# standalone verdict, then the outside run's exit code and last error line, or its segments),
# report.md (the bug list), corpus.tgz (every bucket directory).
set -uo pipefail
out=${OUT:-/tmp/out}
mkdir -p "$out"
W=/tmp/fmin-h200/buglist
rm -rf "$W" && mkdir -p "$W"
source "${NVF:-.nvf}/activate.sh" 210 > "$out/versions.txt" 2>&1
NVF_PATH=${PYTHONPATH:-}                      # nvFuser's, without fmin: what the outside runs get
export PYTHONPATH=$PWD:$NVF_PATH PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader >> "$out/versions.txt" 2>&1
if [ "${1:-campaign}" = recheck ]; then
  cp -r corpus/findings "$W/findings"
  timeout 560 python3 -m minimizer fuzz --recheck --backend nvfuser --device cuda --jobs "${JOBS:-4}" --timeout 120 \
      --corpus "$W/findings" --summary "$out/recheck.json" -q > "$out/recheck.txt" 2>&1
  echo "recheck exit status $?" >> "$out/recheck.txt"
  cp "$W/findings/report.md" "$out/" 2>/dev/null
  tar czf "$out/findings.tgz" -C "$W" findings
  cat "$out/versions.txt" "$out/recheck.txt"
  exit 0
fi
T=${FMIN_T:-200}
MB=${MB:-180}
timeout $((T + MB + 90)) python3 -m minimizer fuzz --backend nvfuser --device cuda --jobs "${JOBS:-4}" \
    --time "$T" --seed "${SEED:-2031}" --timeout 120 --corpus "$W/corpus" --minimize-time 30 --minimize-budget "$MB" \
    --summary "$out/summary.json" --junit "$out/junit.xml" -q > "$out/campaign.txt" 2>&1
echo "campaign exit status $?" >> "$out/campaign.txt"

NVF_PATH=$NVF_PATH bash scripts/h200_outside.sh "$W/corpus" "$out/rerun.txt"
cp "$W/corpus/report.md" "$out/" 2>/dev/null
tar czf "$out/corpus.tgz" -C "$W" corpus
cat "$out/versions.txt" "$out/campaign.txt" "$out/rerun.txt" 2>/dev/null
