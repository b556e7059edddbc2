"""``fmin fuzz``: a campaign. Generate programs chunk by chunk (``generate``), judge each with the
oracles on the worker pools (``oracles``), bucket the findings into the corpus (``findings``),
minimize each new bucket with the reducer, and summarize (table, JSON, JUnit XML).

Programs are judged ``jobs`` at a time, but their results are taken in example order, so which
example opens a bucket does not depend on timing. The time budget (``--time``) bounds generation
and judging; minimizing the new buckets comes after, each bounded by ``minimize_seconds``.
"""
from __future__ import annotations

import contextlib
import json
import os
import shutil
import tempfile
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from xml.sax.saxutils import escape, quoteattr

from ..backends import RunOptions
from ..oracle.pool import Pool, Pools, Request
from ..progress import ProgressLine
from ..program import to_source
from . import generate
from .findings import Store, bucket_id, bucket_property
from .oracles import ORACLES, judge
from .strategies import covered_ops


@dataclass
class CampaignOptions:
    backend: str = "inductor"
    device: str = "cpu"
    seconds: float | None = None
    max_examples: int | None = None
    seed: int = 0
    jobs: int = 1
    shard: tuple[int, int] = (0, 1)
    corpus: str = "corpus/findings"
    junit: str | None = None
    summary: str | None = None
    frontend: str | None = None
    max_ops: int = 12
    oracles: tuple[str, ...] = ORACLES
    minimize: bool = True
    minimize_seconds: float = 300.0
    minimize_budget: float | None = None     # seconds for all minimizations of a campaign
    timeout: float = 300.0
    quiet: bool = False
    run_seed: int = 0
    run_options: RunOptions = RunOptions()    # for every run (``--inductor-config``)


@dataclass
class Summary:
    backend: str
    device: str
    seed: int
    shard: str
    programs: int = 0
    duplicates: int = 0
    seconds: float = 0.0
    judge_seconds: float = 0.0
    skipped: Counter = field(default_factory=Counter)
    statuses: Counter = field(default_factory=Counter)
    ops: Counter = field(default_factory=Counter)
    findings: Counter = field(default_factory=Counter)      # kind -> occurrences
    new: list[dict] = field(default_factory=list)           # new buckets (finding.json + dir)
    known: Counter = field(default_factory=Counter)         # bucket id -> occurrences this campaign
    environment: dict = field(default_factory=dict)
    minimized: list[str] = field(default_factory=list)      # bucket keys minimized by this campaign

    @property
    def per_second(self) -> float:
        return self.programs / self.judge_seconds if self.judge_seconds else 0.0

    def coverage(self) -> tuple[int, int]:
        cov = covered_ops()
        return len(cov & set(self.ops)), len(cov)

    def to_json(self) -> dict:
        got, of = self.coverage()
        return {"backend": self.backend, "device": self.device, "seed": self.seed, "shard": self.shard,
                "programs": self.programs, "duplicates_skipped": self.duplicates,
                "seconds": round(self.seconds, 1), "judge_seconds": round(self.judge_seconds, 1),
                "programs_per_second": round(self.per_second, 3), "statuses": dict(self.statuses),
                "skipped": dict(self.skipped), "op_coverage": {"ops": got, "of": of, "counts": dict(self.ops)},
                "findings": dict(self.findings), "new_buckets": self.new, "known_buckets": dict(self.known),
                "minimized": self.minimized,
                "environment": self.environment}


class Status(ProgressLine):
    """The campaign's progress: programs, rate, op coverage, findings and buckets."""

    def __call__(self, s: Summary, t0: float, final: bool = False) -> None:
        got, of = s.coverage()
        el = time.monotonic() - t0
        self.show(f"[{el:6.0f}s] programs {s.programs}  {s.programs / max(el, 1e-9):.2f}/s  ops {got}/{of}  "
                  f"findings {sum(s.findings.values())}  new buckets {len(s.new)}  known {len(s.known)}", final)


def _chunks(opt: CampaignOptions):
    i, n = opt.shard
    k = i
    while True:
        yield k
        k += n


@contextlib.contextmanager
def backend_pools(backend: str, device: str, jobs: int, timeout: float, options: RunOptions | None = None):
    """Warm workers for the backend and for the reference that judges it (one pool when the
    backend is the reference), closed on exit."""
    pool = Pool(backend, device, jobs=jobs, timeout=timeout, options=options)
    ref = pool if backend == "reference" else Pool("reference", device, jobs=jobs, timeout=timeout)
    try:
        yield pool, ref
    finally:
        if ref is not pool:
            ref.close()
        pool.close()


