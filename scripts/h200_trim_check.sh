#!/bin/bash
# One device call (.nvf carried): run(command="bash scripts/h200_trim_check.sh", carry=[".nvf"])
# the large seeds as written and trimmed, on nvFuser: does the trimmed form keep the segmentation?
source .nvf/activate.sh 210 > /dev/null 2>&1
export PYTHONPATH=$PWD:$PYTHONPATH
python3 scripts/seeds_trimmed.py /tmp/tc > /dev/null
for f in /tmp/tc/*.py; do python3 -m minimizer upgrade --to nvfuser_direct "$f" -o "${f%.py}.direct.py" > /dev/null 2>&1 || echo "upgrade failed $f"; done
timeout 150 python3 -m minimizer check --backend nvfuser --device cuda /tmp/tc/*.direct.py 2>&1
echo "check rc $?"
