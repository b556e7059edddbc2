"""The fusions a harvested test defines, recorded as it runs and written as scripts: the recorder's
``FusionDefinition`` as the stub ``nvfuser`` modules give it, and what nvFuser's recorded values
answer (``tv.dtype()``, operators, scheduling calls).

Each fusion function is tagged (``Traced.tag``) so that a recorded fusion knows which functions
built it; ``script_of`` turns one recorded fusion into a straight-line script in nvFuser's repro
form (``program.printer``)."""
from __future__ import annotations

import torch

from .. import dtypes
from ..frontend.fusion_definition import FusionDefinition, reference_executor
from ..model import DIRECT, Dialect, Program, ScalarArg, TensorArg, is_input_decl
from ..program.printer import to_source
from .stubs import Anything


class Traced:
    """The fusions recorded so far (by their first fusion function's line) and the origin tag."""

    def __init__(self):
        self.reset()

    def reset(self) -> None:
        """Forget the last file's fusions (origins are lines of one file)."""
        self.fusions: dict[int, dict] = {}
        #: each fusion function's line that ran in a recorded fusion -> that fusion's first line
        self.ran: dict[int, int] = {}
        #: fusion functions called with a recording ``fd`` (executed or not)
        self.defined: set[int] = set()
        #: what each fusion function raised while defining (first time)
        self.errors: dict[int, BaseException] = {}
        #: each fusion function's first recording ``fd`` (outermost calls), for one never executed
        self.pending: dict[int, FusionDefinition] = {}
        #: the test running now (a module-level fusion function is named after the test that ran it)
        self.test = ""

    def tag(self, line: int):
        """The decorator put on each fusion function: a call with a recording ``fd`` notes it."""
        def wrap(fn):
            def tagged(*args, **kwargs):
                fd = args[0] if args else None
                if not isinstance(fd, FusionDefinition):
                    return fn(*args, **kwargs)
                outermost = not fd.__dict__.get("_fmin_origins")
                fd.__dict__.setdefault("_fmin_origins", []).append(line)
                self.defined.add(line)
                fd.__dict__["_fmin_depth"] = fd.__dict__.get("_fmin_depth", 0) + 1
                try:
                    got = fn(*args, **kwargs)
                except BaseException as e:
                    self.errors.setdefault(line, e)
                    raise
                finally:
                    fd.__dict__["_fmin_depth"] -= 1
                if outermost:
                    self.pending.setdefault(line, fd)
                return got
            tagged.__name__, tagged.__qualname__, tagged.__wrapped__ = fn.__name__, fn.__qualname__, fn
            return tagged
        return wrap

    def record(self, fd, inputs) -> None:
        """The fusion ``fd`` recorded, with its inputs (None: made up from its definitions)."""
        origins = list(getattr(fd, "_fmin_origins", []) or [0])
        if origins[0] not in self.fusions:
            self.fusions[origins[0]] = {"origins": origins, "frontend": fd.frontend, "stmts": list(fd.stmts),
                                        "inputs": inputs, "unknown": list(getattr(fd, "_fmin_unknown", [])),
                                        "test": self.test}
        for line in origins:
            self.ran.setdefault(line, origins[0])

    def record_pending(self) -> None:
        """The fusions a test defined but never executed, with inputs made from their definitions."""
        for line, fd in self.pending.items():
            if line not in self.ran:
                self.record(fd, None)
        self.pending.clear()

    def executor(self, stmts, inputs, frontend, device):
        self.record(FusionDefinition.last, list(inputs))
        try:   # outputs of the right shapes (meta tensors) let the test go on to its next fusion
            return reference_executor(stmts, inputs, frontend, device)
        except Exception:   # noqa: BLE001 (the test stops here; what it recorded is kept)
            return []


