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
  a repro is there for the bug) and equal buckets merge. A wrong *shape* is named by what went
  wrong with the dimension (``dimension_error``: an expanded extent returned as 1, a
  concatenated extent lost), not by the ops it passed through: one lost extent reached six
  outputs of ``max``, ``sum``, ``cat``, ``broadcast_in_dim``, ... and was six buckets. Once
  minimized, it also names the op where the extent is lost (``lost_at``: the minimal repro's op
  producing the differing output), since that op is where it is fixed: ``cat`` dropping an
  expanded extent and ``broadcast_in_dim`` dropping one are two fixes. A minimal repro that shows a
  known mechanism (``mechanisms``: a ``var`` of a reduction's output, an output written in place
  into a non-contiguous input) is keyed by that mechanism instead of its ops. A program that
  breaks a validity rule carries the rule (``broken_rules``): an ill-defined program's wrong
  result is never one bucket with a well-defined program's.
* **A segmentation change** (the same program, another input order or layout, other kernels) is
  its own kind, keyed by which schedulers' counts change.

A bucket keeps its identity when its key changes (it is minimized, or fmin learns a rule): its
directory is its first key's, later keys are its aliases (``store.Store``). Two minimized
buckets of one owner whose repros are one program up to names, sizes and dtypes of one class,
breaking the same validity rules (``merge_form``), are one bucket.

The key is the same function of what a corpus stores (``outcome.json``, ``original.py``,
``repro.min.py``, ``finding.json``), so an existing corpus is re-keyed offline
(``today.rekey``) with the rules a campaign uses when it files a finding.

