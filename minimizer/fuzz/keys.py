"""Bucket keys: what makes two findings one bug, so that a bucket of the corpus is a root cause.

* **A failure** is keyed by the root cause of the error (``oracle.rootcause``: where it is raised
  and its message's template), ``<backend> <status> <root cause>``: a bug met in four dtypes and
  three ranks is one bucket, not twelve. The finding's kind is not part of it: an input
  permutation or relayout whose variant *fails* is that failure's bucket, marked
  (``order_dependent`` / ``layout_dependent``), with the failing variant as its program.
* **A wrong result** is keyed by the kind of difference (``dtype``, ``shape``, ``values``,
  ``aliasing``: an input written in place; a wrong dtype with the classes of the two dtypes,
  ``dtype (int for bool)``, the typing rule it shows) and the program's operations without
  dtypes: ``<backend> mismatch values: cast, cumprod``. Before a bucket is minimized its program is a
  generated one with a dozen unrelated ops, so the key names only the op producing the first
  differing output; once minimized, its key is re-made from the minimized program (every op of
  a repro is there for the bug) and equal buckets merge.
* **A segmentation change** (the same program, another input order or layout, other kernels) is
  its own kind, keyed by which schedulers' counts change.

The key is the same function of what a corpus stores (``outcome.json``, ``original.py``,
``repro.min.py``, ``finding.json``), so an existing corpus is re-keyed offline
(``findings.rekey``) with the rules a campaign uses when it files a finding.
"""
from __future__ import annotations

import re
from collections import Counter

from ..model import DType, Program
from ..oracle.rootcause import rootcause
from .record import Bucket

#: the kinds of difference of a wrong result (``aliasing``: an input the fusion writes in place)
DIFFERENCES = ("dtype", "shape", "values", "aliasing")


def failure_key(label: str, o) -> str:
    """``<label> <status> <root cause>`` of a failed run (an ``Outcome`` or its JSON); ``label``
    is the backend, or ``reference`` for a program the reference rejects too (fmin's)."""
    get = o.get if isinstance(o, dict) else lambda k, d=None: getattr(o, k, d)
    return f"{label} {get('status')} {rootcause(o)}"


def mismatch_key(backend: str, what: str, ops, got: str | None = None, expected: str | None = None) -> str:
    """``<backend> mismatch <what>: <op>, <op>``: the ops sorted and named once, without dtypes
    (one wrong ``cast`` in float16 and in bfloat16 is one bucket). A dtype difference is its
    dtypes' classes too, ``dtype (int for bool)``: the typing rule it shows is the difference
    itself (Int64 where the reference said Bool is one rule, Float where it said BFloat16
    another, whatever ops carry them); where both are of one class, the dtypes themselves
    (``dtype (int64 for int32)``: "int for int" says nothing)."""
    if what == "dtype" and got and expected:
        g, e = dtype_class(got), dtype_class(expected)
        what = f"dtype ({g} for {e})" if g != e else f"dtype ({got} for {expected})"
    return f"{backend} mismatch {what}: {', '.join(sorted(set(ops))) or 'no op'}"


def dtype_class(name: str) -> str:
    """A torch dtype name's class: ``bool``, ``int``, ``half`` (16-bit floats), ``float``
    (32/64-bit), ``fp8``, ``complex``."""
    if name == "bool":
        return "bool"
    if name.startswith(("int", "uint")):
        return "int"
    if name in ("float16", "bfloat16"):
        return "half"
    if name.startswith("float8") or name.startswith("float4"):
        return "fp8"
    if name.startswith("complex"):
        return "complex"
    return "float"


def program_ops(program: Program) -> list[str]:
    return [s.op for s in program.op_stmts()]


