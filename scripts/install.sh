#!/bin/bash
# Installs fmin (editable, with its test and ray extras) into the current Python.
# torch: an existing install is kept as it is (a GPU user's CUDA build must match their nvFuser
# wheel); only where none is importable is the CPU build torch==2.13.0 installed.
# ray (fmin's `ray` extra, ray>=2.50, for --ray; tests/test_ray.py): a 79 MB wheel, about 30 s here; set
# FMIN_EXTRAS=test to leave it out. Where no Ray wheel exists for this Python, fmin is installed
# without it and the Ray tests skip.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3}
EXTRAS=${FMIN_EXTRAS:-test,ray}
if ! "$PY" -c 'import torch' 2>/dev/null; then
  "$PY" -m pip install -q 'torch==2.13.0'
fi
if ! "$PY" -m pip install -q -e ".[$EXTRAS]"; then
  [ "$EXTRAS" = test ] && exit 1
  echo "fmin: installing the extras [$EXTRAS] failed; installing [test] only (no --ray, its tests skip)" >&2
  "$PY" -m pip install -q -e '.[test]'
fi
"$PY" -c 'import torch, libcst, hypothesis, rich, minimizer; print("fmin installed; torch", torch.__version__)'
"$PY" -c 'import ray; print("ray", ray.__version__, "(fmin fuzz/check --ray)")' 2>/dev/null || echo "ray not installed (--ray unavailable)"
