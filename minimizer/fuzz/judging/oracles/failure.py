"""The failure oracle: the backend errors, crashes or hangs on a program the generator made valid.

The reference backend then runs it too: if the reference also fails, the generator or the catalog
produced an invalid program, which is fmin's bug. A failure of the script or of the machine
(``oracle.triage``: no compiler, no Triton, out of memory) is never a finding. A metamorphic
variant that fails is judged here too (``variant_fails``).
"""
from __future__ import annotations

from ....backends import RunOptions
from ....model import Program
from ....oracle.outcome import Outcome
from ....oracle.pool import Request
from ....oracle.triage import category
from ..keys import failure_key, traits
from .base import Example, Finding, NotJudged, not_the_fusions, register

#: error kinds that mean "fmin's own code is wrong", whatever the backend
FMIN_KINDS = {"fmin-translation", "fmin-harness", "fmin-internal", "no-execute"}


@register("failure", order=0, judges_failures=True)
def judge(ex: Example) -> Finding | NotJudged:
    o = ex.outcome
    f = failure(o, ex.text, ex.path, ex.seed, ex.ref_pool, ex.backend, ex.program)
    return f if f is not None else NotJudged(f"{category(o)}: {o.signature}")


def failure(o: Outcome, text, path, seed, ref_pool, backend, program=None) -> Finding | None:
    """The finding of the failed run ``o`` of ``text`` (None: the failure is not the fusion's)."""
    if not_the_fusions(o):
        return None
    if backend != "reference":
        r = ref_pool.run(Request(text, path, RunOptions(seed=seed)))
        # the generator made something its own reference rejects; not where the reference fails
        # on values no rule defines (``Outcome.undefined``: torch raises on an integer division
        # by zero): the program is well formed, and the backend's failure is the backend's
        if not r.ok and not r.undefined:
            return Finding("failure", "fmin", failure_key("reference", r),
                           f"the generated program fails on the reference backend too: {r.signature}", {}, r,
                           traits=traits(program))
    return Finding("failure", failure_owner(backend, o, program, reference_took_inputs=backend != "reference"),
                   failure_key(backend, o),
                   f"{backend} {o.status}: {o.signature}", {}, o, traits=traits(program))


def failure_owner(backend: str, o, program: Program | None = None, reference_took_inputs: bool = False) -> str:
    """Whose a failure is: fmin's for the reference, for fmin's own error kinds, and for inputs
    that do not match the program's own definition (``user-input`` on a tensor known to be a
    fusion input, ``nvfuser_log.names_fusion_input``: the generator or a mutation wrote inputs its
    definition rejects — an expanded dim given a tensor that is not expanded); else the backend's.

    A validation that names no tensor could be about the inputs or about a tensor nvFuser made
    (an output allocated with a stride its own expanded dim forbids: d50635d251a7).
    ``reference_took_inputs``: fmin's reference ran the program, and its input check is nvFuser's
    own (``program.interpret.check_tensor_input``, after ``validateAllocationSizesAndStrides``), so
    these inputs match their definitions and such a validation is about nvFuser's tensors.
    ``o``: an ``Outcome`` or its stored JSON."""
    from ....backends.nvfuser_log import named_tensor, names_fusion_input
    get = o.get if isinstance(o, dict) else lambda k, d=None: getattr(o, k, d)
    kind = get("error_kind") or ""
    if backend == "reference" or kind in FMIN_KINDS:
        return "fmin"
    message = get("message")
    if reference_took_inputs and not named_tensor(message or ""):
        return backend
    if kind == "user-input" and program is not None and names_fusion_input(message, program):
        return "fmin"
    return backend


def variant_fails(kind: str, variant: Program, text: str, o2: Outcome, words: str, ex: Example) -> Finding | None:
    """A permutation or relayout whose program fails: that failure's finding (its key, its
    program), marked as needing the variant (``<kind>_dependent``)."""
    f = failure(o2, text, ex.path, ex.seed, ex.ref_pool, ex.backend, variant)
    if f is None:
        return None
    f.found_as, f.text, f.words = f"{kind}-dependent", text, words
    f.marks = {f"{kind}_dependent": True}
    return f
