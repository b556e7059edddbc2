"""The root cause of an nvFuser error: where it is raised and the *template* of its message.

A signature (``nvfuser_log.parse_error``) masks numbers and names but keeps everything else nvFuser
prints about the particular fusion: the tensors it names with their IterDomains, printed values
(``Prev: double(inf), New: __bfloat(1)``), dtypes, size/stride/contiguity lists and their
lengths. The fuzz campaigns of 2026-12 showed what that costs: one bug opened a bucket per
dtype, rank or printed value (``greedy.cpp: partitionFusion: Fail to group the following
tensors: ...`` with one tensor or two, of any dtype and rank, was seven buckets), and a reducer
held to the exact signature could not remove an op without changing the tensor list, so those
repros stayed at 2–7 ops. The root cause keeps the site (kind, file, function, exception type)
and turns the message into its template:

* a TensorView with its domain and positions (``T3_g_float[iS0{i0}, bS1{1 ex 6}] ca_pos( 2 )``)
  -> ``T?``; an IterDomain (``iS12{i0}``, ``iblockIdx.x5{gridDim.x}``, ``idg{4 12}``) -> ``ID``;
* a printed value (``double(-inf)``, ``__half(1)``) -> ``N``, as a bare number is: one site
  prints an int64 init value bare (``Prev: -9223372036854775808``) and a double as
  ``double(-inf)``, and the type it is printed in is the fusion's; a dtype name (``__bfloat``,
  ``int64_t``, ``DataType::Float``'s ``Float``, ``nvfuser_index_t``) -> ``D``, except inside
  double quotes (an NVRTC error's function name is the bug: ``"nvf::relu"``);
* a scalar's name (``i?``, ``d?``) -> ``V``; a contiguity list (``t, t, n``) -> ``C``; a parallel-type group (``(blockIdx.x threadIdx.x)``)
  -> ``(P)``; an input's position (``in input 0, TensorView``) dropped;
* a run of the same placeholder (``T?, T?``, ``[N, N, N]``, ``ID ID ID``) -> one.

Twin sites — two functions that are one bug, raised by whichever of a symmetric pair the fusion
reached — are one root cause (``TWINS``): nvFuser's ``getMinimumValue``/``getMaximumValue`` on a
dtype they do not handle (a ``max`` reduction asks for the minimum, a ``min`` for the maximum).
So are the two asserts of one check that differ by the parallel type they found (``SyncMap``'s
inconsistent parallelization, for block dims or for thread dims).

fmin's own label of a site is not part of it: an nvFuser input validation (``KNOWN_USER_ERRORS``:
stride, expanded extent, ...) is labelled ``input-mismatch`` or ``internal-assert`` by whether fmin
can tell the tensor it names is a fusion input (``nvfuser_log.user_tensor``), which a fusion that
defines a tensor after an op leaves open; the site and message are the bug, so the root cause
names such a site ``validation`` whichever label it got. Whose it is (a generated program's
inputs that do not match its own definition are fmin's) is the owner's question, not the key's.

NVRTC compile errors keep the quoted function or operator (a missing ``nvf::lerp`` overload for
float operands is its own fix), except the reduced-precision family: a Half or BFloat16 operand
(``argument types are: (nvf::__half)``, ``operand types are: nvf::__bfloat * nvf::__bfloat``)
reaching a math function or operator that has no overload for it (``no instance of overloaded
function "ceil"``, ``no operator "+"``) or that several overloads take (``more than one instance
of overloaded function "nvf::max"`` for ``(const __nv_half, const __nv_half)``) is one cause — nvFuser's codegen emits the op on the
reduced-precision type instead of computing in float — whatever function it meets first; the
functions it met are the row's particulars (``particulars``), not its key.

Everything here reads masked text (``signature.mask``), so the same template comes from a
message and from a signature; the message is preferred where the signature's 200 characters cut
a tensor list short (``rootcause``).
"""
from __future__ import annotations

import re

from .nvfuser_log import KNOWN_USER_ERRORS, parse_error
from .signature import mask

#: what the template keeps of a message (the signature keeps 200 characters of the masked one)
TEMPLATE_CHARS = 200

