"""``python -m minimizer.harvest.worker CHECKOUT DEST``: the fusions of an nvFuser checkout's
Python tests, traced by running the tests, written under DEST as scripts fmin reads.

A test file is arbitrary code, so this runs only in its own process (``nvfuser_tests.extract``
starts it with a timeout), never in fmin. A test binds what its fusion needs the way only running
it can tell: pytest parameters, module constants, sizes, dtype loops, helpers that build inputs,
``*`` unpacking, loops in the fusion body. So each test runs here as pytest would call it (its
first parameter set; the next ones while a fusion of it is still missing), with ``nvfuser`` and
``nvfuser_direct`` standing for fmin's own ``FusionDefinition`` (the reference backend's
recorder: every ``fd`` call bound through the op catalog) and CUDA devices mapped to ``meta``
(``backends.devicemap``): a test's tensors have their shapes, strides and dtypes but no storage,
so a test of multi-GB inputs costs nothing, and no arithmetic runs. ``fd.execute(inputs)`` hands the recorded statements and the real
inputs over: they become one straight-line script in nvFuser's repro form (``program.printer``).
Each fusion function (``nvfuser_tests.fusion_functions``) is tagged so that a recorded fusion
knows which functions built it. Anything else the tests import from nvFuser is a permissive stub.

DEST gets ``NNNN.py`` per fusion and ``manifest.json``: one row per fusion function (file, line,
name, test, and the script that holds it or why there is none). ``FMIN_HARVEST_DEBUG=1`` prints
each test's failure with its traceback on stderr.
"""
from __future__ import annotations

import ast
import copy
import dis
import importlib.abc
import importlib.machinery
import inspect
import json
import os
import random
import re
import signal
import sys
import types

import torch

from .. import dtypes
from ..model import DIRECT, FRONTENDS, LEGACY, Dialect, Program, ScalarArg, TensorArg, is_input_decl
from ..backends.devicemap import device_map
from ..frontend.fusion_definition import FusionDefinition, make_module, reference_executor
from ..program.printer import to_source
from .nvfuser_tests import fusion_functions, test_files

#: seconds of its own CPU time a test (or a module's import) may take before it is stopped: CPU
#: time, not the clock's, so that a test making large real inputs on a machine busy with other
#: work is not stopped short of its fusion
TEST_SECONDS = 20
#: seconds by the clock a test may take all the same (one that waits, using no CPU, still ends)
WALL_SECONDS = 3 * TEST_SECONDS
#: parameter sets of one test tried while one of its fusions is still missing
PARAM_SETS = 4


class _AnyClass(type):
    def __getattr__(cls, name):
        if name.startswith("__") and name.endswith("__"):
            raise AttributeError(name)
        return Anything()


class Anything(metaclass=_AnyClass):
    """What a stubbed nvFuser name is: callable, subclassable, every attribute another one, false
    and empty (of length 0; unpacked, as many stubs as the unpacking asks for: ``_unpacked``).
    Called with a lone function, it gives the function back: a stubbed decorator
    (``@LruFusionCache(max_fusions=10)``) leaves what it decorates, so the test still defines
    its fusions through it."""

    def __init__(self, *args, **kwargs):
        _run_lambdas(args, kwargs)

    def __call__(self, *args, **kwargs):
        if _run_lambdas(args, kwargs):
            return Anything()
        if len(args) == 1 and not kwargs and inspect.isfunction(args[0]):
            return args[0]
        return Anything()

    def __getattr__(self, name):
        if name.startswith("__") and name.endswith("__"):
            raise AttributeError(name)
        return Anything()

    def __bool__(self):
        return False

    def __iter__(self):
        return iter([Anything() for _ in range(_unpacked(sys._getframe(1)))])

    def __len__(self):
        return 0

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False

    def __index__(self):
        return 0

    def __lt__(self, other):
        return False

    __le__ = __gt__ = __ge__ = __lt__