def fd_class(base, traced: Traced):
    """The stub module's ``FusionDefinition`` with what tests call beyond a definition: a class
    with ``definition()`` builds itself on ``execute``, as nvFuser's does; ``validate`` executes;
    another attribute is a stub, noted when used while defining (the fusion is then incomplete)."""
    def execute(self, inputs, *args, **kwargs):
        if not self.stmts and callable(getattr(type(self), "definition", None)):
            self.definition()
        return base.execute(self, inputs, **{k: v for k, v in kwargs.items() if k == "device"})

    def getattr_(self, name):
        if name.startswith("_"):
            raise AttributeError(name)
        if self.__dict__.get("_fmin_depth"):   # called while a fusion function defines it
            self.__dict__.setdefault("_fmin_unknown", []).append(name)
        return Anything()

    def delattr_(self, name):   # a test dropping nvFuser's internals (``del fd._fusion``) the recorder lacks
        self.__dict__.pop(name, None)
    return type("FusionDefinition", (base,), {"execute": execute, "validate": execute, "__getattr__": getattr_,
                                              "__delattr__": delattr_, "fusion": property(_FusionView)})


class _FusionView:
    """``fd.fusion``, nvFuser's ``Fusion`` behind a definition, as far as a test's sharding code
    asks it: ``inputs()`` are the recorded inputs' values (a test sets each one's device mesh);
    anything else is a stub, noted while defining as ``fd.<name>`` is."""

    def __init__(self, fd):
        self._fd = fd

    def inputs(self) -> list:
        from ..frontend.fusion_definition import Scalar, Tensor
        return [(Tensor if s.is_tensor_decl else Scalar)(self._fd, s.outs[0])
                for s in self._fd.stmts if is_input_decl(s)]

    def __getattr__(self, name):
        if name.startswith("_"):
            raise AttributeError(name)
        if self._fd.__dict__.get("_fmin_depth"):
            self._fd.__dict__.setdefault("_fmin_unknown", []).append(f"fusion.{name}")
        return Anything()


#: nvFuser's ``TensorView`` methods that shard or schedule it without changing what the fusion
#: computes. The harness is one process of one device (``Harness.size``): a tensor split over a
#: mesh of one is the whole tensor, so each is a no-op here (what it returns, ``tv.axis(i)``
#: included, is a stub)
SCHEDULING = ("set_device_mesh", "outer_split", "inner_split", "split", "merge", "reorder", "axis",
              "parallelize", "set_allocation_domain", "get_loop_domain", "get_logical_domain",
              "get_allocation_domain")


def dtype_of(tensor):
    """nvFuser's ``TensorView.dtype()`` on a recorded value: the statements recorded so far, run on
    ``meta`` inputs made from their definitions, with the value as the output."""
    from ..frontend.fusion_definition import DataType
    from ..model import OUTPUT, Ref, Stmt
    from ..ops import Ctx, bind, lookup
    from ..program.interpret import run
    fd = tensor._fd
    bound = bind(lookup(OUTPUT), (Ref(tensor.name),), (), fd.frontend)
    stmts = list(fd.stmts) + [Stmt((), OUTPUT, bound.args, bound.npos)]
    inputs = [torch.empty_strided(a.shape, a.strides, dtype=dtypes.to_torch(a.dtype), device="meta")
              if isinstance(a, TensorArg) else a.value for a in made_inputs(fd.stmts)]
    (out,) = run(stmts, inputs, frontend=fd.frontend, ctx=Ctx(device="meta", frontend=fd.frontend)).outputs
    return getattr(DataType, dtypes.from_torch(out.dtype))


#: Python operators on nvFuser values and the ops they stand for (nvFuser's Tensor and Scalar
#: define them)
OPERATORS = {"add": "add", "sub": "sub", "mul": "mul", "truediv": "div", "pow": "pow", "mod": "fmod",
             "lt": "lt", "le": "le", "gt": "gt", "ge": "ge", "and": "bitwise_and", "or": "bitwise_or"}