#: dtype names as nvFuser prints them: C++ types in IR and kernel text, DataType enumerators
_DTYPES = (
    r"double|float|__half|__bfloat|__e4m3|__e5m2|__e8m0|__e2m1|int64_t|int32_t|int16_t|int8_t|uint64_t|uint32_t"
    r"|uint16_t|uint8_t|int|bool|char|nvfuser_index_t|std::complex<(?:float|double)>"
    r"|Double|Float|Half|BFloat16|Int|Int32|UInt64|UInt32|UInt16|Index|Bool|ComplexFloat|ComplexDouble"
    r"|Float8_e4m3fn|Float8_e5m2|Float8_e8m0fnu|Float4_e2m1fn")

# one pass, left to right; the bracketed parts (a tensor's domain, an IterDomain's extent) are
# found by their opening and closed by ``_close`` (they nest: ``iS5{( ceilDiv(N, gridDim.z) )}``)
_OPENERS = re.compile(
    r"(?P<quote>\"[^\"]*\")"
    r"|(?P<tensor>(?<![\w?])T\?_[a-z]_\w+)"
    r"|(?P<iterdomain>(?<![\w?])[a-z][A-Za-z.]*\??\{)"
    rf"|(?P<value>(?<!\w)(?:{_DTYPES})\((?:-?inf|-?nan|-?N|true|false)\))"
    rf"|(?P<dtype>(?<!\w)(?:{_DTYPES})(?![\w(<]))"
    r"|(?P<contiguity>(?<=contiguity: )[tnf?](?:,\s*[tnf?])*)"
    r"|(?P<parallel>\((?:\s*(?:blockIdx|threadIdx)\.[xyz]\s*)+\))"
    r"|(?P<position>\binput N, )"
)
_POSITIONS = re.compile(r"\s*(?:(?:ca_pos|produce_pos|maybe_ca_pos|consumer_pos)\(N\)\s*)+")
_RUN = re.compile(r"(?<![\w?])(T\?|ID|V|D|C|N)(?:(?:,\s*|\s+)\1(?![\w?]))+")
#: a scalar Val's masked name (``i?`` an integer, ``d?`` a double, ``b?`` a bool): the letter is
#: the fusion's dtype, not the bug (``Non-TensorView outputs are not supported at this point: d?``)
_SCALAR = re.compile(r"(?<![\w?{])[a-z]\?(?![\w?{])")


def _close(text: str, i: int, opening: str, closing: str) -> int:
    """The index just past the bracket that closes the one at ``text[i - 1]`` (the end of the
    text when it is cut short, as a signature's 200 characters may be)."""
    depth = 1
    while i < len(text) and depth:
        c = text[i]
        if c == opening:
            depth += 1
        elif c == closing:
            depth -= 1
        i += 1
    return i


def template(text: str) -> str:
    """The template of one masked message line (see the module's docstring)."""
    out = []
    i = 0
    while True:
        m = _OPENERS.search(text, i)
        if m is None:
            out.append(text[i:])
            break
        out.append(text[i:m.start()])
        kind, end = m.lastgroup, m.end()
        if kind == "quote":
            out.append(m.group(0))
        elif kind == "tensor":
            if text.startswith("[", end):
                end = _close(text, end + 1, "[", "]")
            p = _POSITIONS.match(text, end)
            if p:
                end = p.end()
            out.append("T?")
        elif kind == "iterdomain":
            end = _close(text, end, "{", "}")
            if text.startswith("rf", end):
                end += 2
            out.append("ID")
        else:
            out.append({"value": "N", "dtype": "D", "contiguity": "C", "parallel": "(P)", "position": ""}[kind])
        i = end
    t = _SCALAR.sub("V", "".join(out))
    t = _RUN.sub(r"\1", t)
    t = re.sub(r"([\[(])\s+|\s+([\])])", lambda m: m.group(1) or m.group(2), t)
    return re.sub(r"\s+", " ", t).strip()


# ---------------------------------------------------------------------------------------------
# twin sites