def _run_lambdas(args, kwargs) -> bool:
    """Call once each lambda handed to a stub (whether there was one): a lambda is work a test
    hands a helper to do for it (``get_benchmark_fns(lambda: fd.execute(ins))``,
    ``benchmark.pedantic(lambda: ...)``), often the only place its fusion executes. A decorator
    is never a lambda, and is left to ``__call__``."""
    thunks = [a for a in (*args, *kwargs.values()) if inspect.isfunction(a) and a.__name__ == "<lambda>"]
    for thunk in thunks:
        thunk(*[Anything() for p in inspect.signature(thunk).parameters.values()
                if p.default is inspect.Parameter.empty and p.kind <= inspect.Parameter.POSITIONAL_OR_KEYWORD])
    return bool(thunks)


def _unpacked(frame) -> int:
    """How many values the statement iterating a stub unpacks it into (``seed, offset = stub()``:
    2; ``first, *rest = stub()``: 1), else 0: a stubbed helper that returns a pair still binds
    both names, and the test goes on to its fusion; a loop over a stub runs no times."""
    at = next((i for i in dis.get_instructions(frame.f_code) if i.offset == frame.f_lasti), None)
    if at is not None and at.opname == "UNPACK_SEQUENCE":
        return at.arg
    return at.arg & 0xFF if at is not None and at.opname == "UNPACK_EX" else 0


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


def _fd_class(base, traced: Traced):
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


def _stub(name: str, extra: dict | None = None) -> types.ModuleType:
    mod = types.ModuleType(name)
    mod.__path__ = []
    mod.__dict__.update(extra or {})
    mod.__getattr__ = _stub_attr
    mod.torch_dtype_to_nvfuser_dtype = _nv_dtype
    return mod


def _stub_attr(name: str):
    if name.startswith("__") and name.endswith("__"):
        raise AttributeError(name)
    return type(name, (Anything,), {})


def _nv_dtype(dtype):
    from ..frontend.fusion_definition import DataType
    return getattr(DataType, dtypes.from_torch(dtype))


def _from_checkout(root: str) -> bool:
    """Whether the ``import`` being resolved runs on behalf of the checkout's code (a frame of
    it is on the stack: its own import, or one of a module it imports)."""
    f = sys._getframe(2)
    while f is not None:
        if f.f_code.co_filename.startswith(root):
            return True
        f = f.f_back
    return False


