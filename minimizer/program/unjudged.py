"""Programs whose output values are no evidence of a wrong result, with the reason: the one place
the mismatch oracle (``oracle/checks/mismatch.py``) asks before it compares any value.

Three kinds. Random ops (the catalog's ``random`` family, and an op tagged ``random_if_dropout``
whose ``dropout_p`` is not a constant 0): their values differ between backends by design. A flash
backward (``sdpfa_bwd``) fed a ``logsumexp`` and an ``output`` that are not outputs 1 and 0 of a
forward of the same query, key and value (same ``is_causal`` and ``scale``, no bias or mask): the
kernel's precondition is that ``logsumexp`` is the row logsumexp of the scores, so with any other
one ``exp(scores - logsumexp)`` may overflow and the result depends on the kernel's tiling (a huge
finite value in one kernel, an infinity in another). Such a program stays valid (nvFuser's own
tests feed the backward random tensors, comparing only against ATen's identical kernel); only the
value verdict goes, for every output, as for random ops: an output computed from such a value is no
evidence either. And an output that is (or is computed from) a flash forward's philox seed or
offset, which ATen leaves uninitialized when it does not drop out.
"""
from __future__ import annotations

from ..model import Program, Ref, Stmt, refs_in
from ..ops import CATALOG


def value_unjudged(prog: Program) -> list[str]:
    """Why ``prog``'s output values cannot be judged (empty: they can)."""
    why = []
    rnd = sorted({s.op for s in prog.op_stmts() if _family(s) == "random"} |
                 {f"{s.op} with dropout" for s in prog.op_stmts() if _drops_out(prog, s)})
    if rnd:
        why.append(f"uses random ops ({', '.join(rnd)}): values differ between backends by design")
    forwards = {s.outs[0]: s for s in prog.op_stmts() if s.op == "sdpfa_fwd" and s.outs and s.outs[0]}
    if any(s.op == "sdpfa_bwd" and not _consistent(s, forwards) for s in prog.op_stmts()):
        why.append("sdpfa_bwd is fed a logsumexp and output that are not its forward's (the flash "
                   "backward's precondition): its values depend on the kernel's tiling")
    if _returns_philox_state(prog):
        why.append("an output is sdpfa_fwd's philox seed or offset (or is computed from one): without dropout "
                   "ATen leaves them uninitialized, so their values are no evidence")
    return why


def _returns_philox_state(prog: Program) -> bool:
    """Whether a fusion output is, or is computed from, an ``sdpfa_fwd``'s philox seed or offset
    (its outputs 2 and 3). The flash forward only fills them when it drops out; otherwise they are
    whatever memory ATen allocated (the GPU mix of 2026-12-08 filed 765ec76aa63a and 68448b7cea42 for
    a seed of 4648488602120437910 against the reference's 0). A flash backward takes them, and
    ignores them without dropout."""
    tainted = {n for s in prog.op_stmts() if s.op == "sdpfa_fwd" for n in s.outs[2:4] if n}
    if not tainted:
        return False
    for s in prog.stmts:
        if s.is_op and s.op != "sdpfa_bwd" and any(r.name in tainted for _, v in s.args for r in refs_in(v)):
            tainted.update(n for n in s.outs if n)
        elif s.is_output and any(r.name in tainted for _, v in s.args for r in refs_in(v)):
            return True
    return False


def uses_attention(prog: Program) -> bool:
    """Whether ``prog`` calls a flash attention op (the catalog's ``attention`` family)."""
    return any(_family(s) == "attention" for s in prog.op_stmts())


def _drops_out(prog: Program, s: Stmt) -> bool:
    """Whether ``s`` is an op tagged ``random_if_dropout`` whose ``dropout_p`` may be nonzero: a
    nonzero number, or a scalar input (its value is the script's, not known here)."""
    if "random_if_dropout" not in getattr(CATALOG.get(s.call), "tags", ()):
        return False
    p = _forward_params(s)["dropout_p"]
    if isinstance(p, Ref):
        d = next((t for t in prog.stmts if p.name in t.outs), None)
        p = d.arg("value") if d is not None and d.is_scalar_def else p
        if p is None or isinstance(p, Ref):
            return True
    return bool(p)


def _family(s: Stmt) -> str:
    return getattr(CATALOG.get(s.call), "family", "")


def _name(v) -> str | None:
    return v.name if isinstance(v, Ref) else None


def _consistent(bwd: Stmt, forwards: dict[str, Stmt]) -> bool:
    """Whether ``bwd``'s output and logsumexp are outputs 0 and 1 of one ``sdpfa_fwd`` of its
    query, key and value, with its ``is_causal`` and ``scale`` and without a bias or mask."""
    fwd = forwards.get(_name(bwd.arg("output")))
    if fwd is None or len(fwd.outs) < 2 or fwd.outs[1] is None or fwd.outs[1] != _name(bwd.arg("logsumexp")):
        return False
    f = _forward_params(fwd)
    if f["bias"] is not None or f["mask"] is not None:
        return False
    same_qkv = all(_name(f[k]) is not None and _name(f[k]) == _name(bwd.arg(k)) for k in ("query", "key", "value"))
    causal = [False if v is None else v for v in (f["is_causal"], bwd.arg("is_causal"))]
    return same_qkv and causal[0] == causal[1] and f["scale"] == bwd.arg("scale")


def _forward_params(fwd: Stmt) -> dict:
    """The forward's parameters, read in the older positional layout (q, k, v, dropout_p,
    is_causal, scale) where the binder filed numbers under bias and mask (``ops/linalg``)."""
    p = {k: fwd.arg(k) for k in ("query", "key", "value", "bias", "mask", "dropout_p", "is_causal", "scale")}
    if not isinstance(p["bias"], (Ref, type(None))) or not isinstance(p["mask"], (Ref, type(None))):
        p.update(bias=None, mask=None, dropout_p=p["bias"], is_causal=p["mask"], scale=p["dropout_p"])
    return p