#: (functions, the site's name for all of them, rewrites of the message) — one bug each
TWINS: tuple[tuple[frozenset[str], str, tuple[tuple[str, str], ...]], ...] = (
    # ops/utils.cpp (NVF_CHECK "Could not generate a min op for tensor with type: ") and codegen.cpp
    # (NVF_THROW "Unexpected type: "): a max reduction (or clamp) asks for the minimum of its
    # dtype, a min reduction for the maximum; neither knows nvFuser's Index type (read in the
    # nvFuser source; the 2026-12 campaign hit both on ``nvfuser_index_t``)
    (frozenset({"getMinimumValue", "getMaximumValue"}), "getMinimumValue|getMaximumValue",
     ((r"\b(?:min|max) op\b", "min|max op"),)),
    # device_lower/analysis/sync_information.cpp: one check (a producer read across a parallel dim
    # must be in memory the consumer's threads can see) raised by two NVF_ERRORs, one for block
    # dims ("in Global Memory") and one for thread dims ("in Global, Shared or Tensor Memory");
    # which one a fusion meets is how its scheduler parallelized it (var_mean over a broadcast dim
    # meets both)
    (frozenset({"SyncMap"}), "SyncMap",
     ((r"Producer is required to be in Global(?:, Shared or Tensor)? Memory",
       "Producer is required to be in Global[, Shared or Tensor] Memory"),)),
)


def twin(func: str | None, message: str) -> tuple[str | None, str]:
    """The site name and message of a twin pair, or both unchanged."""
    for funcs, name, rewrites in TWINS:
        if func in funcs:
            for pat, repl in rewrites:
                message = re.sub(pat, repl, message)
            return name, message
    return func, message


# ---------------------------------------------------------------------------------------------
# the root cause of a failed run

_SIGNATURE = re.compile(r"^nvfuser (?P<kind>[\w-]+): (?:(?P<file>[^\s:]+):(?P<func>[^\s:]+): )?"
                        r"(?P<exc>\w+): (?P<msg>.*)$", re.S)


def split_signature(sig: str) -> dict | None:
    """The parts of an nvFuser signature (``nvfuser <kind>: <file>:<func>: <Exc>: <message>``),
    or None for another text (a crash, a timeout, fmin's own)."""
    m = _SIGNATURE.match(sig or "")
    return m.groupdict() if m else None


def rootcause(signature: str, message: str | None = None) -> str:
    """``nvfuser <kind>: <file>:<func>: <Exc>: <template>``: the signature with its message
    made a template and twin sites named as one. The signature says where (it was made from the
    whole error text); the message (``Outcome.message``: the text's first 6000 characters) gives
    the line uncut where it agrees with the signature's 200 characters — an NVRTC log can push
    the line past what the message keeps, and then the signature's own line is used."""
    parts = split_signature(signature)
    if parts is None:
        return signature
    line = parts["msg"]
    if message:
        exc, _, text = message.partition(": ")
        whole = mask(parse_error(exc, text).message)
        if whole[:len(line)] == line and len(whole) > len(line):
            line = whole
    func, line = twin(parts["func"], template(line))
    kind = site_kind(parts["kind"], line)
    if kind == "compile" and reduced_precision_functions(message):
        line = REDUCED_PRECISION
    elif kind == "internal-assert" and _BARE.match(line):
        line = BARE_ASSERT
    where = f"{parts['file']}:{func}: " if parts["file"] else ""
    return f"nvfuser {kind}: {where}{parts['exc']}: {line[:TEMPLATE_CHARS]}"


# ---------------------------------------------------------------------------------------------
# fmin's label of a validation site

#: the labels fmin gives one validation site by whether the tensor it names is a fusion input
_VALIDATION_LABELS = ("input-mismatch", "internal-assert")
_VALIDATIONS = tuple(re.compile(k.pattern) for k in KNOWN_USER_ERRORS if k.kind == "input-mismatch")


def site_kind(kind: str, line: str) -> str:
    """``validation`` for an nvFuser input validation whichever label fmin gave it, else ``kind``."""
    if kind in _VALIDATION_LABELS and any(p.search(line) for p in _VALIDATIONS):
        return "validation"
    return kind