def run_campaign(opt: CampaignOptions) -> Summary:
    """Run one campaign; findings land in ``opt.corpus``. Never raises for a finding."""
    run = _Campaign(opt)
    workdir = tempfile.mkdtemp(prefix="fmin-fuzz-")
    try:
        with backend_pools(opt.backend, opt.device, opt.jobs, opt.timeout, opt.run_options) as (pool, ref):
            run.generate_and_judge(pool, ref, workdir)
            run.status(run.s, run.t0, final=True)
            if opt.minimize:
                run.minimize_pending(pool, ref)
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
    run.s.seconds = time.monotonic() - run.t0
    write_reports(run.s, opt)
    return run.s


class _Campaign:
    """One campaign's state: the corpus, the summary, the clock, the texts seen so far and the
    buckets it opened."""

    def __init__(self, opt: CampaignOptions):
        self.opt = opt
        self.store = Store(opt.corpus)
        self.s = Summary(opt.backend, opt.device, opt.seed, f"{opt.shard[0]}/{opt.shard[1]}")
        self.status = Status(opt.quiet, every=10)
        self.t0 = time.monotonic()
        self.deadline = self.t0 + opt.seconds if opt.seconds else None
        self.seen_texts: set[str] = set()
        self.new_keys: list[tuple[str, dict]] = []

    def out_of_time(self) -> bool:
        return bool(self.deadline and time.monotonic() >= self.deadline)

    def done(self) -> bool:
        """The time budget is spent or ``max_examples`` programs were judged."""
        limit = self.opt.max_examples
        return self.out_of_time() or (limit is not None and self.s.programs >= limit)

    def generate_and_judge(self, pool, ref, workdir: str) -> None:
        """Chunk after chunk until done: generate, drop programs seen before, judge the rest."""
        with ThreadPoolExecutor(max_workers=max(1, self.opt.jobs)) as ex:
            for k in _chunks(self.opt):
                if self.done():
                    break
                try:
                    examples = generate.chunk(self.opt.seed, k, frontend=self.opt.frontend, max_ops=self.opt.max_ops)
                except Exception as err:   # the generator's own bug: a finding of fmin's, not the end
                    self.record(generator_finding(err, self.opt.seed, k),
                                f"# chunk {k} of seed {self.opt.seed} could not be generated\n",
                                f"{self.opt.seed}.{k}.-", None)
                    continue
                self.judge_batch(self.fresh(examples), ex, pool, ref, workdir)
                if self.out_of_time():
                    break

    def fresh(self, examples) -> list:
        """(example, text) of the programs not seen before, within ``max_examples``."""
        batch = []
        for e in examples:
            text = to_source(e.program)
            if text in self.seen_texts:
                self.s.duplicates += 1
                continue
            self.seen_texts.add(text)
            batch.append((e, text))
        limit = self.opt.max_examples
        return batch[:max(0, limit - self.s.programs)] if limit is not None else batch

    def judge_batch(self, batch: list, ex: ThreadPoolExecutor, pool, ref, workdir: str) -> None:
        """Judge ``batch`` ``jobs`` at a time, taking the results in example order; past the
        deadline the rest is cancelled."""
        futs = [(e, text, ex.submit(_judge_one, e, text, _script_path(workdir, e.id), pool, ref, self.opt))
                for e, text in batch]
        tj = time.monotonic()
        for e, text, fut in futs:
            self.count(e, text, fut.result())
            self.status(self.s, self.t0)
            if self.out_of_time():
                break
        self.s.judge_seconds += time.monotonic() - tj
        if self.out_of_time():
            for _, _, fut in futs:
                fut.cancel()

    def count(self, e, text: str, j) -> None:
        """One judged program in the summary; its findings in the corpus."""
        s = self.s
        s.programs += 1
        s.statuses[j.outcome.status] += 1
        if j.skipped:
            s.skipped[j.skipped.split(":")[0]] += 1
        if not s.environment and j.outcome.environment:
            s.environment = j.outcome.environment
        for st in e.program.op_stmts():
            s.ops[st.op] += 1
        for f in j.findings:
            if self.record(f, text, e.id, j.outcome.environment):
                self.new_keys.append((f.key, f.flags))

    def record(self, f, text: str, example_id: str, environment) -> bool:
        """A finding into its bucket, counted as new or known; True when it opened the bucket."""
        self.s.findings[f.kind] += 1
        d, is_new = self.store.add(f, text, example_id, self.opt.backend, environment,
                                   {"frontend": self.opt.frontend, "max_ops": self.opt.max_ops})
        if is_new:
            self.s.new.append({**self.store.meta(f.key), "dir": d})
        else:
            self.s.known[bucket_id(f.key)] += 1
        return is_new

    def pending(self) -> list[str]:
        """Buckets to minimize: this campaign's new ones first, then any the corpus holds
        unminimized (a shard run with --no-minimize, an interrupted campaign)."""
        mine = dict(self.new_keys)
        return [k for k, _ in self.new_keys] + [b["key"] for b in self.store.buckets()
                                                if not b.get("minimized") and not b.get("stale")
                                                and b["key"] not in mine]

    def minimize_pending(self, pool, ref) -> None:
        """Each pending bucket minimized once, while ``minimize_budget`` allows, on this
        campaign's backend (a bucket found on another is minimized there; a generator bucket has
        no program: its chunk id replays it)."""
        opt, store = self.opt, self.store
        t_min = time.monotonic()
        for key in self.pending():
            if opt.minimize_budget is not None and time.monotonic() - t_min >= opt.minimize_budget:
                break
            meta = store.meta(key) or {}
            if meta.get("kind") == "generator" or meta.get("backend", opt.backend) != opt.backend:
                continue
            _minimize(store, key, bucket_property(meta, store.outcome(key)), opt, pool, ref)
            self.s.minimized.append(key)
            for m in self.s.new:
                if m["key"] == key:
                    m.update({k: v for k, v in (store.meta(key) or {}).items() if k in ("minimized", "reduction")})


