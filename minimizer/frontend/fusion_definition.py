"""fmin's own ``FusionDefinition``: what a repro script imports when it runs on the reference or
inductor backend instead of nvFuser.

It records the calls the script makes, bound through the op catalog exactly as the parser binds
them, into the program model's ``Stmt`` values, and ``execute`` hands those statements to an
executor: the reference interpreter (eager torch) by default, or a compiler (``inductor``). So a
script runs unchanged, and the reference backend and the static checker cannot disagree about
what a statement means.
"""
from __future__ import annotations

from contextvars import ContextVar
from typing import Any, Callable, Sequence

import torch

from .. import dtypes
from ..ops import BindError, Ctx, bind, lookup
from ..program.interpret import is_host_scalar, run as interpret
from ..model import DEFINE_SCALAR, DEFINE_TENSOR, DEFINE_VECTOR, DIRECT, LEGACY, OUTPUT, DType, Ref, Stmt


class _DataTypeNamespace:
    """``DataType.Float`` etc. as model ``DType`` values."""

    def __init__(self):
        for name in dtypes.NV_DTYPES:
            setattr(self, name, DType(name))

    def __repr__(self) -> str:
        return "DataType"


DataType = _DataTypeNamespace()


class _Value:
    kind = "value"

    def __init__(self, fd: "FusionDefinition", name: str):
        self._fd, self.name = fd, name

    def __repr__(self) -> str:
        return self.name


class Tensor(_Value):
    kind = "tensor"

    @property
    def ndim(self) -> int:
        return self._fd._ranks.get(self.name, -1)

    def shape(self):
        return self._fd.ops.shape(self)


class Scalar(_Value):
    kind = "scalar"


class Vector(_Value):
    kind = "vector"


def _to_model(v: Any) -> Any:
    if isinstance(v, _Value):
        return Ref(v.name)
    if isinstance(v, (list, tuple)):
        return tuple(_to_model(x) for x in v)
    if isinstance(v, torch.dtype):
        return DType(dtypes.from_torch(v))
    return v


_SCALAR_OPS = {"size", "at"}
_VECTOR_OPS = {"shape"}

# Called by ``execute``: (statements, inputs, frontend, device) -> outputs. Backends swap it.
Executor = Callable[[Sequence[Stmt], Sequence[Any], str, Any], list]


class Outputs(list):
    """What ``execute`` returns: the outputs, and what an executor learnt about the program's
    values besides (``undefined``: the value rules of ``program.validity`` the run broke)."""
    undefined: tuple = ()


def reference_executor(stmts, inputs, frontend, device) -> list:
    """The reference: the interpreter on real tensors, watching the rules that need values."""
    from ..program.validity import ValueWatch
    ctx = Ctx(device=device, generator=None, frontend=frontend)
    watch = ValueWatch()
    try:
        out = Outputs(interpret(stmts, inputs, frontend=frontend, ctx=ctx, watch=watch).outputs)
    except Exception as e:   # torch refuses some of what the rules forbid (an integer division by 0 on the CPU)
        e.undefined = tuple(watch.found)
        raise
    out.undefined = tuple(watch.found)
    return out


class FusionDefinition:
    """Records ``fd.define_*``/``fd.ops.*``/``fd.add_output`` calls; ``execute`` runs them."""

    frontend = LEGACY
    executor: Executor = staticmethod(reference_executor)
    last = None  # the most recently executed definition, for the worker to report on

    def __init__(self, *args, **kwargs):
        self.stmts: list[Stmt] = []
        self._counter = 0
        self._ranks: dict[str, int] = {}
        self.ops = _Ops(self)
        self.outputs = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False

    def __repr__(self) -> str:
        from ..program.printer import render_stmt
        from ..model import Dialect
        d = Dialect(self.frontend, self.frontend)
        return "\n".join(render_stmt(s, "fd", d) for s in self.stmts)

    # ---- names as nvFuser prints them ----
    def _name(self, kind: str) -> str:
        n = self._counter
        self._counter += 1
        if self.frontend == DIRECT:
            return f"tv{n}" if kind == "tensor" else f"c{n}"
        return {"tensor": "T", "scalar": "S", "vector": "V"}[kind] + str(n)

    def _record(self, call: str, args, kwargs, kinds: Sequence[str]):
        spec = lookup(call)
        if spec is None:
            raise AttributeError(f"fd.{call} is not known to fmin's op catalog")
        try:
            bound = bind(spec, tuple(_to_model(a) for a in args),
                         tuple((k, _to_model(v)) for k, v in kwargs.items()), self.frontend)
        except BindError as e:
            raise TypeError(f"{e} (incompatible function arguments)") from None
        handles = []
        for kind in kinds:
            cls = {"tensor": Tensor, "scalar": Scalar, "vector": Vector}[kind]
            handles.append(cls(self, self._name(kind)))
        self.stmts.append(Stmt(tuple(h.name for h in handles), call, bound.args, bound.npos))
        return handles

    # ---- definitions ----
    def define_tensor(self, *args, **kwargs) -> Tensor:
        (t,) = self._record(DEFINE_TENSOR, args, kwargs, ["tensor"])
        shape = kwargs.get("shape", kwargs.get("symbolic_sizes", kwargs.get("sizes", args[0] if args else None)))
        if shape is not None:
            self._ranks[t.name] = len(shape)
        return t

    def from_pytorch(self, tensor: torch.Tensor, static_sizes: bool = False) -> Tensor:
        """nvFuser's ``define_tensor(sizes=, strides=, dtype=, static_sizes=, is_cpu=)`` of the
        tensor, as the reader models it. ``is_cpu`` only for a 0-dim CPU tensor: a script run on
        the CPU here has CPU tensors where nvFuser would see CUDA ones."""
        return self.define_tensor(sizes=list(tensor.shape), strides=list(tensor.stride()),
                                  dtype=DType(dtypes.from_torch(tensor.dtype)), static_sizes=static_sizes,
                                  is_cpu=bool(tensor.is_cpu and tensor.ndim == 0))

    def define_scalar(self, *args, **kwargs) -> Scalar:
        (s,) = self._record(DEFINE_SCALAR, args, kwargs, ["scalar"])
        return s

    def define_constant(self, *args, **kwargs) -> Scalar:
        (s,) = self._record("define_constant", args, kwargs, ["scalar"])
        return s

    def define_vector(self, *args, **kwargs):
        values = args[0] if args else kwargs.get("values", kwargs.get("size"))
        if self.frontend == DIRECT and isinstance(values, int):
            return [self.define_scalar(dtype=DataType.Int) for _ in range(values)]
        (v,) = self._record(DEFINE_VECTOR, args, kwargs, ["vector"])
        return v

    def add_output(self, *args, **kwargs) -> None:
        self._record(OUTPUT, args, kwargs, [])

    # ---- running ----
    def execute(self, inputs, *, device=None, **options) -> list:
        inputs = _flat_inputs(inputs)
        dev = fusion_device(inputs, device)
        FusionDefinition.last = self
        self.outputs = None
        self.outputs = type(self).executor(self.stmts, list(inputs), self.frontend, dev)
        #: the value rules this run broke (``program.validity``), where the executor watches them
        self.undefined = tuple(getattr(self.outputs, "undefined", ()))
        return self.outputs


