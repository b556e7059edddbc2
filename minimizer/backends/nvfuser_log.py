"""Read what real nvFuser prints: the ``NVFUSER_DUMP=segmented_fusion`` block and error texts.

Both formats are documented in ``docs/`` (nvfuser-interfaces §4 and §5) and tested against output
captured on a GPU with nvFuser 0.2.36 (``nvfuser_direct``) and 0.2.35 (legacy ``nvfuser``) in
``tests/data/nvfuser/logs-*``, plus synthetic texts of the older eras in
``tests/data/nvfuser/synthetic/``.

Signatures follow the rule that they must survive a rebuild and a rerun: kind, source file
(relative to ``csrc/``), function and the masked message (``signature.mask``). The line number is
only a hint (``NvfError.line``), since it moves between builds. The same failure gives the same
signature with and without parallel compilation: the parallel-compile wrapper is unwrapped first.

Kinds (``NvfError.kind``):

``input-mismatch``
    the inputs given to ``execute`` do not match the definition (dtype, extents, strides). A user
    error, even when nvFuser reports it as an INTERNAL ASSERT. See ``KNOWN_USER_ERRORS``. Only
    when the tensor it names is a fusion input (``FusionInputs``): the same validations run on
    the tensors one segment hands the next, and there a mismatch (a scan's output laid out
    otherwise than nvFuser's allocation pass decided) is nvFuser's own ``internal-assert``.
``definition``
    the definition itself misuses the API (``cat(manual_padding=True)`` of unpadded inputs, a
    reshape to a different element count, wrong argument types). A user error. See
    ``KNOWN_USER_ERRORS``.
``compile``
    ``CUDA NVRTC compile error`` of a generated kernel (a bug).
``cuda``
    a CUDA runtime error (``CUDA error: ...``, illegal memory access).
``internal-assert``
    any other ``INTERNAL ASSERT FAILED`` (NVF_ERROR), or an NVF_CHECK raised from scheduler,
    lowering or codegen code (a bug).
``user-check``
    any other NVF_CHECK (a user-facing check; no ``INTERNAL ASSERT`` in the text).
``other``
    anything else.
"""
from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass

from ..segments import Edge, Rejection, Segment, SegmentGraph
from .decisions import count_bucket, pow2_bucket
from .signature import first_line, mask

# ---------------------------------------------------------------------------------------------
# the segmented-fusion dump (§4.1)

_END = "} //Segmented_Fusion"
_BLOCK = "Segmented_Fusion{"
_DETAIL_GROUP = re.compile(r"^g\{(?:\((\w+)\))?$")
# a `groups:` line: `<scheduler>{1, 2, 5}` (0.2.10+, optionally ` (merged)`) or bare `g{1, 2, 3}` (up to 0.2.9)
_LIST_GROUP = re.compile(r"^(\w+)\{[\d,\s]*\}(?:\s*\(merged\))?$")


def segments_from_dump(text: str) -> list[str | None] | None:
    """Scheduler per segment from the LAST segmented-fusion block, or None if there is none.

    Counts the ``g{(<scheduler>)`` lines (just ``g{`` when the scheduler is None) between
    ``group details:`` and ``} //Segmented_Fusion``. A block without ``group details:`` falls back
    to the lines of its ``groups:`` list: ``<scheduler>{<expr ids>}`` (0.2.10+) or the bare
    ``g{<expr ids>}`` of builds up to 0.2.9, whose scheduler is then unknown (None).
    """
    end = text.rfind(_END)
    if end < 0:
        return None
    begin = text.rfind(_BLOCK, 0, end)
    block = text[begin if begin >= 0 else 0:end]
    lines = [line.strip() for line in block.splitlines()]
    if "group details:" in lines:
        details = lines[len(lines) - lines[::-1].index("group details:"):]
        out: list[str | None] = []
        for line in details:
            m = _DETAIL_GROUP.match(line)
            if m:
                out.append(m.group(1))
        return out
    if "groups:" in lines:
        out = []
        for line in lines[len(lines) - lines[::-1].index("groups:"):]:
            if line.startswith("edges:"):
                break
            m = _LIST_GROUP.match(line)
            if m:
                out.append(None if m.group(1) == "g" else m.group(1))
        return out
    return None


_EDGE = re.compile(r"^e\{\s*(.+?)\s*->\s*(.+?)\((.*)\)\s*\}$")
_EXPR_ID = re.compile(r"^\((\d+)\)$")


def _last_block(text: str) -> list[str] | None:
    end = text.rfind(_END)
    if end < 0:
        return None
    begin = text.rfind(_BLOCK, 0, end)
    return [line.rstrip() for line in text[begin if begin >= 0 else 0:end].splitlines()]


