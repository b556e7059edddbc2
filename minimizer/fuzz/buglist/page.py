"""The bug list: ``DIR/report.md`` at the corpus root, one table a maintainer works down — one
row per root cause (bucket), newest first — rewritten after every campaign, ``--recheck`` and
``merge-findings``; a campaign prints the same rows for the buckets it hit.

It reads whatever a bucket's ``finding.json`` says (kind, key, words, flags, owner, count,
examples, first seen, reduction, stale, standalone, and fields later fmins add: ``where`` if a
bucket records where its error was raised) and the bucket's scripts, and derives nothing it
cannot see there: "where raised" and "message" from the key's record (a failure's site and
message template), the dtypes and ops from the filed script's text.

Sections, one per registered class (``classes``: each bucket's by ``classes.decide``, from what
it stores; each section laid out by its class): the backends' bugs (internal asserts, crashes,
wrong results of valid programs), missing checks (one row per validity rule an accepted program
breaks), segmentation differences, what is by design, failures of the debug dumps, fmin's own
findings (the generator or the reference was wrong: not for a compiler's maintainers) and the
stale buckets (no longer shown: fixed since, or explained by a rule fmin has learnt), with their
reasons. The header's count is the bugs'; a class added to the registry gets its section here
with no edit of this module.
"""
from __future__ import annotations

import json
import os
import re

from ..store import examples, record
from . import classes
from .classes import decide, default_violations
from ..judging.keys import minimal_words
from ..judging.property import differs
from ..store.key import OUTCOME_CHANGE, BucketKey
from ..store.record import Bucket
from ..store.store import reduced_script
from .table import COLUMNS, cell, plural, table   # noqa: F401  (COLUMNS, table: the rows a campaign prints)

NAME = "report.md"
#: the class whose rows the page's header counts: the bugs of the compilers under test
BUGS = "bug"


def _script(d: str) -> tuple[str | None, str]:
    """The bucket's filed script (name, text): the attachment, else the reducer's, else the original."""
    for name in ("repro.min.py", "reduced.py", "original.py"):
        p = os.path.join(d, name)
        if os.path.exists(p):
            with open(p, encoding="utf-8", errors="replace") as f:
                return name, f.read()
    return None, ""


def _ops_text(d: str) -> str:
    """The text whose ops the row lists: the reducer's result, else the original."""
    name = reduced_script(d)
    if name is None:
        return ""
    with open(os.path.join(d, name), encoding="utf-8", errors="replace") as f:
        return f.read()


def _unique(items) -> list[str]:
    return list(dict.fromkeys(items))


def kind_of(m: Bucket) -> str:
    k = m.kind or "?"
    if k == "mismatch" and differs(m):
        k += f" ({differs(m)})"
    flags = [f.replace("_", "-") for f, v in (m.flags or {}).items() if v is True and f.endswith("dependent")]
    return ", ".join([k] + [f for f in flags if f != m.kind])


def where_and_message(m: Bucket) -> tuple[str, str]:
    """(where raised, one-line message) of a bucket: for an error, the site and message template
    of its root cause (its key's); for a wrong result, the op whose output differs and how."""
    key, words, kind = m.key, str(m.words), m.kind
    if kind == "mismatch":
        ops = key.ops
        # a root-cause key names the op of the first differing output until the bucket is
        # minimized, then every op of the repro: one op is still the one whose output differs
        older = _older_output(key)
        where = older or (_output_of(ops[0]) if len(ops) == 1 else "an output")
        if key.mechanism:   # a known cause, whatever ops the repros have
            where = key.mechanism + (f" ({key.upstream})" if key.upstream else "")
        elif key.lost_at:   # a lost extent: the op that loses it
            where = _output_of(key.lost_at)
        return m.where or where, (repro_words(m) or words).split("differ from the reference: ", 1)[-1]
    if kind != "failure" and key.kind != OUTCOME_CHANGE:   # a metamorphic change that ends in no error
        return m.where or "segmenter", words
    where = m.where or key.site or "–"
    if kind != "failure":
        return where, words
    return where, key.message if key.message is not None else str(key)


#: what the last run of a minimal repro said when it showed a wrong result: ``output 0 (int64[4]):
#: ...`` (a recheck) or ``wrong result (values) in output 0: ...`` (the attachment run alone)
_A_DIFFERENCE = re.compile(r"^(?:wrong result \(\w+\) in )?(?:output|input) \d+\b")


