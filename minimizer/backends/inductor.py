"""The ``inductor`` backend: the same fusion compiled by ``torch.compile`` (Inductor).

A real fusion compiler on any machine: C++/OpenMP kernels on the CPU in CI, Triton on a GPU. The
script runs unchanged against fmin's own ``FusionDefinition``; at ``execute`` the recorded
statements are first checked by the reference interpreter on ``meta`` tensors (so input errors
read exactly as on the reference backend), then turned into the source of a fresh Python
function of the catalog's torch references, which is compiled with ``fullgraph=True``,
``dynamic=False`` and every cache off, after ``torch._dynamo.reset()`` — nothing compiled for one
candidate can answer for the next.

Kernels are counted after fusion with Inductor's ``_post_fusion_custom_pass`` hook: every
scheduler node that is neither a no-op nor an extern call is one kernel
(``metrics.generated_kernel_count`` counts vectorised/tail variants on the CPU and is wrong there).
Failures are classified: lowering failure, codegen/compile failure, environment problem (never a
compiler bug), graph break in fmin's own translation (a bug of ours).
"""
from __future__ import annotations

import math
import os
import re
import time
from typing import Any

import torch

from ..ops import CATALOG, Ctx, literal_value
from ..program.interpret import FusionError, run as interpret
from ..segments import Edge, Segment, SegmentGraph
from ..model import Ref
from . import reference
from .base import Backend, Facts, Policy, RunOptions, Runner, cuda_usable, register
from .decisions import count_bucket
from .runner import generic_classify, run_with_modules

_last: dict = {}
_options: list = [RunOptions()]   # the running request's options (``eager``, ``inductor_config``)


# ---- translation: statements -> Python source of one function ----
def _pyname(name: str) -> str:
    return "v_" + name


def _expr(v: Any) -> str:
    if isinstance(v, Ref):
        return _pyname(v.name)
    if isinstance(v, float) and not math.isfinite(v):
        return f"float({str(v)!r})"
    if isinstance(v, tuple):
        return "(" + "".join(_expr(x) + ", " for x in v) + ")"
    if hasattr(v, "name") and type(v).__name__ == "DType":
        return repr(v.name)
    return repr(v)


def _host_value(v) -> bool:
    """Scalars and size vectors: host values, not tensors."""
    if isinstance(v, tuple):
        return all(_host_value(x) for x in v)
    return isinstance(v, (bool, int, float, complex))


def translate(stmts, frontend: str, narrowed: dict[int, dict[str, list[int]]], values=None,
              owners: list[int] | None = None):
    """Source of ``fusion(*inputs)``, returning (outputs, aliased outputs). ``owners``, when
    given, receives for each line of the function body the index of the statement it comes from
    (the kernels' FX origins point at those lines: that is how a kernel knows its statements).

    Statements computing only host values (scalar arithmetic, ``size``/``shape`` queries) are
    emitted as the constants the static run found: the compile specialises on scalars anyway
    (``dynamic=False``), and Dynamo cannot trace a torch op that returns a Python number."""
    lines, args = [], []
    k = 0
    outs, aliases = [], []
    starts: list[int] = []       # starts[i]: the first body line of statement i
    for i, s in enumerate(stmts):
        starts.append(len(lines))
        if s.is_tensor_decl or (s.is_scalar_def and s.arg("value") is None):
            a = f"i{k}"
            k += 1
            args.append(a)
            lines.append(f"{_pyname(s.outs[0])} = {a}")
        elif s.is_scalar_def:
            lines.append(f"{_pyname(s.outs[0])} = {_expr(s.arg('value'))}")
        elif s.is_vector_def:
            vals = s.arg("values")
            if isinstance(vals, int):
                names = [f"i{k + j}" for j in range(vals)]
                k += vals
                args.extend(names)
                lines.append(f"{_pyname(s.outs[0])} = (" + "".join(n + ", " for n in names) + ")")
            else:
                lines.append(f"{_pyname(s.outs[0])} = {_expr(vals)}")
        elif s.is_output:
            if s.arg("alias_input") is not None:
                aliases.append((_expr(s.arg("alias_input")), _expr(s.arg("output"))))
            else:
                outs.append(_expr(s.arg("output")))
        elif values is not None and i < len(values) and s.outs and all(
                n is None or (n in values[i] and _host_value(values[i][n])) for n in s.outs):
            for n in s.outs:
                if n is not None:
                    lines.append(f"{_pyname(n)} = {_expr(values[i][n])}")
        else:
            spec = CATALOG[s.call]
            given = dict(s.args)
            parts = []
            for p in spec.params_for(frontend):
                if p.name in given:
                    v = given[p.name]
                    e = _expr(literal_value(p, v, v, frontend))   # a Python bool is Int64 (direct)
                    for d in narrowed.get(i, {}).get(p.name, []):
                        e = f"{e}.narrow({d}, 0, 1)"
                    parts.append(f"{p.name}={e}")
                elif not p.required:
                    parts.append(f"{p.name}={p.default!r}")
            call = f"R[{s.call!r}](CTX, {', '.join(parts)})"
            targets = ", ".join(_pyname(n) if n else "_" for n in s.outs) if s.outs else "_"
            if spec.n_outputs > 1 and len(s.outs) == 1:
                targets += ","
            lines.append(f"{targets} = {call}")
    ret = "return (" + "".join(o + ", " for o in outs) + "), (" + "".join(f"({a}, {b}), " for a, b in aliases) + ")"
    src = f"def fusion({', '.join(args)}):\n" + "".join("    " + l + "\n" for l in lines) + "    " + ret + "\n"
    if owners is not None:
        owners[:] = [max(i for i, first in enumerate(starts) if first <= j) for j in range(len(lines))]
    return src