def change_key(backend: str, kind: str, a, b) -> str:
    """A segmentation change between two runs that both succeed (``kind``: ``order-dependent``
    or ``layout-dependent``): the schedulers whose counts change, not the counts (2 vs 4
    pointwise kernels and 3 vs 5 are one behaviour)."""
    ca, cb = Counter(a.schedulers or ()), Counter(b.schedulers or ())
    names = sorted(k for k in set(ca) | set(cb) if ca[k] != cb[k])
    return f"{backend} {kind} segmentation changes (" + (", ".join(names) or "count") + ")"


def traits(program: Program | None) -> dict:
    """The dtypes and ranks of a program's tensor inputs (each once): a bucket counts them over
    its examples, and one seen in four dtypes says so."""
    if program is None:
        return {}
    dtypes, ranks = set(), set()
    for s in program.input_stmts():
        if s.call != "define_tensor":
            continue
        dt = s.arg("dtype")
        dtypes.add(dt.name if isinstance(dt, DType) else "Float")   # define_tensor's default
        shape = s.arg("shape", s.arg("sizes"))
        if isinstance(shape, tuple):
            ranks.add(len(shape))
    return {"dtypes": sorted(dtypes), "ranks": sorted(ranks)}


_MISMATCH = re.compile(r"^\S+ mismatch (?:(?P<what>dtype|shape|values|aliasing)(?: \(\w+ for \w+\))?(?::|(?= ))\s*)?"
                       r"(?P<ops>.*?)(?: -> \S+)?$")
#: a wrong dtype or shape in a finding's words: ``output 2: int64[3, 5] vs reference bool[3, 5]``
_WORDS = re.compile(r": (\w+)\[([\d, ]*)\] vs reference (\w+)\[([\d, ]*)\]")


def difference(meta: Bucket) -> str:
    """What differs in a wrong-result bucket (``DIFFERENCES``), from its key or, for buckets
    recorded before keys said so (``nvfuser mismatch cat -> bool``), its recorded words."""
    m = _MISMATCH.match(meta.key or "")
    if m and m.group("what"):
        return m.group("what")
    if m and m.group("ops") == "aliased input":
        return "aliasing"
    g = _WORDS.search(meta.words or "")
    if g:
        return "dtype" if g.group(2) == g.group(4) else "shape"
    return "values"


def dtypes_of(meta: Bucket) -> tuple[str | None, str | None]:
    """(the backend's dtype, the reference's) of a wrong-dtype bucket, from its recorded words."""
    g = _WORDS.search(meta.words or "")
    return (g.group(1), g.group(3)) if g else (None, None)


def key_ops(key: str) -> list[str]:
    """The ops a mismatch key names (``... values: cast, cumprod``; ``... cat -> bool`` of older
    keys: the op producing the first differing output)."""
    m = _MISMATCH.match(key or "")
    if not m or not m.group("ops") or m.group("ops") == "no op":
        return []
    return [op.strip() for op in m.group("ops").split(",")]


def bucket_key(meta: Bucket, outcome: dict | None, program: Program | None, minimized: bool) -> str | None:
    """A bucket's key by today's rules, from what the corpus stores: ``outcome`` is the stored
    outcome of ``program`` (the bucket's original, or its minimal repro when ``minimized``), as
    refreshed by ``oracle.rootcause.refreshed``. None: no rule applies (a generator bucket, a
    segmentation change — whose key needs the original run's outcome, which is not stored —
    or a failure without a failed outcome): the key stays."""
    kind, backend = meta.kind, meta.backend
    if kind == "failure":
        if not outcome or outcome.get("status") in (None, "ok"):
            return None
        label = "reference" if meta.key.startswith("reference ") else backend
        return failure_key(label, outcome)
    if kind == "mismatch":
        ops = program_ops(program) if minimized and program is not None else key_ops(meta.key)
        return mismatch_key(backend, difference(meta), ops, *dtypes_of(meta))
    return None


__all__ = ["DIFFERENCES", "failure_key", "mismatch_key", "dtype_class", "program_ops", "change_key", "traits",
           "difference", "dtypes_of", "key_ops", "bucket_key"]
