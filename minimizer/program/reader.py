"""Read a repro script (any frontend, any era) into a ``Program``.

The script is parsed with libcst, never executed. The fusion is found by what it does (its body
calls ``<fd>.define_*``/``<fd>.ops.*``): a ``def`` of any name whose first parameter is the
FusionDefinition (including ``nvfuser_incomplete_fusion`` called as ``nvfuser_fusion_idNone``), or
a body written inline under ``with FusionDefinition() as fd:`` (then ``Program.func_name`` is None
and the ``with`` block is the fusion). Calls are bound to the op catalog, so a misspelt op, keyword
or DataType is reported where it stands. The ``inputs`` list is understood by ``inputs.py``'s
whitelisted torch evaluator (on ``meta`` tensors).

What else a real repro may do, and how it is read (``docs/script-forms.md``):
* module-level constants (``M, N = 64, 128``; ``EPS = 1e-5``) used in the fusion: numbers,
  strings, DataTypes, lists/tuples of them and arithmetic are resolved to their values; anything
  else stops with a ScriptError at the use;
* ``fd.from_pytorch(x)`` becomes the ``define_tensor(sizes=, strides=, dtype=, static_sizes=,
  is_cpu=)`` it stands for (``x`` evaluated like an input), and prints back as written while
  unchanged;
* ``DataType`` under any name the frontend imports give it (``DT``, ``nvf.DataType``);
* statements under ``if __name__ == "__main__":`` count as module level (``syntax.top_level``).
"""
from __future__ import annotations

import ast
import dataclasses
import operator
import re
from dataclasses import dataclass, field
from typing import Any

import libcst as cst
from libcst.metadata import MetadataWrapper, PositionProvider

from .. import dtypes
from ..errors import ScriptError
from ..ops import BindError, bind, lookup
from .inputs import Evaluator, InputsBlock, find_inputs, scan_module
from .syntax import attr_chain, dotted, is_main_guard, number
from ..model import (DEFINE_TENSOR, DIRECT, LEGACY, OUTPUT, Dialect, DType, Origin, Program, Ref, Stmt, TensorArg,
                     is_input_decl)

_FRONTEND_MODULES = {"nvfuser": LEGACY, "torch._C._nvfuser": LEGACY, "nvfuser_direct": DIRECT,
                     "nvfuser_next": DIRECT}


@dataclass
class Source:
    """The parsed script, kept so that printing can reuse every untouched byte."""
    text: str
    path: str
    module: cst.Module
    fusion_node: cst.FunctionDef | cst.With   # the node whose body is the fusion
    func_name: str | None                      # None: the inline ``with`` form
    import_node: cst.CSTNode | None
    import_module: str | None
    inputs: InputsBlock | None
    dialect: Dialect
    stmts: tuple = ()
    input_args: tuple | None = None
    positions: dict = field(default_factory=dict)


def parse_file(path: str) -> Program:
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except UnicodeDecodeError as e:
        raise ScriptError(f"expected a UTF-8 Python script ({e.reason})", path, 1, 1) from None
    except OSError as e:
        raise ScriptError(f"cannot read the script: {e.strerror}", path, 1, 1) from None
    return parse(text, path)


def parse(text: str, path: str = "<script>") -> Program:
    try:  # Python's own parser gives the better position for plain syntax errors
        ast.parse(text, path)
    except SyntaxError as e:
        raise ScriptError(f"invalid Python syntax: {e.msg}", path, e.lineno or 1, e.offset or 1) from None
    except ValueError as e:  # e.g. null bytes
        raise ScriptError(f"invalid Python source: {e}", path, 1, 1) from None
    try:
        module = cst.parse_module(text)
    except cst.ParserSyntaxError as e:
        line, col = e.raw_line, e.raw_column + 1
        m = re.search(r"error at (\d+):(\d+)", e.message)
        if m:
            line, col = int(m.group(1)), int(m.group(2)) + 1
        msg = re.sub(r"^parser error: error at \d+:\d+: ", "", e.message)
        raise ScriptError(f"invalid Python syntax: {msg}", path, line, col) from None
    wrapper = MetadataWrapper(module, unsafe_skip_copy=True)
    positions = wrapper.resolve(PositionProvider)
    return _Reader(text, path, module, positions).read()