def segment_graph_from_dump(text: str, non_kernel: frozenset[str] = frozenset()) -> SegmentGraph | None:
    """The whole segment graph of the LAST segmented-fusion block: segments in the order of the
    ``groups:`` list (each with its scheduler, inputs, outputs and expressions from ``group
    details:``), edges from ``edges:`` (``e{ <group> -> <group>(<tensor>) }``, groups named as in
    the ``groups:`` list), and whether each segment is a kernel (its scheduler not in
    ``non_kernel``). None when the text has no block."""
    lines = _last_block(text)
    if lines is None:
        return None
    stripped = [ln.strip() for ln in lines]
    listed: list[str] = []          # "pointwise{2, 25}" as written in groups:
    edges_raw: list[tuple[str, str, str]] = []
    section = None
    for ln in stripped:
        if ln == "groups:":
            section = "groups"
            continue
        if ln == "edges:":
            section = "edges"
            continue
        if ln == "group details:":
            break
        if not ln:
            continue
        if section == "groups" and _LIST_GROUP.match(ln):
            listed.append(ln.replace(" (merged)", ""))
        elif section == "edges":
            m = _EDGE.match(ln)
            if m:
                edges_raw.append((m.group(1).replace(" (merged)", ""), m.group(2).replace(" (merged)", ""), m.group(3)))
    details = _group_details(stripped)
    # details carry their expr ids as "(N)" lines; the groups list names a group by those ids
    by_ids = {tuple(d["ids"]): d for d in details}
    segments = []
    for k, name in enumerate(listed):
        sched = name.split("{", 1)[0]
        ids = tuple(int(x) for x in re.findall(r"\d+", name.split("{", 1)[1])) if "{" in name else ()
        d = by_ids.get(tuple(sorted(ids))) or (details[k] if k < len(details) else {})
        sched = None if sched == "g" else sched
        segments.append(Segment(sched, (sched or "") not in non_kernel, tuple(d.get("inputs", ())),
                                tuple(d.get("outputs", ())), tuple(d.get("exprs", ())), d.get("group")))
    if not listed:   # a block without a groups list: the details alone
        for d in details:
            sched = d.get("scheduler")
            segments.append(Segment(sched, (sched or "") not in non_kernel, tuple(d["inputs"]), tuple(d["outputs"]),
                                    tuple(d["exprs"]), d.get("group")))
    index = {name: k for k, name in enumerate(listed)}
    edges = tuple(Edge(index[a], index[b], t) for a, b, t in edges_raw if a in index and b in index)
    return SegmentGraph(tuple(segments), edges)


#: reject reasons that say only "this scheduler is not for this kind of fusion" (measured on the
#: 0.2.36 segmenter log: the same lines for every union of a kind); what remains says why the
#: scheduler that could take the union did not (registers, persistent buffers, un-mapped
#: reductions, ...)
_GENERIC_REASONS = re.compile(
    r"must contain only a single expression|Expected only one expression|Expected the expression to be resharding|"
    r"reduction of non-zero elements is not supported|output has a concrete dimension|No matmul patterns|"
    r"No reduction op to schedule|No resize op to schedule|no support for reduction ops|"
    r"cannot find two mismatching inner most dimensions|doesn't match with reduction type|"
    r"No specific op for the greedy scheduler")
_REJECT = re.compile(r"^Scheduler _(\w+)_ \*\*\*rejected\*\*\* because : ?(.*)$")


def rejected_merges(text: str) -> list[tuple[frozenset[str], dict[str, str]]]:
    """The segmenter's rejected merges (``NVFUSER_DUMP=segmenter_logging``): for each
    ``**Segmenter** Considering fusion:`` block that ends without ``***Accepted***``, the tensors
    its expressions define and, per scheduler, the reason it gave (masked, one line), generic
    reasons left out."""
    out = []
    blocks = text.split("**Segmenter** Considering fusion:")[1:]
    for b in blocks:
        b = re.split(r"\*\*\*Runtime\*\*\*|Segmented_Fusion Dump", b)[0]
        if "***Accepted***" in b:
            continue
        head = b.split("Scheduler _", 1)[0]
        names = frozenset(re.findall(r"^(T\d+)_[a-z]_", head, re.M))
        reasons: dict[str, str] = {}
        lines = b.splitlines()
        if not any(_REJECT.match(ln.strip()) for ln in lines):
            # no scheduler was even asked: the merge crosses a segment_set (SegmenterSet) boundary
            reasons[""] = ("no scheduler was asked: a segment_set separates them (one in the script, or one "
                           "nvFuser inserts, e.g. before an output written in place)")
        for k, ln in enumerate(lines):
            m = _REJECT.match(ln.strip())
            if not m:
                continue
            why = m.group(2).strip() or next((x.strip() for x in lines[k + 1:k + 2] if x.strip()), "")
            if _GENERIC_REASONS.search(why):
                continue
            reasons[m.group(1)] = mask(short_expr(why))[:_MESSAGE_CHARS]
        if names:
            out.append((names, reasons))
    return out


