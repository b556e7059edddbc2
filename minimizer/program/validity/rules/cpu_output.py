"""cpu-output: every output an op computes is computed from GPU data."""
from __future__ import annotations

from ....model import Ref, refs_in
from ..base import Rule, register, violation_at

#: where a value lives, as far as the program says
GPU, CPU = "gpu", "cpu"


def devices(program) -> dict[int, str | None]:
    """Statement index -> where its result lives: a CPU scalar input (``is_cpu=True``) on the CPU,
    another tensor input on the GPU, a scalar nowhere (None); an op's result on the GPU when it
    reads a GPU value or no tensor at all (``full``, ``iota``: nvFuser creates it on the GPU; a
    scalar op counted so too, which can only hide a violation, never make one), else on the CPU
    (it reads CPU scalar inputs and scalars only)."""
    where: dict[str, str | None] = {}
    out: dict[int, str | None] = {}
    for i, s in enumerate(program.stmts):
        if s.is_tensor_decl:
            d = CPU if s.arg("is_cpu") is True else GPU
        elif s.is_op:
            read = {where.get(r.name) for _, v in s.args for r in refs_in(v)}
            d = GPU if GPU in read or CPU not in read else CPU
        else:
            d = None
        out[i] = d
        for n in s.outs:
            if n is not None:
                where[n] = d
    return out


@register
class CpuOutput(Rule):
    name = "cpu-output"
    statement = ("an output an op computes reads GPU data: nvFuser takes CPU scalar tensors as operands beside "
                 "GPU tensors (test_cpu_add, test_full_with_cpu_inputs) and forwards one unchanged "
                 "(test_input_forwarding_device), but refuses to compute an output from CPU scalars alone "
                 "(test_single_segment_multi_device expects 'KernelExecutor does not support the Fusion provided'), "
                 "nor a segment's (a segment_set of CPU scalars alone)")
    order = 25
    #: a segment_set's result is its segment's output: computed from CPU scalars alone, it is refused
    #: as a fusion output is (12d4386258b8: "Expected T0 to be bound to a CUDA or meta tensor, but got a
    #: tensor on device cpu" for ``segment_set`` of a CPU scalar input)
    tags = frozenset({"fusion-output", "segment-output"})
    needs = frozenset({"definitions"})
    #: nvFuser refuses such a program itself, and its own test expects the refusal
    refused = "nvFuser refuses an output computed from CPU scalars alone (test_single_segment_multi_device expects it)"

    def judges(self, s) -> bool:
        """A returned output: a value written into an input is the alias rules' (``alias-cpu``)."""
        return s.arg("alias_input") is None

    def static(self, program, facts, at):
        where, defs = devices(program), facts["definitions"]
        out = []
        for i in at:
            s = program.stmts[i]
            if s.is_op:   # a segment's output: the op's own result
                if where[i] == CPU:
                    out.append(violation_at(program, i, self.name, f"{s.outs[0]} (a segment's output) is computed "
                                                                   f"from CPU scalar inputs alone"))
                continue
            v = s.arg("output")
            j = defs.get(v.name) if isinstance(v, Ref) else None
            if j is not None and program.stmts[j].is_op and where[j] == CPU:
                out.append(violation_at(program, i, self.name, f"{v} is computed from CPU scalar inputs alone"))
        return out