def ending_at_execute(program: Program) -> Program:
    """``program`` with its script cut after the statement that executes the fusion (the first
    ``fd.execute``, the one whose inputs list the model holds): what a seed of the fuzzer keeps.

    Why: a seed is a real script, and what it does after ``fd.execute`` (asserts on its outputs'
    shapes or values, a comparison with its own eager code, prints, a second execute on other
    inputs) is about the seed's own inputs. A mutant changes shapes, dtypes and inputs, so that
    code fails on it and fmin would judge the seed's code instead of the fusion. Only the fuzzer
    cuts it: ``fmin reduce`` keeps a user's script whole, since its own check may be what the
    reduction must keep failing. A statement under ``if __name__ == "__main__":`` after the execute
    goes too; everything before it stays (constants and names the inputs are built from). A
    script whose execute is not found (or whose fusion or inputs come after it) is unchanged."""
    src = program.source
    if src is None:
        return program
    call = scan_module(src.module).execute
    body = _cut_after(src.module.body, call) if call is not None else None
    if body is None or len(body) == len(src.module.body) and body[-1] is src.module.body[-1]:
        return program
    kept = _Nodes(body)
    needed = [n for n in (src.fusion_node, src.import_node, src.inputs.list_node if src.inputs else None) if n]
    if not all(kept.has(n) for n in needed):
        return program
    module = src.module.with_changes(body=body)
    return program.replace(source=dataclasses.replace(src, text=module.code, module=module))


def _cut_after(body, call: cst.Call) -> list | None:
    """The statements of ``body`` up to the one holding ``call`` (looking into an ``if __name__ ==
    "__main__":`` block, cut there too), or None when none holds it. Untouched statements stay
    the same nodes: the printer finds the fusion and the inputs list by identity."""
    for k, stmt in enumerate(body):
        if is_main_guard(stmt) and isinstance(stmt.body, cst.IndentedBlock):
            inner = _cut_after(stmt.body.body, call)
            if inner is not None:
                guard = stmt if len(inner) == len(stmt.body.body) else \
                    stmt.with_changes(body=stmt.body.with_changes(body=inner))
                return list(body[:k]) + [guard]
        elif _Nodes([stmt]).has(call):
            return list(body[:k + 1])
    return None


class _Nodes(cst.CSTVisitor):
    """Every node under some statements, by identity."""

    def __init__(self, stmts):
        super().__init__()
        self.ids: set[int] = set()
        for st in stmts:
            st.visit(self)

    def on_visit(self, node) -> bool:
        self.ids.add(id(node))
        return True

    def has(self, node) -> bool:
        return id(node) in self.ids