def reason_words(reasons: dict[str, str]) -> str:
    """``inner_persistent: not enough registers ...; reduction: need persistent buffers ...``, one
    entry per distinct reason (schedulers that gave the same one named together, or counted when
    there are many), in a stable order."""
    if "" in reasons:
        return reasons[""]
    by: dict[str, list[str]] = {}
    for sched, why in sorted(reasons.items()):
        by.setdefault(why, []).append(sched)
    parts = []
    for why, scheds in sorted(by.items(), key=lambda kv: (kv[1][0], kv[0])):
        who = ", ".join(scheds) if len(scheds) <= 3 else f"every scheduler ({len(scheds)})"
        parts.append(f"{who}: {why}")
    return "; ".join(parts)


def _defined(expr: str) -> str | None:
    m = re.match(r"^(T\d+) =", expr)
    return m.group(1) if m else None


def attach_rejections(graph: SegmentGraph, text: str) -> SegmentGraph:
    """The graph with, for each kernel boundary, why nvFuser did not merge its two kernels: the
    last rejected merge whose union holds expressions of both (its informative reasons)."""
    merges = rejected_merges(text)
    if not merges:
        return graph
    found = []
    for b in graph.boundary_pairs():
        p, c = graph.segments[b[0]], graph.segments[b[1]]
        pn = {n for n in map(_defined, p.exprs) if n}
        cn = {n for n in map(_defined, c.exprs) if n}
        hit = [r for names, r in merges if names & pn and names & cn and r]
        if hit:
            found.append(Rejection(b[0], b[1], reason_words(hit[-1])))
    return dataclasses.replace(graph, rejections=tuple(found))


def _group_details(lines: list[str]) -> list[dict]:
    """Each ``g{(<scheduler>)`` ... ``}`` of ``group details:``: scheduler, group id, inputs,
    outputs, expressions (one short line each) and their ids."""
    if "group details:" not in lines:
        return []
    out: list[dict] = []
    cur = None
    part = None
    expr: list[str] = []
    for ln in lines[lines.index("group details:") + 1:]:
        m = _DETAIL_GROUP.match(ln)
        if m:
            cur = {"scheduler": m.group(1), "group": None, "inputs": [], "outputs": [], "exprs": [], "ids": []}
            out.append(cur)
            part, expr = None, []
            continue
        if cur is None:
            continue
        if ln == "}":
            cur["ids"].sort()
            cur = None
            continue
        if ln.startswith("group id:"):
            cur["group"] = ln.split(":", 1)[1].strip()
        elif ln in ("inputs:", "outputs:"):
            part = ln[:-1]
        elif _EXPR_ID.match(ln):
            cur["ids"].append(int(_EXPR_ID.match(ln).group(1)))
            if expr:
                cur["exprs"].append(short_expr(" ".join(expr)))
            expr, part = [], "exprs"
        elif not ln:
            if part in ("inputs", "outputs"):
                part = "exprs"
        elif part in ("inputs", "outputs"):
            cur[part].append(ln.rsplit(" ", 1)[0] if re.search(r"\] \w+$", ln) else ln)
        else:
            expr.append(ln)
    return out


def short_expr(text: str) -> str:
    """One of nvFuser's printed expressions in a few words: tensor domains and memory-type/dtype
    suffixes dropped (``T4_l_float[iS8{64}, ...] = T0_g_float[...] - T2_l_float[...];`` ->
    ``T4 = T0 - T2``), the attribute list of a reduction kept to its op."""
    t = re.sub(r"(T\d+)_[a-z]_[\w]+?\[[^\]]*\]", r"\1", text)
    t = re.sub(r"\s+", " ", t).strip().rstrip(";")
    t = re.sub(r", initial value = (?:\w+\([^)]*\)|[^,)]+)", "", t)
    t = re.sub(r", allreduce = \w+", "", t)
    return t.replace("( ", "(").replace(" )", ")")


# ---------------------------------------------------------------------------------------------
# the heuristic parameters (``NVFUSER_DUMP=scheduler_params``)

#: a parameter block's first line, ``===== Pointwise Parameters ========`` (the greedy
#: scheduler's has more ``=`` before its name); it ends at a line of ``=`` alone
_PARAMS_HEAD = re.compile(r"^=+ ([A-Za-z ]+?) Parameters =+$")
_PARAMS_END = re.compile(r"^={20,}$")
#: printed between a 3D reduction heuristic nvFuser refuses and the 2D one it falls back to
_UNSUPPORTED_3D = "===== UNSUPPORTED REDUCTION HEURISTIC"