def _script_path(workdir: str, example_id: str) -> str:
    return os.path.join(workdir, f"fuzz_{example_id.replace('.', '_')}.py")


def write_reports(s: Summary, opt: CampaignOptions) -> None:
    """The summary as JSON (``--summary``) and JUnit XML (``--junit``), where asked for."""
    if opt.summary:
        with open(opt.summary, "w", encoding="utf-8") as f:
            json.dump(s.to_json(), f, indent=1, default=str)
    if opt.junit:
        write_junit(s, opt.junit)


def generator_finding(err: Exception, seed: int, k: int):
    """A chunk the strategies could not build: bucketed by exception type and its message with
    numbers masked (the same generator bug on other shapes is one bucket)."""
    import re
    from .oracles import Finding
    msg = re.sub(r"\d+", "N", str(err).splitlines()[0] if str(err) else "")[:160]
    return Finding("generator", "fmin", f"fmin generator {type(err).__name__}: {msg}",
                   f"chunk {k} of seed {seed} raised {type(err).__name__}: {str(err)[:300]}", {})


def _judge_one(e, text, path, pool, ref, opt):
    return judge(e.program, text, path, pool, ref, backend=opt.backend, oracles=opt.oracles, seed=opt.run_seed,
                 example_seed=generate.example_seed(e.id))


def _minimize(store: Store, key: str, prop, opt: CampaignOptions, pool, ref) -> None:
    from ..reduce.reduction import Options, PropertyDoesNotHold, reduce_script
    d = store.dir(key)
    ropt = Options(backend=opt.backend, device=opt.device, jobs=opt.jobs, out=d, seed=opt.run_seed, replays=2,
                   timeout=opt.timeout, max_seconds=opt.minimize_seconds, quiet=True, run_options=opt.run_options)
    try:
        rep = reduce_script(os.path.join(d, "original.py"), prop, ropt, pool=pool, extra_pools={"reference": ref})
        store.mark_minimized(key, {k: rep.get(k) for k in ("ops_before", "ops_after", "inputs_before", "inputs_after",
                                                            "oracle_calls", "seconds", "property", "interrupted")})
    except PropertyDoesNotHold as e:
        store.mark_stale(key, f"not reproduced when replayed: {e}", getattr(pool, "environment", None))
    except Exception as e:   # a reduction that breaks must not lose the campaign's other findings
        store.mark_minimized(key, {"error": f"{type(e).__name__}: {e}"})