def _flat_inputs(inputs) -> list:
    """The inputs as nvFuser's ``execute`` reads them (both frontends): a list or tuple among them
    stands for its items, one input each (``define_vector(n)`` defines ``n`` Int scalars, and a
    test passes the shape they take as one list)."""
    out = []
    for x in inputs:
        out.extend(x if isinstance(x, (list, tuple)) else [x])
    return out


#: the device the running script targets (the worker's ``--device``), set by the runner for the
#: time of a run (``backends/runner.run_with_modules``); None outside a run: the CPU
RUN_DEVICE: ContextVar[str | None] = ContextVar("fmin_run_device", default=None)


def fusion_device(inputs, requested=None) -> torch.device:
    """The device a fusion computes on, where its creation ops (``full``, ``iota``, ``rand``...)
    put their results: the device of its first tensor input that is not a host scalar (a 0-dim
    CPU tensor: nvFuser reads it as a scalar operand, it decides nothing); without one, the
    device ``execute(..., device=)`` asks for; else the device the run targets (``RUN_DEVICE``).

    Why not the CPU when no input says: nvFuser runs a fusion of scalar inputs and creation ops on
    the GPU all the same (its ``execute`` device, by default ``cuda:0``), so a reference that
    computed it on the CPU would compare CPU results with nvFuser's and compute what nvFuser does
    not (a CPU kernel's dtype support and random streams are not CUDA's)."""
    for x in inputs:
        if isinstance(x, torch.Tensor) and not is_host_scalar(x):
            return x.device
    if requested is not None:
        return torch.device("cuda", requested) if isinstance(requested, int) else torch.device(requested)
    return torch.device(RUN_DEVICE.get() or "cpu")


class _Ops:
    def __init__(self, fd: FusionDefinition):
        self._fd = fd

    def __getattr__(self, name: str):
        spec = lookup("ops." + name)
        if spec is None or self._fd.frontend not in spec.frontends:
            raise AttributeError(f"fd.ops.{name}: no such op in the {self._fd.frontend} frontend")
        fd = self._fd

        def op(*args, **kwargs):
            operands = list(args) + list(kwargs.values())
            flat = []
            for o in operands:
                flat.extend(o if isinstance(o, (list, tuple)) else [o])
            has_tensor = any(isinstance(o, Tensor) for o in flat)
            if spec.n_outputs == -1:  # one Int scalar per dim of the argument
                kinds = ["scalar"] * max(0, next((fd._ranks.get(o.name, -1) for o in flat
                                                  if isinstance(o, Tensor)), 0))
            elif name in _SCALAR_OPS or (spec.elementwise and not has_tensor):
                kinds = ["scalar"]
            elif name in _VECTOR_OPS:
                kinds = ["vector"]
            else:
                kinds = ["tensor"] * spec.n_outputs
            handles = fd._record("ops." + name, args, kwargs, kinds)
            if spec.elementwise and kinds == ["tensor"]:
                # an elementwise result has its tensor operands' rank (nvFuser broadcasts only
                # through broadcast ops), so a size query of it (``tensor_sizes``) knows how many
                # results it has; other results' ranks stay unknown, as before
                ranks = [fd._ranks.get(o.name, -1) for o in flat if isinstance(o, Tensor)]
                if ranks and min(ranks) >= 0:
                    fd._ranks[handles[0].name] = max(ranks)
            return handles[0] if spec.n_outputs == 1 else list(handles) if spec.n_outputs == -1 else tuple(handles)

        op.__name__ = name
        return op


def make_module(frontend: str, executor: Executor | None = None):
    """A module object standing in for ``nvfuser`` or ``nvfuser_direct``."""
    import types
    mod = types.ModuleType(frontend)
    cls = type("FusionDefinition", (FusionDefinition,), {"frontend": frontend})
    if executor is not None:
        cls.executor = staticmethod(executor)
    mod.FusionDefinition = cls
    mod.DataType = DataType
    mod.Tensor, mod.Scalar, mod.Vector = Tensor, Scalar, Vector
    mod.version = lambda: "fmin-reference"
    mod.__fmin_shim__ = True
    return mod