@dataclass(frozen=True)
class KernelParams:
    """The heuristic nvFuser picked for one kernel: its scheduler (named as ``segmented_fusion``
    names it) and the parameters that say which code path the scheduler took, as short words
    (``2d``, ``vec#4``, ``iter=blockIdx.x/threadIdx.y``). Launch sizes and counts that only
    follow the input's extents (grid and block sizes, persistent batches) are left out: with
    them every shape would read as a new decision."""
    scheduler: str
    params: tuple[str, ...]


def scheduler_params(text: str) -> list[KernelParams]:
    """Every parameter block of ``text`` in the order printed: one per heuristic nvFuser
    computed (a kernel's; the one computed while the segmenter tried the fusion un-segmented, the
    same again; a 3D reduction heuristic it refused before falling back to 2D). A block of a
    kind read here only by its name (greedy, matmul, the TMA schedulers) has no parameters."""
    out, block, head = [], None, ""
    for line in text.splitlines():
        line = line.strip()
        m = _PARAMS_HEAD.match(line)
        if m:
            block, head = [], m.group(1)
        elif block is not None and _PARAMS_END.match(line):
            out.append(_read_params(head, block))
            block = None
        elif block is not None:
            block.append(line)
    return out


def _read_params(head: str, lines: list[str]) -> KernelParams:
    tag = next((ln[len("Tag: "):] for ln in lines if ln.startswith("Tag: ")), "")
    if head == "Pointwise":
        return KernelParams("pointwise", _pointwise_params(lines, tag))
    if head == "Reduction":
        return _reduction_params(lines, tag)
    if head == "Transpose":
        return KernelParams("transpose", _transpose_params(lines))
    return KernelParams(re.sub(r"\W+", "_", head.lower()), ())


def _factor(lines: list[str], pattern: str) -> int | None:
    for ln in lines:
        m = re.match(pattern, ln)
        if m:
            return int(m.group(1))
    return None


def _pointwise_params(lines: list[str], tag: str) -> tuple[str, ...]:
    """1D or 2D (and the broadcast break point's position), the block split, the grid binding,
    the vectorization and unroll factors, TMA."""
    out = ["tma"] if "TMA" in tag else []
    bp = _factor(lines, r"Bcast break point: (\d+)")
    out.append(f"2d:bp#{count_bucket(bp)}" if bp else "1d")
    words = {"Split block into y-dim": "split_block", "Split y grid dim": "split_grid_y",
             "Flip BIDx/BIDy bindings": "flip_grid", "use_tma_load: true": "tma_load",
             "use_tma_store: true": "tma_store"}
    out += [w for ln, w in words.items() if ln in lines]
    for key, name in (("vectorization_factor", "vec"), ("unroll_factor_inner", "unroll_inner"),
                      ("unroll_factor_outer", "unroll_outer")):
        n = _factor(lines, key + r": (\d+)")
        if n is not None:
            out.append(f"{name}#{pow2_bucket(n)}")
    return tuple(out)


#: a reduction block's tag names the persistent scheduler that computed it; none: ``reduction``
#: (the inner-outer scheduler's warp-specialized TMA tag is read from nvFuser's source, the others
#: are in captured logs)
_REDUCTION_TAGS = (("InnerOuter", "inner_outer_persistent"), ("TMA Warp Specialized", "inner_outer_persistent"),
                   ("Inner Persistent", "inner_persistent"), ("Outer persistent", "outer_persistent"))


def _reduction_params(lines: list[str], tag: str) -> KernelParams:
    """Which dim is reduced (fastest or slow), persistence, 3D, circular buffering, and how each
    domain is parallelized (``iter=``, ``inner=``, ``outer=``: block/grid bindings, grid splits,
    vectorize, unroll; each domain's factor bucketed apart), the index type."""
    sched = next((s for key, s in _REDUCTION_TAGS if key in tag), "reduction")
    out = [f"variant:{_tag_word(tag)}"] if _tag_word(tag) else []
    words = {"Red On Fastest Dim": "fastest_dim", "Red On Slow Dim": "slow_dim", "Persistent Kernel": "persistent",
             "Project Persistent Buffers": "project_buffers", "3D Schedule": "3d",
             "computeWith persistent buffers": "compute_with"}
    out += [w for ln, w in words.items() if ln in lines]
    if any("CircularBufferOptions{" in ln for ln in lines):
        out.append("circular_buffer")
    for prefix, name in (("Iteration Domain:", "iter"), ("Inner Reduction Domain:", "inner"),
                         ("Outer Reduction:", "outer")):
        for ln in lines:
            i = ln.find(prefix)
            if i >= 0:
                out += _domain_words(name, ln[i + len(prefix):])
    index = next((m.group(1) for m in (re.search(r"index_type = (\w+)", ln) for ln in lines) if m), "NotSet")
    if index != "NotSet":   # the reduction scheduler leaves it to the executor
        out.append(f"index:{index}")
    return KernelParams(sched, tuple(out))


