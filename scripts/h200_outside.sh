#!/bin/bash
# Every filed repro.min.py of a fuzz corpus run once OUTSIDE fmin, the way a maintainer runs an
# attachment: copied alone into an empty directory, `env -i` with only what the machine needs to
# import torch and nvFuser (PATH, HOME, nvFuser's PYTHONPATH without fmin, LD_LIBRARY_PATH,
# LD_PRELOAD for the ABI shim) plus the variables its header states, then `python3 repro.min.py`.
#   bash scripts/h200_outside.sh CORPUS_DIR OUT_FILE
# Expects NVF_PATH (nvFuser's PYTHONPATH, without fmin) in the environment; DEADLINE (seconds of
# the calling shell's $SECONDS after which no more runs start, default 560). One line per bucket:
# fmin's own standalone verdict (finding.json), then the outside run's exit code and last error
# line, or the segments it printed.
set -u
corpus=$1
dest=$2
for f in "$corpus"/*/repro.min.py; do
  [ -e "$f" ] || continue
  id=$(basename "$(dirname "$f")")
  if [ "$SECONDS" -gt "${DEADLINE:-560}" ]; then echo "$id not run outside: out of time" >> "$dest"; continue; fi
  s=$(mktemp -d)
  cp "$f" "$s/repro.min.py"
  stated=$(sed -n 's/^# environment: //p' "$f" | head -1)
  # shellcheck disable=SC2086
  (cd "$s" && timeout 300 env -i PATH="$PATH" HOME="$HOME" PYTHONPATH="${NVF_PATH:-}" \
      LD_LIBRARY_PATH="${LD_LIBRARY_PATH:-}" LD_PRELOAD="${LD_PRELOAD:-}" $stated \
      python3 repro.min.py > out.txt 2> err.txt)
  rc=$?
  err=$(grep -E '^[A-Za-z_][A-Za-z_.]*(Error|Exception)(:|$)' "$s/err.txt" | tail -1 | cut -c1-200)
  segs=$(grep -o '^g{([a-z_]*)' "$s/out.txt" | sort | uniq -c | tr -s ' \n' ' ')
  fmin_says=$(python3 -c "import sys; from minimizer.fuzz import record; m=record.load(sys.argv[1]); s=m.standalone; \
print(m.kind, 'fmin-standalone:', {True: 'reproduced', False: 'NOT-reproduced', None: 'not-run'}[s.reproduced if s else None])" \
      "$(dirname "$f")/finding.json")
  echo "$id $fmin_says | outside: exit $rc ${err:-no error}${segs:+ | segments:$segs}" >> "$dest"
  rm -rf "$s"
done
