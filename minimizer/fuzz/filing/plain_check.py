"""The few lines a wrong result's attachment ends with: the fusion in eager PyTorch and
``torch.testing.assert_close`` at fmin's tolerance, which a maintainer reads at a glance.

fmin's verdict on a wrong result (``oracle/checks/mismatch.py``, docs/mismatch.md) has two steps:
an output within the dtype tolerance of eager is right; one beyond it is wrong unless its error
against the float64 result is within what eager's own rounding costs. The attachment keeps only
the first step, with the same tolerances (``compare.tolerance``; exact for integers and bools), so
it never excuses an output fmin calls wrong: a filed bug fails it. The second step is where a
maintainer may ask "is this rounding?", so the message also states each floating output's largest
error against the float64 result next to eager's; fmin's full verdict stays in fmin (``fmin check
--mismatch``, named in the comment). An input the fusion writes in place (an aliased output) is
compared with what eager writes into its own copy of it.

The check is skipped inside fmin's own runs (``__fmin__`` in the script's globals): there fmin
judges the outputs itself and ``fmin check repro.min.py`` must see the fusion's outcome.
"""
from __future__ import annotations

import torch

from ...oracle.compare import tolerance
from ...program.torch_code import function_text, trace

#: the one function the check section defines; its name is what the standalone verdict reads
CHECK = "check_against_eager"


def dtypes_seen(program) -> list[torch.dtype]:
    """The floating dtypes of the program's inputs and outputs (what a tolerance is needed for)."""
    gm = trace(program)
    vals = [n.meta.get("val") for n in gm.graph.nodes if n.op == "placeholder"]
    out = next(n for n in gm.graph.nodes if n.op == "output")
    vals += [getattr(a, "meta", {}).get("val") for a in out.args[0]]
    seen = {v.dtype for v in vals if isinstance(v, torch.Tensor) and (v.is_floating_point() or v.is_complex())}
    return sorted(seen, key=str)


def tolerance_literal(dts) -> str:
    """``{torch.float32: (rtol, atol), ...}``: fmin's tolerance (``compare.tolerance``) of each."""
    return "{" + ", ".join(f"torch.{str(d).removeprefix('torch.')}: {tolerance(d)!r}" for d in dts) + "}"


CLONES = "[x.clone() if isinstance(x, torch.Tensor) else x for x in before]"
UPCAST = "[x.double() if isinstance(x, torch.Tensor) and x.is_floating_point() else x for x in before]"


def _wide(t: torch.Tensor) -> torch.Tensor:
    """``t`` in float64, a complex one as (real, imaginary) pairs (``double()`` would drop the
    imaginary part, and with it every difference there), NaN and infinities as numbers."""
    t = torch.view_as_real(t.to(torch.complex128)) if t.is_complex() else t.double()
    return t.nan_to_num(7.0, 8.0, 9.0)


def _same(a, b) -> bool:
    return isinstance(a, torch.Tensor) and isinstance(b, torch.Tensor) and a.shape == b.shape \
        and torch.equal(_wide(a), _wide(b))


def float64_form(program, eager: str, exact: str) -> str | None:
    """How the check gets the float64 result, or None where rounding cannot matter: eager's result,
    run here on the CPU on inputs of the declared shapes, equals the float64 one rounded back (a
    ``triu``, a ``cat``, a copy), so a float64 comparison would say nothing. ``"eager"``: eager's
    own function on float64 copies of the inputs gives the float64 result (no cast inside), so no
    second function is written; ``"function"``: ``exact_reference`` is needed. Where the
    functions cannot run here, the function is kept."""
    g: dict = {"torch": torch}
    try:
        exec(eager + exact, g)
        before = example_inputs(program)
        want = g["eager_reference"](*[a.clone() if isinstance(a, torch.Tensor) else a for a in before], device="cpu")
        x = g["exact_reference"](*[a.clone() if isinstance(a, torch.Tensor) else a for a in before], device="cpu")
        if all(_same(a, b.to(a.dtype)) for a, b in zip(want, x)) and len(want) == len(x):
            return None
        up = g["eager_reference"](*eval(UPCAST, {"torch": torch, "before": before}), device="cpu")
        return "eager" if len(up) == len(x) and all(_same(a, b) for a, b in zip(up, x)) else "function"
    except Exception:   # noqa: BLE001 - any failure here only keeps the float64 function
        return "function"