def _tag_word(tag: str) -> str:
    """``2D Register Inner Persistent Heuristic.`` -> ``2d_register``, ``InnerOuter Register and
    Shared Memory Persistent Heuristic.`` -> ``register_and_shared_memory``: the variant of a
    persistent scheduler (where its buffers live), without the words that name the scheduler."""
    words = [w for w in re.findall(r"\w+", tag.lower())
             if w not in {"inner", "outer", "innerouter", "persistent", "kernel", "heuristic", "heuristics"}]
    return "_".join(words)


def _domain_words(name: str, text: str) -> list[str]:
    """``blockIdx.x / split grid dimension outer / threadIdx.y / vectorize / factor 4`` ->
    ``iter=blockIdx.x/split_grid_outer/threadIdx.y/vectorize`` and ``iter_factor#4``: the
    parallelization path with the counts (``cross block - 128``, ``persistent batch - 5``) out,
    the unroll factor bucketed on its own."""
    parts, factor = [], None
    for part in (p.strip() for p in text.split("/")):
        if not part:
            continue
        m = re.match(r"factor (\d+)", part)
        if m:
            factor = int(m.group(1))
            continue
        part = re.sub(r" - (\d+)$", "", part)
        part = re.sub(r"\s*-\s*", ":", re.sub(r"split grid dim(ension)?", "split_grid", part)).replace(" ", "_")
        if part not in parts:   # a cross-grid split is printed twice ("split grid dim", "... dimension")
            parts.append(part)
    out = [f"{name}={'/'.join(parts) or 'serial'}"]
    if factor is not None:
        out.append(f"{name}_factor#{pow2_bucket(factor)}")
    return out


def _transpose_params(lines: list[str]) -> tuple[str, ...]:
    """The tile sizes, each group's vectorization and unroll factors, and whether a virtual
    innermost dim was built (splits, merges) for a small transposed dim."""
    out = []
    tiles = [_factor(lines, r"input tile size: (\d+)"), _factor(lines, r"output tile size: (\d+)")]
    if None not in tiles:
        out.append("tile#" + "x".join(pow2_bucket(t, 128) for t in tiles))
    for group in ("1", "2"):
        for verb, name in (("Vectorize", "vec"), ("Unroll", "unroll")):
            n = _factor(lines, rf"{verb} group {group}, Factor: (\d+)")
            out.append(f"{name}{group}#{pow2_bucket(n or 1)}")
    if any(ln.startswith("split(") for ln in lines):
        out.append("virtual_inner:split")
    out += [f"virtual_inner:merge{g}" for g in ("1", "2")
            if any(ln.startswith("merge ") and ln.endswith(f"with innermost{g}") for ln in lines)]
    return tuple(out)


def param_features(text: str) -> set[str]:
    """``param:<scheduler>:<parameter>`` for every parameter block of ``text``
    (``scheduler_params``; ``param:<kind>`` for a block read only by its name), and
    ``param:reduction:3d_refused`` where nvFuser refused a 3D reduction heuristic and fell back
    to 2D."""
    kernels = scheduler_params(text)
    out = {f"param:{k.scheduler}:{p}" for k in kernels for p in k.params}
    out |= {f"param:{k.scheduler}" for k in kernels if not k.params}
    if _UNSUPPORTED_3D in text:
        out.add("param:reduction:3d_refused")
    return out


# ---------------------------------------------------------------------------------------------
# error texts (§5)

@dataclass(frozen=True)
class KnownError:
    """A message nvFuser gives for a user error, whatever macro (NVF_ERROR/NVF_CHECK) raised it."""
    kind: str       # input-mismatch | definition
    pattern: str    # regular expression searched in the (unwrapped) error text
    evidence: str   # where it is seen: a captured log under tests/data/nvfuser/, or the doc