def repro_words(m: Bucket) -> str | None:
    """What a minimized wrong result's own repro showed when last run (``keys.minimal_words``),
    where it names the differing tensor: the row speaks of the attachment a maintainer runs, not of
    the campaign's first, larger program. None: not minimized, or no such run recorded."""
    said = minimal_words(m) if m.minimized else None
    return said if said and _A_DIFFERENCE.match(said) else None


def _older_output(key: BucketKey) -> str | None:
    """An older wrong-result key's output (``nvfuser mismatch cat -> bool``: the op of the first
    differing output and its dtype), in words; None for another key."""
    if key.output_dtype is None or len(key.ops) != 1 or " " in key.ops[0] or key.detail is not None \
            or key.rules or key.difference not in (None, "dtype", "shape"):
        return None
    return f"output of `{key.ops[0]}` ({key.output_dtype})"


#: what a wrong-result key names instead of an op (``oracles._producer``), in words
_NOT_OPS = {"input": "a fusion input returned as an output", "aliased input": "an input the fusion updates in place"}


def _output_of(op: str) -> str:
    return _NOT_OPS.get(op) or f"output of `{op}`"


def standalone_words(m: Bucket) -> str:
    sa = m.standalone
    if sa is None:
        return "–" if m.minimized else "not minimized"
    if not sa.ran:
        return f"not run: {sa.why}"
    if sa.reproduced:
        return "yes"
    return f"**no**: {sa.why}"


def standalone_tally(metas: list[Bucket]) -> str:
    """Buckets' standalone runs in a few words ("" when none was filed): the campaign's summary."""
    sas = [m.standalone for m in metas if m.standalone is not None]
    if not sas:
        return ""
    yes = sum(bool(x.reproduced) for x in sas)
    no = [x for x in sas if x.ran and not x.reproduced]
    unrun = [x for x in sas if not x.ran]
    parts = [f"{yes} reproduce"] + ([f"{len(no)} do NOT reproduce"] if no else [])
    if unrun:
        parts.append(f"{len(unrun)} not run ({unrun[0].why})")
    return ", ".join(parts)


def _seed(m: Bucket) -> str:
    """``; seed FILE`` for a seeded finding (``fuzz --seeds``): the real fusion it was mutated from."""
    seeds = m.seeds or {}
    if not seeds:
        return ""
    first = max(seeds, key=seeds.get)
    return f"; seed {first}" + (f" (+{len(seeds) - 1})" if len(seeds) > 1 else "")


def _listed(m: Bucket) -> str:
    """What the row lists beside its root cause (``Bucket.particulars``: the functions a
    reduced-precision NVRTC error met, the conditions of a bare assertion), eight at most."""
    parts = []
    for name, values in sorted((m.particulars or {}).items()):
        vals = [str(v) for v in values]
        more = f" +{len(vals) - 8}" if len(vals) > 8 else ""
        parts.append(f"{name}: {', '.join(f'`{v}`' for v in vals[:8])}{more}")
    return f" ({'; '.join(parts)})" if parts else ""


def row(m: Bucket, d: str, root: str) -> dict:
    """One bucket's cells (plain text), ``d`` its directory, ``root`` the directory its link is
    relative to (the corpus, for its report.md; the user's, for what a campaign prints)."""
    name, text = _script(d)
    where, msg = where_and_message(m)
    dts = _unique(re.findall(r"define_tensor\([^\n]*dtype=\w+\.(\w+)", text))
    if m.kind == "mismatch" and m.key.output_dtype:   # an older key's dtype of the differing output
        dts.append(f"→ {m.key.output_dtype}")
    ops = _unique(re.findall(r"\bops\.(\w+)\(", _ops_text(d)))
    red = m.reduction
    if red is not None and red.ops_after is not None:
        size = f"{red.ops_before} → {red.ops_after}"
    elif m.minimized:
        size = "error" if red is not None and red.error is not None else "?"
    else:
        size = "not minimized"
    ex = m.examples or []
    rel = os.path.relpath(os.path.join(d, name), root) if name else ""
    link = f"[{rel}]({rel})" if rel else "–"
    others = [(os.path.basename(e), os.path.relpath(os.path.join(e, n), root))
              for e in examples.kept_dirs(d) if (n := _script(e)[0])]
    if others:   # the attachments of the other op paths the row absorbed
        link += " + " + ", ".join(f"[{examples.EXAMPLES}/{k}]({o})" for k, o in others)
    return {"bucket": m.id or os.path.basename(d), "backend": m.backend or "?", "kind": kind_of(m),
            "where raised": where, "message": cell(msg, 160 - len(_listed(m))) + _listed(m),
            "seen": f"{m.count}" + (f" ({ex[0]}{', …' if len(ex) > 1 else ''})" if ex else "") + _seed(m),
            "dtypes": ", ".join(dts) or "–", "minimized ops": (", ".join(ops) or "–") + f" ({size})",
            "reproduces standalone": standalone_words(m), "first seen": str(m.first_seen)[:16],
            "attachment": link, "_m": m}


