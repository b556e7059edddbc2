#!/bin/bash
# fmin's measurements on a GPU machine (the lent H100/H200: docs/gpu.md, docs/benchmarks.md), one
# subcommand per measurement, each fitting one device call of under 10 minutes. Run from the
# project root with nvFuser's environment carried (`.nvf`, made by ../shared/device/nvfuser/prepare.sh;
# NVF names another, e.g. `.nvfd` without the 0.2.35 build; NVF=none runs without activating one:
# a CPU stand-in with BACKEND=inductor DEVICE=cpu where a subcommand reads them). What a call
# leaves goes under $OUT (default /tmp/out), the device machine's returned folder.
#
#   bash scripts/gpu.sh probes [210|29]          nvFuser's output for tests/data/nvfuser/probes/ -> $OUT/nvfuser-VER-logs.tgz
#   bash scripts/gpu.sh throughput               fuzz throughput at several --jobs, this tree and BEFORE
#   bash scripts/gpu.sh seeded                   a generative and a seeded campaign side by side, then outside runs
#   bash scripts/gpu.sh feedback                 generative, seeded and seeded --feedback campaigns side by side: coverage
#   bash scripts/gpu.sh buglist [refile|old]     a campaign filed and run outside fmin; the corpus refiled; an old fmin's campaign
#   bash scripts/gpu.sh outside CORPUS FILE      every filed repro.min.py of CORPUS run outside fmin, a line each into FILE
#   bash scripts/gpu.sh ray                      a --jobs 4 campaign and a --ray one of 4 actors (.raydev carried)
#   bash scripts/gpu.sh acceptance a|b           the acceptance measurements (corpus check, reductions, --mismatch)
#   bash scripts/gpu.sh session a|b|c|d|e|f|g|h  the campaign sessions' phases (docs/benchmarks.md)
#   bash scripts/gpu.sh mix                      the workflow's mix vs generative vs seeded, equal time (scripts/bench_mix.py)
#   bash scripts/gpu.sh nights                   the CI workflow's steps as written, two nights in a scratch repository
#   bash scripts/gpu.sh trim-check               the large seeds as written and trimmed: does trimming keep the segmentation?
#   bash scripts/gpu.sh triage                   the corpus refiled, a generative+seeded pair and the CI steps, side by side
#   bash scripts/gpu.sh pair                     the corpus refiled (REFILE=stale: its stale nvFuser buckets rechecked), an
#                                                nvFuser-tests --feedback and a corpus-seeded campaign, side by side
#
# Each subcommand's knobs are environment variables, listed above its function.
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT"

# ---------------------------------------------------------------- shared set-up
# activate FILE: nvFuser's environment (what activate.sh says, the GPU, the cores into FILE);
# NVF_PATH is nvFuser's PYTHONPATH without fmin (what an outside run gets), PYTHONPATH this fmin first
activate() {
  local nvf=${NVF:-.nvf}
  if [ "$nvf" != none ] && [ -f "$nvf/activate.sh" ]; then
    # shellcheck disable=SC1091
    source "$nvf/activate.sh" "${NVF_VERSION:-210}" > "$1" 2>&1
  else
    echo "no nvFuser activation (NVF=$nvf)" > "$1"
  fi
  NVF_PATH=${PYTHONPATH:-}
  export PYTHONPATH=$PWD${NVF_PATH:+:$NVF_PATH} PYTHONUNBUFFERED=1
  command -v nvidia-smi > /dev/null && nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader >> "$1" 2>&1
  echo "cores: $(nproc)" >> "$1"
  python3 -c "import torch; print('torch', torch.__version__)" >> "$1" 2>&1
}

# stamp: each line of stdin with the time it arrived
stamp() { while IFS= read -r line; do printf '%s %s\n' "$(date +%s.%N | cut -c1-14)" "$line"; done; }