# Checked in order, before the internal-assert rule; the more specific entries come first. The
# matching line (its ``Expected <cond> .`` preamble stripped) becomes the message.
KNOWN_USER_ERRORS: tuple[KnownError, ...] = (
    # inputs that do not match the definition
    KnownError("input-mismatch", r"to be bound to a tensor of dtype",
               "logs-0.2.36/err_dtype_mismatch.log (INTERNAL ASSERT at runtime/executor_utils.cpp, bindInputs)"),
    KnownError("input-mismatch", r"to be an at::Tensor",
               "nvfuser-interfaces §5.3 (no probe log; synthetic/check-0.2.30.txt)"),
    KnownError("input-mismatch", r"stride mismatch with contiguity info",
               "logs-0.2.36/err_stride_mismatch.log (NVF_CHECK at tensor_metadata.cpp); on intermediates "
               "(nvFuser's) in findings-2026-12-03/0912db3db28a"),
    KnownError("input-mismatch", r"Expecting an expanded dimension",
               "NVF_CHECK in csrc/tensor_metadata.cpp: an input dim the definition expands has a "
               "non-zero stride (no probe log)"),
    KnownError("input-mismatch", r"has expanded extent but input tensor has size",
               "NVF_ERROR in expr_evaluator.cpp bindTensorDomain: a dim the definition expands given a tensor "
               "that does not expand it; on intermediates (nvFuser's) in findings-2026-12-03/96e967cbe1fa, "
               "findings-2026-12-03/cf9165b05c22; on an input: no probe log yet (probes-keys/err_expanded_input.py)"),
    KnownError("input-mismatch",
               r"When trying to propagate constant tensor sizes through the graph a conflict was found",
               "logs-0.2.36/err_extent_mismatch.log, err_matmul_shapes.log "
               "(INTERNAL ASSERT at expr_evaluator.cpp, handlePropagateError)"),
    KnownError("input-mismatch",
               r"When trying to run the provided host program, there was an error with the provided input",
               "logs-0.2.36/err_dtype_mismatch.log (the wrapper of any input-binding error)"),
    # misuse of the definition API
    KnownError("definition", r"Expected all inputs to be padded when manual_padding is True",
               "logs-0.2.36/err_memory_promotion_rope.log, slice_cat.log (INTERNAL ASSERT at ops/alias.cpp, cat)"),
    KnownError("definition", r"Total element counts across view operation must match",
               "logs-0.2.36/err_bad_reshape.log (INTERNAL ASSERT at transform_view.cpp)"),
    KnownError("definition", r"incompatible function arguments",
               "nvfuser-interfaces §5.1 (TypeError from pybind11)"),
)

#: a TensorView as nvFuser prints it: ``T12_g_float[...]`` (name, memory type, dtype)
_TENSOR = re.compile(r"(?<![\w?])(T\d+)_[a-z]_")


@dataclass(frozen=True)
class FusionInputs:
    """The names nvFuser gives a fusion's tensor inputs (``T0``, ``T1``, ...) and whether every
    tensor input is among them.

    nvFuser names TensorViews by a counter in creation order and keeps the names when it copies
    a fusion (``IrBuilder::clone`` sets the source's name: a segment's fusion says ``T7`` for the
    complete fusion's ``T7``); ``define_tensor`` creates one TensorView at once in
    ``nvfuser_direct`` and in the order recorded in the legacy frontend. So the k-th tensor
    defined before the first op is ``Tk``; an op creates an unknown number of TensorViews, so a
    tensor defined after one has an unknown name (``complete`` is then False)."""
    names: frozenset[str]
    complete: bool

    def names_input(self, tensor: str) -> bool | None:
        """Is ``tensor`` (``T3``) a fusion input? None when the names cannot tell."""
        if tensor in self.names:
            return True
        return False if self.complete else None


def fusion_inputs(program) -> FusionInputs:
    """``FusionInputs`` of a ``model.Program`` (see there)."""
    names, complete, ops = [], True, False
    for s in program.stmts:
        if s.is_op:
            ops = True
        elif s.call == "define_tensor":
            if ops:
                complete = False
            else:
                names.append(f"T{len(names)}")
    return FusionInputs(frozenset(names), complete)


def named_tensor(line: str) -> str | None:
    """The first TensorView an error line names (``T3``), or None."""
    m = _TENSOR.search(line)
    return m.group(1) if m else None


# NVF_CHECK failures raised from these places are compiler bugs, not user errors (§5.2)
_COMPILER_CODE = re.compile(
    r"^(?:scheduler/|device_lower/|id_model/|preseg_passes/|codegen\.cpp|index_compute\.cpp|"
    r"predicate_compute\.cpp|fusion_segmenter\.cpp|lower2device\.cpp|kernel_ir)")