# ---------------------------------------------------------------------------------------------
# the reduced-precision NVRTC family

#: the template of every member of the family (what the root cause says instead of the first error)
REDUCED_PRECISION = ("CUDA NVRTC compile error: a Half/BFloat16 operand reaches a function or operator "
                     "without a reduced-precision overload")
_NVRTC_ERROR = re.compile(r"\(\d+\): error: (?:no instance of overloaded function \"(?P<f>[^\"]+)\" matches the argument list"
                          r"|more than one instance of overloaded function \"(?P<a>[^\"]+)\" matches the argument list"
                          r"|no operator \"(?P<o>[^\"]+)\" matches these operands"
                          r"|no suitable conversion function from \"(?P<cf>[^\"]+)\" to \"(?P<ct>[^\"]+)\" exists|(?P<other>.*))")
_TYPES = re.compile(r"^\s*(?:argument|operand) types are:(?P<types>.*)$")
#: ``__half``/``__bfloat16`` and their ``__nv_`` spellings (an ambiguous overload's types read
#: ``(const __nv_bfloat16, const __nv_bfloat16)``: the operand converts to several float types)
_REDUCED = re.compile(r"__(?:nv_)?(?:half|bfloat)")
#: how far below an error line its ``argument types are:`` line may be (an ambiguous overload
#: lists its candidates in between)
_TYPES_WITHIN = 24


def reduced_precision_functions(message: str | None) -> list[str]:
    """The functions and operators (``ceil``, ``nvf::relu``, ``*``, a cast ``(float)`` the type has no
    conversion for) an NVRTC log says have no overload for the Half/BFloat16 operands they were
    given, each once, in the log's order; []
    unless the log's first error is one of them (then the failure is the family's)."""
    if not message or "NVRTC" not in message:
        return []
    lines = message.splitlines()
    found: list[str] = []
    for i, ln in enumerate(lines):
        m = _NVRTC_ERROR.search(ln)
        if m is None:
            continue
        if m.group("cf"):   # a cast the type lacks (``(float) x`` of an ``nvf::__bfloat``): its types are on the line
            name, types = f"({m.group('ct')})", m.group("cf")
        else:
            t = _types_below(lines, i)
            name, types = m.group("f") or m.group("a") or m.group("o"), t.group("types") if t else None
        if name is None or types is None or not _REDUCED.search(types):
            if not found:   # the first error is another one: not the family
                return []
            continue
        if name not in found:
            found.append(name)
    return found


def _types_below(lines: list[str], i: int):
    """The ``argument types are:`` match of the error at line ``i`` (None where the error's block,
    up to its source line or a blank line, has none)."""
    for ln in lines[i + 1:i + 1 + _TYPES_WITHIN]:
        t = _TYPES.match(ln)
        if t is not None:
            return t
        if not ln.strip() or _NVRTC_ERROR.search(ln):
            return None
    return None


def particulars(signature: str, message: str | None) -> dict:
    """What a row lists besides its root cause: for the reduced-precision family the functions
    the fusion's operands met (``{"functions": [...]}``), for a bare assertion its condition
    (``{"conditions": [...]}``), else nothing."""
    parts = split_signature(signature)
    if parts is None:
        return {}
    if parts["kind"] == "internal-assert":
        m = _BARE.match(template(parts["msg"]))
        return {"conditions": [m.group(1)]} if m else {}
    if parts["kind"] != "compile":
        return {}
    found = reduced_precision_functions(message)
    return {"functions": found} if found else {}


# ---------------------------------------------------------------------------------------------
# bare assertions

#: an ``NVF_ERROR(cond)`` with no message of its own: nvFuser prints only ``Expected <cond> .``
_BARE = re.compile(r"^Expected (.+?) \.$")
#: what the root cause says for any bare assertion of one function: which of a function's
#: preconditions its caller broke is a detail of one fix (ClusterFuzz's crash state is the
#: frames, not the line) — ``RepeatOp``'s "not expanded" and "extent one" are the two checks of
#: one translation (a ``cat`` of one tensor with itself made a repeat of a broadcast dim)
BARE_ASSERT = "an assertion without a message failed"