class _Reader:
    def __init__(self, text: str, path: str, module: cst.Module, positions):
        self.text, self.path, self.module, self.pos = text, path, module, positions
        self._constants_used = 0   # bumped by every module-level constant an argument reads
        self._fusion_names: set[str] = set()

    # ---- errors ----
    def where(self, node: cst.CSTNode) -> tuple[int, int]:
        p = self.pos.get(node)
        return (p.start.line, p.start.column + 1) if p else (1, 1)

    def fail(self, node: cst.CSTNode | None, message: str):
        line, col = self.where(node) if node is not None else (1, 1)
        raise ScriptError(message, self.path, line, col)

    # ---- top level ----
    def read(self) -> Program:
        scan = scan_module(self.module)
        self.scan = scan
        self._ev = Evaluator(scan.env, self.pos, self.path, scan.opaque)
        import_node, import_module, self._dt_chains, datatype = self._imports(scan.statements)
        node, fd_name, func_name = self._find_fusion(scan.statements)
        frontend = _FRONTEND_MODULES.get(import_module or "", None) or self._guess_frontend(func_name)
        stmts, spellings = self._read_body(node, fd_name, frontend)
        dialect = Dialect(frontend=frontend, module=import_module or frontend, spellings=frozenset(spellings),
                          datatype=datatype)
        block = find_inputs(scan, self.pos, self.path)
        inputs = block.args if block is not None else None
        if block is not None:
            self._check_input_count(stmts, block)
        src = Source(self.text, self.path, self.module, node, func_name, import_node, import_module, block,
                     dialect, tuple(stmts), inputs, self.pos)
        return Program(dialect=dialect, func_name=func_name, stmts=tuple(stmts), inputs=inputs,
                       fd_name=fd_name, source=src)

    def _check_input_count(self, stmts, block) -> None:
        """nvFuser takes exactly one argument per fusion input: fewer fail while binding inputs,
        and so do more (``SchedulerRuntimeInfo`` asserts ``fusion->inputs().size() ==
        args.size()``, csrc/scheduler/runtime_info.cpp, reached from every ``fd.execute``; see
        docs/script-forms.md), so both are refused here, before anything runs."""
        from .interpret import input_count
        want = input_count(stmts)
        have = len(block.args)
        if want == have:
            return
        names = ", ".join(s.outs[0] for s in stmts if is_input_decl(s) and s.outs)
        if have > want:
            extra = block.elements[want].value
            self.fail(extra, f"the fusion declares {want} inputs ({names}) but the inputs list has {have}: "
                             f"this element and any after it have no fusion input (nvFuser rejects extra "
                             f"inputs: its executor asserts one argument per fusion input)")
        self.fail(block.list_node, f"the fusion declares {want} inputs ({names}) but the inputs list "
                                   f"has {have}")

    def _imports(self, statements):
        """The first import of a frontend module (it decides the frontend), every spelling of
        ``DataType`` the imports make valid, and the one re-rendered statements use."""
        first, from_name, mod_name = None, None, None
        chains = {("DataType",)}
        for stmt in statements:
            if not isinstance(stmt, cst.SimpleStatementLine):
                continue
            for small in stmt.body:
                if isinstance(small, cst.ImportFrom) and small.module is not None:
                    name = dotted(small.module)
                    if name not in _FRONTEND_MODULES:
                        continue
                    first = first or (small, name)
                    if isinstance(small.names, cst.ImportStar):
                        continue
                    for alias in small.names:
                        if dotted(alias.name) == "DataType":
                            local = alias.asname.name.value if alias.asname is not None else "DataType"
                            chains.add((local,))
                            from_name = from_name or local
                elif isinstance(small, cst.Import):
                    for alias in small.names:
                        name = dotted(alias.name)
                        if name not in _FRONTEND_MODULES:
                            continue
                        first = first or (small, name)
                        head = [alias.asname.name.value] if alias.asname is not None else name.split(".")
                        chains.add(tuple(head) + ("DataType",))
                        mod_name = mod_name or ".".join(head + ["DataType"])
        node, module = first if first is not None else (None, None)
        return node, module, frozenset(chains), from_name or mod_name or "DataType"

    def _find_fusion(self, statements) -> tuple[cst.CSTNode, str, str | None]:
        """(node whose body is the fusion, the FusionDefinition's name, the def's name or None)."""
        candidates = []
        for stmt in statements:
            if isinstance(stmt, cst.FunctionDef):
                params = stmt.params.params
                if len(params) >= 1:
                    fd = params[0].name.value
                    if _calls_fd(stmt, fd):
                        candidates.append((stmt, fd, stmt.name.value))
                elif _calls_fd(stmt, "fd"):
                    self.fail(stmt.name, f"the fusion function '{stmt.name.value}' must take the "
                                         f"FusionDefinition as its parameter, e.g. def {stmt.name.value}(fd : FusionDefinition)")
            elif isinstance(stmt, cst.With):
                for item in stmt.items:
                    target = item.asname.name if item.asname is not None else None
                    if isinstance(target, cst.Name) and isinstance(item.item, cst.Call) \
                            and _calls_fd(stmt, target.value):
                        candidates.append((stmt, target.value, None))
                        break
        if not candidates:
            raise ScriptError("expected a fusion: a function `def <name>(fd : FusionDefinition)` or a block "
                              "`with FusionDefinition() as fd:` whose body calls fd.define_tensor/fd.ops.* "
                              "(none found)", self.path, 1, 1)
        if len(candidates) > 1:
            names = ", ".join(c[2] or f"the `with` block at line {self.where(c[0])[0]}" for c in candidates)
            node = candidates[1][0]
            self.fail(node.name if isinstance(node, cst.FunctionDef) else node,
                      f"expected one fusion, found {len(candidates)}: {names}")
        return candidates[0]

    def _guess_frontend(self, func_name: str | None) -> str:
        if func_name == "nvfuser_fusion":
            return DIRECT
        return LEGACY

    # ---- the fusion body ----
    def _read_body(self, owner: cst.FunctionDef | cst.With, fd: str, frontend: str):
        body = owner.body
        what = "fusion function's body" if isinstance(owner, cst.FunctionDef) else "`with` block's fusion body"
        if not isinstance(body, cst.IndentedBlock):
            self.fail(owner, f"expected the {what} on its own indented lines")
        self._fusion_names = _bound_names(body)
        stmts: list[Stmt] = []
        spellings: set[str] = set()
        defined: set[str] = set()
        for line in body.body:
            if not isinstance(line, cst.SimpleStatementLine):
                self.fail(line, "expected `name = fd.ops.<op>(...)`, `fd.define_*(...)` or `fd.add_output(...)`; "
                                "loops and conditionals in the fusion body are not supported")
            if len(line.body) != 1:
                self.fail(line.body[1], "expected one fusion statement per line")
            small = line.body[0]
            if isinstance(small, cst.Expr) and isinstance(small.value, (cst.SimpleString, cst.ConcatenatedString)):
                self.fail(small, "expected fusion statements only (docstrings are not supported in the fusion body)")
            if isinstance(small, cst.Pass):
                self.fail(small, "expected a fusion statement, got `pass`")
            self._nested = []
            stmt, aliases, meta = self._read_stmt(small, fd, frontend, defined)
            spellings |= aliases
            l, c = self.where(line)
            # calls nested inside this line's call came first, as statements of their own
            for st, (texts, torch_call) in self._nested + [(stmt, meta)]:
                stmts.append(Stmt(st.outs, st.call, st.args, st.npos, st.tuple_target,
                                  origin=Origin(line, l, c, parsed=st, texts=texts, from_pytorch=torch_call)))
            defined.update(n for n in stmt.outs if n is not None)
        return stmts, spellings

    def _read_stmt(self, small: cst.BaseSmallStatement, fd: str, frontend: str, defined: set[str]):
        self._fd, self._frontend = fd, frontend
        outs: tuple[str | None, ...] = ()
        tuple_target = False
        if isinstance(small, cst.Assign):
            if len(small.targets) != 1:
                self.fail(small.targets[1].target, "expected a single assignment target")
            outs, tuple_target = self._read_targets(small.targets[0].target)
            call = small.value
        elif isinstance(small, cst.AnnAssign) and small.value is not None:
            outs, tuple_target = self._read_targets(small.target)
            call = small.value
        elif isinstance(small, cst.Expr):
            call = small.value
        else:
            self.fail(small, "expected `name = fd.ops.<op>(...)`, `fd.define_*(...)` or `fd.add_output(...)`")
        if not isinstance(call, cst.Call):
            self.fail(call, f"expected a call of {fd}.ops.<op>(...) or {fd}.define_*(...)")
        stmt, aliases, meta = self._read_call(call, fd, frontend, defined)
        n_out = self._n_outputs(stmt)
        if outs and n_out >= 0 and len(outs) != n_out:  # -1: one result per dim, known at run time
            called = "from_pytorch" if meta[1] is not None else stmt.call
            self.fail(small, f"{fd}.{called} returns {n_out} value(s), but {len(outs)} name(s) are assigned")
        return Stmt(outs, stmt.call, stmt.args, stmt.npos, tuple_target), aliases, meta

    def _n_outputs(self, stmt: Stmt) -> int:
        spec = lookup(stmt.call)
        if spec.family == "define":
            return 0 if stmt.is_output else 1
        return spec.n_outputs

    def _read_call(self, call: cst.Call, fd: str, frontend: str, defined: set[str]):
        """The call as a statement without outputs, the era spellings it used, and what the
        printer needs to keep its text: (per-parameter texts of arguments that use module-level
        constants, the ``from_pytorch`` argument text or None)."""
        name = self._call_name(call.func, fd)
        if name == "from_pytorch":
            return self._from_pytorch(call, frontend, defined)
        spec = lookup(name)
        if spec is None:
            if name.startswith("ops."):
                self.fail(call.func, f"unknown op {fd}.{name} (not in fmin's op catalog)")
            self.fail(call.func, f"unknown FusionDefinition method {fd}.{name}")
        args, kwargs, texts = self._arguments(call, defined)
        try:
            bound = bind(spec, tuple(args), tuple(kwargs), frontend)
        except BindError as e:
            node: cst.CSTNode = call
            if e.keyword is not None:
                node = next(a.keyword for a in call.args if a.keyword is not None and a.keyword.value == e.keyword)
            elif e.arg_index is not None and e.arg_index < len(call.args):
                node = call.args[e.arg_index]
            self.fail(node, str(e))
        if frontend == LEGACY:
            self._no_raw_numbers(spec, call, bound)
        # bound.args are in the order written, like call.args: the i-th is the i-th argument
        named = tuple((bound.args[i][0], t) for i, t in texts if i < len(bound.args))
        return Stmt((), name, bound.args, bound.npos), set(bound.aliases_used), (named, None)

    def _arguments(self, call: cst.Call, defined: set[str]):
        """Positional values, keyword (name, value) pairs, and (index, text) of the arguments that
        use module-level constants."""
        args, kwargs, texts = [], [], []
        seen_kw: set[str] = set()
        for i, a in enumerate(call.args):
            if a.star:
                self.fail(a, "expected plain arguments (no * or ** unpacking)")
            used = self._constants_used
            v = self._value(a.value, defined)
            if self._constants_used > used:
                texts.append((i, self.module.code_for_node(a.value)))
            if a.keyword is None:
                if kwargs:
                    self.fail(a, "positional argument after keyword argument")
                args.append(v)
            else:
                kw = a.keyword.value
                if kw in seen_kw:
                    self.fail(a.keyword, f"keyword argument '{kw}' repeated")
                seen_kw.add(kw)
                kwargs.append((kw, v))
        return args, kwargs, texts

    def _from_pytorch(self, call: cst.Call, frontend: str, defined: set[str]):
        """``fd.from_pytorch(tensor, static_sizes=False)`` is nvFuser's shorthand for
        ``fd.define_tensor(sizes=tensor.size(), strides=tensor.stride(), dtype=<its dtype>,
        static_sizes=static_sizes, is_cpu=tensor.is_cpu)`` (python/nvfuser/__init__.py and
        python/nvfuser_direct/__init__.py); it raises ValueError for a CPU tensor that is not 0-dim.
        The tensor expression is evaluated like an input (on ``meta``), never run."""
        positional = [a for a in call.args if a.keyword is None]
        keywords = {a.keyword.value: a for a in call.args if a.keyword is not None}
        for a in call.args:
            if a.star:
                self.fail(a, "expected plain arguments (no * or ** unpacking)")
            if a.keyword is not None and a.keyword.value not in ("tensor", "static_sizes"):
                self.fail(a.keyword, f"fd.from_pytorch() got an unexpected keyword argument "
                                     f"'{a.keyword.value}' (expected one of: tensor, static_sizes)")
        if len(positional) > 2:
            self.fail(positional[2], "fd.from_pytorch() takes at most 2 positional arguments (tensor, static_sizes)")
        tensor = positional[0].value if positional else keywords["tensor"].value if "tensor" in keywords else None
        if tensor is None:
            self.fail(call, "fd.from_pytorch() missing required argument 'tensor'")
        flag = positional[1].value if len(positional) > 1 else \
            keywords["static_sizes"].value if "static_sizes" in keywords else None
        static = False
        if flag is not None:
            static = self._value(flag, defined)
            if not isinstance(static, bool):
                self.fail(flag, "fd.from_pytorch() argument 'static_sizes' expects True or False")
        arg = self._ev.input_arg(tensor)
        if not isinstance(arg, TensorArg):
            self.fail(tensor, "fd.from_pytorch() expects a torch tensor (built like an input, e.g. "
                              "torch.randn(..., device='cuda')), got a Python scalar")
        is_cpu = arg.device.split(":")[0] == "cpu"
        if is_cpu and arg.ndim != 0:
            self.fail(tensor, "fd.from_pytorch() takes a CUDA tensor or a 0-dim CPU tensor (nvFuser raises "
                              "ValueError for this CPU tensor); give it device='cuda'")
        kwargs = (("sizes", arg.shape), ("strides", arg.strides), ("dtype", DType(arg.dtype)),
                  ("static_sizes", static), ("is_cpu", is_cpu))
        bound = bind(lookup(DEFINE_TENSOR), (), kwargs, frontend)
        code = self.module.code_for_node(call)
        head = self.module.code_for_node(call.func)
        return Stmt((), DEFINE_TENSOR, bound.args, bound.npos), set(), ((), code[len(head):])

    def _no_raw_numbers(self, spec, call: cst.Call, bound) -> None:
        """The legacy frontend's ops take Scalar values only: every constant is a define_scalar."""
        if spec.family == "define":
            return
        for i, (name, v) in enumerate(bound.args):
            kind = spec.param(name).kind
            if kind in ("operand", "scalar") and isinstance(v, (bool, int, float, complex)):
                self.fail(call.args[i].value, f"the legacy frontend takes no Python number for '{name}' of "
                                              f"fd.ops.{spec.name}; define it with fd.define_scalar(...) first")

    def _read_targets(self, target: cst.BaseAssignTargetExpression):
        if isinstance(target, cst.Name):
            return ((None if target.value == "_" else target.value),), False
        if isinstance(target, (cst.Tuple, cst.List)):
            names = []
            for el in target.elements:
                if not isinstance(el.value, cst.Name):
                    self.fail(el.value, "expected a plain name as assignment target")
                names.append(None if el.value.value == "_" else el.value.value)
            return tuple(names), True
        self.fail(target, "expected a plain name as assignment target")

    def _nested_call(self, node: cst.Call, defined: set[str]) -> Ref:
        """``fd.ops.rsqrt(fd.ops.add(x, 1e-5))``: the inner call becomes a statement of its own
        with a fresh name, so the model stays one op per statement."""
        used = self._constants_used
        inner, aliases, meta = self._read_call(node, self._fd, self._frontend, defined)
        self._constants_used = used  # the inner call's constants are its own statement's
        if self._n_outputs(inner) != 1:
            self.fail(node, "expected a call with one result when nested inside another call")
        name = _fresh(defined | {n for s, _ in self._nested for n in s.outs}, self._nested, self.where(node)[0])
        self._nested.append((Stmt((name,), inner.call, inner.args, inner.npos), meta))
        defined.add(name)
        return Ref(name)

    def _call_name(self, func: cst.BaseExpression, fd: str) -> str:
        parts = attr_chain(func)
        if parts is None or parts[0] != fd or len(parts) not in (2, 3) or (len(parts) == 3 and parts[1] != "ops"):
            self.fail(func, f"expected a call of {fd}.ops.<op>(...) or {fd}.define_*(...)")
        return ".".join(parts[1:])

    # ---- argument values ----
    def _value(self, node: cst.BaseExpression, defined: set[str]) -> Any:
        if isinstance(node, cst.Name):
            v = node.value
            if v == "None":
                return None
            if v == "True":
                return True
            if v == "False":
                return False
            if v in defined:
                return Ref(v)
            if v in self._fusion_names:
                self.fail(node, f"name '{v}' is used before it is defined in the fusion")
            if v in self.scan.env or v in self.scan.opaque:
                self._constants_used += 1
                return self._constant(node, v, 0)
            self.fail(node, f"name '{v}' is not defined (neither a fusion value defined above it nor a "
                            f"module-level constant)")
        if number(node) is not None:
            return number(node)
        if isinstance(node, cst.UnaryOperation) and isinstance(node.operator, (cst.Minus, cst.Plus)):
            v = self._value(node.expression, defined)
            if isinstance(v, (int, float, complex)) and not isinstance(v, bool):
                return -v if isinstance(node.operator, cst.Minus) else v
            self.fail(node, "expected a number after the sign")
        if isinstance(node, cst.BinaryOperation) and isinstance(node.operator, (cst.Add, cst.Subtract)) \
                and isinstance(node.right, cst.Imaginary):
            re_ = self._value(node.left, defined)
            im = self._value(node.right, defined)
            if isinstance(re_, (int, float)) and not isinstance(re_, bool):
                return re_ + im if isinstance(node.operator, cst.Add) else re_ - im
        if isinstance(node, cst.BinaryOperation) and type(node.operator) in _ARITH:
            # arithmetic of constants (``[M * N]``); its text is kept like a constant's
            a, b = self._value(node.left, defined), self._value(node.right, defined)
            if any(isinstance(r, Ref) for v in (a, b) for r in ([v] if not isinstance(v, tuple) else v)):
                self.fail(node, f"expected a fusion op ({self._fd}.ops.add, ...) for arithmetic on fusion "
                                f"values; Python operators work on constants only")
            try:
                v = self._const_expr(node, node, 0)
            except _NotConstant as e:
                self.fail(node, f"cannot compute this constant: {e.args[0]}")
            self._constants_used += 1
            return v
        if isinstance(node, (cst.List, cst.Tuple)):
            if any(isinstance(el, cst.StarredElement) for el in node.elements):
                self.fail(node, "expected a list of values (no * unpacking)")
            return tuple(self._value(el.value, defined) for el in node.elements)
        if isinstance(node, cst.Attribute):
            parts = attr_chain(node)
            if parts and len(parts) >= 2 and tuple(parts[:-1]) in self._dt_chains:
                parts = ["DataType", parts[-1]]
                if not dtypes.is_nv_dtype(parts[1]):
                    close = ", ".join(d for d in dtypes.NV_DTYPES if d.lower()[:3] == parts[1].lower()[:3]) \
                        or ", ".join(dtypes.NV_DTYPES)
                    self.fail(node.attr, f"unknown DataType '{parts[1]}' (expected one of: {close})")
                return DType(parts[1])
        if isinstance(node, cst.Call):
            parts = attr_chain(node.func)
            if parts and len(parts) == 3 and parts[0] == self._fd and parts[1] == "ops":
                return self._nested_call(node, defined)
            if parts == ["float"] and len(node.args) == 1 and isinstance(node.args[0].value, cst.SimpleString):
                s = node.args[0].value.evaluated_value
                if s.strip().lower() in ("inf", "-inf", "nan", "+inf", "infinity", "-infinity"):
                    return float(s)
        if isinstance(node, cst.SimpleString):
            return node.evaluated_value
        self.fail(node, "expected a fusion value, a number, a list or DataType.<name> here")


    # ---- module-level constants ----
    def _constant(self, use: cst.Name, name: str, depth: int):
        """The value of a module-level name used in the fusion: numbers, strings, DataTypes, lists
        and tuples of them, and arithmetic of those, through other such names. Errors point at
        the use in the fusion and name the assignment."""
        if name in self.scan.opaque:
            line = self.where(self.scan.opaque[name])[0]
            self.fail(use, f"name '{name}' is bound at line {line} in a way fmin does not evaluate; expected "
                           f"a module-level constant `{name} = <number, string, list or tuple>`")
        expr = self.scan.env[name]
        if depth > 20:
            self.fail(use, f"name '{name}': module-level constants refer to each other too deeply")
        try:
            return self._const_expr(expr, use, depth)
        except _NotConstant as e:
            line = self.where(expr)[0]
            self.fail(use, f"name '{name}' is not a constant fmin can read: its value (line {line}) has "
                           f"{e.args[0]}; module-level constants may be numbers, strings, DataType.<name>, "
                           f"lists/tuples of them and arithmetic")

    def _const_expr(self, node: cst.BaseExpression, use: cst.Name, depth: int):
        if number(node) is not None:
            return number(node)
        if isinstance(node, (cst.SimpleString, cst.ConcatenatedString)):
            v = node.evaluated_value
            if isinstance(v, str):
                return v
            raise _NotConstant("a bytes literal")
        if isinstance(node, cst.Name):
            if node.value in ("True", "False", "None"):
                return {"True": True, "False": False, "None": None}[node.value]
            if node.value in self.scan.env or node.value in self.scan.opaque:
                return self._constant(use, node.value, depth + 1)
            raise _NotConstant(f"the undefined name '{node.value}'")
        if isinstance(node, (cst.List, cst.Tuple)):
            if any(isinstance(e, cst.StarredElement) for e in node.elements):
                raise _NotConstant("* unpacking")
            return tuple(self._const_expr(e.value, use, depth) for e in node.elements)
        if isinstance(node, cst.UnaryOperation) and isinstance(node.operator, (cst.Minus, cst.Plus)):
            v = self._const_expr(node.expression, use, depth)
            if isinstance(v, (int, float, complex)) and not isinstance(v, bool):
                return -v if isinstance(node.operator, cst.Minus) else v
            raise _NotConstant("a sign before something that is not a number")
        if isinstance(node, cst.BinaryOperation):
            a = self._const_expr(node.left, use, depth)
            b = self._const_expr(node.right, use, depth)
            op = _ARITH.get(type(node.operator))
            num = (int, float, complex)
            ok = (isinstance(a, num) and isinstance(b, num)
                  or type(a) is type(b) and isinstance(a, (tuple, str)) and op is operator.add
                  or isinstance(a, (tuple, str)) and isinstance(b, int) and op is operator.mul)
            if op is None or not ok:
                raise _NotConstant("an operation fmin does not evaluate")
            try:
                return op(a, b)
            except (ArithmeticError, ValueError, OverflowError) as e:
                raise _NotConstant(f"arithmetic that fails ({e})") from None
        if isinstance(node, cst.Attribute):
            parts = attr_chain(node)
            if parts and len(parts) >= 2 and tuple(parts[:-1]) in self._dt_chains and dtypes.is_nv_dtype(parts[-1]):
                return DType(parts[-1])
        if isinstance(node, cst.Call):
            parts = attr_chain(node.func)
            if parts == ["float"] and len(node.args) == 1 and isinstance(node.args[0].value, cst.SimpleString):
                s = node.args[0].value.evaluated_value
                if s.strip().lower() in ("inf", "-inf", "nan", "+inf", "infinity", "-infinity"):
                    return float(s)
        raise _NotConstant(f"`{self.module.code_for_node(node)}`")


