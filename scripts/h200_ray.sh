#!/bin/bash
# Issue 18 on the H200: one nvFuser 0.2.36 campaign with `--jobs 4` and one with `--ray`, 4 actors
# of 0.25 GPU each (scripts/bench_ray.py: same seed, no minimization, SECONDS_EACH per campaign).
# Device call, carrying .nvfd (nvFuser, ../shared/device/nvfuser/prepare.sh) and .raydev (Ray 2.60.0
# for CPython 3.12 with its dependencies, `pip install --target`, the binaries stripped, ray/{jars,
# rllib,data,serve,train,tune,llm} left out so that it fits the 64 MiB a call carries; the machine
# reaches no package index):
#   bash scripts/h200_ray.sh
set -eo pipefail
source .nvfd/activate.sh 210
mkdir -p /tmp/rd && tar -xJf .raydev/raydev.tar.xz -C /tmp/rd
export PYTHONPATH=$PWD:$PYTHONPATH:/tmp/rd/raydev     # the machine's own packages first
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
python3 -c "import ray; print('ray', ray.__version__)"
python3 scripts/bench_ray.py --backend nvfuser --device cuda --jobs 4 --time "${SECONDS_EACH:-100}" 2>&1 \
  | tee "${OUT:-/tmp}/bench_ray.txt"
