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

This module installs the stand-ins and writes what the harvest found; the stand-ins are
``stubs``'s, the recording ``tracing``'s, loading a file ``loading``'s, running its tests
``testfile``'s.

DEST gets ``NNNN.py`` per fusion and ``manifest.json``: one row per fusion function (file, line,
name, test, and the script that holds it or why there is none). ``FMIN_HARVEST_DEBUG=1`` prints
each test's failure with its traceback on stderr.
"""
from __future__ import annotations

import json
import os
import sys

from ..frontend.fusion_definition import make_module
from ..model import DIRECT, LEGACY
from .loading import CheckoutFinder, _Timeout, catch_time_limits
from .nvfuser_tests import static_functions, test_files
from .stubs import Anything, DataTypes, StubFinder, one_gpu, stub_module, swallow_raises
from .testfile import harvest_file
from .tracing import SCHEDULING, Traced, add_operators, dtype_of, fd_class, script_of


def install(traced: Traced, checkout: str) -> None:
    """``nvfuser``/``nvfuser_direct`` as fmin's recorder with the tracer as executor."""
    for name, frontend in (("nvfuser", LEGACY), ("nvfuser_direct", DIRECT)):
        made = make_module(frontend, traced.executor)
        mod = stub_module(name, {k: v for k, v in vars(made).items() if not k.startswith("__")})
        mod.FusionDefinition = fd_class(made.FusionDefinition, traced)
        mod.DataType = DataTypes(made.DataType)
        sys.modules[name] = mod
    sys.modules["torch._C._nvfuser"] = sys.modules["nvfuser"]
    import pytest
    pytest.raises = swallow_raises
    one_gpu()
    from ..frontend.fusion_definition import Tensor
    Tensor.size = lambda self, dim: self._fd.ops.size(self, dim)   # nvFuser's Tensor.size(dim)
    Tensor.dtype = dtype_of
    for name in SCHEDULING:
        setattr(Tensor, name, lambda self, *a, **k: Anything())
    from ..frontend.fusion_definition import Scalar, Vector
    add_operators(Tensor), add_operators(Scalar)
    Tensor.is_tensor, Scalar.is_tensor, Vector.is_tensor = (lambda self: True), (lambda self: False), (lambda self: False)
    sys.meta_path[:0] = [StubFinder(), CheckoutFinder([os.path.join(checkout, "tests"),
                                                       os.path.join(checkout, "tests", "python")])]
    sys.meta_path.append(StubFinder(last_for=os.path.join(os.path.realpath(checkout), "")))


def main(argv: list[str]) -> int:
    checkout, dest = argv[1], argv[2]
    traced = Traced()
    install(traced, checkout)
    catch_time_limits()
    rows = []
    for path in test_files(checkout):
        try:
            rows += harvest_file(path, traced)
        except (Exception, _Timeout) as e:   # noqa: BLE001 (one file's harvest breaking leaves the others)
            rows += [{"file": path, "line": fn.lineno, "name": fn.name, "test": test,
                      "why": f"its test file's harvest broke: {type(e).__name__}: {e}"}
                     for fn, test in static_functions(path)]
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
