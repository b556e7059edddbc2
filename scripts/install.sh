#!/bin/bash
# Installs fmin (editable, with its test extra) into the current Python.
# torch: an existing install is kept as it is (a GPU user's CUDA build must match their nvFuser
# wheel); only where none is importable is the CPU build torch==2.13.0 installed.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3}
if ! "$PY" -c 'import torch' 2>/dev/null; then
  "$PY" -m pip install -q 'torch==2.13.0'
fi
"$PY" -m pip install -q -e '.[test]'
"$PY" -c 'import torch, libcst, hypothesis, rich, minimizer; print("fmin installed; torch", torch.__version__)'