_LINE = re.compile(r'File "<fmin-inductor-fusion>", line (\d+)')


def _names(deps) -> list[str]:
    try:
        return sorted({d.name for d in deps})
    except Exception:
        return []


def _origin_lines(n) -> list[int]:
    """The generated source's lines the node's FX origins come from (1-based)."""
    out = set()
    for sn in getattr(n, "snodes", None) or [n]:
        for o in getattr(getattr(sn, "node", None), "origins", None) or ():
            st = (getattr(o, "meta", None) or {}).get("stack_trace") or ""
            out.update(int(m) for m in _LINE.findall(st))
    return sorted(out)


def _count_hook(record: dict):
    """Inductor's post-fusion pass: every scheduler node that is neither a no-op nor an extern
    call is one kernel; each node's buffers read and written and the source lines of its FX
    origins make the segment graph."""
    def hook(nodes):
        kinds, extern, nodes_info = [], 0, []
        for n in nodes:
            t = type(n).__name__
            if "Nop" in t:
                continue
            rw = getattr(n, "read_writes", None)
            info = {"reads": _names(rw.reads) if rw is not None else [],
                    "writes": _names(rw.writes) if rw is not None else [], "lines": _origin_lines(n)}
            if "Extern" in t:
                extern += 1
                nodes_info.append({**info, "kind": "extern"})
                continue
            try:
                red = bool(n.is_reduction())
            except Exception:
                red = False
            kinds.append("reduction" if red else "pointwise")
            nodes_info.append({**info, "kind": kinds[-1]})
        record.setdefault("graphs", []).append({"kernels": kinds, "extern": extern, "nodes": nodes_info})
        return nodes
    return hook


def segment_graph(nodes: list[dict], stmts, owners: list[int]) -> SegmentGraph:
    """Kernels (and extern calls, as non-kernel segments) with the statements they compute and
    the buffers between them: an edge wherever one node writes a buffer another reads."""
    segs, writer, made, used = [], {}, [], []
    for k, nd in enumerate(nodes):
        idx = [i for i in sorted({owners[ln - 2] for ln in nd["lines"] if 0 <= ln - 2 < len(owners)})
               if i >= 0 and stmts[i].is_op]
        made.append([n for i in idx for n in stmts[i].outs if n])
        used.append({n for i in idx for n in stmts[i].uses()})
        segs.append(Segment(nd["kind"], nd["kind"] != "extern", tuple(nd["reads"]), tuple(nd["writes"]),
                            tuple(_stmt_words(stmts[i]) for i in idx)))
        for b in nd["writes"]:
            writer[b] = k
    edges = []
    for k, nd in enumerate(nodes):
        for b in nd["reads"]:
            if b in writer and writer[b] != k:
                p = writer[b]   # name the buffer by the script value that crosses, where one does
                crossing = [n for n in made[p] if n in used[k]]
                edges.append(Edge(p, k, crossing[-1] if crossing else b))
    return SegmentGraph(tuple(segs), tuple(edges))