def recheck(opt: CampaignOptions) -> list[dict]:
    """Replay every bucket of ``opt.backend`` in the corpus under its property — its minimal
    repro when it has one, else its original — and record whether it still reproduces (after an
    nvFuser upgrade: which findings are fixed; after a change to fmin's reference: which were
    fmin's). A replay that does not show the property is run once more before the bucket is
    called stale. Returns one row per bucket rechecked."""
    from ..oracle.property import evaluate
    store = Store(opt.corpus)
    # a bucket found on another device (Triton on a GPU vs C++ on the CPU) is another compiler
    todo = [m for m in store.buckets() if m.get("backend") == opt.backend and m.get("kind") != "generator"
            and (m.get("environment") or {}).get("device", opt.device) == opt.device]
    rows: list[dict] = []
    if not todo:
        return rows
    status = ProgressLine(opt.quiet, every=5)

    def one(m: dict, pool, ref) -> dict:
        key = m["key"]
        d = store.dir(key)
        name = "repro.min.py" if os.path.exists(os.path.join(d, "repro.min.py")) else "original.py"
        path = os.path.join(d, name)
        with open(path, encoding="utf-8") as f:
            text = f.read()
        prop = bucket_property(m, store.outcome(key))
        if prop is None:
            return {"id": m["id"], "key": key, "script": name, "reproduces": None,
                    "reason": "no property recorded for this bucket"}
        pools = Pools.of(pool, reference=ref)
        v = evaluate(prop, text, path, pools, seed=opt.run_seed)
        if not v.holds:
            v = evaluate(prop, text, path, pools, seed=opt.run_seed)
        holds, reason = v.holds, v.reason
        if holds and m.get("kind") == "failure" and ref is not pool:
            r = ref.run(Request(text, path, RunOptions(seed=opt.run_seed)))
            if not r.ok:   # a rule the reference has learnt since: the program was never valid
                holds, reason = False, (f"no longer a finding: the reference rejects the program too "
                                        f"(`{r.signature}`), so it is not a valid program")
        store.mark_recheck(key, holds, reason, name, getattr(pool, "environment", None))
        return {"id": m["id"], "key": key, "script": name, "reproduces": holds, "reason": reason}

    with backend_pools(opt.backend, opt.device, opt.jobs, opt.timeout, opt.run_options) as (pool, ref), \
            ThreadPoolExecutor(max_workers=max(1, opt.jobs)) as ex:
        for r in ex.map(lambda m: one(m, pool, ref), todo):
            rows.append(r)
            status.show(f"rechecked {len(rows)}/{len(todo)}  stale {sum(x['reproduces'] is False for x in rows)}")
    status.show(f"rechecked {len(rows)}/{len(todo)}  stale {sum(x['reproduces'] is False for x in rows)}", True)
    return rows


def summary_lines(s: Summary) -> list[str]:
    got, of = s.coverage()
    rows = [("backend", f"{s.backend} ({s.device})"), ("seed / shard", f"{s.seed} / {s.shard}"),
            ("programs run", str(s.programs)), ("duplicates skipped", str(s.duplicates)),
            ("wall seconds", f"{s.seconds:.1f}"), ("programs per second", f"{s.per_second:.2f}"),
            ("statuses", ", ".join(f"{k} {v}" for k, v in sorted(s.statuses.items())) or "-"),
            ("not judged", ", ".join(f"{k} {v}" for k, v in sorted(s.skipped.items())) or "-"),
            ("op coverage", f"{got}/{of} generated ops exercised"),
            ("findings", ", ".join(f"{k} {v}" for k, v in sorted(s.findings.items())) or "none"),
            ("new buckets", str(len(s.new))), ("known buckets hit", str(len(s.known))),
            ("buckets minimized", str(len(s.minimized)))]
    w = max(len(a) for a, _ in rows)
    out = ["| " + "what".ljust(w) + " | value |", "|" + "-" * (w + 2) + "|-------|"]
    out += [f"| {a.ljust(w)} | {b} |" for a, b in rows]
    for m in s.new:
        red = m.get("reduction") or {}
        size = f", minimized {red.get('ops_before')} -> {red.get('ops_after')} ops" if "ops_after" in red else \
            (f", not minimized: {red['error']}" if "error" in red else "")
        out.append(f"new [{m['owner']}] {m['kind']}: {m['key']}  ({m['dir']}{size})")
    return out


def write_junit(s: Summary, path: str) -> None:
    """One test case per bucket hit (a new bucket fails), plus one for the campaign itself."""
    cases = []
    got, of = s.coverage()
    cases.append(f'  <testcase classname="fmin.fuzz" name="campaign {s.backend} seed {s.seed} shard {s.shard}" '
                 f'time="{s.seconds:.1f}"><system-out>{escape(f"{s.programs} programs, {got}/{of} ops")}'
                 f'</system-out></testcase>')
    for m in s.new:
        msg = f"new {m['kind']} finding ({m['owner']}): {m['key']}"
        cases.append(f'  <testcase classname="fmin.fuzz.{escape(m["kind"])}" name={quoteattr(m["id"])}>'
                     f'<failure message={quoteattr(msg)}>{escape(m.get("words", ""))}\n{escape(m["dir"])}</failure>'
                     f'</testcase>')
    for bid, n in sorted(s.known.items()):
        cases.append(f'  <testcase classname="fmin.fuzz.known" name={quoteattr(bid)}>'
                     f'<system-out>{n} occurrence(s) of a known bucket</system-out></testcase>')
    failures = len(s.new)
    xml = (f'<?xml version="1.0" encoding="utf-8"?>\n<testsuite name="fmin fuzz" tests="{len(cases)}" '
           f'failures="{failures}" errors="0" time="{s.seconds:.1f}">\n' + "\n".join(cases) + "\n</testsuite>\n")
    with open(path, "w", encoding="utf-8") as f:
        f.write(xml)
