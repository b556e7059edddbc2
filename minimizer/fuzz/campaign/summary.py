"""A campaign's summary: its figures (``Summary``), the table the command line prints, the JSON
(``--summary``) and JUnit XML (``--junit``) reports.

Apart from the loop (``run``) because the command line and ``--recheck``'s callers read it
without running a campaign, and because what a campaign *says* changes for other reasons than
how it runs."""
from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass, field
from xml.sax.saxutils import escape, quoteattr

from ...phases import Phases
from ..buglist import page as buglist
from ..sources import feedback, seeded
from ..sources.strategies import covered_ops
from ..store.record import Bucket
from .options import CampaignOptions


@dataclass
class NewBucket:
    """A bucket a campaign opened: its record (as opened; once minimized, as filed) and its directory."""
    bucket: Bucket
    dir: str

    def to_json(self) -> dict:
        return {**self.bucket.to_json(), "dir": self.dir}


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
    new: list[NewBucket] = field(default_factory=list)      # new buckets
    known: Counter = field(default_factory=Counter)         # bucket id -> occurrences this campaign
    environment: dict = field(default_factory=dict)
    minimized: list[str] = field(default_factory=list)      # bucket keys minimized by this campaign
    resumed: int = 0                                        # programs judged before a resume, skipped
    ran_on: str = ""                                        # where, when not this machine (a Ray cluster)
    hit: list[dict] = field(default_factory=list)           # the bug list's rows of the buckets hit, new first
    phases: Phases = field(default_factory=Phases)          # where the time went: the driver's and the slots'
    slots: int = 0                                          # programs judged at once (threads here, actors on Ray)
    startup_seconds: float = 0.0                            # the runner's start-up, before the clock (``--time``)
    seeds: Counter = field(default_factory=Counter)         # seed file -> seeded programs judged (``--seeds``)
    seed_seconds: Counter = field(default_factory=Counter)  # seed file -> slot seconds judging its programs
    large_seeds: Phases = field(default_factory=Phases)     # programs of seeds over budget: "trimmed", "as written"
    interrupted: bool = False                               # stopped by Ctrl-C or SIGTERM: the figures so far
    decisions: feedback.Coverage = field(default_factory=feedback.Coverage)   # decision features covered
    queue: list = field(default_factory=list)               # --feedback: the queue's entries (``Entry.to_json``)
    derived: int = 0                                        # --feedback: programs derived from queue entries
    carried: int = 0                                        # --feedback: queue entries earlier campaigns learned

    @property
    def per_second(self) -> float:
        return self.programs / self.judge_seconds if self.judge_seconds else 0.0

    def workers_started(self) -> dict:
        """Worker processes started during the campaign, by backend (restarts after a crash count)."""
        return {k.removeprefix("worker start "): v[1] for k, v in sorted(self.phases.data.items())
                if k.startswith("worker start ")}

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
                "findings": dict(self.findings), "new_buckets": [n.to_json() for n in self.new],
                "known_buckets": dict(self.known),
                "minimized": self.minimized, "buckets_hit": self.hit,
                "environment": self.environment, "slots": self.slots, "workers_started": self.workers_started(),
                "startup_seconds": round(self.startup_seconds, 1),
                "phases": self.phases.to_json(),
                "decision_coverage": self.decisions.to_json(),
                **({"feedback": {"queue": self.queue, "derived_programs": self.derived, "carried": self.carried,
                                 "known_features": len(self.decisions.known)}}
                   if self.queue or self.derived or self.carried else {}),
                **({"resumed_skipped": self.resumed} if self.resumed else {}),
                **({"interrupted": True} if self.interrupted else {}),
                **({"ran_on": self.ran_on} if self.ran_on else {}),
                **({"seeded_programs": sum(self.seeds.values()), "per_seed": dict(self.seeds),
                   "per_seed_seconds": {k: round(v, 1) for k, v in self.seed_seconds.items()},
                   "large_seeds": self.large_seeds.to_json()} if self.seeds else {})}


