"""Issue 25: write the trimmed form of each large seed next to a copy of the seed, for `fmin check`."""
import os, sys, shutil
from minimizer.fuzz import seeded
from minimizer.program import to_source
out = sys.argv[1]
os.makedirs(out, exist_ok=True)
for s in seeded.load(["corpus/seeds", "corpus/rope_qkv_split.py"]).seeds:
    if s.small is None:
        continue
    b = os.path.basename(s.path)[:-3]
    shutil.copy(s.path, f"{out}/{b}.as_written.py")
    open(f"{out}/{b}.trimmed.py", "w").write(to_source(s.small[0]))
    print("wrote", b)