A key is a record (``store.key.BucketKey``): each function here fills its fields, and its text,
the string above, is derived from them. What a key says is read from its fields, never parsed
back from the text.
"""
from __future__ import annotations

import re
from collections import Counter

from ... import dtypes as nv_dtypes
from ...model import DType, Program, Ref, TensorArg, is_input_decl
from ...oracle.rootcause import rootcause, site_and_message
from ..store.key import FAILURE, MISMATCH, SEGMENTATION, BucketKey
from ..store.record import Bucket
from .mechanisms import Mechanism, mechanism_of

#: the kinds of difference of a wrong result (``aliasing``: an input the fusion writes in place;
#: ``count``: another number of outputs than the reference's)
DIFFERENCES = ("dtype", "shape", "values", "aliasing", "count")


def failure_key(label: str, o) -> BucketKey:
    """``<label> <status> <root cause>`` of a failed run (an ``Outcome`` or its JSON); ``label``
    is the backend, or ``reference`` for a program the reference rejects too (fmin's). The root
    cause's site and message template are fields of their own."""
    get = o.get if isinstance(o, dict) else lambda k, d=None: getattr(o, k, d)
    cause = rootcause(o)
    site, message = site_and_message(cause)
    return BucketKey(FAILURE, label, get("status"), cause, site, message)


def mismatch_key(backend: str, what: str, ops, got: str | None = None, expected: str | None = None,
                 dimension: str | None = None, rules=(), mechanism: Mechanism | None = None,
                 lost_at: str | None = None) -> BucketKey:
    """``<backend> mismatch <what>: <op>, <op>``: the ops sorted and named once, without dtypes
    (one wrong ``cast`` in float16 and in bfloat16 is one bucket). A dtype difference is its
    dtypes' classes too, ``dtype (int for bool)``: the typing rule it shows is the difference
    itself (Int64 where the reference said Bool is one rule, Float where it said BFloat16
    another, whatever ops carry them); where both are of one class, the dtypes themselves
    (``dtype (int64 for int32)``: "int for int" says nothing). A shape difference whose
    ``dimension`` error is known (``dimension_error``) is that and no ops: ``shape (an expanded
    extent returned as 1)``.

    ``rules``: the validity rules the program breaks (``broken_rules``), ``(breaks alias-dtype)``:
    a wrong result of an ill-defined program is caused by the rule it breaks, not by the compiler,
    so it never shares a bucket with a well-defined program of the same ops (a BFloat16 value
    written into a Float input and an input written into itself are both "no op").

    ``mechanism``: the known cause a minimal repro shows (``mechanisms.mechanism_of``), named
    instead of the ops: ``values: var of a reduction output divides by the reduced extent``.
    ``lost_at``: the op of a minimal repro where a wrong shape's extent is lost (``lost_at``):
    ``shape (an expanded extent returned as 1) at cat`` — a lost extent is fixed in the op that
    loses it, so one per op."""
    rules = tuple(sorted(set(rules)))
    if mechanism is not None and mechanism.explains_difference(what):   # the cause's own kind of difference
        return BucketKey(MISMATCH, backend, difference=mechanism.difference, rules=rules, mechanism=mechanism.words,
                         upstream=mechanism.upstream)
    if what == "shape" and dimension:
        return BucketKey(MISMATCH, backend, difference="shape", detail=dimension, rules=rules, lost_at=lost_at)
    detail = None
    if what == "dtype" and got and expected:
        g, e = dtype_class(got), dtype_class(expected)
        detail = f"{g} for {e}" if g != e else f"{got} for {expected}"
    return BucketKey(MISMATCH, backend, difference=what, detail=detail, ops=tuple(sorted(set(ops))), rules=rules)


def broken_rules(program: Program | None) -> list[str]:
    """The validity rules (``program.validity``) ``program`` breaks, by name."""
    from ...program.validity import violations
    return sorted({v.rule for v in violations(program)}) if program is not None else []


def writes_only(program: Program) -> bool:
    """Does ``program`` return nothing, its every output written into an input
    (``add_output(v, alias_input)``)? Then only an input can hold a wrong result."""
    outs = [s for s in program.stmts if s.is_output]
    return bool(outs) and all(s.arg("alias_input") is not None for s in outs)


#: what can go wrong with a dimension, as ``dimension_error`` names it
EXPANDED_AS_ONE = "an expanded extent returned as 1"
EXTENT_AS_ONE = "an extent returned as 1"
CONCAT_LOST = "a concatenated extent lost"
RANK = "another rank"
EXTENT = "another extent"
#: ops whose result has a broadcast dimension with an extent (an expanded one)
_EXPANDING_OPS = frozenset({"broadcast_in_dim", "broadcast", "expand"})


def dimension_error(words: str, program: Program | None) -> str | None:
    """What went wrong with the dimension of a wrong shape, from a finding's words (``output 2:
    int64[1, 2, 1, 3] vs reference int64[1, 2, 2, 3]``) and the program: every differing extent
    1 where the reference's is larger is an expanded extent returned as 1 when the program has
    an expanded or broadcast dimension (an input defined with one, ``broadcast_in_dim``,
    ``expand``), a smaller extent after a ``cat`` is a concatenated extent lost; None when the
    words do not say two shapes."""
    g = _WORDS.search(words or "")
    if g is None:
        return None
    got, ref = _dims(g.group(2)), _dims(g.group(4))
    if got == ref:
        return None
    if len(got) != len(ref):
        return RANK
    diff = [(a, b) for a, b in zip(got, ref) if a != b]
    if all(a == 1 < b for a, b in diff):
        return EXPANDED_AS_ONE if program is not None and expands(program) else EXTENT_AS_ONE
    if program is not None and all(a < b for a, b in diff) and any(s.op == "cat" for s in program.op_stmts()):
        return CONCAT_LOST
    return EXTENT


def _dims(text: str) -> tuple[int, ...]:
    return tuple(int(x) for x in text.replace(" ", "").split(",") if x)


def expands(program: Program) -> bool:
    """Does a dimension of the program carry an extent as a broadcast (expanded)? An op that
    broadcasts, a tensor defined with a broadcast dimension of extent other than 1 (contiguity
    None where its size is not 1, or stride 0), or an input tensor given with stride 0."""
    for s in program.stmts:
        if s.op in _EXPANDING_OPS:
            return True
        if s.call == "define_tensor" and _declares_expanded(s):
            return True
    return any(isinstance(a, TensorArg) and any(st == 0 and n != 1 for n, st in zip(a.shape, a.strides))
               for a in program.inputs or ())


def _declares_expanded(s) -> bool:
    shape = s.arg("shape", s.arg("sizes"))
    contiguity, strides = s.arg("contiguity"), s.arg("strides")
    if isinstance(shape, tuple) and isinstance(contiguity, tuple):
        if any(c is None and n != 1 for n, c in zip(shape, contiguity)):
            return True
    return isinstance(shape, tuple) and isinstance(strides, tuple) and \
        any(st == 0 and n != 1 for n, st in zip(shape, strides))


# ---------------------------------------------------------------------------------------------
# one program up to names, sizes and dtypes

#: parameters whose integers are sizes (extents, strides, positions along a dimension)
SIZE_PARAMETERS = frozenset({"shape", "sizes", "strides", "new_shape", "start_indices", "end_indices",
                             "pad_widths", "output_sizes", "index", "size"})


def canonical_form(program: Program) -> str:
    """The program with its values renamed in order of definition, its sizes (``SIZE_PARAMETERS``,
    an input's extents and strides) and dtypes erased: two minimal repros with one form are one
    program met in other sizes and dtypes (ranks, layouts as contiguity, ops and their wiring
    stay)."""
    names: dict[str, str] = {}
    lines = []
    for s in program.stmts:
        args = ", ".join(f"{k}={_canon(v, names, k in SIZE_PARAMETERS)}" for k, v in s.args)
        for o in s.outs:
            if o is not None:
                names.setdefault(o, f"v{len(names)}")
        outs = ", ".join(names.get(o, "_") if o else "_" for o in s.outs)
        lines.append(f"{outs} = {s.call}({args})")
    for a in program.inputs or ():
        lines.append(f"input rank {len(a.shape)}" if isinstance(a, TensorArg) else "input scalar")
    return "\n".join(lines)


def merge_form(program: Program) -> str:
    """What two minimized buckets must share to merge (``store.rekey.merge_equal_programs``, which
    adds their kind, backend and owner): one ``canonical_form``, inputs of the same dtype classes
    in order (``dtype_class``: a bug met in Half and in BFloat16 is one, one met in Float and in
    Half may not be) and the same validity rules broken (``broken_rules``). Without the rules a
    BFloat16 value written into a Float input would merge with its well-defined twin, a Float
    value written into a Float input: one program up to dtypes, but the first is ill-defined,
    and its wrong result is the rule's, never the compiler's."""
    classes = []
    for s in program.input_stmts():
        dt = s.arg("dtype")
        name = dt.name if isinstance(dt, DType) else ("Float" if s.call == "define_tensor" else "?")
        classes.append(_dtype_class_of(name))
    return "\n".join([canonical_form(program), f"input dtypes {', '.join(classes)}",
                      f"breaks {', '.join(broken_rules(program))}"])


def _dtype_class_of(nv_name: str) -> str:
    """The class (``dtype_class``) of an nvFuser DataType name; the name itself where torch has none."""
    try:
        return dtype_class(nv_dtypes.torch_name(nv_dtypes.to_torch(nv_name)))
    except KeyError:
        return nv_name


def _canon(v, names: dict, size: bool) -> str:
    if isinstance(v, Ref):
        return names.get(v.name, "?")
    if isinstance(v, DType):
        return "D"
    if isinstance(v, (tuple, list)):
        return "[" + ", ".join(_canon(x, names, size) for x in v) + "]"
    if size and isinstance(v, int) and not isinstance(v, bool):
        return "N"
    return repr(v)


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


def change_key(backend: str, kind: str, a, b) -> BucketKey:
    """A segmentation change between two runs that both succeed (``kind``: ``order-dependent``
    or ``layout-dependent``): the schedulers whose counts change, not the counts (2 vs 4
    pointwise kernels and 3 vs 5 are one behaviour)."""
    ca, cb = Counter(a.schedulers or ()), Counter(b.schedulers or ())
    names = tuple(sorted(k for k in set(ca) | set(cb) if ca[k] != cb[k]))
    return BucketKey(SEGMENTATION, backend, variant=kind.split("-")[0], schedulers=names)


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


#: a wrong dtype or shape in a finding's words: ``output 2: int64[3, 5] vs reference bool[3, 5]``
_WORDS = re.compile(r": (\w+)\[([\d, ]*)\] vs reference (\w+)\[([\d, ]*)\]")
#: another number of outputs in a finding's words: ``0 outputs vs 1 from the reference``
_COUNT_WORDS = re.compile(r"\b\d+ outputs vs \d+ from the reference")


def worded_difference(words: str | None) -> str | None:
    """What differs in a wrong result as its words say it (the line the deciding comparison wrote
    about the output it found wrong, ``oracle.compare``): "dtype" or "shape" where they show the
    two (``output 2: int64[3, 5] vs reference bool[3, 5]``), "count" where they show two numbers
    of outputs, "aliasing" where the first tensor they name wrong is an input written in place
    (``input 1 (after execute) (float32[16, 64]): ...``), else "values"; None without words."""
    if not words:
        return None
    g = _WORDS.search(words)
    if g:
        return "dtype" if g.group(2) == g.group(4) else "shape"
    if _COUNT_WORDS.search(words):
        return "count"
    first = _NAMED.search(words)
    return "aliasing" if first is not None and first.group(1) == "input" else "values"


#: the first tensor a wrong result's words name: ``output 0 (...)`` or ``input 1 (after execute)``
_NAMED = re.compile(r"\b(output|input) \d+(?= \(after execute\)|[ :(])")


def difference(meta: Bucket) -> str:
    """What differs in a wrong-result bucket (``DIFFERENCES``), as its recorded words say it
    (``worded_difference``): the words are the evidence the finding was filed on, so a key whose
    kind says otherwise (an older fmin read the kind from another comparison than the one that
    wrote the words) is brought to them. Words of elements that differ keep an ``aliasing`` key
    (or an older key's ``aliased input`` op) as that; a bucket without words keeps its key's kind."""
    kept = meta.key.difference or ("aliasing" if meta.key.ops == ("aliased input",) else None)
    said = worded_difference(meta.words)
    if said is None:
        return kept or "values"
    return "aliasing" if said == "values" and kept == "aliasing" else said


def dtypes_of(meta: Bucket) -> tuple[str | None, str | None]:
    """(the backend's dtype, the reference's) of a wrong-dtype bucket, from its recorded words."""
    g = _WORDS.search(meta.words or "")
    return (g.group(1), g.group(3)) if g else (None, None)


def bucket_key(meta: Bucket, outcome: dict | None, program: Program | None, minimized: bool) -> BucketKey | None:
    """A bucket's key by today's rules, from what the corpus stores: ``outcome`` is the stored
    outcome of ``program`` (the bucket's original, or its minimal repro when ``minimized``: a
    mismatch's ops are the minimal repro's, its wrong dimension is read from either), as
    refreshed by ``oracle.rootcause.refreshed``. None: no rule applies (a generator bucket, a
    segmentation change — whose key needs the original run's outcome, which is not stored —
    or a failure without a failed outcome): the key stays."""
    kind, backend = meta.kind, meta.backend
    if kind == "failure":
        if not outcome or outcome.get("status") in (None, "ok"):
            return None
        label = "reference" if meta.key.label == "reference" else backend
        return failure_key(label, outcome)
    if kind == "mismatch":
        return _mismatch_today(meta, program if minimized else None, program)
    return None


def _mismatch_today(meta: Bucket, minimal: Program | None, program: Program | None) -> BucketKey:
    """A wrong result's key from its record and ``program`` (``minimal``: the same, when it is the
    bucket's minimal repro; None before a reduction). Only a minimal repro names ops or the op where
    an extent is lost: the generated program's ops are there by chance; a generated program names a
    mechanism only where its wrong tensor pins one down (``mechanisms.mechanism_of``)."""
    ops = program_ops(minimal) if minimal is not None else meta.key.ops
    what = difference(meta)
    if what == "values" and minimal is not None and writes_only(minimal):
        what = "aliasing"   # a minimal repro returning nothing: its wrong value is an input's
    rules = broken_rules(program)
    dimension = dimension_error(meta.words or "", program) if what == "shape" else None
    mechanism = None if rules else mechanism_of(minimal, what) if minimal is not None else \
        mechanism_of(program, what, minimal=False, words=meta.words)
    lost = lost_at(minimal, minimal_words(meta)) if what == "shape" else None
    return mismatch_key(meta.backend, what, ops, *dtypes_of(meta), dimension=dimension, rules=rules,
                        mechanism=mechanism, lost_at=lost)


#: the output a minimal repro's run names first: ``output 1: bool[3, 1] vs reference ...`` (a
#: recheck) or ``wrong result (shape) in output 0: got float32[4, 1], eager PyTorch gives ...``
#: (the attachment run standalone)
_OUTPUT_WORDS = re.compile(r"\boutput (\d+)(?: \([^)]*\))?: (?:got )?\w+\[")
#: the scripts that are a bucket's minimal repro (a recheck of one of them speaks of it)
_MINIMAL_SCRIPTS = ("reduced.py", "repro.min.py")


def minimal_words(meta: Bucket) -> str | None:
    """What the last run of the bucket's minimal repro said about its outputs: a recheck of the
    reduced script, else the attachment's standalone run (filing runs it before the bucket is
    re-keyed from its reduction). A bucket's own ``words`` are its generated program's: its
    output numbers are not the repro's."""
    if meta.recheck is not None and meta.recheck.script in _MINIMAL_SCRIPTS and meta.recheck.reason:
        return meta.recheck.reason
    if meta.standalone is not None and meta.standalone.why:
        return meta.standalone.why
    return None


def lost_at(program: Program | None, words: str | None) -> str | None:
    """The op of minimal ``program`` where a wrong shape's extent is lost: the op producing the
    output its run says differs (``words``; a repro of one output needs none). A minimal repro's
    reducer has tried cutting it at every intermediate (``reduce.passes.cut``): had an earlier op's
    result already been wrong, the cut would have kept that op's result as the output, so the
    op producing the differing output is the first whose extent differs from eager's. None: no
    minimal program, or the words name no output of it, or the output is an input as defined."""
    if program is None:
        return None
    m = _OUTPUT_WORDS.search(words or "")
    plain = [s for s in program.stmts if s.is_output and s.arg("alias_input") is None]
    if m is None and len(plain) != 1:
        return None
    op = producer(program, int(m.group(1)) if m else 0)
    return None if op in ("?", "input") else op


def producer(program: Program, output_index: int) -> str:
    """The op whose value is the ``output_index``-th (non-aliasing) output; ``input`` where the
    output is a fusion input, ``?`` where there is no such output."""
    outs = [s for s in program.stmts if s.is_output and s.arg("alias_input") is None]
    if output_index >= len(outs):
        return "?"
    ref = outs[output_index].arg("output")
    if isinstance(ref, Ref):
        for s in reversed(program.stmts):
            if ref.name in s.outs:
                return "input" if is_input_decl(s) else s.op
    return "?"


__all__ = ["DIFFERENCES", "failure_key", "mismatch_key", "minimal_words", "lost_at", "producer", "broken_rules", "writes_only",
           "dimension_error", "expands", "canonical_form", "merge_form", "dtype_class", "program_ops", "change_key", "traits",
           "worded_difference", "difference", "dtypes_of", "bucket_key"]