class _StubFinder(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Every submodule of the stubbed nvFuser packages (``nvfuser.testing.utils``...) is a stub,
    and (``last_for``: after every other finder) so is a package this machine lacks
    (``transformer_engine``, ``looseversion``, ``expecttest`` under ``torch.testing``) imported on
    behalf of the checkout's code: a test that imports one still reaches its fusion (an import
    torch makes on its own, as at exit, keeps failing as it expects)."""

    def __init__(self, last_for: str | None = None):
        self.last_for = last_for   # the checkout whose code's imports may be stubbed

    def find_spec(self, fullname, path=None, target=None):
        if fullname.split(".")[0] in FRONTENDS and "." in fullname or \
                self.last_for and _from_checkout(self.last_for):
            return importlib.machinery.ModuleSpec(fullname, self)
        return None

    def create_module(self, spec):
        if spec.name in STAND_INS:
            return STAND_INS[spec.name]()
        return _stub(spec.name)

    def exec_module(self, module):
        pass


class LooseVersion:
    """``looseversion.LooseVersion`` (distutils' version order): numbers compare as numbers, words
    as words. A test helper that gates what it defines on the torch version
    (``LooseVersion(torch.__version__) >= ...``) must see the answer the real package gives, not a
    stub's: a false one defines another fusion than nvFuser's CI runs (and one this torch's
    tensors do not fit)."""

    def __init__(self, text: str = ""):
        self.vstring = str(text)
        parts = [p for p in re.split(r"(\d+|[a-z]+|\.)", self.vstring.lower()) if p and p != "."]
        self.version = [int(p) if p.isdigit() else p for p in parts]

    def _key(self, other):
        other = other if isinstance(other, LooseVersion) else LooseVersion(other)
        def key(v):
            return [(0, p, "") if isinstance(p, int) else (1, 0, p) for p in v.version]
        return key(self), key(other)

    def __eq__(self, other):
        a, b = self._key(other)
        return a == b

    def __lt__(self, other):
        a, b = self._key(other)
        return a < b

    def __le__(self, other):
        a, b = self._key(other)
        return a <= b

    def __gt__(self, other):
        a, b = self._key(other)
        return a > b

    def __ge__(self, other):
        a, b = self._key(other)
        return a >= b

    __hash__ = None

    def __str__(self):
        return self.vstring


def _looseversion() -> types.ModuleType:
    mod = types.ModuleType("looseversion")
    mod.LooseVersion = LooseVersion
    return mod


def _sdpa_layout() -> tuple[str, tuple[int, ...], bool]:
    """(dtype, shape of the seed, on the CPU) of flash attention's Philox state in this torch:
    UInt64 ``[2]`` and ``[]`` on the GPU from torch 2.7 on (the layout ``sdpfa_fwd`` returns),
    Int ``[]`` and ``[]`` on the CPU before. The test's inputs come from this torch, so its
    definition must declare this torch's layout."""
    if LooseVersion(torch.__version__) >= LooseVersion("2.7.0"):
        return "UInt64", (2,), False
    return "Int", (), True


def define_sdpa_rng_state(fd):
    """nvFuser's test helper of that name: the Philox seed and offset a test's ``sdpfa_bwd``
    reads, as two inputs of ``fd`` in this torch's layout (``_sdpa_layout``)."""
    from ..frontend.fusion_definition import DataType
    dtype, seed_shape, is_cpu = _sdpa_layout()
    return tuple(fd.define_tensor(shape=list(shape), dtype=getattr(DataType, dtype), is_cpu=is_cpu)
                 for shape in (seed_shape, ()))


def create_sdpa_rng_tensors():
    """nvFuser's test helper of that name: a seed and an offset tensor for the inputs
    ``define_sdpa_rng_state`` declares."""
    dtype, seed_shape, is_cpu = _sdpa_layout()
    device = "cpu" if is_cpu else "cuda"
    return tuple(torch.zeros(shape, dtype=dtypes.to_torch(dtype), device=device) for shape in (seed_shape, ()))


def _testing_utils() -> types.ModuleType:
    return _stub("nvfuser.testing.utils", {"define_sdpa_rng_state": define_sdpa_rng_state,
                                           "create_sdpa_rng_tensors": create_sdpa_rng_tensors})


#: modules a test helper imports whose answers matter (a stub would answer every question "no",
#: and give no fusion inputs): what stands in for each. A package this machine may lack
#: (``looseversion``), and nvFuser's test helpers that define inputs (other names there stay stubs)
STAND_INS = {"looseversion": _looseversion, "nvfuser.testing.utils": _testing_utils}


class _CheckoutFinder(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """The checkout's own helper modules (``utils``, ``python.direct_utils``...) loaded as the
    test files are, statement by statement: one needing a package this machine lacks
    (``looseversion``, ``transformer_engine``) binds stubs instead of failing the whole import."""

    def __init__(self, roots: list[str]):
        self.roots = roots

    def find_spec(self, fullname, path=None, target=None):
        rel = fullname.replace(".", os.sep)
        for root in self.roots:
            init, mod = os.path.join(root, rel, "__init__.py"), os.path.join(root, rel + ".py")
            if os.path.isfile(init):
                return importlib.machinery.ModuleSpec(fullname, self, origin=init, is_package=True)
            if os.path.isfile(mod):
                return importlib.machinery.ModuleSpec(fullname, self, origin=mod)
        return None

    def exec_module(self, module):
        path = module.__spec__.origin
        if module.__spec__.submodule_search_locations is not None:
            module.__spec__.submodule_search_locations[:] = [os.path.dirname(path)]
            module.__path__ = module.__spec__.submodule_search_locations
        module.__file__ = path
        with open(path, encoding="utf-8", errors="replace") as f:
            tree = ast.parse(f.read(), path)
        run_statements(tree, path, module.__dict__)


class _DataTypes:
    """``DataType`` of the stub modules: fmin's, and a clear refusal for one fmin does not model."""

    def __init__(self, real):
        self._real = real

    def __getattr__(self, name):
        try:
            return getattr(self._real, name)
        except AttributeError:
            raise AttributeError(f"DataType.{name} is a dtype fmin does not model") from None


def install(traced: Traced, checkout: str) -> None:
    """``nvfuser``/``nvfuser_direct`` as fmin's recorder with the tracer as executor."""
    for name, frontend in (("nvfuser", LEGACY), ("nvfuser_direct", DIRECT)):
        made = make_module(frontend, traced.executor)
        mod = _stub(name, {k: v for k, v in vars(made).items() if not k.startswith("__")})
        mod.FusionDefinition = _fd_class(made.FusionDefinition, traced)
        mod.DataType = _DataTypes(made.DataType)
        sys.modules[name] = mod
    sys.modules["torch._C._nvfuser"] = sys.modules["nvfuser"]
    import pytest
    pytest.raises = _raises
    _one_gpu()
    from ..frontend.fusion_definition import Tensor
    Tensor.size = lambda self, dim: self._fd.ops.size(self, dim)   # nvFuser's Tensor.size(dim)
    Tensor.dtype = _dtype_of
    for name in SCHEDULING:
        setattr(Tensor, name, lambda self, *a, **k: Anything())
    from ..frontend.fusion_definition import Scalar, Vector
    _operators(Tensor), _operators(Scalar)
    Tensor.is_tensor, Scalar.is_tensor, Vector.is_tensor = (lambda self: True), (lambda self: False), (lambda self: False)
    sys.meta_path[:0] = [_StubFinder(), _CheckoutFinder([os.path.join(checkout, "tests"),
                                                          os.path.join(checkout, "tests", "python")])]
    sys.meta_path.append(_StubFinder(last_for=os.path.join(os.path.realpath(checkout), "")))


#: nvFuser's ``TensorView`` methods that shard or schedule it without changing what the fusion
#: computes. The harness is one process of one device (``Harness.size``): a tensor split over a
#: mesh of one is the whole tensor, so each is a no-op here (what it returns, ``tv.axis(i)``
#: included, is a stub)
SCHEDULING = ("set_device_mesh", "outer_split", "inner_split", "split", "merge", "reorder", "axis",
              "parallelize", "set_allocation_domain", "get_loop_domain", "get_logical_domain",
              "get_allocation_domain")


def _dtype_of(tensor):
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


def _operators(cls) -> None:
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


#: the GPUs a test sees (``_one_gpu``): one of every feature, as long as no test skips on that
GPU = types.SimpleNamespace(major=10, minor=0, count=1, name="fmin harvest", total_memory=1 << 40,
                            multi_processor_count=132, gcnArchName="")
#: the machines a test that skipped is run again on, in turn, while one of its fusions is missing:
#: the harvest runs no kernel, so the machine can be whichever lets the test define its fusion
#: (an op only one architecture runs, a test of several devices: on one process, a sharded input
#: is the whole tensor, and the fusion the unsharded program)
OTHER_GPUS = ({"major": 9, "minor": 0}, {"major": 8, "minor": 0}, {"count": 4}, {"count": 8})


def _one_gpu() -> None:
    """``torch.cuda`` as the ``GPU`` (one current GPU that has every feature): a test's guard
    (``is_pre_hopper``) or device query goes on to its fusion; its tensors are on ``meta``
    whatever it asks."""
    c = torch.cuda
    c.is_available, c.device_count, c.current_device = (lambda: True), (lambda: GPU.count), (lambda: 0)
    c.get_device_properties = lambda *a, **k: GPU
    c.get_device_capability = lambda *a, **k: (GPU.major, GPU.minor)
    c.get_device_name = lambda *a, **k: GPU.name
    c.synchronize = c.empty_cache = c.reset_peak_memory_stats = lambda *a, **k: None
    c.set_device = lambda *a, **k: None


class _Timeout(BaseException):
    pass


def _alarm(signum, frame):
    raise _Timeout(f"took over {TEST_SECONDS} s of CPU time" if signum == signal.SIGPROF
                   else f"took over {WALL_SECONDS} s")


#: the timers ``_run`` sets (both end a run with ``_Timeout``) and the seconds each allows
_LIMITS = ((signal.ITIMER_PROF, TEST_SECONDS), (signal.ITIMER_REAL, WALL_SECONDS))


def _run(fn, *args, **kwargs):
    """``fn(*args, **kwargs)`` under the time limit; the exception it raised, or None."""
    for timer, seconds in _LIMITS:
        signal.setitimer(timer, seconds)
    try:
        fn(*args, **kwargs)
        return None
    except BaseException as e:   # noqa: BLE001 (a test's outcome, whatever it is)
        if isinstance(e, KeyboardInterrupt):
            raise
        return e
    finally:
        for timer, _ in _LIMITS:
            signal.setitimer(timer, 0)


def tagged_module(text: str, path: str, traced: Traced) -> tuple[ast.Module, list]:
    """The module's tree with every fusion function tagged, and those functions (line order)."""
    tree = _NoAsserts().visit(ast.parse(text, path))
    found = fusion_functions(tree)
    for fn, _test in found:
        fn.decorator_list.append(ast.Call(ast.Name("__fmin_tag__", ast.Load()), [ast.Constant(fn.lineno)], []))
    tree.body += nested_tests(tree)
    ast.fix_missing_locations(tree)
    return tree, found


def nested_tests(tree: ast.Module) -> list[ast.FunctionDef]:
    """Copies, for module level, of the tests defined in a test's body: nothing calls them (an
    indentation slip), so nvFuser's own run never reaches their fusions, though pytest would
    collect them one level out. A name a module-level statement already binds is left alone."""
    top = {n.name for n in tree.body if isinstance(n, (ast.FunctionDef, ast.ClassDef))}
    out = []
    for node in tree.body:
        if isinstance(node, ast.FunctionDef) and node.name.startswith("test"):
            out += [copy.deepcopy(c) for c in node.body if isinstance(c, ast.FunctionDef)
                    and c.name.startswith("test") and c.name not in top]
    return out


class _NoAsserts(ast.NodeTransformer):
    """A test's ``assert``s check nvFuser's results, which the harness does not compute: one
    failing would stop the test before its next fusion."""

    def visit_Assert(self, node):
        return ast.copy_location(ast.Pass(), node)


def load_module(tree: ast.Module, path: str, traced: Traced) -> dict:
    """The module's namespace, its top-level statements run one by one: one that fails (an
    import of something absent, a decorator asking for a GPU) leaves the rest; a definition whose
    decorators fail is defined without them."""
    g = {"__name__": "fmin_harvest_" + os.path.basename(path)[:-3], "__file__": path,
         "__builtins__": __builtins__, "__fmin_tag__": traced.tag}
    return run_statements(tree, path, g)


def run_statements(tree: ast.Module, path: str, g: dict) -> dict:
    """Run the module's top-level statements in ``g`` one by one (see ``load_module``)."""
    for node in tree.body:
        error = _run(exec, compile(ast.Module([node], []), path, "exec"), g)
        if error is None:
            continue
        if isinstance(node, (ast.Import, ast.ImportFrom)):   # what it would bind: stubs
            g.update({(a.asname or a.name).split(".")[0]: _stub_attr(a.name.split(".")[-1]) for a in node.names
                      if a.name != "*"})
        elif isinstance(node, (ast.FunctionDef, ast.ClassDef)) and node.decorator_list:
            bare = ast.fix_missing_locations(ast.Module([_undecorated(node)], []))
            _run(exec, compile(bare, path, "exec"), g)
    return g


def _undecorated(node):
    keep = [d for d in node.decorator_list if isinstance(d, ast.Call) and isinstance(d.func, ast.Name)
            and d.func.id == "__fmin_tag__"]
    return type(node)(**{**{f: getattr(node, f) for f in node._fields}, "decorator_list": keep})


class _Swallow:
    """``pytest.raises``/``assertRaises`` here: the test goes on whether the fusion raised or not
    (the harness runs no kernel, so an error a test expects from nvFuser never comes)."""

    def __init__(self, *args, **kwargs):
        pass

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return True


def _raises(expected, *args, **kwargs):
    """``pytest.raises``/``assertRaises``: a context that swallows, or the callable form run with
    whatever it raises swallowed."""
    if not args:
        return _Swallow()
    with _Swallow():
        args[0](*args[1:], **kwargs)


class Harness(Anything):
    """``self`` of a test method and every fixture: ``exec_nvfuser(fusion_func, inputs)`` (the
    helper nvFuser's tests run fusions through) defines and executes the fusion."""

    frontend_class = None
    #: a multidevice test's fixture on one process
    rank = local_rank = 0
    size = property(lambda self: GPU.count)

    def assertRaises(self, expected, *args, **kwargs):
        return _raises(expected, *args, **kwargs)

    def assertRaisesRegex(self, expected, regex, *args, **kwargs):
        return _raises(expected, *args, **kwargs)

    def shard_tensor(self, t, *args, **kwargs):
        """A multidevice test's input as one process of one sees it: the whole tensor."""
        return t

    shard_tensor_1d = shard_tensor

    def exec_nvfuser(self, fusion_func, inputs, *args, **kwargs):
        with self.frontend_class() as fd:
            fusion_func(fd)
        out = fd.execute(inputs)
        return out, fd


def tests_of(g: dict, tree: ast.Module) -> list[tuple[str, object, object]]:
    """(qualified name, function, class or None) of each test in source order."""
    out = []
    for node in tree.body:
        obj = g.get(node.name) if isinstance(node, (ast.FunctionDef, ast.ClassDef)) else None
        if isinstance(node, ast.FunctionDef) and node.name.startswith("test") and callable(obj):
            out.append((node.name, obj, None))
        elif isinstance(node, ast.ClassDef) and isinstance(obj, type):
            out += [(f"{node.name}::{m.name}", getattr(obj, m.name, None), obj) for m in node.body
                    if isinstance(m, ast.FunctionDef) and m.name.startswith("test")
                    and callable(getattr(obj, m.name, None))]
    return out


def param_sets(fn, cls) -> list[dict]:
    """The keyword sets pytest would call ``fn`` with, in pytest's order (first ones first)."""
    sets = [{}]
    marks = list(getattr(fn, "pytestmark", [])) + list(getattr(cls, "pytestmark", []) if cls else [])
    for m in marks:
        if getattr(m, "name", "") != "parametrize":
            continue
        names, values = m.args[0], list(m.args[1])
        names = [n.strip() for n in names.split(",")] if isinstance(names, str) else list(names)
        rows = []
        for v in values[:PARAM_SETS]:
            vals = v.values if hasattr(v, "marks") and hasattr(v, "values") else v if len(names) > 1 else (v,)
            rows.append(dict(zip(names, vals)))
        sets = [{**a, **b} for a in sets for b in rows] or sets
    return sets[:PARAM_SETS]


def call_test(fn, cls, params: dict, harness_base) -> BaseException | None:
    """Run one test as pytest would: ``self`` and fixtures are the harness."""
    sig = inspect.signature(fn)
    names = list(sig.parameters)
    args = []
    if cls is not None:
        owner = type("HarnessOf" + cls.__name__, (harness_base, cls), {}) if _can_mix(cls) else harness_base
        args.append(object.__new__(owner))
        names = names[1:]
    kwargs = {n: params[n] if n in params else sig.parameters[n].default
              if sig.parameters[n].default is not inspect.Parameter.empty else harness_base()
              for n in names if sig.parameters[n].kind not in (inspect.Parameter.VAR_POSITIONAL,
                                                             inspect.Parameter.VAR_KEYWORD)}
    return _run(fn, *args, **kwargs)


def _can_mix(cls) -> bool:
    try:
        type("probe", (Harness, cls), {})
        return True
    except TypeError:
        return False


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


#: address space a test run again on the CPU may take beyond the worker's (an allocation past it
#: fails as the test's error instead of the machine running out of memory)
CPU_BYTES = 4 << 30


def on_cpu(fn, cls, params) -> BaseException | None:
    """The test again with real tensors on the CPU, within ``CPU_BYTES`` more address space."""
    import resource
    try:
        with open("/proc/self/status", encoding="ascii") as f:
            vm = next(int(line.split()[1]) * 1024 for line in f if line.startswith("VmSize:"))
    except (OSError, StopIteration):
        return RuntimeError("the test needs its tensors' data, and this machine cannot bound a run on the CPU")
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    cap = vm + CPU_BYTES if hard == resource.RLIM_INFINITY else min(vm + CPU_BYTES, hard)
    resource.setrlimit(resource.RLIMIT_AS, (cap, hard))
    try:
        random.seed(0), torch.manual_seed(0)
        with device_map("cpu"):
            return call_test(fn, cls, params, Harness)
    finally:
        resource.setrlimit(resource.RLIMIT_AS, (soft, hard))


def run_test(fn, cls, params, lines: set[int], traced: Traced) -> BaseException | None:
    """The test on ``meta``, and again with real tensors on the CPU where it asked its tensors
    for data before one of ``lines`` ran; what it raised."""
    random.seed(0), torch.manual_seed(0)
    error = call_test(fn, cls, params, Harness)
    if error is not None and "meta" in str(error) and not lines <= traced.ran.keys():
        error = on_cpu(fn, cls, params)
    return error


def _skipped(error) -> bool:
    import pytest
    return isinstance(error, pytest.skip.Exception)


def on_other_gpus(fn, cls, params, lines: set[int], traced: Traced) -> BaseException | None:
    """The test again on each of ``OTHER_GPUS`` in turn while it skips before one of ``lines``
    ran; what the last run raised."""
    error = None
    for other in OTHER_GPUS:
        was = dict(vars(GPU))
        vars(GPU).update(other)
        try:
            error = run_test(fn, cls, params, lines, traced)
        finally:
            vars(GPU).update(was)
        if not _skipped(error) or lines <= traced.ran.keys():
            break
    return error


def harvest_file(path: str, traced: Traced) -> list[dict]:
    """One row per fusion function of the file: where it is, and the fusion it was traced into or
    why none (its module or its test failed first, or no test ran it)."""
    with open(path, encoding="utf-8", errors="replace") as f:
        text = f.read()
    try:
        tree, found = tagged_module(text, path, traced)
    except SyntaxError as e:
        return [{"file": path, "line": e.lineno or 1, "name": "?", "test": "", "why": f"SyntaxError: {e.msg}"}]
    if not found:
        return []
    traced.reset()
    Harness.frontend_class = sys.modules[_frontend_module(tree)].FusionDefinition
    sys.path[:0] = [os.path.dirname(path)]
    failed = {}
    with device_map("meta"):   # shapes, strides and dtypes without memory or arithmetic
        g, users = load_module(tree, path, traced), module_users(tree, found)
        for qual, fn, cls in tests_of(g, tree):
            lines = wanted(found, qual.split("::")[-1], traced, users)
            traced.test = qual.split("::")[-1]
            for params in param_sets(fn, cls):
                error = run_test(fn, cls, params, lines, traced)
                if _skipped(error) and not lines <= traced.ran.keys():
                    error = on_other_gpus(fn, cls, params, lines, traced)
                if error is not None and os.environ.get("FMIN_HARVEST_DEBUG"):
                    import traceback
                    traceback.print_exception(error, file=sys.stderr)
                if error is not None:   # why the test, and each fusion function it did not reach
                    failed.setdefault(qual.split("::")[-1], error)
                    for line in lines - traced.ran.keys():
                        failed.setdefault(line, error)
                if lines <= traced.ran.keys():
                    break
            traced.record_pending()
    sys.path.remove(os.path.dirname(path))
    return [_row(path, fn_node, test, traced, failed) for fn_node, test in found]


def wanted(found: list, test: str, traced: Traced, users: dict[int, set[str]]) -> set[int]:
    """The fusion functions a run of ``test`` may yet reach: its own, and those at module level
    (a class's ``definition``, a shared helper) no test has run so far that ``test`` names (any
    test, where none names it: ``users``). The test is run again (next parameter set, real
    tensors on the CPU, another GPU) while one of them is missing, and its error is theirs."""
    return {fn.lineno for fn, of in found if of == test or of == "" and fn.lineno not in traced.ran
            and (test in users[fn.lineno] or not users[fn.lineno])}


def module_users(tree: ast.Module, found: list) -> dict[int, set[str]]:
    """For each module-level fusion function (by line), the tests that name the top-level
    statement holding it (``TransformerForward`` for its ``definition``)."""
    names = {}
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name.startswith("test"):
            names[node.name] = {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}
    out = {}
    for fn, of in found:
        top = next((n for n in tree.body if n.lineno <= fn.lineno <= (n.end_lineno or n.lineno)), None)
        if of == "":
            out[fn.lineno] = {t for t, used in names.items() if getattr(top, "name", None) in used}
    return out


def _frontend_module(tree: ast.Module) -> str:
    """The frontend the file imports at module level: ``nvfuser_direct`` where it does, else
    ``nvfuser`` (a test may import the other inside, to check that both cannot be loaded)."""
    for n in tree.body:
        names = [a.name for a in n.names] if isinstance(n, ast.Import) else \
            [n.module or ""] if isinstance(n, ast.ImportFrom) else []
        if any(x.split(".")[0] == "nvfuser_direct" for x in names):
            return "nvfuser_direct"
    return "nvfuser"


def _row(path: str, node, test: str, traced: Traced, failed: dict) -> dict:
    row = {"file": path, "line": node.lineno, "name": node.name, "test": test}
    fusion = traced.fusions.get(node.lineno)
    if fusion is not None:
        row["fusion"], row["test"] = fusion, test or fusion["test"]
    elif node.lineno in traced.ran:
        row["within"] = traced.ran[node.lineno]
    else:
        e = traced.errors.get(node.lineno) or failed.get(test) or failed.get(node.lineno)
        words = f"{type(e).__name__}: {str(e).splitlines()[0][:200] if str(e) else ''}" if e is not None else ""
        row["why"] = (f"it failed while defining its fusion: {words}" if e is not None and node.lineno in traced.defined
                      else f"its test failed before running it: {words}" if e is not None else "no test ran it")
    return row


def main(argv: list[str]) -> int:
    checkout, dest = argv[1], argv[2]
    traced = Traced()
    install(traced, checkout)
    signal.signal(signal.SIGALRM, _alarm)
    signal.signal(signal.SIGPROF, _alarm)
    rows = []
    for path in test_files(checkout):
        rows += harvest_file(path, traced)
    for row in rows:
        if "fusion" in row:
            fusion = row.pop("fusion")
            if fusion["unknown"]:
                row["why"] = f"its fusion uses fd.{fusion['unknown'][0]}, which fmin does not model"
                continue
            try:
                text = script_of(fusion, row["name"])
            except Exception as e:   # noqa: BLE001 (reported as the fusion's reason)
                row["why"] = f"cannot write it as a script: {type(e).__name__}: {e}"
                continue
            row["script"] = os.path.join(dest, f"{len(os.listdir(dest)):04d}.py")
            with open(row["script"], "w", encoding="utf-8") as f:
                f.write(text)
    with open(os.path.join(dest, "manifest.json"), "w", encoding="utf-8") as f:
        json.dump(rows, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
