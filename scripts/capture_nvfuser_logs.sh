#!/bin/bash
# Captures what real nvFuser prints for the probe fusions in tests/data/nvfuser/probes/, on the lent
# H200 (see docs/h200.md). Run there from the project root with .nvf carried:
#   bash scripts/capture_nvfuser_logs.sh 210 "$OUT"
# Writes OUTDIR/nvfuser-<version>-logs.tgz holding one <probe>.log per probe (stdout+stderr of
# `python3 <probe>` with NVFUSER_DUMP=segmented_fusion NVFUSER_DISABLE=parallel_compile, and a final
# "exit: <code>" line), plus <probe>.parallel.log for the error probes with parallel compile on.
set -u
ver=${1:-210}
outdir=${2:-/tmp}
root=$(pwd)
source .nvf/activate.sh "$ver" >/dev/null
logs=$(mktemp -d)
cd tests/data/nvfuser/probes
for f in *.py; do
  n=${f%.py}
  case "$n" in legacy_*) [ "$ver" = 29 ] || continue ;; *) [ "$ver" = 29 ] && continue ;; esac
  NVFUSER_DUMP=segmented_fusion NVFUSER_DISABLE=parallel_compile timeout 300 python3 "$f" > "$logs/$n.log" 2>&1
  echo "exit: $?" >> "$logs/$n.log"
  case "$n" in err_*)
    NVFUSER_DUMP=segmented_fusion timeout 300 python3 "$f" > "$logs/$n.parallel.log" 2>&1
    echo "exit: $?" >> "$logs/$n.parallel.log";;
  esac
done
cd "$root"
tar czf "$outdir/nvfuser-$ver-logs.tgz" -C "$logs" .