def summary_lines(s: Summary) -> list[str]:
    got, of = s.coverage()
    rows = [("backend", f"{s.backend} ({s.device})"), ("seed / shard", f"{s.seed} / {s.shard}"),
            ("programs run", str(s.programs)), ("duplicates skipped", str(s.duplicates)),
            ("wall seconds", f"{s.seconds:.1f} (start-up {s.startup_seconds:.1f})"),
            ("programs per second", f"{s.per_second:.2f}"),
            ("statuses", ", ".join(f"{k} {v}" for k, v in sorted(s.statuses.items())) or "-"),
            ("not judged", ", ".join(f"{k} {v}" for k, v in sorted(s.skipped.items())) or "-"),
            ("op coverage", f"{got}/{of} generated ops exercised"),
            ("findings", ", ".join(f"{k} {v}" for k, v in sorted(s.findings.items())) or "none"),
            ("new buckets", str(len(s.new))), ("known buckets hit", str(len(s.known))),
            ("buckets minimized", str(len(s.minimized))),
            ("decisions covered", s.decisions.words()),
            ("slots / workers started", f"{s.slots} / " + (", ".join(f"{k} {v}" for k, v in s.workers_started().items())
                                                          or "-")),
            ("where the time went", phase_line(s.phases, s.programs) or "-")]
    if s.resumed:
        rows.insert(3, ("judged before (resumed)", str(s.resumed)))
    if s.interrupted:
        rows.insert(0, ("interrupted", "yes (Ctrl-C or SIGTERM): the figures of what it did"))
    if s.ran_on:
        rows.insert(1, ("ran on", s.ran_on))
    rows += seeded.summary_rows(s.seeds, s.seed_seconds, s.large_seeds)
    if s.queue or s.derived or s.carried:
        rows.append(("feedback queue", f"{len(s.queue)} entries; {s.derived} programs derived from them"
                     + (f"; {s.carried} entries and {len(s.decisions.known)} decision features carried from earlier "
                        "campaigns" if s.carried or s.decisions.known else "")))
    filed = buglist.standalone_tally([n.bucket for n in s.new])
    if filed:
        rows.append(("new buckets run standalone", filed))
    w = max(len(a) for a, _ in rows)
    out = ["| " + "what".ljust(w) + " | value |", "|" + "-" * (w + 2) + "|-------|"]
    out += [f"| {a.ljust(w)} | {b} |" for a, b in rows]
    if s.hit:   # the bug list's rows (``buglist``) of what this campaign found
        out += ["", f"Buckets hit ({len(s.hit)}; new first):", ""]
        out += buglist.table([{**r, "bucket": ("new " if r.get("new") else "") + r["bucket"]} for r in s.hit])
    for n in s.new:
        sa = n.bucket.standalone
        if sa is not None and sa.ran and not sa.reproduced:
            out.append(f"NOT REPRODUCED STANDALONE: {n.bucket.id} ({n.bucket.kind}): {sa.why}  ({n.dir})")
    return out


#: the phases ``phase_line`` shows, in a campaign's order (``Phases`` names)
_SHOWN = ("driver generate", "driver dedup", "driver wait", "driver record", "slot judge", "oracle run",
          "oracle differential", "oracle order", "oracle layout")


def phase_line(p: Phases, programs: int) -> str:
    """The summary's one line of ``Summary.phases``: seconds per program of the driver's serial
    parts and of a slot's judgement, then each backend's compile-and-run (``execute``) seconds and
    runs per program — with the slots' count, the floor a campaign's rate cannot beat."""
    if not programs:
        return ""
    parts = [f"{k} {p.seconds(k) / programs * 1000:.0f} ms" for k in _SHOWN if p.count(k)]
    parts += [f"{k} {p.seconds(k) / max(1, p.count(k)) * 1000:.0f} ms x {p.count(k) / programs:.1f}"
              for k in sorted(p.data) if k.startswith("execute ")]
    return "per program: " + ", ".join(parts)


def write_reports(s: Summary, opt: CampaignOptions) -> None:
    """The summary as JSON (``--summary``) and JUnit XML (``--junit``), where asked for."""
    if opt.summary:
        with open(opt.summary, "w", encoding="utf-8") as f:
            json.dump(s.to_json(), f, indent=1, default=str)
    if opt.junit:
        write_junit(s, opt.junit)


def write_junit(s: Summary, path: str) -> None:
    """One test case per bucket hit (a new bucket fails), plus one for the campaign itself."""
    cases = []
    got, of = s.coverage()
    cases.append(f'  <testcase classname="fmin.fuzz" name="campaign {s.backend} seed {s.seed} shard {s.shard}" '
                 f'time="{s.seconds:.1f}"><system-out>{escape(f"{s.programs} programs, {got}/{of} ops")}'
                 f'</system-out></testcase>')
    for n in s.new:
        m, sa = n.bucket, n.bucket.standalone
        alone = ("" if sa is None else "; reproduces standalone" if sa.reproduced else
                 f"; does NOT reproduce standalone: {sa.why}" if sa.ran else f"; not run standalone: {sa.why}")
        msg = f"new {m.kind} finding ({m.owner}): {m.key}{alone}"
        cases.append(f'  <testcase classname="fmin.fuzz.{escape(m.kind)}" name={quoteattr(m.id)}>'
                     f'<failure message={quoteattr(msg)}>{escape(m.words)}\n{escape(n.dir)}</failure>'
                     f'</testcase>')
    for bid, n in sorted(s.known.items()):
        cases.append(f'  <testcase classname="fmin.fuzz.known" name={quoteattr(bid)}>'
                     f'<system-out>{n} occurrence(s) of a known bucket</system-out></testcase>')
    failures = len(s.new)
    xml = (f'<?xml version="1.0" encoding="utf-8"?>\n<testsuite name="fmin fuzz" tests="{len(cases)}" '
           f'failures="{failures}" errors="0" time="{s.seconds:.1f}">\n' + "\n".join(cases) + "\n</testsuite>\n")
    with open(path, "w", encoding="utf-8") as f:
        f.write(xml)