def order(rows: list[dict]) -> list[dict]:
    """Newest first (first seen), then the most often seen."""
    return sorted(rows, key=lambda r: (r["_m"].first_seen, r["_m"].count), reverse=True)


def rows_of(root: str, metas: list[Bucket] | None = None, links_from: str | None = None) -> list[dict]:
    """Rows of every bucket of the corpus (or of ``metas``, buckets of it), their links relative to
    ``links_from`` (default: the corpus, where report.md is)."""
    if metas is None:
        metas = [m for name in (sorted(os.listdir(root)) if os.path.isdir(root) else ())
                 if (m := record.load_dir(os.path.join(root, name))) is not None]
    return [row(m, os.path.join(root, m.id), links_from or root) for m in metas]


def classified(root: str, rows: list[dict], violations=default_violations) -> dict[str, list[dict]]:
    """The rows by class (``classes.decide``, from what each bucket stores), every registered class
    a key in order, each row's decision under ``"_class"``."""
    out: dict[str, list[dict]] = {c: [] for c in classes.names()}
    for r in rows:
        d = os.path.join(root, r["bucket"])
        r["_class"] = decide(r["_m"], _ops_text(d), _outcome(d), violations=violations)
        out[r["_class"].cls].append(r)
    return {c: order(rs) for c, rs in out.items()}


def _outcome(d: str) -> dict | None:
    p = os.path.join(d, "outcome.json")
    if not os.path.exists(p):
        return None
    with open(p, encoding="utf-8") as f:
        return json.load(f)


def render(root: str, violations=default_violations) -> str:
    """The page of the corpus ``root``: its header, then a section per registered class."""
    rows = rows_of(root)
    by = classified(root, rows, violations)
    return "\n".join(header(root, rows, by) + sections(by)) + "\n"


def header(root: str, rows: list[dict], by: dict[str, list[dict]]) -> list[str]:
    """The page's title and what it holds: the bugs' count, then each other class's."""
    bugs = by[BUGS]
    shown = [r for r in bugs if r["_m"].reproduced_standalone]
    others = ", ".join(c.tally(by[c.name]) for c in classes.registered() if c.name != BUGS and by[c.name])
    return [f"# Bug list: {os.path.basename(os.path.abspath(root))}", "",
            f"{plural(len(bugs), 'bug')} of the compilers under test ({len(shown)} of them shown by their attachment "
            f"run standalone), one row per root cause as fmin can tell; besides them {others or 'nothing'} "
            f"({plural(len(rows), 'bucket')}). Newest first. Made by `fmin fuzz` (docs/fuzz.md), rewritten after every "
            f"campaign, `--recheck` and `fmin merge-findings`. Each attachment is the bucket's `repro.min.py`: run "
            f"it as the `run it:` part of its header says (it sets the backend options it needs itself).", "",
            "*seen*: how many generated programs hit the bucket, then the first one's example id "
            "(SEED.CHUNK.INDEX; `fmin fuzz --replay ID` regenerates it; `…`: more followed) and, for a program "
            "mutated from a real fusion (`--seeds`), that seed file (+N: other seeds hit it too)."]


def sections(by: dict[str, list[dict]]) -> list[str]:
    """Every registered class's section (``BugClass.section``), in the page's order."""
    return [line for c in classes.on_page() for line in c.section(by.get(c.name, []))]


def write(root: str) -> str | None:
    """Rewrite ``root/report.md``; its path (None when ``root`` is not a corpus directory)."""
    if not os.path.isdir(root):
        return None
    path = os.path.join(root, NAME)
    text = render(root)
    with open(path + ".tmp", "w", encoding="utf-8") as f:
        f.write(text)
    os.replace(path + ".tmp", path)
    return path
