#!/bin/bash
# The second H200 session's measurements (docs/h200.md §5-8, docs/fuzz.md), in two device calls of
# under 10 minutes each, from the project root with .nvf carried:
#   call A:  bash scripts/h200_session.sh a "$OUT"     -> $OUT/a.tgz
#   (here: mkdir -p h200-work && tar xzf <files_at>/a.tgz -C h200-work; h200-work/ is git-ignored,
#    so later calls name it in carry: carry [".nvf", "h200-work"])
#   call B:  bash scripts/h200_session.sh b "$OUT"     -> $OUT/b.tgz   (reads h200-work/ from call A)
#   call C:  timeout 555 bash scripts/h200_session.sh c "$OUT"         (reads h200-work/, with up/ made
#            here by fmin upgrade: starting Python 21 times on the device took 3.5 min)
# A: the oracle benchmark, alone on the machine; then, while the first half (shard 0/2, 300 s) of a
#    fuzz campaign runs on nvFuser 0.2.36 and on Inductor/Triton: a crash and a hang injected among
#    real nvFuser runs; the corpus through Inductor/Triton; the seed question (isolate +
#    --order-dependent on both backends); the RoPE script under --segments '>=2'.
# B: the second half (shard 1/2, 300 s) of both campaigns on the corpora of A, then every bucket
#    still unminimized is minimized (bounded); meanwhile the RoPE script with the resize scheduler
#    disabled, and a reduction of a multi-segment corpus script (scatter/index ops).
set -u
phase=$1
out=${2:-/tmp/out}
mkdir -p "$out"
W=/tmp/fmin-h200
mkdir -p "$W/up"
source .nvf/activate.sh 210 > "$W/versions.txt" 2>&1
export PYTHONPATH=$PWD:${PYTHONPATH:-} PYTHONUNBUFFERED=1
fmin() { python3 -m minimizer "$@"; }
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv > "$W/gpu-$phase.txt" 2>&1
nproc > "$W/nproc.txt"
T=${FMIN_T:-300}
SEED=2026
DEV=${FMIN_DEVICE:-cuda}        # FMIN_DEVICE=cpu FMIN_NV=reference FMIN_T=20: a dry run without a GPU
NV=${FMIN_NV:-nvfuser}

campaign() {   # backend shard extra...
  local b=$1 shard=$2; shift 2
  local fe=(); [ "$b" != inductor ] && fe=(--frontend nvfuser_direct)
  timeout ${CT:-$((T + 60))} python3 -m minimizer fuzz --backend "$b" --device $DEV --time $T --seed $SEED --shard "$shard" \
      --jobs 4 --timeout 120 "${fe[@]}" \
      --corpus "$W/fz-$b" --summary "$W/fz-$b-${shard%/*}.json" --junit "$W/fz-$b-${shard%/*}.xml" -q "$@" \
      > "$W/fz-$b-${shard%/*}.txt" 2>&1
  echo "campaign $b $shard rc=$?" >> "$W/fz-$b-${shard%/*}.txt"
}

