"""A bucket's ``repro.min.py`` as it is filed: the script a maintainer runs with ``python
repro.min.py`` and sees the bug.

The reducer's result (kept beside it as ``reduced.py``: what fmin replays, rechecks and could
reduce further) does not always show the bug by itself:

* a **layout- or order-dependent** finding is reduced under "another layout (order) of the
  inputs changes the outcome", so the reduced program is the one whose layout *passes*. The
  attachment is the variant that fails — ``define_tensor`` and ``inputs`` in the failing layout
  (``variants.relayout``) or order (the permutation the property replay found) — and the other
  one goes into ``report.md``. When both run (a segmentation that changes), the variant is filed
  and the reduced program is "the other layout";
* a **wrong result** runs silently. The attachment ends with the same computation in eager
  PyTorch (``program.torch_code``: the catalog's references traced to ATen ops) and
  ``torch.testing.assert_close`` at fmin's tolerance (``plain_check``: a few lines a maintainer
  reads at a glance, fmin's full verdict named beside it), which raises an AssertionError naming
  the output and the kind of difference. Where the computation cannot be written as plain torch,
  the script says so instead of pretending to check.

Every attachment is meant to be pasted into an issue: at most ``LINES`` lines where the fusion
allows (the header's versions on one line, blank lines dropped when over).

A **segmentation** finding (both layouts or orders run, and split differently) is, where the
backend can show its split in a script (``Backend.segmentation_script``: nvFuser), one script
that runs both versions, prints both segment graphs and fails when they differ.

Every attachment sets the backend options fmin's runs had (but not its debug dumps) before
anything imports the backend (``with_options``), so ``python repro.min.py`` needs no
environment, and binds inputs written inline in ``fd.execute([...])`` to a name
(``named_inputs``). Every attachment sets ``torch.manual_seed`` to the seed fmin ran it with just
before its inputs list, so a standalone run draws the input values fmin's run drew. The check is skipped inside
fmin's own workers (``__fmin__`` in the script's globals, ``backends/runner.py``): fmin judges
outputs itself, and ``fmin check repro.min.py`` must see the fusion's outcome, not the check's.

``build`` is pure: the property replay that says which variant fails is the caller's
(``campaign.reduce_bucket``, ``recheck_bucket``), so this module runs nothing.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from ... import backends
from ... import report as reports
from ...oracle.checks import Failure, LayoutDependent, Mismatch, OrderDependent
from ...oracle.checks.order import describe_permutation
from ...oracle.outcome import Outcome, outcome_words
from ...oracle.rootcause import rootcause
from ...program import parse, to_source
from ...program.torch_code import NotPlainTorch
from ...program.variants import input_names, permute_inputs, relayout
from . import plain_check
from ..judging.property import bucket_property, differs
from ..store.record import Bucket
from .standalone import SPLITS, local_paths, stated_environment, stated_inductor_config


@dataclass
class Attachment:
    """What ``repro.min.py`` holds and what running it must show (``expect``, for
    ``standalone.reproduces``): ``{"kind": "failure"|"outcome"|"mismatch"|"segmentation"|"none", ...}``."""
    text: str
    expect: dict
    shows: str = ""                    # what running it shows, in words
    variant: str | None = None         # the failing variant, in words ("swapping inputs 0 and 1")
    passing: str | None = None         # the other variant's program (for report.md)
    passing_shows: str | None = None
    notes: list[str] = field(default_factory=list)

    def to_json(self) -> dict:
        return {"expect": self.expect, "shows": self.shows, "variant": self.variant,
                "passing_shows": self.passing_shows, "notes": self.notes}


def build(reduced: str, path: str, meta: Bucket, outcome: dict | None, verdict=None, *, seed: int = 0) -> Attachment:
    """The attachment of a bucket whose reduced script is ``reduced`` (its text). ``verdict``: the
    bucket property's verdict on it (``property.evaluate``), whose evidence names the failing
    variant of an order/layout finding; ``seed``: the torch seed of fmin's runs."""
    reduced = named_inputs(reduced, parse(reduced, path).fd_name)
    program = parse(reduced, path)
    prop = bucket_property(meta, outcome)
    kinds = {type(c) for c in (prop.checks if prop is not None else ())}
    if kinds & {LayoutDependent, OrderDependent}:
        att = _variant(program, reduced, verdict, LayoutDependent if LayoutDependent in kinds else OrderDependent,
                       _backend(meta), seed)
    elif Mismatch in kinds:
        att = _finished(_checked(program, reduced, meta), program, meta, prop, seed)
        if len(att.text.splitlines()) <= LINES:
            return att
        # over the limit: the float64 comparison is the part a maintainer can do without
        att = _checked(program, reduced, meta, float64=False)
    elif Failure in kinds:   # the recorded failure, as the reduction and the recheck hold it
        f = next(c for c in prop.checks if isinstance(c, Failure))
        key = f.key or rootcause({"status": f.status, "signature": f.signature, "backend": _backend(meta)})
        att = Attachment(reduced, {"kind": "failure", "status": f.status, "signature": f.signature, "key": key},
                         shows=f"{f.status} `{key}`")
    else:
        att = Attachment(reduced, {"kind": "none"}, notes=["no property recorded: nothing to show"])
    return _finished(att, program, meta, prop, seed)