# upgrade_all DEST SCRIPT...: every legacy script to nvfuser_direct into DEST, in one Python
# process (a Python start-up costs seconds on the device)
upgrade_all() {
  python3 - "$@" <<'EOF'
import os, sys
from minimizer.program import parse_file, to_source
from minimizer.upgrade import upgrade
dest = sys.argv[1]
os.makedirs(dest, exist_ok=True)
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

# ---------------------------------------------------------------- probes
# What real nvFuser prints for the probe fusions of tests/data/nvfuser/probes/ (VER 210: 0.2.36,
# nvfuser_direct; 29: 0.2.35, the legacy probes): one <probe>.log each (stdout+stderr with
# NVFUSER_DUMP=segmented_fusion NVFUSER_DISABLE=parallel_compile, and a final "exit: <code>"
# line), plus <probe>.parallel.log for the error probes with parallel compile on.
cmd_probes() {
  local ver=${1:-210} root logs f n
  root=$(pwd)
  NVF_VERSION=$ver activate /dev/null
  set -u
  logs=$(mktemp -d)
  cd tests/data/nvfuser/probes || exit 1
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
  cd "$root" || exit 1
  tar czf "$OUT/nvfuser-$ver-logs.tgz" -C "$logs" .
}

# ---------------------------------------------------------------- throughput
# Fuzz throughput at several --jobs (scripts/bench_fuzz_throughput.py), this tree and (BEFORE) an
# older one, made here first:
#   mkdir -p h200-work/before && git archive 9c45d67 minimizer | tar -x -C h200-work/before
# Knobs: BACKEND (nvfuser), DEVICE (cuda), JOBS ("6 16"), SECONDS_EACH (60), SEED (777), BEFORE
# (h200-work/before; empty: this tree only). Writes $OUT/throughput.md (the table, also printed),
# $OUT/throughput.json (every summary, raw) and $OUT/versions.txt.
cmd_throughput() {
  activate "$OUT/versions.txt"
  set -eo pipefail
  local before=()
  [ -n "${BEFORE-h200-work/before}" ] && before=(--before "${BEFORE-h200-work/before}")
  # shellcheck disable=SC2086
  python3 scripts/bench_fuzz_throughput.py --backend "${BACKEND:-nvfuser}" --device "${DEVICE:-cuda}" \
    --jobs ${JOBS:-6 16} --seconds "${SECONDS_EACH:-60}" --seed "${SEED:-777}" "${before[@]}" \
    --md "$OUT/throughput.md" --json "$OUT/throughput.json" > /dev/null
  cat "$OUT/throughput.md"
}

# ---------------------------------------------------------------- outside
# Every filed repro.min.py of CORPUS run once OUTSIDE fmin, the way a maintainer runs an
# attachment: copied alone into an empty directory, `env -i` with only what the machine needs to
# import torch and nvFuser (PATH, HOME, NVF_PATH, LD_LIBRARY_PATH, LD_PRELOAD for the ABI shim)
# plus the variables its header states, then `python3 repro.min.py`. One line per bucket into
# FILE: fmin's own standalone verdict (finding.json), then the outside run's exit code and last
# error line, or the segments it printed. DEADLINE: the shell's $SECONDS after which no more runs
# start (560).
outside() {
  local corpus=$1 dest=$2 f id s rc err segs fmin_says
  for f in "$corpus"/*/repro.min.py; do
    [ -e "$f" ] || continue
    id=$(basename "$(dirname "$f")")
    if [ "$SECONDS" -gt "${DEADLINE:-560}" ]; then echo "$id not run outside: out of time" >> "$dest"; continue; fi
    s=$(mktemp -d)
    cp "$f" "$s/repro.min.py"
    # no environment but what finds Python, torch and nvFuser: an attachment sets what it needs
    (cd "$s" && timeout 300 env -i PATH="$PATH" HOME="$HOME" PYTHONPATH="${NVF_PATH:-}" \
        LD_LIBRARY_PATH="${LD_LIBRARY_PATH:-}" LD_PRELOAD="${LD_PRELOAD:-}" \
        python3 repro.min.py > out.txt 2> err.txt)
    rc=$?
    err=$(grep -E '^[A-Za-z_][A-Za-z_.]*(Error|Exception)(:|$)' "$s/err.txt" | tail -1 | cut -c1-200)
    segs=$(grep -o '^g{([a-z_]*)' "$s/out.txt" | sort | uniq -c | tr -s ' \n' ' ')
    fmin_says=$(python3 -c "import sys; from minimizer.fuzz.store import record; m=record.load(sys.argv[1]); s=m.standalone; \
print(m.kind, 'fmin-standalone:', {True: 'reproduced', False: 'NOT-reproduced', None: 'not-run'}[s.reproduced if s else None])" \
        "$(dirname "$f")/finding.json")
    echo "$id $fmin_says | outside: exit $rc ${err:-no error}${segs:+ | segments:$segs}" >> "$dest"
    rm -rf "$s"
  done
}

cmd_outside() {
  [ $# -eq 2 ] || { echo "usage: gpu.sh outside CORPUS_DIR OUT_FILE" >&2; exit 2; }
  activate /dev/null
  set -u
  outside "$1" "$2"
}

# ---------------------------------------------------------------- seeded
# A generative and a seeded (`--seeds corpus/*.py corpus/seeds`: the real fusions; SEEDS
# overrides) campaign of FMIN_T seconds each, run CONCURRENTLY with the same --jobs, each
# minimizing its new buckets into its own corpus; then every filed repro.min.py of both run
# outside fmin, then scripts/compare_seeded.py (programs and programs/min of each, distinct root
# causes of each, the ones only seeded found). CPU stand-in (no nvFuser, no GPU):
#   OUT=/tmp/out NVF=none BACKEND=inductor DEVICE=cpu FMIN_T=20 JOBS=1 bash scripts/gpu.sh seeded
# Knobs: FMIN_T (240), JOBS (8), MT (--minimize-time, 30), MB (--minimize-budget, 120), SEED
# (2031), BACKEND (nvfuser), DEVICE (cuda), DEADLINE (540). Leaves under $OUT: versions.txt,
# generative.txt, seeded.txt, outside.txt, compare.txt, gen.json, seeded.json, corpora.tgz.
cmd_seeded() {
  activate "$OUT/versions.txt"
  set -uo pipefail
  local W=/tmp/fmin-h200/seeded T=${FMIN_T:-240} MB=${MB:-120} gen sed c
  rm -rf "$W" && mkdir -p "$W"
  local common=(--backend "${BACKEND:-nvfuser}" --device "${DEVICE:-cuda}" --jobs "${JOBS:-8}" --time "$T"
                --seed "${SEED:-2031}" --timeout 120 --minimize-time "${MT:-30}" --minimize-budget "$MB" -q)
  timeout $((T + MB + 150)) python3 -m minimizer fuzz "${common[@]}" --corpus "$W/generative" \
      --summary "$OUT/gen.json" > "$OUT/generative.txt" 2>&1 &
  gen=$!
  # shellcheck disable=SC2086
  timeout $((T + MB + 150)) python3 -m minimizer fuzz "${common[@]}" --seeds ${SEEDS:-corpus/*.py corpus/seeds} \
      --corpus "$W/seeded" --summary "$OUT/seeded.json" > "$OUT/seeded.txt" 2>&1 &
  sed=$!
  wait $gen; echo "generative campaign exit status $?" >> "$OUT/generative.txt"
  wait $sed; echo "seeded campaign exit status $?" >> "$OUT/seeded.txt"
  echo "campaigns done at ${SECONDS}s" >> "$OUT/versions.txt"
  python3 scripts/compare_seeded.py "$OUT/gen.json" "$W/generative" "$OUT/seeded.json" "$W/seeded" \
      > "$OUT/compare.txt" 2>&1
  tar czf "$OUT/corpora.tgz" -C "$W" generative seeded      # before the outside runs: a killed call keeps them
  for c in generative seeded; do
    echo "== $c" >> "$OUT/outside.txt"
    DEADLINE=${DEADLINE:-540} outside "$W/$c" "$OUT/outside.txt"
  done
  echo "done at ${SECONDS}s" >> "$OUT/versions.txt"
  cat "$OUT/versions.txt" "$OUT/compare.txt"
}

# ---------------------------------------------------------------- feedback
# Three campaigns of FMIN_T seconds each (>= 240 for the issue's comparison), concurrently, at the
#   same --jobs: generative; seeded over SEEDS without feedback; seeded over SEEDS with --feedback
#   (docs/fuzz.md "Feedback"). Then scripts/compare_feedback.py: programs, decision signatures and
#   features covered, new buckets and root causes per campaign, what only each found. Knobs: FMIN_T
#   (240), JOBS (5 each: three campaigns on 16 cores), SEEDS (corpus/*.py corpus/seeds, or an
#   nvFuser checkout folder carried along), SEED (2031), MT (20), MB (60; 0: no minimization, each
#   campaign ends at FMIN_T and its new buckets are minimized by a later call, `buglist some`),
#   BACKEND (nvfuser), DEVICE (cuda). CPU stand-in: NVF=none BACKEND=inductor DEVICE=cpu FMIN_T=20
#   JOBS=1. Leaves under $OUT: versions.txt, {generative,seeded,feedback}.txt and .json, compare.txt,
#   {generative,seeded,feedback}.tgz (each corpus packed as soon as its campaign ends).
cmd_feedback() {
  activate "$OUT/versions.txt"
  set -uo pipefail
  local W=/tmp/fmin-h200/feedback T=${FMIN_T:-240} MB=${MB:-60} c
  local -a pids=()
  rm -rf "$W" && mkdir -p "$W"
  # shellcheck disable=SC2206
  local seeds=(${SEEDS:-corpus/*.py corpus/seeds})
  local common=(--backend "${BACKEND:-nvfuser}" --device "${DEVICE:-cuda}" --jobs "${JOBS:-5}" --time "$T"
                --seed "${SEED:-2031}" --timeout 120 --fail-on never -q)
  if [ "$MB" = 0 ]; then common+=(--no-minimize); else common+=(--minimize-time "${MT:-20}" --minimize-budget "$MB"); fi
  for c in generative seeded feedback; do
    local extra=()
    [ "$c" != generative ] && extra=(--seeds "${seeds[@]}")
    [ "$c" = feedback ] && extra+=(--feedback)
    { timeout $((T + MB + 150)) python3 -m minimizer fuzz "${common[@]}" "${extra[@]}" --corpus "$W/$c" \
        --summary "$OUT/$c.json" > "$OUT/$c.txt" 2>&1
      echo "$c campaign exit status $? at ${SECONDS}s" >> "$OUT/$c.txt"
      tar czf "$OUT/$c.tgz" -C "$W" "$c"; } &
    pids+=($!)
  done
  wait "${pids[@]}"
  echo "campaigns done at ${SECONDS}s" >> "$OUT/versions.txt"
  python3 scripts/compare_feedback.py "generative=$OUT/generative.json:$W/generative" \
      "seeded=$OUT/seeded.json:$W/seeded" "feedback=$OUT/feedback.json:$W/feedback" > "$OUT/compare.txt" 2>&1
  echo "done at ${SECONDS}s" >> "$OUT/versions.txt"
  cat "$OUT/versions.txt" "$OUT/compare.txt"
}

# ---------------------------------------------------------------- buglist
# (no argument) a new nvFuser campaign of FMIN_T seconds whose new buckets are minimized and filed
#   (fmin runs each repro.min.py standalone and records it in finding.json), then every filed
#   repro.min.py run once more outside fmin, then the bug list. Knobs: FMIN_T (200), MB
#   (--minimize-budget, 180), SEED (2031), JOBS (4), DEADLINE (560). Leaves under $OUT:
#   versions.txt, campaign.txt, summary.json, junit.xml, rerun.txt, report.md, corpus.tgz.
# refile: the committed corpus refiled by today's rules: re-keyed offline (`fmin merge-findings
#   --into`), its unminimized nvFuser buckets minimized and filed (`fmin fuzz --max-examples 0`:
#   no new program, the pending buckets reduced; MT, MB), then every nvFuser bucket replayed
#   (`fmin fuzz --recheck`): each reduced one re-filed and run standalone (no environment set),
#   then every repro.min.py run outside fmin; $OUT/findings.tgz is the refiled corpus/findings.
# old: the campaign of seed 20261204 (2,085 programs, --jobs 12, minimizing as it did) run by the
#   fmin of that day (commit 9c45d67, in .old/, carried) on a copy of its corpus/findings: its
#   new buckets are what today's `fmin merge-findings` must collapse into root causes
#   (tests/data/nvfuser/campaign-20261204-0.2.36/). Made here first:
#     git archive 9c45d67 minimizer corpus pyproject.toml | tar -x -C .old      -> $OUT/old.tgz
cmd_buglist() {
  case "${1:-campaign}" in
    campaign) buglist_campaign ;;
    refile) buglist_refile ;;
    old) buglist_old ;;
    some) buglist_some ;;
    *) echo "usage: gpu.sh buglist [refile|old|some]" >&2; exit 2 ;;
  esac
}

buglist_campaign() {
  activate "$OUT/versions.txt"
  set -uo pipefail
  local W=/tmp/fmin-h200/buglist T=${FMIN_T:-200} MB=${MB:-180}
  rm -rf "$W" && mkdir -p "$W"
  timeout $((T + MB + 90)) python3 -m minimizer fuzz --backend nvfuser --device cuda --jobs "${JOBS:-4}" \
      --time "$T" --seed "${SEED:-2031}" --timeout 120 --corpus "$W/corpus" --minimize-time 30 --minimize-budget "$MB" \
      --summary "$OUT/summary.json" --junit "$OUT/junit.xml" -q > "$OUT/campaign.txt" 2>&1
  echo "campaign exit status $?" >> "$OUT/campaign.txt"
  outside "$W/corpus" "$OUT/rerun.txt"
  cp "$W/corpus/report.md" "$OUT/" 2>/dev/null
  tar czf "$OUT/corpus.tgz" -C "$W" corpus
  cat "$OUT/versions.txt" "$OUT/campaign.txt" "$OUT/rerun.txt" 2>/dev/null
}

buglist_refile() {
  activate "$OUT/versions.txt"
  set -uo pipefail
  local W=/tmp/fmin-h200/buglist J=${JOBS:-8}
  rm -rf "$W" && mkdir -p "$W"
  cp -r corpus/findings "$W/findings"
  python3 -m minimizer merge-findings --into "$W/findings" > "$OUT/rekey.txt" 2>&1
  echo "re-key exit status $? at ${SECONDS}s" >> "$OUT/rekey.txt"
  timeout $((${MB:-200} + 200)) python3 -m minimizer fuzz --backend nvfuser --device cuda --jobs "$J" --timeout 120 \
      --max-examples 0 --minimize-time "${MT:-120}" --minimize-budget "${MB:-200}" --corpus "$W/findings" \
      --summary "$OUT/minimize.json" > "$OUT/minimize.txt" 2>&1
  echo "minimize exit status $? at ${SECONDS}s" >> "$OUT/minimize.txt"
  timeout $((${DEADLINE:-540} - SECONDS)) python3 -m minimizer fuzz --recheck --backend nvfuser --device cuda \
      --jobs "$J" --timeout 120 --corpus "$W/findings" --summary "$OUT/recheck.json" -q > "$OUT/recheck.txt" 2>&1
  echo "recheck exit status $? at ${SECONDS}s" >> "$OUT/recheck.txt"
  DEADLINE=$((${DEADLINE:-540} + 20)) outside "$W/findings" "$OUT/outside.txt"
  cp "$W/findings/report.md" "$OUT/" 2>/dev/null
  tar czf "$OUT/findings.tgz" -C "$W" findings
  cat "$OUT/versions.txt" "$OUT/rekey.txt" "$OUT/minimize.txt" "$OUT/recheck.txt"
}

# some: the buckets BUCKETS names (ids of SOME_FROM, default corpus/findings), copied into a corpus of their own: its
#   unminimized nvFuser buckets minimized and filed, each then rechecked on nvFuser (and the
#   Inductor ones on Triton, DEVICE cuda), and every repro.min.py run outside fmin; leaves
#   $OUT/some.tgz (the sub-corpus: copy its buckets over corpus/findings, then `fmin merge-findings
#   --into corpus/findings` rewrites the bug list). Knobs: JOBS (4), MT (120), MB (240), DEADLINE (540).
buglist_some() {
  activate "$OUT/versions.txt"
  set -uo pipefail
  local W=${SOME_DIR:-/tmp/fmin-h200/some} J=${JOBS:-4} b
  rm -rf "$W" && mkdir -p "$W/findings"
  for b in ${BUCKETS:?BUCKETS: the bucket ids to refile}; do cp -r "${SOME_FROM:-corpus/findings}/$b" "$W/findings/"; done
  timeout $((${MB:-240} + 120)) python3 -m minimizer fuzz --backend nvfuser --device cuda --jobs "$J" --timeout 120 \
      --max-examples 0 --minimize-time "${MT:-120}" --minimize-budget "${MB:-240}" --corpus "$W/findings" \
      --summary "$OUT/minimize.json" > "$OUT/minimize.txt" 2>&1
  echo "minimize exit status $? at ${SECONDS}s" >> "$OUT/minimize.txt"
  for backend in inductor nvfuser; do   # Inductor's few first: the rest of the time is nvFuser's
    timeout $(( ${DEADLINE:-540} - 30 - SECONDS > 10 ? ${DEADLINE:-540} - 30 - SECONDS : 10 )) \
      python3 -m minimizer fuzz --recheck --backend $backend --device cuda \
        --jobs "$J" --timeout 120 --corpus "$W/findings" -q >> "$OUT/recheck.txt" 2>&1
    echo "recheck $backend exit status $? at ${SECONDS}s" >> "$OUT/recheck.txt"
  done
  DEADLINE=${DEADLINE:-540} outside "$W/findings" "$OUT/outside.txt"
  tar czf "$OUT/some.tgz" -C "$W" findings
  cat "$OUT/minimize.txt" "$OUT/recheck.txt" | grep -v '^|' | tail -20
}

buglist_old() {
  local W=/tmp/fmin-h200 d b
  mkdir -p "$W"
  activate "$W/versions.txt"
  set -u
  rm -rf "$W/old-corpus" && cp -r .old/corpus/findings "$W/old-corpus"
  ls "$W/old-corpus" > "$W/old-before.txt"
  ( cd .old && time PYTHONPATH=$PWD:${NVF_PATH:-} timeout 560 python3 -m minimizer fuzz --backend nvfuser \
      --max-examples 2085 --jobs 12 --seed 20261204 --minimize-time 60 --minimize-budget 230 \
      --corpus "$W/old-corpus" --summary "$W/old-summary.json" ) > "$W/old-campaign.txt" 2>&1
  echo "rc=$?" >> "$W/old-campaign.txt"
  mkdir -p "$W/old-new"
  for d in "$W"/old-corpus/*/; do
    b=$(basename "$d"); grep -qx "$b" "$W/old-before.txt" || cp -r "$d" "$W/old-new/$b"
  done
  ls "$W/old-new" | wc -l >> "$W/old-campaign.txt"
  tar czf "$OUT/old.tgz" -C "$W" old-new old-campaign.txt old-summary.json versions.txt
}

# ---------------------------------------------------------------- ray
# One nvFuser campaign with `--jobs 4` and one with `--ray`, 4 actors of 0.25 GPU each
# (scripts/bench_ray.py: same seed, no minimization, SECONDS_EACH (100) per campaign). Carries
# NVF=.nvfd and .raydev (Ray 2.60.0 for CPython 3.12 with its dependencies, `pip install
# --target`, the binaries stripped, ray/{jars,rllib,data,serve,train,tune,llm} left out so that it
# fits the 64 MiB a call carries; the machine reaches no package index). Writes $OUT/bench_ray.txt.
cmd_ray() {
  activate "$OUT/versions.txt"
  set -eo pipefail
  mkdir -p /tmp/rd && tar -xJf .raydev/raydev.tar.xz -C /tmp/rd
  export PYTHONPATH=$PYTHONPATH:/tmp/rd/raydev     # the machine's own packages first
  cat "$OUT/versions.txt"
  python3 -c "import ray; print('ray', ray.__version__)"
  python3 scripts/bench_ray.py --backend nvfuser --device cuda --jobs 4 --time "${SECONDS_EACH:-100}" 2>&1 \
    | tee "$OUT/bench_ray.txt"
}

# ---------------------------------------------------------------- acceptance
# Two phases, one device call each, NVF=.nvfd; each leaves $OUT/<phase>.tgz (everything it wrote
# under /tmp/fmin-h200/<phase>). Raw results: docs/data/h200-2026-12-04/, figures docs/h200.md.
# a: every corpus script and seed (legacy ones through `fmin upgrade`) checked on nvFuser
#    (kernels, boundaries, the segmenter's reasons); each that splits into >= 2 kernels reduced
#    under the DEFAULT property, four at a time (scripts/bench_faithful.py); a cuda:1 script on the
#    three backends; scripts that must be refused (no `import torch`); the README's attachment.
# b: `fmin check --mismatch` over the corpus (rows streamed, timestamped); the strided-alias
#    script found and reduced; the float32 matmul + sum not flagged on nvFuser and Triton; a
#    short nvFuser campaign on the differential oracle.
cmd_acceptance() {
  local phase=${1:?usage: gpu.sh acceptance a|b}
  local W=/tmp/fmin-h200/$phase
  mkdir -p "$W/up" "$W/red"
  activate "$W/versions.txt"
  set -u
  case "$phase" in
    a) acceptance_a "$W" ;;
    b) acceptance_b "$W" ;;
    *) echo "usage: gpu.sh acceptance a|b" >&2; exit 2 ;;
  esac
  tar czf "$OUT/$phase.tgz" -C /tmp/fmin-h200 "$phase"
  ls -la "$OUT"
}

