#!/bin/bash
# The H200 sessions' measurements (docs/h200.md §5-8, docs/fuzz.md), in two device calls of
# under 10 minutes each, from the project root with .nvf carried:
#   call A:  bash scripts/h200_session.sh a "$OUT"     -> $OUT/a.tgz
#   (here: mkdir -p h200-work && tar xzf <files_at>/a.tgz -C h200-work; h200-work/ is git-ignored,
#    so later calls name it in carry: carry [".nvf", "h200-work"])
#   call B:  bash scripts/h200_session.sh b "$OUT"     -> $OUT/b.tgz   (reads h200-work/ from call A)
#   call C:  timeout 555 bash scripts/h200_session.sh c "$OUT"         (reads h200-work/, with up/ made
#            here by fmin upgrade: starting Python 21 times on the device took 3.5 min)
# Third session (2026-12-03), phases e-h, each one call with .nvf carried (docs/fuzz.md has the
# exact command lines): e tops the nvFuser campaign up and reduces the stored buckets, f probes
# nvFuser's typing and rechecks the corpus, g rechecks the Inductor buckets and fuzzes both
# backends again, h re-reduces the buckets whose reductions stopped early.
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
elif [ "$phase" = e ]; then
  # the third session (2026-12-03): the nvFuser campaign topped up past 10 minutes (seed 2028),
  # while the stored unminimized nvFuser buckets of corpus/findings are replayed and minimized,
  # split round-robin over P reducers (one reducer works a bucket at a time); each replay that
  # no longer shows its finding marks the bucket stale (fixed typing rules since call D).
  # Then the top-up's new buckets are minimized. Probes of Python bool literals beside it.
  P=${FMIN_P:-2}
  mkdir -p "$W/fz-$NV"; cp -r corpus/findings/. "$W/fz-$NV/"
  i=0
  for f in corpus/findings/*/finding.json; do
    python3 -c "import sys; from minimizer.fuzz import record; m=record.load(sys.argv[1]); sys.exit(0 if m.backend=='$NV' and not m.minimized and not m.stale else 1)" "$f" || continue
    d=$(dirname "$f"); mkdir -p "$W/part$((i % P))"; cp -r "$d" "$W/part$((i % P))/"; i=$((i + 1))
  done
  echo "$i stored buckets to minimize over $P reducers" > "$W/parts.txt"
  T=${FMIN_T:-150} SEED=2028 CT=$((T + 60)) campaign $NV 0/1 --no-minimize &
  CAMP=$!
  for p in $(seq 0 $((P - 1))); do
    ( time timeout ${MT:-420} python3 -m minimizer fuzz --backend $NV --device $DEV --max-examples 0 --jobs 3 --timeout 60 \
        --frontend nvfuser_direct --corpus "$W/part$p" --minimize-time 30 --minimize-budget $(( ${MT:-420} - 40 )) \
        --summary "$W/part$p.json" -q ) > "$W/part$p.txt" 2>&1 &
  done
  ( time python3 -m minimizer check --backend $NV --device $DEV --json h200-work/probe/*.py ) > "$W/probe.jsonl" 2>&1
  wait $CAMP
  mkdir -p "$W/new"
  for d in "$W/fz-$NV"/*/; do [ -e "corpus/findings/$(basename "$d")" ] || cp -r "$d" "$W/new/"; done
  ( time timeout ${NT:-240} python3 -m minimizer fuzz --backend $NV --device $DEV --max-examples 0 --jobs 3 --timeout 60 \
      --frontend nvfuser_direct --corpus "$W/new" --minimize-time 30 --minimize-budget $(( ${NT:-240} - 30 )) \
      --summary "$W/new.json" -q ) > "$W/new.txt" 2>&1
  wait