class _NotConstant(Exception):
    pass


_ARITH = {cst.Add: operator.add, cst.Subtract: operator.sub, cst.Multiply: operator.mul,
          cst.Divide: operator.truediv, cst.FloorDivide: operator.floordiv, cst.Modulo: operator.mod,
          cst.Power: operator.pow}


def _bound_names(body: cst.IndentedBlock) -> set[str]:
    """Every name an assignment in the fusion body binds."""
    names: set[str] = set()
    for line in body.body:
        if not isinstance(line, cst.SimpleStatementLine):
            continue
        for small in line.body:
            targets = [t.target for t in small.targets] if isinstance(small, cst.Assign) else \
                [small.target] if isinstance(small, cst.AnnAssign) else []
            for t in targets:
                for el in (t.elements if isinstance(t, (cst.Tuple, cst.List)) else [t]):
                    v = el.value if isinstance(el, cst.BaseElement) else el
                    if isinstance(v, cst.Name):
                        names.add(v.value)
    return names


def _fresh(defined: set[str], taken: list, line: int) -> str:
    """A name for a nested call's result: per line, so re-reading a printed program gives the
    same names."""
    k = len(taken)
    while f"fmin_t{line}_{k}" in defined:
        k += 1
    return f"fmin_t{line}_{k}"


def _calls_fd(func: cst.FunctionDef, fd: str) -> bool:
    """Whether the body holds at least one ``fd.define_*``/``fd.ops.*``/``fd.add_output`` call."""
    found = False

    class V(cst.CSTVisitor):
        def visit_Call(self, node: cst.Call) -> None:
            nonlocal found
            parts = attr_chain(node.func)
            if parts and parts[0] == fd and len(parts) >= 2 and (
                    parts[1] == "ops" or parts[1].startswith("define_") or parts[1] in (OUTPUT, "from_pytorch")):
                found = True

    func.body.visit(V())
    return found