def _finished(att: Attachment, program, meta: Bucket, prop, seed: int) -> Attachment:
    """``att`` seeded, under its compact header, with the backend's options set, short."""
    if att.expect["kind"] != "segmentation":   # its versions are seeded inside it
        att.text = _seeded(att.text, program.fd_name, seed)
    header = reports.original_header(att.text)
    if not header:   # reduced by an fmin that wrote none: where it was found stands in
        header = reports.repro_header(meta.environment or {}, None,
                                      prop.describe() if prop is not None else "?").rstrip("\n")
    header = compact_header(local_paths(header))
    att.text = reports.with_header(att.text, header + "\n" + _header_lines(meta, att, header))
    att.text = short(with_options(att.text, _backend(meta)))
    return att


#: the most lines an attachment should have: it is pasted into an issue
LINES = 40


def short(text: str) -> str:
    """``text`` without its blank lines where it is longer than ``LINES``: a pasted script is read
    whole, and a blank line is the cheapest line to give up."""
    lines = text.splitlines()
    return text if len(lines) <= LINES else "\n".join(x for x in lines if x.strip()) + "\n"


def _backend(meta: Bucket) -> str:
    """The backend a bucket was found on (the compiler fmin is for, where an old record names none)."""
    return meta.backend or (meta.environment or {}).get("backend") or backends.auto_order()[0]


def with_options(text: str, backend: str) -> str:
    """``text`` setting, before anything imports the backend, the options its header says fmin's
    runs had — except the backend's debug output (``Facts.debug_env``: nvFuser's dumps), which
    is not the user's path — so ``python repro.min.py`` needs no environment. ``setdefault``: a
    maintainer's own setting wins."""
    opts = {k: v for k, v in stated_environment(text).items() if k not in backends.get(backend).facts.debug_env}
    if not opts:
        return text
    head, body = reports.split_header(text)
    lines = ["import os", *(f"os.environ.setdefault({k!r}, {v!r})   # as fmin ran it (the environment above)"
                            for k, v in sorted(opts.items()))]
    return head + "\n".join(lines) + "\n" + body


def run_line(meta: Bucket, header: str) -> str:
    """How to run the attachment (``Backend.run_words``): ``python repro.min.py`` for nvFuser; for
    a backend fmin stands in front of, fmin's launcher (``backends/launch.py``)."""
    device = (meta.environment or {}).get("device") or "cpu"
    return backends.get(_backend(meta)).run_words(device, stated_inductor_config(header))


def _header_lines(meta: Bucket, att: Attachment, header: str) -> str:
    """What the attachment is: the bucket's root cause (its key, true of the minimized script —
    the words of the first example name that program's outputs and shapes), how to run it, what
    it shows."""
    shows = f"; it shows {' '.join(att.shows.split())[:300]}" if att.shows else ""
    lines = [f"# finding: {meta.kind} ({meta.owner}), bucket {meta.id}: "
             f"{' '.join(str(meta.key).split())[:300]}; run it: {run_line(meta, header)}{shows}"]
    if att.variant:
        lines.append(f"# as filed: {att.variant}; the other one ({att.passing_shows}) is in report.md")
    lines += [f"# note: {n}" for n in att.notes]
    return "\n".join(lines) + "\n"