if [ "$phase" = a ]; then
  for f in corpus/*.py corpus/seeds/*.py; do
    fmin upgrade "$f" --to nvfuser_direct -o "$W/up/$(basename "$f")" 2>> "$W/upgrade.err"
  done
  ( time timeout 170 python3 scripts/bench_oracle.py --backend $NV inductor reference --device $DEV -n 5 --fresh-n 1 ) \
      > "$W/bench_oracle.md" 2>&1
  campaign $NV 0/2 --no-minimize &
  campaign inductor 0/2 --no-minimize &
  {
    { cat "$W/up/direct_rmsnorm_fwd.py"; echo 'import os, signal; os.kill(os.getpid(), signal.SIGSEGV)'; } > "$W/zz_crash.py"
    sed 's/^fd.execute(inputs)$/import time\nwhile True: time.sleep(1)/; s/^out = fd.execute(inputs)$/import time\nwhile True: time.sleep(1)/' \
        "$W/up/direct_shape_ops.py" > "$W/zz_hang.py"
    fmin check --backend $NV --jobs 2 --timeout 45 --json "$W/zz_crash.py" "$W/up/direct_rmsnorm_fwd.py" \
        "$W/zz_hang.py" "$W/up/legacy_softmax_fwd.py" > "$W/inject.jsonl" 2> "$W/inject.err"
    echo "rc=$?" >> "$W/inject.err"
    fmin check --backend inductor --device $DEV --jobs 2 --json "$W"/up/*.py > "$W/check_inductor.jsonl" 2> "$W/check_inductor.err"
  } &
  {
    L=$W/up/layernorm_bwd_fused.py; S=$W/up/layernorm_bwd_segmented.py
    for b in $NV inductor; do
      ( time fmin check --backend $b --device $DEV --json "$L" "$S" ) > "$W/seeds-$b.jsonl" 2>&1
      ( time fmin isolate "$L" "$S" --backend $b --device $DEV --jobs 2 --out "$W/isolate-$b" ) > "$W/isolate-$b.txt" 2>&1
      ( time fmin check --backend $b --device $DEV --jobs 2 --order-dependent "$L" "$S" ) > "$W/order-$b.txt" 2>&1
    done
    ( time fmin "$W/up/rope_qkv_split.py" --backend $NV --segments '>=2' --jobs 2 --out "$W/rope-nvfuser" ) \
        > "$W/rope-nvfuser.txt" 2>&1
    echo "rc=$?" >> "$W/rope-nvfuser.txt"
  } &
  wait
elif [ "$phase" = b ]; then
  cp -r h200-work/. "$W/"
  CT=$((T + 250))
  campaign $NV 1/2 --minimize-time 60 --minimize-budget 150 &
  campaign inductor 1/2 --minimize-time 60 --minimize-budget 150 &
  {
    R=$W/up/rope_qkv_split.py
    ( time NVFUSER_DISABLE=parallel_compile,resize_scheduler fmin check --backend $NV --json "$R" ) > "$W/rope-noresize-check.txt" 2>&1
    ( time NVFUSER_DISABLE=parallel_compile,resize_scheduler timeout 300 python3 -m minimizer "$R" --backend $NV \
        --segments '>=2' --jobs 3 --out "$W/rope-noresize" --max-time 150 ) > "$W/rope-noresize.txt" 2>&1
    echo "rc=$?" >> "$W/rope-noresize.txt"
    ( time timeout 240 python3 -m minimizer "$W/up/direct_scatter_index_ops.py" --backend $NV --jobs 3 \
        --out "$W/scatter-nvfuser" --max-time 150 ) > "$W/scatter-nvfuser.txt" 2>&1
    echo "rc=$?" >> "$W/scatter-nvfuser.txt"
  } &
  wait
elif [ "$phase" = c ]; then
  # the second try (call A ran past its limit: 21 python start-ups to upgrade the corpus cost
  # 3.5 min there; now the corpus is upgraded here and carried in h200-work/up with A's corpora)
  cp -r h200-work/. "$W/"
  CT=$((T + 40))
  campaign $NV 1/2 --no-minimize &
  campaign inductor 1/2 --no-minimize &
  {
    L=$W/up/layernorm_bwd_fused.py; S=$W/up/layernorm_bwd_segmented.py
    ( time timeout 200 python3 -m minimizer check --backend $NV --device $DEV --jobs 2 --order-dependent "$L" "$S" ) > "$W/order-$NV.txt" 2>&1
    ( time timeout 200 python3 -m minimizer check --backend inductor --device $DEV --json "$L" "$S" ) > "$W/seeds-inductor.jsonl" 2>&1
    ( time timeout 200 python3 -m minimizer isolate "$L" "$S" --backend inductor --device $DEV --jobs 2 --out "$W/isolate-inductor" ) > "$W/isolate-inductor.txt" 2>&1
    ( time timeout 200 python3 -m minimizer check --backend inductor --device $DEV --jobs 2 --order-dependent "$L" "$S" ) > "$W/order-inductor.txt" 2>&1
  } &
  {
    R=$W/up/rope_qkv_split.py
    ( time timeout 60 python3 -m minimizer "$R" --backend $NV --segments '>=2' --jobs 2 --out "$W/rope-nvfuser" ) > "$W/rope-nvfuser.txt" 2>&1
    echo "rc=$?" >> "$W/rope-nvfuser.txt"
    ( time NVFUSER_DISABLE=parallel_compile,resize_scheduler timeout 200 python3 -m minimizer "$R" --backend $NV \
        --segments '>=2' --jobs 3 --out "$W/rope-noresize" --max-time 120 ) > "$W/rope-noresize.txt" 2>&1
    echo "rc=$?" >> "$W/rope-noresize.txt"
    ( time timeout 200 python3 -m minimizer "$W/up/direct_scatter_index_ops.py" --backend $NV --jobs 3 \
        --out "$W/scatter-nvfuser" --max-time 120 ) > "$W/scatter-nvfuser.txt" 2>&1
    echo "rc=$?" >> "$W/scatter-nvfuser.txt"
  } &
  wait
elif [ "$phase" = d ]; then
  # minimize the buckets that the campaigns stored (bounded); on a fresh machine, from h200-work
  [ -d "$W/fz-$NV" ] || cp -r h200-work/. "$W/"
  for b in $NV inductor; do
    ( time timeout ${MT:-230} python3 -m minimizer fuzz --backend $b --device $DEV --max-examples 0 --jobs 4 --timeout 60 \
        --corpus "$W/fz-$b" --minimize-time 30 --minimize-budget $(( ${MT:-230} - 50 )) --summary "$W/fz-$b-min.json" -q ) \
        > "$W/fz-$b-min.txt" 2>&1 &
  done
  wait
fi
find "$W" -name 'worker.log' -delete
tar czf "$out/$phase.tgz" -C "$W" --exclude=./up .
ls -la "$out"