def _stmt_words(s) -> str:
    """``T3 = mul(T1, T2)``: a statement in a few words, in the script's own names."""
    def v(x):
        if isinstance(x, tuple):
            return "[" + ", ".join(v(y) for y in x) + "]"
        return repr(x)
    args = ", ".join(v(val) if i < max(s.npos, 1) else f"{k}={v(val)}" for i, (k, val) in enumerate(s.args)
                     if not (isinstance(val, tuple) and len(val) > 6))
    outs = ", ".join(n or "_" for n in s.outs)
    return (f"{outs} = " if outs else "") + f"{s.op}({args})"


def compile_and_run(stmts, inputs, frontend, device) -> list:
    """The executor behind fmin's FusionDefinition when the backend is inductor. A definition is
    compiled once (a fresh compile each new definition); executing it again reuses that compile,
    which is what warm timing needs."""
    import torch._dynamo
    import torch._inductor.config as cfg
    if _last.get("stmts") is stmts and "compiled" in _last:
        outs, aliases = _last["compiled"](*inputs)
        for dst, src_t in aliases:
            dst.copy_(src_t)
        return list(outs)
    meta_inputs = [torch.empty_strided(x.shape, x.stride(), dtype=x.dtype, device="meta")
                   if isinstance(x, torch.Tensor) else x for x in inputs]
    checked = interpret(stmts, meta_inputs, frontend=frontend, ctx=Ctx(device="meta", frontend=frontend),
                        keep_values=True)
    owners: list[int] = []
    src = translate(stmts, frontend, checked.narrowed, checked.values, owners)
    g = {"R": {k: v.ref for k, v in CATALOG.items() if v.ref is not None},
         "CTX": Ctx(device=device, generator=None, frontend=frontend), "torch": torch}
    exec(compile(src, "<fmin-inductor-fusion>", "exec"), g)
    fn = g["fusion"]
    opts = _options[0]
    if opts.eager:
        # the translation run eagerly, no compile: when this agrees with the reference and the
        # compiled run does not, the difference is Inductor's, not our translation's (fuzz triage)
        outs, aliases = fn(*inputs)
        for dst, src_t in aliases:
            dst.copy_(src_t)
        return list(outs)
    torch._dynamo.reset()
    record: dict = {}
    _last.clear()
    _last["stmts"] = stmts
    _last["source"] = src
    _last["owners"] = owners
    _last["record"] = record
    compiled = torch.compile(fn, backend="inductor", fullgraph=True, dynamic=False)
    t0 = time.perf_counter()
    low_precision = any(isinstance(x, torch.Tensor) and x.dtype in (torch.float16, torch.bfloat16) for x in inputs)
    patch = {"_post_fusion_custom_pass": _count_hook(record), "fx_graph_cache": False,
             "force_disable_caches": True, **dict(opts.inductor_config)}
    if low_precision and hasattr(cfg, "emulate_precision_casts"):
        patch.setdefault("emulate_precision_casts", True)  # round like eager, not keep fp32 intermediates
    with cfg.patch(patch):
        outs, aliases = compiled(*inputs)
    _last["compiled"] = compiled
    _last["seconds"] = time.perf_counter() - t0
    for dst, src_t in aliases:
        dst.copy_(src_t)
    return list(outs)


def classify(error: BaseException) -> dict:
    if isinstance(error, FusionError):
        return reference.classify(error)
    chain, e = [], error
    while e is not None and len(chain) < 10:
        chain.append(e)
        e = getattr(e, "inner_exception", None) or e.__cause__ or e.__context__
    names = [type(x).__name__ for x in chain]
    d = generic_classify(chain[-1] if len(chain) > 1 else error)
    if "Unsupported" in names or "UserError" in names:
        kind = "fmin-translation"     # a graph break in our own translation: a bug of ours
    elif "LoweringException" in names or any(n.startswith("MissingOperator") for n in names):
        kind = "lowering"
    elif any(n in ("CppCompileError", "CUDACompileError") for n in names):
        kind = "codegen"
    elif any(n in ("InvalidCxxCompiler", "TritonMissing", "GPUTooOldForTriton") for n in names):
        kind = "environment"
    elif "FailOnRecompileLimitHit" in names:
        kind = "fmin-harness"
    elif any(n in ("InductorError", "BackendCompilerFailed") for n in names):
        kind = "compiler"
    else:
        kind = "runtime"
    d["error_kind"] = kind
    inner = chain[-1]
    d["signature"] = f"inductor {kind}: " + d["signature"]
    d["message"] = f"{type(error).__name__} -> {type(inner).__name__}: {str(inner)[:3000]}"
    return d