def compact_header(header: str) -> str:
    """The header with where it was confirmed and the versions on one line (``# confirmed on: GPU
    (backend); torch X; nvfuser_direct Y``): an attachment is pasted into an issue, where every
    line counts. The other lines (the command, the property, the environment the standalone run
    reads back) stay as they are; the property the reducer kept is the finding's own line.""" 
    lines, merged, at = header.splitlines(), [], None
    for line in lines:
        versions = re.match(r"^# (\w+) version: (.*)$", line)
        if versions and at is not None:
            merged[at] += f"; {versions.group(1)} {versions.group(2)}"
            continue
        if line.startswith("# confirmed on:"):
            at = len(merged)
        if not line.startswith("# property:"):   # the finding's line says what it shows
            merged.append(line)
    return "\n".join(merged)


def _variant(program, reduced: str, verdict, check: type, backend: str, seed: int) -> Attachment:
    """The variant (layout or order) that fails, from the property replay's evidence."""
    ev = verdict.get(check) if verdict is not None else None
    if ev is None or not getattr(ev, "found", False):
        return Attachment(reduced, {"kind": "none"},
                          notes=["the replay did not show the variant that fails: filed as reduced"])
    if check is LayoutDependent:
        variant = relayout(program)[0]
        how = "layout", "the two innermost dims of " + ", ".join(ev.changed) + " swapped in memory"
    else:
        variant = permute_inputs(program, ev.perm)
        how = "order", describe_permutation(ev.perm, input_names(program))
    base, var = ev.original, ev.outcome
    if base is not None and base.ok and var.ok:       # both run: the split is the finding
        both = _both_splits(reduced, to_source(variant), how, seed, backend)
        if both is not None:
            return Attachment(both, {"kind": "segmentation"}, shows=f"AssertionError: {SPLITS} ...",
                              variant=f"both: as reduced, and {how[1]}", passing=reduced,
                              passing_shows=outcome_words(base))
    if base is not None and not base.ok and var.ok:   # the reduced program is the one that fails
        return Attachment(reduced, _expected(base), shows=outcome_words(base),
                          variant=f"the inputs in the {how[0]} that fails, as reduced (the variant, {how[1]}, passes)",
                          passing=to_source(variant), passing_shows=outcome_words(var))
    return Attachment(to_source(variant), _expected(var), shows=outcome_words(var),
                      variant=f"the inputs in the {how[0]} that fails: {how[1]}", passing=reduced,
                      passing_shows=outcome_words(base))


def _both_splits(reduced: str, variant: str, how: tuple[str, str], seed: int, backend: str) -> str | None:
    """A script that runs the program in both layouts (orders), prints how the backend split each
    and fails when the splits differ (``Backend.segmentation_script``), or None where the backend
    cannot show its split in a script."""
    fd = parse(reduced).fd_name
    versions = [(what, reports.split_header(_seeded(text, fd, seed))[1])
                for what, text in (("as reduced", reduced), (how[1], variant))]
    body = backends.get(backend).segmentation_script(versions)
    return None if body is None else reports.split_header(reduced)[0] + body


def _expected(o: Outcome) -> dict:
    """What the filed variant must show: its error, or (it runs) its segmentation."""
    if not o.ok:
        return {"kind": "outcome", "status": o.status, "signature": o.signature, "segments": None,
                "schedulers": None}
    return {"kind": "outcome", "status": o.status, "signature": o.signature, "segments": o.segments,
            "schedulers": sorted(o.schedulers) if o.schedulers is not None else None}


# ---------------------------------------------------------------- the eager check of a wrong result
_EXECUTE = r"^(?:(?P<out>\w+)\s*=\s*)?{fd}\.execute\(\s*(?P<inputs>\w+)\s*\)\s*$"


def _checked(program, reduced: str, meta: Bucket, float64: bool = True) -> Attachment:
    """``reduced`` with the eager check after its ``fd.execute``; ``float64``: with the float64
    comparison where rounding matters (``plain_check.float64_form``)."""
    what = differs(meta) or "values"
    expect = {"kind": "mismatch", "differs": what}
    lines = reduced.splitlines()
    at = _last_match(lines, re.compile(_EXECUTE.format(fd=re.escape(program.fd_name))))
    if at is None:
        return Attachment(reduced, {"kind": "none"},
                          notes=["no `fd.execute(inputs)` line to check the outputs of: the script runs silently"])
    m = re.match(_EXECUTE.format(fd=re.escape(program.fd_name)), lines[at])
    out, ins, fd = m.group("out") or "outputs", m.group("inputs"), program.fd_name
    try:
        check = plain_check.section(program, out, ins, f"fmin check --mismatch repro.min.py --backend {_backend(meta)}",
                                    float64=float64)
    except NotPlainTorch as e:
        lines[at:at] = [f"# fmin could not write this computation as plain torch code ({e}), so nothing here",
                        "# compares the outputs with eager PyTorch; fmin's own comparison said:",
                        f"# {' '.join(str(meta.words).split())[:300]}"]
        return Attachment("\n".join(lines) + "\n", {"kind": "none"},
                          notes=[f"the outputs are not checked: {e}"])
    lines[at:at + 1] = [
        f"{ins}_before = [x.clone() if isinstance(x, torch.Tensor) else x for x in {ins}]   # for the check below",
        f"{out} = {fd}.execute({ins})", "", *check]
    return Attachment("\n".join(lines) + "\n", expect, shows=f"AssertionError: wrong result ({what}) ...")