_ASSERT = re.compile(r'INTERNAL ASSERT FAILED at "?(?P<file>[^":\s]+)"?:(?P<line>\d+)')
_RAISED = re.compile(r"Exception raised from (?P<func>\S+) at (?P<file>[^:\s]+):(?P<line>\d+)")
_REPORT = re.compile(r"^,?\s*please report a bug[^\n]*?(?:PyTorch|issues)\.")
_HEADER = re.compile(r"^.*?INTERNAL ASSERT FAILED at [^\n]*?please report a bug[^\n]*?(?:PyTorch|issues)\.")
_GROUP_ERR = "Error from segmentation group"
_PARALLEL = "Detected exception while compiling fusion segments in parallel."
_USE_DISABLE = "Use NVFUSER_DISABLE=parallel_compile"


@dataclass
class NvfError:
    kind: str            # input-mismatch | definition | internal-assert | compile | cuda | user-check | other
    file: str | None     # relative to csrc/ (or python/), else the basename
    func: str | None
    line: int | None     # a hint only; never part of the signature
    message: str         # the inner message (first meaningful line)
    signature: str
    group: int | None = None   # the segmentation group of a wrapped error
    hidden: bool = False       # the parallel-compile wrapper printed no inner error (rerun with
                               # NVFUSER_DISABLE=parallel_compile to see it)


def _rel(path: str | None) -> str | None:
    if not path:
        return None
    i = path.rfind("csrc/")
    if i >= 0:
        return path[i + 5:]
    i = path.rfind("/python/")
    if i >= 0:
        return path[i + 1:]
    return path.rsplit("/", 1)[-1]


def _unwrap(text: str) -> tuple[str, int | None]:
    """The inner error of the parallel-compile / segment-run wrappers (§5.3), and its group.

    Prefers the first inner error that is a real internal assert (not a known user error), then the
    first inner internal assert, then the first inner error.
    """
    if _GROUP_ERR not in text:
        return text, None
    inner: list[tuple[str, int | None]] = []
    for part in text.split(_GROUP_ERR)[1:]:
        m = re.match(r"\s*(\d+)\s*:\s?", part)
        group = int(m.group(1)) if m else None
        body = part[m.end():] if m else part
        body = body.split(_USE_DISABLE)[0]
        inner.append((body, group))
    asserts = [p for p in inner if "INTERNAL ASSERT FAILED" in p[0]]
    real = [p for p in asserts if _known(p[0]) is None]
    return (real or asserts or inner)[0]


def _known(text: str) -> tuple[KnownError, str] | None:
    for k in KNOWN_USER_ERRORS:
        m = re.search(k.pattern, text)
        if m:
            start = text.rfind("\n", 0, m.start()) + 1
            end = text.find("\n", m.end())
            line = text[start:end if end >= 0 else len(text)]
            line = _HEADER.sub("", line, count=1)  # up to 0.2.30 the message follows the header
            return k, _strip_expected(line.strip().strip('"').strip())
    return None


#: a signature keeps this much of the masked message
_MESSAGE_CHARS = 200

def parse_error(exc_type: str, text: str, inputs: FusionInputs | None = None) -> NvfError:
    """Turn an nvFuser exception text (``str(e)``) into a stable signature (nvfuser-interfaces §5.4).

    ``inputs``: the fusion's tensor inputs (``fusion_inputs``), which decide whose an input
    mismatch that names a tensor is; None (not known) leaves it the user's."""
    body, group = _unwrap(text)
    hidden = _PARALLEL in text and _GROUP_ERR not in text
    head = body.split("Exception raised from")[0]
    a = _ASSERT.search(head)
    r = _RAISED.search(body)
    func = r.group("func") if r else None
    if a:
        file, line = _rel(a.group("file")), int(a.group("line"))
        after = head[a.end():]
        after = _REPORT.sub("", after.lstrip(" ,"), count=1)
        msg = _strip_expected(after)
        if not msg:  # no message: the condition (printed before the marker up to 0.2.9) stands in
            msg = first_line(head[:a.start()]) or "INTERNAL ASSERT FAILED"
    else:
        file = _rel(r.group("file")) if r else None
        line = int(r.group("line")) if r else None
        msg = _strip_expected(head)

    known = _known(head)
    if known is not None:
        kind, msg = known[0].kind, known[1]
        if kind == "input-mismatch" and not user_tensor(msg, inputs):
            kind = "internal-assert"
    elif "CUDA NVRTC compile error" in head or "NVRTC error" in head:
        kind, msg = "compile", _compile_message(head)
    elif re.search(r"CUDA error|cudaError|illegal memory access", head):
        kind = "cuda"
        msg = next((ln.strip() for ln in head.splitlines() if re.search(r"CUDA error|cudaError|illegal memory", ln)), msg)
    elif a:
        kind = "internal-assert"
    elif r is not None:
        kind = "internal-assert" if file and _COMPILER_CODE.match(file) else "user-check"
    else:
        kind = "other"
    where = f"{file or '?'}:{func or '?'}: " if (file or func) else ""
    sig = f"nvfuser {kind}: {where}{exc_type}: {mask(msg)[:_MESSAGE_CHARS]}"
    return NvfError(kind, file, func, line, msg, sig, group, hidden)


