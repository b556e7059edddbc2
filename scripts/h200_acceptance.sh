#!/bin/bash
# The acceptance measurements of docs/h200.md, on the lent H200, from the project root with .nvf
# carried:   bash scripts/h200_acceptance.sh "$OUT"
# 1. every corpus script upgraded to nvfuser_direct (fmin upgrade), run on nvFuser 0.2.36 and on
#    the reference backend on the same GPU with the same seed; outputs compared;
# 2. fmin check of the corpus on nvfuser (0.2.36, upgraded), inductor (Triton) and reference;
# 3. the legacy scripts as written through the legacy frontend on 0.2.35;
# 4. a crash and a hang injected among real nvFuser runs (fmin check --jobs 2);
# 5. the oracle benchmark.
# SKIP_INDUCTOR=1 / SKIP_BENCH=1 leave out steps 2 (inductor part) and 5.
set -u
out=${1:-/tmp/out}
mkdir -p "$out"
export PYTHONUNBUFFERED=1
up=$(mktemp -d)
legacy=()
for f in corpus/*.py corpus/seeds/*.py; do
  n=$(basename "$f")
  if grep -q "^from nvfuser import\|^from torch._C._nvfuser import" "$f"; then legacy+=("$f"); fi
  python3 -m minimizer upgrade "$f" --to nvfuser_direct -o "$up/$n" 2> "$up/$n.err" || echo "upgrade failed: $f: $(cat $up/$n.err)"
done
(
  source .nvf/activate.sh 210 > "$out/versions-210.txt" 2>&1
  export PYTHONPATH=$PWD:$PYTHONPATH
  python3 scripts/compare_backends.py --backend nvfuser --against reference --device cuda \
      --json "$out/compare.jsonl" "$up"/*.py > "$out/compare.md" 2>&1
  [ -n "${SKIP_INDUCTOR:-}" ] || python3 -m minimizer check --backend inductor --device cuda --json "$up"/*.py > "$out/check_inductor.jsonl" 2>&1
  # valid fusion scripts that then crash (SIGSEGV after execute) or hang (before execute)
  { cat "$up/direct_rmsnorm_fwd.py"; echo 'import os, signal; os.kill(os.getpid(), signal.SIGSEGV)'; } > "$up/zz_crash.py"
  sed 's/^fd.execute(inputs)$/import time\nwhile True: time.sleep(1)/; s/^out = fd.execute(inputs)$/import time\nwhile True: time.sleep(1)/' \
      "$up/direct_shape_ops.py" > "$up/zz_hang.py"
  python3 -m minimizer check --backend nvfuser --jobs 2 --timeout 45 --json \
      "$up/zz_crash.py" "$up/direct_rmsnorm_fwd.py" "$up/zz_hang.py" "$up/legacy_softmax_fwd.py" > "$out/inject.jsonl" 2>&1
  [ -n "${SKIP_BENCH:-}" ] || python3 scripts/bench_oracle.py --backend nvfuser inductor reference --device cuda -n 6 --fresh-n 2 > "$out/bench_oracle.md" 2>&1
)
(
  source .nvf/activate.sh 29 > "$out/versions-29.txt" 2>&1
  export PYTHONPATH=$PWD:$PYTHONPATH
  python3 -m minimizer check --backend nvfuser --json "${legacy[@]}" > "$out/check_legacy_0235.jsonl" 2>&1
)
ls -la "$out"