def named_inputs(text: str, fd: str) -> str:
    """``text`` with an inputs list written inline in its last ``fd.execute([...])`` bound to a
    name first (``inputs = [...]``, ``fd.execute(inputs)``): the seed goes before it and the check
    reads the inputs by that name."""
    lines = text.splitlines()
    rx = re.compile(rf"^(?P<lhs>(?:\w+\s*=\s*)?){re.escape(fd)}\.execute\(\s*(?P<rest>\[.*)$")
    at = _last_match(lines, rx)
    if at is None:
        return text
    m = rx.match(lines[at])
    tail, end = m.group("rest"), at
    while _depth(tail) > 0 and end + 1 < len(lines):   # the list goes on over the next lines
        end += 1
        tail += "\n" + lines[end]
    close = _closing(tail)
    if close is None or tail[close + 1:].strip() not in (")", ""):
        return text                                     # more arguments than the list: left as written
    name = _free_name(text, "inputs")
    lines[at:end + 1] = [f"{name} = {tail[:close + 1]}", f"{m.group('lhs')}{fd}.execute({name})"]
    return "\n".join(lines) + "\n"


def _depth(text: str) -> int:
    return sum(text.count(c) for c in "([{") - sum(text.count(c) for c in ")]}")


def _closing(text: str) -> int | None:
    """The index of the ``]`` that closes the list ``text`` starts with."""
    depth = 0
    for k, c in enumerate(text):
        depth += c in "([{"
        depth -= c in ")]}"
        if depth == 0:
            return k
    return None


def _free_name(text: str, want: str) -> str:
    k, name = 0, want
    while re.search(rf"\b{name}\b", text):
        k += 1
        name = f"{want}_{k}"
    return name


def _seeded(text: str, fd: str, seed: int) -> str:
    """``torch.manual_seed(seed)`` just before the inputs list that ``fd.execute`` takes."""
    lines = text.splitlines()
    at = _last_match(lines, re.compile(rf"^(?:\w+\s*=\s*)?{re.escape(fd)}\.execute\(\s*(\w+)\s*\)\s*$"))
    if at is None:
        return text
    ins = re.search(r"execute\(\s*(\w+)", lines[at]).group(1)
    start = _first_match(lines[:at], re.compile(rf"^{re.escape(ins)}\s*="))
    if start is None:
        return text
    lines[start:start] = [f"torch.manual_seed({seed})   # the seed fmin ran this script with: the same input values"]
    return "\n".join(lines) + "\n"


def _last_match(lines: list[str], rx) -> int | None:
    hits = [k for k, line in enumerate(lines) if rx.match(line)]
    return hits[-1] if hits else None


def _first_match(lines: list[str], rx) -> int | None:
    return next((k for k, line in enumerate(lines) if rx.match(line)), None)


#: the heading of ``report.md``'s section on what is filed (``filing.write_filed`` replaces it)
SECTION_TITLE = "## As filed (`repro.min.py`)"


def passing_section(att: Attachment) -> str:
    """``report.md``'s section on what is filed: the other variant, and the attachment's notes."""
    out = ["", SECTION_TITLE, ""]
    if att.variant:
        out += [f"`repro.min.py` has {att.variant}; it shows {att.shows}. The other one shows "
                f"{att.passing_shows}:", "", "```python", (att.passing or "").rstrip(), "```"]
    elif att.expect.get("kind") == "mismatch":
        out.append("`repro.min.py` ends with the same computation in eager PyTorch and fmin's comparison: "
                   "running it raises an AssertionError naming the wrong output and its worst element.")
    else:
        out.append(f"`repro.min.py` is the reduced script; running it shows {att.shows or 'nothing fmin checks'}.")
    out += [f"- {n}" for n in att.notes]
    return "\n".join(out) + "\n"