def user_tensor(line: str, inputs: FusionInputs | None) -> bool:
    """Is an input mismatch reported on ``line`` the user's? Yes unless it names a tensor that
    ``inputs`` says is not a fusion input (an intermediate or an output: nvFuser's)."""
    tensor = named_tensor(line)
    return tensor is None or inputs is None or inputs.names_input(tensor) is not False


def names_fusion_input(message: str | None, program) -> bool:
    """Does an nvFuser input validation in ``message`` (an outcome's ``Exc: text``) name a tensor
    that is known to be one of ``program``'s fusion inputs (or no tensor at all: the inputs list
    itself)? False where the names cannot tell (a tensor defined after an op)."""
    if not message:
        return False
    exc, _, text = message.partition(": ")
    tensor = named_tensor(parse_error(exc, text).message)
    return tensor is None or fusion_inputs(program).names_input(tensor) is True


#: the generated kernel's file name, ``__tmp_nvfuser_<scheduler>_f0_c1_r0_g0.cu`` (after masking:
#: ``f?_c?_r?_g?``): which scheduler's kernel an op lands in is not part of the bug (the fuzz
#: campaigns bucketed one missing ``nvf::frac`` overload three times, in pointwise, no_op and
#: reduction kernels), so signatures name the file ``__tmp_nvfuser_*.cu``
_KERNEL_FILE = re.compile(r"__tmp_nvfuser_[a-z_]+?_f[\d?]+_c[\d?]+_r[\d?]+_g[\d?]+\.cu")


def kernel_neutral(text: str) -> str:
    return _KERNEL_FILE.sub("__tmp_nvfuser_*.cu", text)


_SIGNATURE = re.compile(r"^(nvfuser [\w-]+: (?:\S+:\S+: )?\w+: )(.*)$", re.S)


def refresh_signature(sig: str, message: str | None = None, inputs: FusionInputs | None = None) -> str:
    """A signature made by an older fmin, brought to today's rules: its message masked again
    (masking a masked message changes only what the rules added since, e.g. ``t29`` -> ``t?``),
    the kernel's file name made neutral, and an input mismatch on a tensor that ``inputs`` says
    is not a fusion input (read from ``message``, the outcome's text) made nvFuser's
    ``internal-assert``, an NVRTC error's line read again from the message (the log's first
    error, not a warning before it). For migrating a findings corpus."""
    m = _SIGNATURE.match(sig or "")
    if not m:
        return sig
    head, msg = m.group(1), m.group(2)
    if head.startswith("nvfuser input-mismatch: ") and message:
        exc, _, text = message.partition(": ")
        if not user_tensor(parse_error(exc, text).message, inputs):
            head = "nvfuser internal-assert: " + head[len("nvfuser input-mismatch: "):]
    if head.startswith("nvfuser compile: ") and message and "CUDA NVRTC compile error" in message:
        # the log's first error line, where an older fmin took a warning printed before it
        return head + mask(_compile_message(message))[:_MESSAGE_CHARS]
    if len(msg) >= _MESSAGE_CHARS:   # cut where today's masking would not cut it: leave it alone
        return head + msg
    return kernel_neutral(head + mask(msg) + msg[len(msg.rstrip()):])


_NVRTC_ERROR_LINE = re.compile(r"\berror\b")


def _compile_message(text: str) -> str:
    """``CUDA NVRTC compile error:`` plus the first ``error`` line of the NVRTC log (the generated
    kernel source printed before it is skipped), the kernel's file name made neutral."""
    i = text.find("CUDA NVRTC compile error")
    if i < 0:
        return kernel_neutral(first_line(text[text.find("NVRTC error"):]))
    log = text[i:].splitlines()
    marker, _, rest = log[0].strip().partition(":")
    # the first error line of the log (it may start on the marker's line), not a warning before it
    # (the CUDA headers' own ``warning #47-D: incompatible redefinition of macro`` comes first)
    first = next((ln.strip() for ln in [rest, *log[1:]] if _NVRTC_ERROR_LINE.search(ln)), rest.strip())
    return kernel_neutral(f"{marker}: {first}".strip())


def _strip_expected(text: str) -> str:
    """The first meaningful line without the ``Expected <cond> .`` preamble of 0.2.31+ builds."""
    lines = [ln.strip() for ln in text.strip().splitlines() if ln.strip()]
    if not lines:
        return ""
    line = lines[0]
    m = re.match(r"Expected (.*?) \. (.*)", line)
    if m and m.group(2).strip():
        return m.group(2).strip()
    return line