class InductorRunner(Runner):
    """fmin's ``FusionDefinition`` behind the script's nvFuser imports, each fusion translated to
    torch and compiled by ``torch.compile`` (``compile_and_run``)."""

    def __init__(self, facts):
        super().__init__(facts)
        self._modules: dict = {}

    def warm(self, device: str) -> dict:
        os.environ.setdefault("TORCHINDUCTOR_FORCE_DISABLE_CACHES", "1")
        import torch._inductor.config as cfg  # noqa: F401  (import cost paid once per worker)
        self._modules = reference.modules(executor=compile_and_run)
        info = {"backend": self.facts.name, "torch": torch.__version__, "device": device}
        try:
            import triton
            info["triton"] = triton.__version__
        except Exception:
            pass
        return info

    def decision_features(self, result: dict, log: str) -> list[str]:
        """Also how many library (extern) kernels the graph calls, bucketed."""
        extern = (result.get("environment") or {}).get("extern_kernels")
        return super().decision_features(result, log) + ([f"extern:{count_bucket(extern)}"] if extern else [])

    def run_script(self, text: str, path: str, device: str, options: RunOptions, values_path=None) -> dict:
        if not self._modules:
            self.warm(device)
        _last.clear()
        _options[0] = options

        def extra(result: dict) -> None:
            rec = _last.get("record")
            if rec and rec.get("graphs"):
                kinds = [k for gr in rec["graphs"] for k in gr["kernels"]]
                result["segments"] = len(kinds)
                result["schedulers"] = kinds
                nodes = [nd for gr in rec["graphs"] for nd in gr.get("nodes", ())]
                try:
                    result["graph"] = segment_graph(nodes, _last["stmts"], _last.get("owners", [])).to_json()
                except Exception:   # the graph is a view of the run; never let it fail the run
                    pass
                result.setdefault("environment", {})["extern_kernels"] = sum(gr["extern"] for gr in rec["graphs"])
            if "seconds" in _last:
                result["execute_seconds"] = _last["seconds"]

        classes = {m.FusionDefinition for m in self._modules.values()}
        return run_with_modules(text, path, dict(self._modules), classes, device, options, values_path, classify,
                                extra, classify_definition=reference.classify)


class InductorPolicy(Policy):
    def by_design(self, kind: str, differs: str | None, dtypes: frozenset[str]) -> str | None:
        """Inductor keeps Half/BFloat16 intermediates in float32 unless
        ``torch._inductor.config.emulate_precision_casts`` is set (off by default), so its values
        of a reduced-precision program differ from eager's op-by-op rounding by design."""
        if kind == "mismatch" and differs == "values" and dtypes & {"Half", "BFloat16"}:
            return ("Inductor computes Half/BFloat16 intermediates in float32 (emulate_precision_casts is off by "
                    "default): its rounding differs from eager's by design")
        return None


@register
class Inductor(Backend):
    facts = Facts(
        "inductor", summary="the same fusion compiled by torch.compile (C++ on the CPU, Triton on a GPU)",
        display_name="Inductor",
        auto_rank=1,                  # a real fusion compiler that runs on any machine with a C++ compiler
        worker_bytes=700 << 20,       # measured: a worker's maxrss after an empty script is ~0.6 GiB on a CPU
        warm_up="the first Inductor compile takes 20-60 s on a CPU",   # docs/benchmarks.md
        reports_segments=True,
        # a wrong result is fmin's when its translation, run without compiling, already shows it
        translation_only=RunOptions(eager=True))
    runner = InductorRunner
    policy = InductorPolicy()

    def available(self, device: str | None = None) -> bool:
        return self._missing(device) is None

    def classify_error(self, error: BaseException) -> dict:
        return classify(error)

    def unavailable_reason(self, device: str | None = None) -> str:
        return self._missing(device) or super().unavailable_reason(device)

    @staticmethod
    def _missing(device: str | None) -> str | None:
        """What this machine lacks for Inductor on ``device`` (None: nothing)."""
        import importlib.util
        import shutil
        if (device or "").startswith("cuda"):
            if not cuda_usable():
                return f"--device {device}: no CUDA device is visible (use --device cpu)"
            if importlib.util.find_spec("triton") is None:
                return "Triton is not installed (Inductor on a GPU compiles Triton kernels)"
            return None
        cxx = os.environ.get("CXX", "")
        if not any(shutil.which(c) for c in ([cxx.split()[0]] if cxx.strip() else ["g++", "c++", "clang++"])):
            return (f"no C++ compiler found ({cxx!r} from CXX)" if cxx else "no C++ compiler found (g++, c++, clang++)") \
                + ": Inductor on the CPU compiles C++; install one or set CXX"
        return None