def example_inputs(program) -> list:
    """Inputs of the program's declared sizes, strides and dtypes, on the CPU, drawn with seed 0."""
    from ... import dtypes
    from ...model import TensorArg
    gen = torch.Generator().manual_seed(0)
    out = []
    for a in program.inputs:
        if not isinstance(a, TensorArg):
            out.append(a.value)
            continue
        dt = dtypes.to_torch(a.dtype)
        base = torch.randn(a.shape, generator=gen).mul(4).to(dt) if (dt.is_floating_point or dt.is_complex) \
            else torch.randint(-3, 4, a.shape, generator=gen).to(dt)
        out.append(torch.empty_strided(a.shape, a.strides, dtype=dt).copy_(base) if 0 not in a.strides
                   else base.as_strided(a.shape, a.strides))
    return out


def check_function(dts, form: str | None) -> list[str]:
    """``check_against_eager(outputs, inputs, before, device)`` as lines: each output, and each tensor
    input after the run, against ``eager_reference`` run on ``before`` (copies of the inputs taken
    before ``fd.execute``), with ``torch.testing.assert_close`` at fmin's tolerance of its dtype
    (exact for integers and bools). ``form`` (``float64_form``): how the float64 result the message
    quotes is computed, None for none."""
    f64 = (["        x = exact[k] if k is not None and what == 'values' and got.is_floating_point() and got.numel() else None",
            "        f64 = '' if x is None else f'; against float64 the largest error is {(got.double() - x).abs().max():.3g},"
            " eager\\'s {(w.double() - x).abs().max():.3g}'"]
           if form else [])
    return [
        f"def {CHECK}(outputs, inputs, before, device, tol={tolerance_literal(dts)}):",
        *([f"    exact = list({'exact_reference(*' + CLONES if form == 'function' else 'eager_reference(*' + UPCAST}, device=device))"]
          if form else []),
        "    want = list(eager_reference(*before, device=device))   # into `before` it writes what an aliased output writes",
        "    assert len(outputs) == len(want), f'wrong result (count): {len(outputs)} outputs, eager gives {len(want)}'",
        "    for name, k, got, w in [*((f'output {k}', k, g, w) for k, (g, w) in enumerate(zip(outputs, want))), *(",
        "            (f'input {k} after fd.execute', None, g, w) for k, (g, w) in enumerate(zip(inputs, before)) if isinstance(g, torch.Tensor))]:",
        "        what, (rtol, atol) = 'dtype' if got.dtype != w.dtype else 'shape' if got.shape != w.shape else 'values', tol.get(got.dtype, (0, 0))",
        *f64,
        "        torch.testing.assert_close(got, w, rtol=rtol, atol=atol, equal_nan=True, msg=lambda m: f'wrong result ({what}) in {name}: {m}"
        + ("{f64}" if form else "") + "')",
    ]


def section(program, out: str, ins: str, command: str, float64: bool = True) -> list[str]:
    """The check's lines, after ``out = fd.execute(ins)``; ``command``: fmin's full verdict on the
    script; ``float64`` False: no float64 comparison (an attachment over its length limit)."""
    eager = function_text(program, "eager_reference")
    dts = dtypes_seen(program)
    exact = function_text(program, "exact_reference", upcast=True) if dts else None
    form = float64_form(program, eager, exact) if exact and float64 else None
    head, *body = eager.splitlines()
    return [f"{head}   # added by fmin: the fusion in eager PyTorch, compared at fmin's tolerance; "
            f"fmin's full verdict: {command}", *body, *(exact.splitlines() if form == "function" else ()),
            *check_function(dts, form),
            "if not globals().get('__fmin__'):   # inside fmin's own runs fmin compares the outputs itself",
            f"    {CHECK}({out}, {ins}, {ins}_before, next((x.device for x in {ins} if isinstance(x, torch.Tensor)), 'cuda'))"]