acceptance_a() {
  local W=$1 b
  upgrade_all "$W/up" corpus/*.py corpus/seeds/*.py tests/data/forms/cuda1.py 2> "$W/upgrade.err"
  # shellcheck disable=SC2046,SC2010
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
  # shellcheck disable=SC2046
  ( time timeout 370 python3 scripts/bench_faithful.py --backend nvfuser --jobs 3 --parallel 4 --max-time 140 \
        --out "$W/red" $(cat "$W/to_reduce.txt") ) > "$W/faithful.md" 2>&1
  wait
}

acceptance_b() {
  local W=$1
  upgrade_all "$W/up" corpus/*.py 2> "$W/upgrade.err"
  cp tests/data/mismatch/*.py "$W/up/"
  # every row as it finishes, with the time it arrived
  ( time timeout 250 python3 -m minimizer check --backend nvfuser --mismatch --jobs 6 "$W"/up/*.py ) 2>&1 | stamp > "$W/mismatch_table.txt" &
  ( timeout 250 python3 -m minimizer check --backend inductor --device cuda --mismatch --json "$W/up/matmul_sum.py" \
      "$W/up/alias_strided.py" ) > "$W/inductor_mismatch.jsonl" 2>&1 &
  ( time timeout 300 python3 -m minimizer reduce "$W/up/alias_strided.py" --backend nvfuser --mismatch --jobs 2 \
      --out "$W/red/alias_strided" -q ) > "$W/red/alias_strided.txt" 2>&1 &
  ( NVFUSER_DUMP=segmented_fusion,segmenter_logging NVFUSER_DISABLE=parallel_compile \
      timeout 60 python3 tests/data/mismatch/alias_strided_probe.py ) > "$W/alias_strided.log" 2>&1 &
  wait
  ( time timeout 240 python3 -m minimizer fuzz --backend nvfuser --frontend nvfuser_direct --oracles differential \
      --time 150 --seed 4242 --jobs 6 --timeout 120 --corpus "$W/fz" --no-minimize --fail-on never ) > "$W/fuzz.txt" 2>&1
}

# ---------------------------------------------------------------- trim-check
# The large seeds as written and trimmed (the seeded fuzzer's `small` form), upgraded to
# nvfuser_direct and checked on nvFuser: does the trimmed form keep the segmentation?
cmd_trim_check() {
  activate /dev/null
  local tc=/tmp/tc f
  python3 - "$tc" > /dev/null <<'EOF'
import os, shutil, sys
from minimizer.fuzz.sources import seeded
from minimizer.program import to_source
out = sys.argv[1]
os.makedirs(out, exist_ok=True)
for s in seeded.load(["corpus/seeds", "corpus/rope_qkv_split.py"]).seeds:
    if s.small is None:
        continue
    b = os.path.basename(s.path)[:-3]
    shutil.copy(s.path, f"{out}/{b}.as_written.py")
    with open(f"{out}/{b}.trimmed.py", "w") as f:
        f.write(to_source(s.small[0]))
EOF
  for f in "$tc"/*.py; do
    python3 -m minimizer upgrade --to nvfuser_direct "$f" -o "${f%.py}.direct.py" > /dev/null 2>&1 || echo "upgrade failed $f"
  done
  timeout 150 python3 -m minimizer check --backend nvfuser --device cuda "$tc"/*.direct.py 2>&1
  echo "check rc $?"
}

# ---------------------------------------------------------------- session
# The campaign sessions (docs/benchmarks.md), one device call per phase; each leaves
# $OUT/<phase>.tgz (everything under /tmp/fmin-h200 but up/). Phases b-d read h200-work/ (made
# here from a.tgz: mkdir -p h200-work && tar xzf <files_at>/a.tgz -C h200-work; carried with .nvf).
# a: the oracle benchmark alone; then, beside the first half (shard 0/2) of a campaign on nvFuser
#    and on Inductor: a crash and a hang injected among real nvFuser runs; the corpus through
#    Inductor; isolate + --order-dependent on the LayerNorm seeds; the RoPE script under --segments '>=2'.
# b: the second half (shard 1/2) of both campaigns on a's corpora, then every bucket still
#    unminimized minimized (bounded); beside it the RoPE script with the resize scheduler
#    disabled, and a reduction of the scatter/index corpus script.
# c: b again without minimizing, with the seeds' and RoPE's runs (a call under 555 s).
# d: the buckets the campaigns stored minimized (bounded).
# e: the nvFuser campaign topped up (seed 2028) while corpus/findings' unminimized nvFuser buckets
#    are replayed and minimized over FMIN_P (2) reducers; the top-up's new buckets minimized; the
#    probes of h200-work/probe/ checked.
# f: the typing probes (tests/data/nvfuser/typing/); every nvFuser bucket rechecked; a campaign
#    (seed 2029) into a copy of the corpus; the scatter reduction again.
# g: the Inductor buckets rechecked, then both backends fuzzed again (seed 2030).
# h: the nvFuser buckets whose reductions stopped at 4 ops or more, reduced again (60 s each).
# Knobs: FMIN_T (campaign seconds: 300; e/f 150, g 120), CT (a campaign's timeout), MT, NT,
# FMIN_P; FMIN_DEVICE=cpu FMIN_NV=reference FMIN_T=20: a dry run without a GPU.
cmd_session() {
  local phase=${1:?usage: gpu.sh session a|b|c|d|e|f|g|h}
  W=/tmp/fmin-h200
  mkdir -p "$W/up"
  activate "$W/versions.txt"
  set -u
  nproc > "$W/nproc.txt"
  T=${FMIN_T:-300} SEED=2026 DEV=${FMIN_DEVICE:-cuda} NV=${FMIN_NV:-nvfuser}
  case "$phase" in
    a|b|c|d|e|f|g|h) "session_$phase" ;;
    *) echo "usage: gpu.sh session a|b|c|d|e|f|g|h" >&2; exit 2 ;;
  esac
  find "$W" -name 'worker.log' -delete
  tar czf "$OUT/$phase.tgz" -C "$W" --exclude=./up .
  ls -la "$OUT"
}

campaign() {   # backend shard extra...
  local b=$1 shard=$2; shift 2
  local fe=(); [ "$b" != inductor ] && fe=(--frontend nvfuser_direct)
  timeout "${CT:-$((T + 60))}" python3 -m minimizer fuzz --backend "$b" --device "$DEV" --time "$T" --seed "$SEED" \
      --shard "$shard" --jobs 4 --timeout 120 "${fe[@]}" \
      --corpus "$W/fz-$b" --summary "$W/fz-$b-${shard%/*}.json" --junit "$W/fz-$b-${shard%/*}.xml" -q "$@" \
      > "$W/fz-$b-${shard%/*}.txt" 2>&1
  echo "campaign $b $shard rc=$?" >> "$W/fz-$b-${shard%/*}.txt"
}

fmin() { python3 -m minimizer "$@"; }

session_a() {
  upgrade_all "$W/up" corpus/*.py corpus/seeds/*.py 2>> "$W/upgrade.err"
  ( time timeout 170 python3 scripts/bench_oracle.py --backend "$NV" inductor reference --device "$DEV" -n 5 --fresh-n 1 ) \
      > "$W/bench_oracle.md" 2>&1
  campaign "$NV" 0/2 --no-minimize &
  campaign inductor 0/2 --no-minimize &
  {
    { cat "$W/up/direct_rmsnorm_fwd.py"; echo 'import os, signal; os.kill(os.getpid(), signal.SIGSEGV)'; } > "$W/zz_crash.py"
    sed 's/^fd.execute(inputs)$/import time\nwhile True: time.sleep(1)/; s/^out = fd.execute(inputs)$/import time\nwhile True: time.sleep(1)/' \
        "$W/up/direct_shape_ops.py" > "$W/zz_hang.py"
    fmin check --backend "$NV" --jobs 2 --timeout 45 --json "$W/zz_crash.py" "$W/up/direct_rmsnorm_fwd.py" \
        "$W/zz_hang.py" "$W/up/legacy_softmax_fwd.py" > "$W/inject.jsonl" 2> "$W/inject.err"
    echo "rc=$?" >> "$W/inject.err"
    fmin check --backend inductor --device "$DEV" --jobs 2 --json "$W"/up/*.py > "$W/check_inductor.jsonl" 2> "$W/check_inductor.err"
  } &
  {
    local L=$W/up/layernorm_bwd_fused.py S=$W/up/layernorm_bwd_segmented.py b
    for b in $NV inductor; do
      ( time fmin check --backend $b --device "$DEV" --json "$L" "$S" ) > "$W/seeds-$b.jsonl" 2>&1
      ( time fmin isolate "$L" "$S" --backend $b --device "$DEV" --jobs 2 --out "$W/isolate-$b" ) > "$W/isolate-$b.txt" 2>&1
      ( time fmin check --backend $b --device "$DEV" --jobs 2 --order-dependent "$L" "$S" ) > "$W/order-$b.txt" 2>&1
    done
    ( time fmin "$W/up/rope_qkv_split.py" --backend "$NV" --segments '>=2' --jobs 2 --out "$W/rope-nvfuser" ) \
        > "$W/rope-nvfuser.txt" 2>&1
    echo "rc=$?" >> "$W/rope-nvfuser.txt"
  } &
  wait
}

session_b() {
  cp -r h200-work/. "$W/"
  CT=$((T + 250))
  campaign "$NV" 1/2 --minimize-time 60 --minimize-budget 150 &
  campaign inductor 1/2 --minimize-time 60 --minimize-budget 150 &
  {
    local R=$W/up/rope_qkv_split.py
    ( time NVFUSER_DISABLE=parallel_compile,resize_scheduler fmin check --backend "$NV" --json "$R" ) > "$W/rope-noresize-check.txt" 2>&1
    ( time NVFUSER_DISABLE=parallel_compile,resize_scheduler timeout 300 python3 -m minimizer "$R" --backend "$NV" \
        --segments '>=2' --jobs 3 --out "$W/rope-noresize" --max-time 150 ) > "$W/rope-noresize.txt" 2>&1
    echo "rc=$?" >> "$W/rope-noresize.txt"
    ( time timeout 240 python3 -m minimizer "$W/up/direct_scatter_index_ops.py" --backend "$NV" --jobs 3 \
        --out "$W/scatter-nvfuser" --max-time 150 ) > "$W/scatter-nvfuser.txt" 2>&1
    echo "rc=$?" >> "$W/scatter-nvfuser.txt"
  } &
  wait
}

session_c() {
  cp -r h200-work/. "$W/"
  CT=$((T + 40))
  campaign "$NV" 1/2 --no-minimize &
  campaign inductor 1/2 --no-minimize &
  {
    local L=$W/up/layernorm_bwd_fused.py S=$W/up/layernorm_bwd_segmented.py
    ( time timeout 200 python3 -m minimizer check --backend "$NV" --device "$DEV" --jobs 2 --order-dependent "$L" "$S" ) > "$W/order-$NV.txt" 2>&1
    ( time timeout 200 python3 -m minimizer check --backend inductor --device "$DEV" --json "$L" "$S" ) > "$W/seeds-inductor.jsonl" 2>&1
    ( time timeout 200 python3 -m minimizer isolate "$L" "$S" --backend inductor --device "$DEV" --jobs 2 --out "$W/isolate-inductor" ) > "$W/isolate-inductor.txt" 2>&1
    ( time timeout 200 python3 -m minimizer check --backend inductor --device "$DEV" --jobs 2 --order-dependent "$L" "$S" ) > "$W/order-inductor.txt" 2>&1
  } &
  {
    local R=$W/up/rope_qkv_split.py
    ( time timeout 60 python3 -m minimizer "$R" --backend "$NV" --segments '>=2' --jobs 2 --out "$W/rope-nvfuser" ) > "$W/rope-nvfuser.txt" 2>&1
    echo "rc=$?" >> "$W/rope-nvfuser.txt"
    ( time NVFUSER_DISABLE=parallel_compile,resize_scheduler timeout 200 python3 -m minimizer "$R" --backend "$NV" \
        --segments '>=2' --jobs 3 --out "$W/rope-noresize" --max-time 120 ) > "$W/rope-noresize.txt" 2>&1
    echo "rc=$?" >> "$W/rope-noresize.txt"
    ( time timeout 200 python3 -m minimizer "$W/up/direct_scatter_index_ops.py" --backend "$NV" --jobs 3 \
        --out "$W/scatter-nvfuser" --max-time 120 ) > "$W/scatter-nvfuser.txt" 2>&1
    echo "rc=$?" >> "$W/scatter-nvfuser.txt"
  } &
  wait
}

session_d() {
  [ -d "$W/fz-$NV" ] || cp -r h200-work/. "$W/"
  local b
  for b in $NV inductor; do
    ( time timeout "${MT:-230}" python3 -m minimizer fuzz --backend $b --device "$DEV" --max-examples 0 --jobs 4 --timeout 60 \
        --corpus "$W/fz-$b" --minimize-time 30 --minimize-budget $(( ${MT:-230} - 50 )) --summary "$W/fz-$b-min.json" -q ) \
        > "$W/fz-$b-min.txt" 2>&1 &
  done
  wait
}

session_e() {
  local P=${FMIN_P:-2} i=0 f d p CAMP
  mkdir -p "$W/fz-$NV"; cp -r corpus/findings/. "$W/fz-$NV/"
  for f in corpus/findings/*/finding.json; do
    python3 -c "import sys; from minimizer.fuzz.store import record; m=record.load(sys.argv[1]); sys.exit(0 if m.backend=='$NV' and not m.minimized and not m.stale else 1)" "$f" || continue
    d=$(dirname "$f"); mkdir -p "$W/part$((i % P))"; cp -r "$d" "$W/part$((i % P))/"; i=$((i + 1))
  done
  echo "$i stored buckets to minimize over $P reducers" > "$W/parts.txt"
  T=${FMIN_T:-150} SEED=2028 CT=$(( ${FMIN_T:-150} + 60 )) campaign "$NV" 0/1 --no-minimize &
  CAMP=$!
  for p in $(seq 0 $((P - 1))); do
    ( time timeout "${MT:-420}" python3 -m minimizer fuzz --backend "$NV" --device "$DEV" --max-examples 0 --jobs 3 --timeout 60 \
        --frontend nvfuser_direct --corpus "$W/part$p" --minimize-time 30 --minimize-budget $(( ${MT:-420} - 40 )) \
        --summary "$W/part$p.json" -q ) > "$W/part$p.txt" 2>&1 &
  done
  ( time python3 -m minimizer check --backend "$NV" --device "$DEV" --json h200-work/probe/*.py ) > "$W/probe.jsonl" 2>&1
  wait $CAMP
  mkdir -p "$W/new"
  for d in "$W/fz-$NV"/*/; do [ -e "corpus/findings/$(basename "$d")" ] || cp -r "$d" "$W/new/"; done
  ( time timeout "${NT:-240}" python3 -m minimizer fuzz --backend "$NV" --device "$DEV" --max-examples 0 --jobs 3 --timeout 60 \
      --frontend nvfuser_direct --corpus "$W/new" --minimize-time 30 --minimize-budget $(( ${NT:-240} - 30 )) \
      --summary "$W/new.json" -q ) > "$W/new.txt" 2>&1
  wait
}

session_f() {
  ( time python3 -m minimizer check --backend "$NV" --device "$DEV" --json tests/data/nvfuser/typing/*.py ) \
      > "$W/typing.jsonl" 2> "$W/typing.err"
  mkdir -p "$W/rc" "$W/fz-$NV"; cp -r corpus/findings/. "$W/rc/"; cp -r corpus/findings/. "$W/fz-$NV/"
  ( time timeout 300 python3 -m minimizer fuzz --recheck --backend "$NV" --device "$DEV" --corpus "$W/rc" --jobs 3 \
      --timeout 60 -q ) > "$W/recheck.txt" 2>&1 &
  T=${FMIN_T:-150} SEED=2029 CT=$(( ${FMIN_T:-150} + 220 )) campaign "$NV" 0/1 --minimize-time 30 --minimize-budget 150 &
  ( time timeout 240 python3 -m minimizer corpus/direct_scatter_index_ops.py --backend "$NV" --jobs 3 \
      --out "$W/scatter-nvfuser" --max-time 150 ) > "$W/scatter-nvfuser.txt" 2>&1
  echo "rc=$?" >> "$W/scatter-nvfuser.txt"
  wait
}

session_g() {
  mkdir -p "$W/rc" "$W/fz-$NV" "$W/fz-inductor"
  cp -r corpus/findings/. "$W/rc/"; cp -r corpus/findings/. "$W/fz-$NV/"; cp -r corpus/findings/. "$W/fz-inductor/"
  ( time timeout 200 python3 -m minimizer fuzz --recheck --backend inductor --device "$DEV" --corpus "$W/rc" --jobs 3 \
      --timeout 120 -q ) > "$W/recheck-inductor.txt" 2>&1 &
  T=${FMIN_T:-120} SEED=2030 CT=$(( ${FMIN_T:-120} + 200 )) campaign "$NV" 0/1 --minimize-time 30 --minimize-budget 120 &
  T=${FMIN_T:-120} SEED=2030 CT=$(( ${FMIN_T:-120} + 200 )) campaign inductor 0/1 --minimize-time 30 --minimize-budget 120 &
  wait
}

session_h() {
  local P=2 i=0 f d t p
  for f in corpus/findings/*/finding.json; do
    python3 -c "import sys; from minimizer.fuzz.store import record; m=record.load(sys.argv[1]); r=m.reduction; sys.exit(0 if m.backend=='$NV' and not m.stale and r is not None and (r.ops_after or 0) >= 4 else 1)" "$f" || continue
    d=$(dirname "$f"); t="$W/re$((i % P))/$(basename "$d")"; mkdir -p "$(dirname "$t")"; cp -r "$d" "$t"
    python3 -c "import sys; from minimizer.fuzz.store import record; p=sys.argv[1]; m=record.load(p); m.minimized=False; m.extra['previous_reduction']=m.reduction.to_json() if m.reduction else None; m.reduction=None; record.save(p, m)" "$t/finding.json"
    i=$((i + 1))
  done
  echo "$i buckets to reduce again" > "$W/re.txt"
  for p in $(seq 0 $((P - 1))); do
    ( time timeout "${MT:-200}" python3 -m minimizer fuzz --backend "$NV" --device "$DEV" --max-examples 0 --jobs 4 --timeout 60 \
        --frontend nvfuser_direct --corpus "$W/re$p" --minimize-time 60 --minimize-budget $(( ${MT:-200} - 30 )) \
        --summary "$W/re$p.json" -q ) > "$W/re$p.txt" 2>&1 &
  done
  wait
}

# ---------------------------------------------------------------- triage
# The bug list's GPU day in one call, three jobs side by side on the 16 cores: the committed corpus
# refiled (`buglist refile`, --jobs 4), a generative and a seeded campaign of FMIN_T (240) seconds
# each (`seeded`, --jobs 5 each), and the CI workflow's shard + merge jobs as written
# (scripts/ci_steps.py, one 60-s shard seeded from a copy of corpus/seeds, in a scratch directory
# that is not fmin's; `fmin` is this checkout's). Leaves
# $OUT/triage.tgz (refile/, pair/, ci/ with each job's files).
cmd_triage() {
  local R=$PWD O=/tmp/fmin-h200/triage
  rm -rf "$O" && mkdir -p "$O/refile" "$O/pair" "$O/ci" /tmp/fmin-bin
  activate "$O/versions.txt"   # unpacks nvFuser once, before the jobs activate it again
  printf '#!/bin/sh\nexec python3 -m minimizer "$@"\n' > /tmp/fmin-bin/fmin && chmod +x /tmp/fmin-bin/fmin
  ( OUT=$O/refile JOBS=4 MT=90 MB=150 DEADLINE=520 timeout 560 bash scripts/gpu.sh buglist refile > "$O/refile/log.txt" 2>&1 ) &
  ( OUT=$O/pair FMIN_T=${FMIN_T:-240} JOBS=5 MT=30 MB=90 DEADLINE=500 timeout 560 bash scripts/gpu.sh seeded \
      > "$O/pair/log.txt" 2>&1 ) &
  ( export PATH=/tmp/fmin-bin:$PATH
    rm -rf /tmp/fmin-ci && mkdir -p /tmp/fmin-ci/tests && cd /tmp/fmin-ci && cp -r "$R/corpus/seeds" tests/python
    python3 "$R/scripts/ci_steps.py" "$R/docs/ci/fmin-fuzz.yml" --job shard --job merge --matrix shard=0 \
        --set FMIN_TIME_SEEDED=45 --set FMIN_TIME_GENERATIVE=15 --set FMIN_MINIMIZE_BUDGET=60 --skip-install > "$O/ci/steps.sh"
    local s=$SECONDS
    timeout 500 bash "$O/ci/steps.sh" > "$O/ci/log.txt" 2>&1
    echo "steps exit $? in $((SECONDS - s)) s" >> "$O/ci/log.txt"
    cp -r reports "$O/ci/" 2>/dev/null; tar czf "$O/ci/findings.tgz" findings shards 2>/dev/null ) &
  wait
  tar czf "$OUT/triage.tgz" -C "$(dirname "$O")" triage
  tail -4 "$O/refile/log.txt"; tail -12 "$O/pair/log.txt"; tail -3 "$O/ci/log.txt"
}

# ---------------------------------------------------------------- pair
# The fresh-rows acceptance call (docs/fuzz.md "Fresh rows"): side by side, the committed corpus
#   refiled by today's rules (`buglist refile`: re-keyed, pending buckets minimized, every nvFuser
#   bucket rechecked and re-filed, every repro.min.py run outside fmin) and two campaigns of FMIN_T
#   seconds at the same --jobs, each minimizing and filing its new buckets: `tests`, seeded from
#   nvFuser's own Python tests (TESTS, an nvFuser checkout carried along: .fuser-head) with
#   --feedback; `corpus`, seeded from the corpus scripts (corpus/*.py corpus/seeds). Then every
#   filed repro.min.py of both run outside fmin and scripts/compare_feedback.py. Knobs: FMIN_T
#   (240), JOBS (5 each), MT (30), MB (90), SEED (2031), DEADLINE (545). Leaves under $OUT:
#   versions.txt, {tests,corpus}.{txt,json}, outside.txt, compare.txt, pair.tgz (both corpora and
#   the refiled one, packed as each ends), refile/ (the refile's own files).
cmd_pair() {
  local W=/tmp/fmin-h200/pair T=${FMIN_T:-240} MB=${MB:-90} c b
  local -a pids=()
  rm -rf "$W" && mkdir -p "$W" "$OUT/refile"
  activate "$OUT/versions.txt"
  set -uo pipefail
  if [ "${REFILE:-full}" = stale ]; then
    # only the corpus's stale nvFuser buckets, rechecked: does a replay that shows a failure keep it?
    mkdir -p "$W/stale"
    for b in corpus/findings/*/; do
      b=${b%/}
      grep -q '"stale"' "$b/finding.json" && grep -q '"backend": "nvfuser"' "$b/finding.json" && cp -r "$b" "$W/stale/"
    done
    ( timeout 400 python3 -m minimizer fuzz --recheck --backend nvfuser --device cuda --jobs 4 --corpus "$W/stale" \
        > "$OUT/refile/log.txt" 2>&1; tar czf "$OUT/refile/stale.tgz" -C "$W" stale ) &
  else
    ( OUT=$OUT/refile JOBS=4 MT=90 MB=150 DEADLINE=520 timeout 560 bash scripts/gpu.sh buglist refile \
        > "$OUT/refile/log.txt" 2>&1 ) &
  fi
  pids+=($!)
  local common=(--backend "${BACKEND:-nvfuser}" --device "${DEVICE:-cuda}" --jobs "${JOBS:-5}" --time "$T" --seed "${SEED:-2031}"
                --timeout 120 --minimize-time "${MT:-30}" --minimize-budget "$MB" -q)
  for c in tests corpus; do
    local seeds=("${TESTS:-.fuser-head}") extra=(--feedback)
    # shellcheck disable=SC2206
    [ "$c" = corpus ] && seeds=(corpus/*.py corpus/seeds) && extra=()
    { timeout $((T + MB + 120)) python3 -m minimizer fuzz "${common[@]}" --seeds "${seeds[@]}" "${extra[@]}" \
        --corpus "$W/$c" --summary "$OUT/$c.json" > "$OUT/$c.txt" 2>&1
      echo "$c campaign exit status $? at ${SECONDS}s" >> "$OUT/$c.txt"
      tar czf "$OUT/$c.tgz" -C "$W" "$c"
      DEADLINE=${DEADLINE:-545} outside "$W/$c" "$OUT/outside-$c.txt"; } &
    pids+=($!)
  done
  wait "${pids[@]}"
  echo "done at ${SECONDS}s" >> "$OUT/versions.txt"
  python3 scripts/compare_feedback.py "tests=$OUT/tests.json:$W/tests" "corpus=$OUT/corpus.json:$W/corpus" \
      > "$OUT/compare.txt" 2>&1
  cat "$OUT/versions.txt" "$OUT/compare.txt"; tail -3 "$OUT/refile/log.txt"
}

# ---------------------------------------------------------------- mix
# The workflow's mix against plain generative and plain seeded campaigns, equal time, side by side on
# one GPU (scripts/bench_mix.py): new Bugs rows and root causes against the committed corpus. The
# fourth, nvFuser's tests alone under feedback, is the pair's tests campaign (the pair's corpus one
# is the seeded mix), so one call also gives the pair.
# FMIN_T seconds each (240), JOBS per mix (4), MB minimize budget (150); TESTS: nvFuser's checkout.
cmd_mix() {
  activate "$OUT/versions.txt"
  set -u
  local t=${FMIN_T:-240}
  timeout $((t + ${MB:-150} + 150)) python3 scripts/bench_mix.py --time "$t" --grace $((${MB:-150} + 120)) \
      --known corpus/findings --out /tmp/fmin-mix --seed "${SEED:-1}" \
      --mix 'generative=' --mix 'seeded=--seeds corpus/*.py corpus/seeds' \
      --mix "tests=--seeds ${TESTS:-.fuser-head} --feedback" \
      --mix "workflow=--seeds ${TESTS:-.fuser-head} corpus/*.py corpus/seeds --feedback" \
      -- --backend nvfuser --device cuda --jobs "${JOBS:-4}" --timeout 120 --minimize-time 30 \
      --minimize-budget "${MB:-150}" > "$OUT/mix.txt" 2>&1
  tar czf "$OUT/mix.tgz" -C /tmp fmin-mix
  cat "$OUT/mix.txt"
}

# ---------------------------------------------------------------- nights
# The workflow (docs/ci/fmin-fuzz.yml) as written, its shard and merge jobs expanded by
# scripts/ci_steps.py (one shard, --skip-install), run in a scratch git repository that is not fmin's and
# is a copy of nvFuser's checkout (TESTS: .fuser-head, its csrc/ and tests/), two nights in a row: the second starts
# from the first's findings/ (the cache's stand-in) and so from what its feedback learned.
# TS, TG: seeded and generative seconds (120, 30); MB: minimize budget (90); BACKEND, DEVICE. Where this machine's Python
# lacks yaml, STEPS names a folder of steps-1.sh, steps-2.sh made elsewhere by the same command.
cmd_nights() {
  local root=$PWD repo=/tmp/fmin-nights n
  activate "$OUT/versions-nights.txt"
  rm -rf "$repo" && mkdir -p "$repo" "$OUT/nights"
  cp -r "${TESTS:-.fuser-head}/." "$repo/" && git -C "$repo" init -q
  for n in 1 2; do
    if ! python3 scripts/ci_steps.py docs/ci/fmin-fuzz.yml --job shard --job merge --matrix shard=0 --skip-install \
        --set SEED=$n --set FMIN_TIME_SEEDED="${TS:-120}" --set FMIN_TIME_GENERATIVE="${TG:-30}" \
        --set FMIN_MINIMIZE_BUDGET="${MB:-90}" --set FMIN_BACKEND="${BACKEND:-nvfuser}" --set FMIN_DEVICE="${DEVICE:-cuda}" \
        > "$repo/steps-$n.sh" 2> "$OUT/nights/steps-$n.err"; then
      # made on another machine: its fmin checkout's path becomes this one's
      sed "s|^export PYTHONPATH=[^\"]*\"|export PYTHONPATH=$root\"|" "${STEPS:?no yaml here and no STEPS}/steps-$n.sh" > "$repo/steps-$n.sh"
    fi
    ( cd "$repo" && SECONDS=0 && bash "steps-$n.sh" > "$OUT/nights/night-$n.txt" 2>&1
      echo "night $n exit status $? after ${SECONDS}s" >> "$OUT/nights/night-$n.txt" )
    cp -r "$repo/reports" "$OUT/nights/reports-$n"
    cp "$repo/findings/feedback.json" "$OUT/nights/feedback-$n.json" 2> /dev/null
  done
  tar czf "$OUT/nights.tgz" -C /tmp fmin-nights
  for n in 1 2; do tail -n 2 "$OUT/nights/night-$n.txt"; done
}

# ---------------------------------------------------------------- dispatch
usage() { sed -n '2,/^[^#]/p' "$0" | sed -n 's/^# \{0,1\}//p' >&2; exit 2; }
sub=${1:-}
[ $# -gt 0 ] && shift
case "$sub" in
  probes|throughput|outside|seeded|feedback|buglist|ray|acceptance|session|triage|pair|mix|nights) "cmd_$sub" "$@" ;;
  trim-check) cmd_trim_check "$@" ;;
  *) usage ;;
esac
