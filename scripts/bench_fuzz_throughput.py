"""Fuzz throughput: campaigns at given ``--jobs`` for given seconds, side by side, with where
their time went (issue 24).

    python scripts/bench_fuzz_throughput.py --backend reference --device cpu --jobs 1 2 --seconds 30 \\
        [--before DIR] [--json out.json] [--md out.md]

Each campaign is ``fmin fuzz --time S --seed SEED --no-minimize --jobs J -q`` in a fresh corpus,
run as a subprocess of the tree under test (``PYTHONPATH``): this checkout, and with ``--before
DIR`` an older tree of the package too (``git archive 9c45d67 minimizer | tar -x -C DIR``), in
the same run, so both see the same machine. A tree whose summary has no ``phases`` (before the
measurement existed) gets dashes there. Measured from outside, for every tree alike: the CPU busy
fraction of the whole machine (``/proc/stat``), the most worker processes alive at once (the
fmin process's descendants running ``minimizer.backends.worker``), and the CPU seconds of the
driver (the fmin process: generation, the oracles' comparisons, its threads sharing one GIL)
and of the workers by backend, sampled every half second. "slots busy" is the slots' judging
seconds over slots x judging time: below 100 % the slots waited for work, which is the driver's
or the window's doing, not the compiler's.

The ceiling column is the floor the issue asks for, turned into a rate: the backend's own
compile-and-run seconds per program (``execute <backend>`` over programs, measured in the
workers) spread over every core — programs per minute no campaign on this machine can beat
while each program costs that many compiles.
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def cpu_ticks() -> tuple[int, int]:
    """(busy, total) jiffies of the whole machine."""
    with open("/proc/stat") as f:
        v = [int(x) for x in f.readline().split()[1:]]
    idle = v[3] + (v[4] if len(v) > 4 else 0)
    return sum(v) - idle, sum(v)


def cpu_seconds(pid: int) -> float | None:
    """User + system CPU seconds of one process so far (None once it is gone)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            v = f.read().rsplit(")", 1)[1].split()
        return (int(v[11]) + int(v[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError, ValueError):
        return None


def worker_backend(pid: int) -> str:
    """The backend a worker process serves (its command line: ``... worker FD BACKEND DEVICE``)."""
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            args = f.read().decode(errors="replace").split("\0")
        return args[args.index("minimizer.backends.worker") + 2]
    except (OSError, ValueError, IndexError):
        return "?"


def worker_descendants(pid: int) -> set[int]:
    """Pids of ``pid``'s descendants that are fmin workers (children of the campaign's slot
    processes now, of the campaign itself before)."""
    parent, cmd = {}, {}
    for d in os.listdir("/proc"):
        if not d.isdigit():
            continue
        try:
            with open(f"/proc/{d}/stat") as f:
                parent[int(d)] = int(f.read().rsplit(")", 1)[1].split()[1])
            with open(f"/proc/{d}/cmdline", "rb") as f:
                cmd[int(d)] = b"minimizer.backends.worker" in f.read()
        except (OSError, IndexError, ValueError):
            continue
    out = set()
    for p, is_worker in cmd.items():
        if not is_worker:
            continue
        q, hops = p, 0
        while q in parent and q != pid and hops < 8:
            q, hops = parent[q], hops + 1
        if q == pid:
            out.add(p)
    return out


def campaign(tree: str, jobs: int, a) -> dict:
    """One campaign of the package in ``tree``; its summary plus what was measured outside."""
    d = tempfile.mkdtemp(prefix="fmin-bench-")
    summary = os.path.join(d, "summary.json")
    cmd = [sys.executable, "-m", "minimizer", "fuzz", "--backend", a.backend, "--device", a.device,
           "--time", str(a.seconds), "--seed", str(a.seed), "--no-minimize", "--jobs", str(jobs), "-q",
           "--corpus", os.path.join(d, "corpus"), "--summary", summary, "--fail-on", "never"]
    env = {**os.environ, "PYTHONPATH": tree + os.pathsep + os.environ.get("PYTHONPATH", "")}
    b0, t0 = cpu_ticks()
    w0 = time.monotonic()
    p = subprocess.Popen(cmd, env=env, cwd=d, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    seen: set[int] = set()
    most = 0
    done = threading.Event()
    cpu: dict[int, float] = {}          # pid -> CPU seconds, last sample
    kind: dict[int, str] = {p.pid: "driver"}

    def watch():
        nonlocal most
        while not done.is_set():
            now = worker_descendants(p.pid)
            for w in now - seen:
                kind[w] = worker_backend(w)
            seen.update(now)
            most = max(most, len(now))
            for q in now | {p.pid}:
                c = cpu_seconds(q)
                if c is not None:
                    cpu[q] = c
            done.wait(0.5)
    t = threading.Thread(target=watch, daemon=True)
    t.start()
    out, _ = p.communicate()
    done.set()
    t.join()
    wall = time.monotonic() - w0
    b1, t1 = cpu_ticks()
    try:
        with open(summary) as f:
            s = json.load(f)
    except (OSError, ValueError):
        s = {"error": out[-2000:]}
    by_kind: dict[str, float] = {}
    for q, c in cpu.items():
        by_kind[kind.get(q, "?")] = by_kind.get(kind.get(q, "?"), 0.0) + c
    return {"tree": tree, "jobs": jobs, "wall": round(wall, 1), "cpu_busy": round((b1 - b0) / max(1, t1 - t0), 3),
            "cpu_seconds": {k: round(v, 1) for k, v in sorted(by_kind.items())},
            "workers_alive_max": most, "worker_pids": len(seen), "rc": p.returncode, "summary": s}


def row(r: dict, label: str, backend: str, seconds: float) -> dict:
    """The table's columns for one campaign."""
    s = r["summary"]
    n = s.get("programs", 0)
    ph = s.get("phases")
    ms = (lambda k: f"{ph[k]['seconds'] / n * 1000:.0f}" if ph and n and k in ph else "-")
    ex = (ph or {}).get(f"execute {backend}")
    cores = os.cpu_count() or 1
    ceiling = f"{60 * cores * n / ex['seconds']:.0f}" if ex and ex["seconds"] else "-"
    per = f"{ex['seconds'] / ex['count'] * 1000:.0f} ms x {ex['count'] / n:.1f}" if ex and n else "-"
    judged, slots = s.get("judge_seconds"), s.get("slots")
    busy = (f"{ph['slot judge']['seconds'] / (slots * judged) * 100:.0f} %"
            if ph and "slot judge" in ph and slots and judged else "-")
    cpu = r.get("cpu_seconds") or {}
    return {"tree": label, "jobs": r["jobs"], "programs": n, "per min": f"{n / seconds * 60:.0f}",
            "wall s (start-up)": f"{r['wall']:.0f} ({s.get('startup_seconds', '-')})",
            "slots": s.get("slots", "-"), "slots busy": busy,
            "workers (alive max / started)": f"{r['workers_alive_max']} / {r['worker_pids']}",
            "CPU busy": f"{r['cpu_busy'] * 100:.0f} %",
            "CPU s (driver; workers)": f"{cpu.get('driver', 0):.0f}; " + ", ".join(
                f"{k} {v:.0f}" for k, v in cpu.items() if k != "driver"),
            "generate ms/prog": ms("driver generate"),
            "wait ms/prog": ms("driver wait"), "slot judge ms/prog": ms("slot judge"),
            "oracle run ms/prog": ms("oracle run"), "order+layout ms/prog": (
                f"{(ph['oracle order']['seconds'] + ph['oracle layout']['seconds']) / n * 1000:.0f}"
                if ph and n and "oracle order" in ph and "oracle layout" in ph else "-"),
            f"execute {backend} per run x runs/prog": per, "ceiling /min": ceiling}


def table(rows: list[dict]) -> str:
    cols = list(rows[0])
    lines = ["| " + " | ".join(cols) + " |", "|" + "|".join("---" for _ in cols) + "|"]
    lines += ["| " + " | ".join(str(r[c]) for c in cols) + " |" for r in rows]
    return "\n".join(lines)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--backend", default="reference")
    ap.add_argument("--device", default="cpu")
    ap.add_argument("--jobs", type=int, nargs="+", default=[1, 2])
    ap.add_argument("--seconds", type=float, default=30)
    ap.add_argument("--seed", type=int, default=777)
    ap.add_argument("--before", default=None, help="a tree holding an older minimizer/ package")
    ap.add_argument("--json", default=None)
    ap.add_argument("--md", default=None)
    a = ap.parse_args(argv)
    trees = ([("before", os.path.abspath(a.before))] if a.before else []) + [("after", HERE)]
    raw, rows = [], []
    for jobs in a.jobs:
        for label, tree in trees:
            r = campaign(tree, jobs, a)
            r["label"] = label
            raw.append(r)
            rows.append(row(r, label, a.backend, a.seconds))
            print(f"{label} --jobs {jobs}: {rows[-1]['programs']} programs ({rows[-1]['per min']}/min)",
                  file=sys.stderr, flush=True)
    head = (f"fmin fuzz --backend {a.backend} --device {a.device} --time {a.seconds:g} --seed {a.seed} "
            f"--no-minimize; {os.cpu_count()} cores\n\n")
    md = head + table(rows) + "\n"
    print(md)
    if a.md:
        with open(a.md, "w") as f:
            f.write(md)
    if a.json:
        with open(a.json, "w") as f:
            json.dump({"args": vars(a), "cores": os.cpu_count(), "runs": raw}, f, indent=1, default=str)
    return 0


if __name__ == "__main__":
    sys.exit(main())
