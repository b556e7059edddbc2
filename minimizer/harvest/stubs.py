"""What stands in the harvest worker for what a test imports but fmin does not run: nvFuser's other
names, packages this machine lacks, ``torch.cuda``'s GPU and ``pytest.raises``.

A stand-in answers so that a test goes on to its fusion: most are permissive stubs
(``Anything``), a few (``STAND_INS``) answer as the real module would, because a test helper
decides what it defines by their answers. Nothing here records a fusion (``tracing``) or runs a
test (``testfile``)."""
from __future__ import annotations

import dis
import importlib.abc
import importlib.machinery
import inspect
import re
import sys
import types

import torch

from .. import dtypes
from ..model import FRONTENDS


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


def stub_module(name: str, extra: dict | None = None) -> types.ModuleType:
    mod = types.ModuleType(name)
    mod.__path__ = []
    mod.__dict__.update(extra or {})
    mod.__getattr__ = stub_class
    mod.torch_dtype_to_nvfuser_dtype = _nv_dtype
    return mod


def stub_class(name: str):
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


class StubFinder(importlib.abc.MetaPathFinder, importlib.abc.Loader):
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
        return stub_module(spec.name)

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
    return stub_module("nvfuser.testing.utils", {"define_sdpa_rng_state": define_sdpa_rng_state,
                                           "create_sdpa_rng_tensors": create_sdpa_rng_tensors})


#: modules a test helper imports whose answers matter (a stub would answer every question "no",
#: and give no fusion inputs): what stands in for each. A package this machine may lack
#: (``looseversion``), and nvFuser's test helpers that define inputs (other names there stay stubs)
STAND_INS = {"looseversion": _looseversion, "nvfuser.testing.utils": _testing_utils}

class DataTypes:
    """``DataType`` of the stub modules: fmin's, and a clear refusal for one fmin does not model."""

    def __init__(self, real):
        self._real = real

    def __getattr__(self, name):
        try:
            return getattr(self._real, name)
        except AttributeError:
            raise AttributeError(f"DataType.{name} is a dtype fmin does not model") from None


#: the GPUs a test sees (``one_gpu``): one of every feature, as long as no test skips on that
GPU = types.SimpleNamespace(major=10, minor=0, count=1, name="fmin harvest", total_memory=1 << 40,
                            multi_processor_count=132, gcnArchName="")
#: the machines a test that skipped is run again on, in turn, while one of its fusions is missing:
#: the harvest runs no kernel, so the machine can be whichever lets the test define its fusion
#: (an op only one architecture runs, a test of several devices: on one process, a sharded input
#: is the whole tensor, and the fusion the unsharded program)
OTHER_GPUS = ({"major": 9, "minor": 0}, {"major": 8, "minor": 0}, {"count": 4}, {"count": 8})


def one_gpu() -> None:
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


class _Swallow:
    """``pytest.raises``/``assertRaises`` here: the test goes on whether the fusion raised or not
    (the harness runs no kernel, so an error a test expects from nvFuser never comes)."""

    def __init__(self, *args, **kwargs):
        pass

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return True


def swallow_raises(expected, *args, **kwargs):
    """``pytest.raises``/``assertRaises``: a context that swallows, or the callable form run with
    whatever it raises swallowed."""
    if not args:
        return _Swallow()
    with _Swallow():
        args[0](*args[1:], **kwargs)

