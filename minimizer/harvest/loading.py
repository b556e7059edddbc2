"""A test file (or a helper module of the checkout) loaded in the harvest worker: its statements
run one by one under a time limit, its fusion functions tagged, its ``assert``s out.

One statement that fails (an import of something absent, a decorator asking for a GPU) leaves
the rest of the module: a test file's fusions are reached as long as what they need is bound."""
from __future__ import annotations

import ast
import builtins
import copy
import importlib.abc
import importlib.machinery
import os
import signal

from .nvfuser_tests import fusion_functions
from .stubs import stub_class
from .tracing import Traced

#: seconds of its own CPU time a test (or a module's import) may take before it is stopped: CPU
#: time, not the clock's, so that a test making large real inputs on a machine busy with other
#: work is not stopped short of its fusion
TEST_SECONDS = 20
#: seconds by the clock a test may take all the same (one that waits, using no CPU, still ends)
WALL_SECONDS = 3 * TEST_SECONDS


class CheckoutFinder(importlib.abc.MetaPathFinder, importlib.abc.Loader):
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


class _Timeout(BaseException):
    pass


#: how many ``run_limited`` calls are running (a module a test imports runs its statements under
#: one nested inside the test's): only the outermost sets the timers
_DEPTH = 0


def _alarm(signum, frame):
    """A timer's signal ends the run it was set for. Python runs this handler at its next bytecode,
    which after a long C call can be past that run's end: with no run left the signal is dropped,
    never raised where nothing catches it (it ended a whole checkout's harvest)."""
    if _DEPTH:
        raise _Timeout(f"took over {TEST_SECONDS} s of CPU time" if signum == signal.SIGPROF
                       else f"took over {WALL_SECONDS} s")


#: the timers ``run_limited`` sets (both end a run with ``_Timeout``) and the seconds each allows
_LIMITS = ((signal.ITIMER_PROF, TEST_SECONDS), (signal.ITIMER_REAL, WALL_SECONDS))


def catch_time_limits() -> None:
    """From now on both timers of ``run_limited`` end a run with ``_Timeout``."""
    signal.signal(signal.SIGALRM, _alarm)
    signal.signal(signal.SIGPROF, _alarm)


def run_limited(fn, *args, **kwargs):
    """``fn(*args, **kwargs)`` under the time limit; the exception it raised, or None. Nested in
    another (a helper module imported by a test), it runs under the outer one's limit, and a time
    out ends the outer run too: the limit is the test's, not the statement's."""
    global _DEPTH
    outer = _DEPTH == 0
    _DEPTH += 1
    if outer:
        for timer, seconds in _LIMITS:
            signal.setitimer(timer, seconds)
    try:
        fn(*args, **kwargs)
        return None
    except _Timeout as e:
        if not outer:
            raise
        return e
    except BaseException as e:   # noqa: BLE001 (a test's outcome, whatever it is)
        if isinstance(e, KeyboardInterrupt):
            raise
        return e
    finally:
        _DEPTH -= 1
        if outer:
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
         "__builtins__": builtins, "__fmin_tag__": traced.tag}
    return run_statements(tree, path, g)


def run_statements(tree: ast.Module, path: str, g: dict) -> dict:
    """Run the module's top-level statements in ``g`` one by one (see ``load_module``)."""
    for node in tree.body:
        error = run_limited(exec, compile(ast.Module([node], []), path, "exec"), g)
        if error is None:
            continue
        if isinstance(node, (ast.Import, ast.ImportFrom)):   # what it would bind: stubs
            g.update({(a.asname or a.name).split(".")[0]: stub_class(a.name.split(".")[-1]) for a in node.names
                      if a.name != "*"})
        elif isinstance(node, (ast.FunctionDef, ast.ClassDef)) and node.decorator_list:
            bare = ast.fix_missing_locations(ast.Module([_undecorated(node)], []))
            run_limited(exec, compile(bare, path, "exec"), g)
    return g


def _undecorated(node):
    keep = [d for d in node.decorator_list if isinstance(d, ast.Call) and isinstance(d.func, ast.Name)
            and d.func.id == "__fmin_tag__"]
    return type(node)(**{**{f: getattr(node, f) for f in node._fields}, "decorator_list": keep})