elif [ "$phase" = f ]; then
  # after the typing rules measured in call e were modelled (Python bool literals, neg, welford's
  # count): the typing probes; every nvFuser bucket of corpus/findings rechecked; a fresh
  # campaign (seed 2029) into a copy of the corpus; the scatter reduction again (after the
  # synchronize fix)
  ( time python3 -m minimizer check --backend $NV --device $DEV --json tests/data/nvfuser/typing/*.py ) \
      > "$W/typing.jsonl" 2> "$W/typing.err"
  mkdir -p "$W/rc" "$W/fz-$NV"; cp -r corpus/findings/. "$W/rc/"; cp -r corpus/findings/. "$W/fz-$NV/"
  ( time timeout 300 python3 -m minimizer fuzz --recheck --backend $NV --device $DEV --corpus "$W/rc" --jobs 3 \
      --timeout 60 -q ) > "$W/recheck.txt" 2>&1 &
  T=${FMIN_T:-150} SEED=2029 CT=$((T + 220)) campaign $NV 0/1 --minimize-time 30 --minimize-budget 150 &
  ( time timeout 240 python3 -m minimizer corpus/direct_scatter_index_ops.py --backend $NV --jobs 3 \
      --out "$W/scatter-nvfuser" --max-time 150 ) > "$W/scatter-nvfuser.txt" 2>&1
  echo "rc=$?" >> "$W/scatter-nvfuser.txt"
  wait
elif [ "$phase" = g ]; then
  # the Inductor/Triton buckets rechecked under the typing rules of call f (the translation
  # shares the reference's rules), then both backends fuzzed again with the pad-value fix
  # (seed 2030, 120 s each) into copies of the corpus
  mkdir -p "$W/rc" "$W/fz-$NV" "$W/fz-inductor"
  cp -r corpus/findings/. "$W/rc/"; cp -r corpus/findings/. "$W/fz-$NV/"; cp -r corpus/findings/. "$W/fz-inductor/"
  ( time timeout 200 python3 -m minimizer fuzz --recheck --backend inductor --device $DEV --corpus "$W/rc" --jobs 3 \
      --timeout 120 -q ) > "$W/recheck-inductor.txt" 2>&1 &
  T=${FMIN_T:-120} SEED=2030 CT=$((T + 200)) campaign $NV 0/1 --minimize-time 30 --minimize-budget 120 &
  T=${FMIN_T:-120} SEED=2030 CT=$((T + 200)) campaign inductor 0/1 --minimize-time 30 --minimize-budget 120 &
  wait
elif [ "$phase" = h ]; then
  # the nvFuser buckets whose 30 s reductions stopped at 4 ops or more, reduced again (resuming
  # from their repro.min.py) with 60 s each, now that kernel IR tensor names (t29) are masked
  P=2; i=0
  for f in corpus/findings/*/finding.json; do
    python3 -c "import sys; from minimizer.fuzz import record; m=record.load(sys.argv[1]); r=m.reduction; sys.exit(0 if m.backend=='$NV' and not m.stale and r is not None and (r.ops_after or 0) >= 4 else 1)" "$f" || continue
    d=$(dirname "$f"); t="$W/re$((i % P))/$(basename "$d")"; mkdir -p "$(dirname "$t")"; cp -r "$d" "$t"
    python3 -c "import sys; from minimizer.fuzz import record; p=sys.argv[1]; m=record.load(p); m.minimized=False; m.extra['previous_reduction']=m.reduction.to_json() if m.reduction else None; m.reduction=None; record.save(p, m)" "$t/finding.json"
    i=$((i + 1))
  done
  echo "$i buckets to reduce again" > "$W/re.txt"
  for p in $(seq 0 $((P - 1))); do
    ( time timeout ${MT:-200} python3 -m minimizer fuzz --backend $NV --device $DEV --max-examples 0 --jobs 4 --timeout 60 \
        --frontend nvfuser_direct --corpus "$W/re$p" --minimize-time 60 --minimize-budget $(( ${MT:-200} - 30 )) \
        --summary "$W/re$p.json" -q ) > "$W/re$p.txt" 2>&1 &
  done
  wait
fi
find "$W" -name 'worker.log' -delete
tar czf "$out/$phase.tgz" -C "$W" --exclude=./up .
ls -la "$out"