def add_operators(cls) -> None:
    def binary(op, swap):
        def f(self, other):
            return getattr(self._fd.ops, op)(*((other, self) if swap else (self, other)))
        return f
    for name, op in OPERATORS.items():
        setattr(cls, f"__{name}__", binary(op, False))
        if name not in ("lt", "le", "gt", "ge"):
            setattr(cls, f"__r{name}__", binary(op, True))
    cls.__neg__ = lambda self: self._fd.ops.neg(self)
    cls.__abs__ = lambda self: self._fd.ops.abs(self)
    cls.__invert__ = lambda self: self._fd.ops.bitwise_not(self)


def script_of(fusion: dict, name: str) -> str:
    """The recorded fusion as a script in nvFuser's repro form."""
    frontend = fusion["frontend"]
    dialect = Dialect(frontend, "nvfuser_direct" if frontend == DIRECT else "nvfuser")
    defines = [s for s in fusion["stmts"] if s.call == "define_tensor"]
    if fusion["inputs"] is None:
        return to_source(Program(dialect, _func_name(name), tuple(fusion["stmts"]), made_inputs(fusion["stmts"])))
    args = []
    for i, x in enumerate(fusion["inputs"]):
        if isinstance(x, torch.Tensor):
            cpu = i < len(defines) and dict(defines[i].args).get("is_cpu") is True and x.ndim == 0
            args.append(TensorArg(tuple(x.shape), tuple(x.stride()), dtypes.from_torch(x.dtype), "cpu" if cpu else "cuda"))
        elif isinstance(x, (bool, int, float, complex)):
            args.append(ScalarArg(x))
        else:
            raise TypeError(f"an input fmin cannot write: {type(x).__name__}")
    program = Program(dialect, _func_name(name), tuple(fusion["stmts"]), tuple(args))
    if _inputs_refused(program):   # a test of nvFuser's input check: the fusion, not its wrong inputs
        program = program.replace(inputs=made_inputs(fusion["stmts"]))
    return to_source(program)


def _inputs_refused(program: Program) -> bool:
    """Whether the inputs the test executed the fusion with contradict its definitions (a scalar
    for a tensor, another dtype or rank): what a test of nvFuser's input validation passes on
    purpose. The fusion is then read with inputs made from its definitions, as one its test
    never executes; a fusion refused for anything else keeps its inputs and is refused as read."""
    from ..program import static
    from ..program.interpret import FusionError
    try:
        static.check(program)
    except FusionError as e:
        return e.kind == "input"
    except Exception:
        return False
    return False


def _func_name(name: str) -> str:
    return name if name.isidentifier() and name != "fd" else "fusion_func"


#: the extent given to a symbolic (``-1``) dimension of a fusion never executed by its test
EXTENT = 8


def made_inputs(stmts) -> tuple:
    """Inputs for a fusion its test never executed: one per ``define_tensor`` (each symbolic
    extent ``EXTENT``, strides dense in its stride order) and per ``define_scalar`` without a value."""
    out = []
    for s in stmts:
        a = dict(s.args)
        if s.call == "define_tensor":
            shape = tuple(EXTENT if (x is None or x < 0) else x for x in (a.get("shape") or a.get("sizes") or ()))
            order = a.get("stride_order") or tuple(range(len(shape) - 1, -1, -1))
            if getattr(a.get("dtype"), "name", None) == "Float4_e2m1fn" and shape:   # packed: ops/fp4.py
                inner = min(range(len(shape)), key=lambda d: order[d])
                shape = tuple(x // 2 if d == inner else x for d, x in enumerate(shape))
            strides, step = [0] * len(shape), 1
            for d in sorted(range(len(shape)), key=lambda d: order[d]):
                strides[d], step = step, step * max(1, shape[d])
            dt = a.get("dtype")
            out.append(TensorArg(shape, tuple(a.get("strides") or strides), getattr(dt, "name", "Float"),
                                 "cpu" if a.get("is_cpu") else "cuda"))
        elif s.call == "define_scalar" and a.get("value") is None:
            dt = getattr(a.get("dtype"), "name", "Double")
            out.append(ScalarArg(True if dt == "Bool" else 2 if dt in ("Int", "Int32", "Index") else 2.0))
    return tuple(out)


