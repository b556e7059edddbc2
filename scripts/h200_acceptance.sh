#!/bin/bash
# The 2026-12-04 session's measurements on the lent H200 (issues 13-16), one device call per
# phase, from the project root with .nvfd carried (.nvf without the 0.2.35 build) (bash ../shared/device/nvfuser/prepare.sh here):
#   run(command="bash scripts/h200_acceptance.sh a $OUT", carry=[".nvfd"], timeout_s=600)
#   run(command="bash scripts/h200_acceptance.sh b $OUT", carry=[".nvfd"], timeout_s=600)
# Each phase leaves $OUT/<phase>.tgz (everything it wrote under /tmp/fmin-h200). Raw results go to
# docs/data/h200-2026-12-04/, figures and commands to docs/benchmarks.md and docs/h200.md.
#
# a: every corpus script and seed (legacy ones through `fmin upgrade`, one Python process) checked
#    on nvFuser 0.2.36 (kernels, boundaries, the segmenter's reasons); each that splits into >= 2
#    kernels reduced under the DEFAULT property, four at a time; a cuda:1 script on the three
#    backends; scripts that must be refused (no `import torch`).
# b: `fmin check --mismatch` over the corpus (rows streamed, timestamped); the strided-alias
#    script found and reduced; the float32 matmul + sum not flagged on nvFuser and Triton; a
#    short nvFuser campaign on the differential oracle.
set -u
phase=$1
out=${2:-/tmp/out}
mkdir -p "$out"
W=/tmp/fmin-h200/$phase
mkdir -p "$W/up" "$W/red"
source .nvfd/activate.sh 210 > "$W/versions.txt" 2>&1
export PYTHONPATH=$PWD:${PYTHONPATH:-} PYTHONUNBUFFERED=1
fmin() { python3 -m minimizer "$@"; }
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv > "$W/gpu.txt" 2>&1
stamp() { while IFS= read -r line; do printf '%s %s\n' "$(date +%s.%N | cut -c1-14)" "$line"; done; }

upgrade_all() {   # every legacy script to nvfuser_direct, in one process (a Python start is seconds here)
  python3 - "$W/up" "$@" <<'EOF'
import os, sys
from minimizer.program import parse_file, to_source
from minimizer.upgrade import upgrade
dest = sys.argv[1]
for path in sys.argv[2:]:
    try:
        text = to_source(upgrade(parse_file(path), "nvfuser_direct"))
    except Exception as e:
        print(f"{path}: not upgraded: {e}", file=sys.stderr)
        continue
    with open(os.path.join(dest, os.path.basename(path)), "w") as f:
        f.write(text)
EOF
}

if [ "$phase" = a ]; then
  upgrade_all corpus/*.py corpus/seeds/*.py tests/data/forms/cuda1.py 2> "$W/upgrade.err"
  ( time timeout 150 python3 -m minimizer check --backend nvfuser --jobs 8 --json $(ls "$W"/up/*.py | grep -v cuda1) ) \
      > "$W/check.jsonl" 2> "$W/check.err"
  python3 - "$W/check.jsonl" > "$W/to_reduce.txt" <<'EOF'
import json, sys
from minimizer.oracle.outcome import Outcome
from minimizer.oracle.checks.kernels import kernel_count
for line in open(sys.argv[1]):
    if not line.startswith("{"):
        continue
    d = json.loads(line)
    o = Outcome(d["status"], "nvfuser", segments=d.get("segments"), schedulers=d.get("schedulers"), graph=d.get("graph"))
    if o.ok and (kernel_count(o) or 0) >= 2:
        print(d["file"])
EOF
  {
    for b in nvfuser inductor reference; do
      echo "== cuda1 on $b"; timeout 120 python3 -m minimizer check --backend $b --device cuda --json "$W/up/cuda1.py"
      echo "rc=$?"
    done
    printf 'import nvfuser_direct\nfrom nvfuser_direct import FusionDefinition, DataType\n' > "$W/no_torch.py"
    sed -n '/^def /,$p' "$W/up/direct_rmsnorm_fwd.py" >> "$W/no_torch.py" 2>/dev/null
    echo "== no import torch: reduce"; timeout 120 python3 -m minimizer reduce "$W/no_torch.py" --backend nvfuser --out "$W/red/no_torch" -q
    echo "rc=$? (wrote: $(ls "$W/red/no_torch" 2>/dev/null | tr '\n' ' '))"
  } > "$W/refusals.txt" 2>&1 &
  # what a user types: a legacy corpus script as it is (fmin reduces its nvfuser_direct translation)
  ( cp corpus/legacy_index_embedding.py "$W/legacy_index_embedding.py" && cd "$W" && \
    time timeout 300 python3 -m minimizer legacy_index_embedding.py --backend nvfuser --jobs 2 -q ) \
      > "$W/readme_attachment.txt" 2>&1 &
  # the reductions under the default property, four at a time, 3 workers each (16 cores), judged
  ( time timeout 370 python3 scripts/bench_faithful.py --backend nvfuser --jobs 3 --parallel 4 --max-time 140 \
        --out "$W/red" $(cat "$W/to_reduce.txt") ) > "$W/faithful.md" 2>&1
  wait
fi

if [ "$phase" = b ]; then
  upgrade_all corpus/*.py 2> "$W/upgrade.err"
  cp tests/data/mismatch/*.py "$W/up/"
  # every row as it finishes, with the time it arrived
  ( time timeout 250 python3 -m minimizer check --backend nvfuser --mismatch --jobs 6 $W/up/*.py ) 2>&1 | stamp > "$W/mismatch_table.txt" &
  ( timeout 250 python3 -m minimizer check --backend inductor --device cuda --mismatch --json "$W/up/matmul_sum.py" \
      "$W/up/alias_strided.py" ) > "$W/inductor_mismatch.jsonl" 2>&1 &
  ( time timeout 300 python3 -m minimizer reduce "$W/up/alias_strided.py" --backend nvfuser --mismatch --jobs 2 \
      --out "$W/red/alias_strided" -q ) > "$W/red/alias_strided.txt" 2>&1 &
  ( NVFUSER_DUMP=segmented_fusion,segmenter_logging NVFUSER_DISABLE=parallel_compile \
      timeout 60 python3 tests/data/mismatch/alias_strided_probe.py ) > "$W/alias_strided.log" 2>&1 &
  wait
  ( time timeout 240 python3 -m minimizer fuzz --backend nvfuser --frontend nvfuser_direct --oracles differential \
      --time 150 --seed 4242 --jobs 6 --timeout 120 --corpus "$W/fz" --no-minimize --fail-on never ) > "$W/fuzz.txt" 2>&1
fi

tar czf "$out/$phase.tgz" -C /tmp/fmin-h200 "$phase"
ls -la "$out"
