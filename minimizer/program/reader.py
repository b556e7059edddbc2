"""Read a repro script (any frontend, any era) into a ``Program``.

The script is parsed with libcst, never executed. The fusion function is found by what it does
(its body calls ``<param>.define_*``/``<param>.ops.*``), so any ``def`` name works, including
``nvfuser_incomplete_fusion`` called as ``nvfuser_fusion_idNone``. Calls are bound to the op
catalog, so a misspelt op, keyword or DataType is reported where it stands. The ``inputs`` list
is understood by ``inputs.py``'s whitelisted torch evaluator (on ``meta`` tensors).
"""
from __future__ import annotations

import ast
import re
from dataclasses import dataclass, field
from typing import Any

import libcst as cst
from libcst.metadata import MetadataWrapper, PositionProvider

from .. import dtypes
from ..errors import ScriptError
from ..ops import BindError, bind, lookup
from .inputs import InputsBlock, find_inputs
from .syntax import attr_chain, dotted, number
from ..model import DIRECT, LEGACY, Dialect, DType, Origin, Program, Ref, Stmt, is_input_decl

_FRONTEND_MODULES = {"nvfuser": LEGACY, "torch._C._nvfuser": LEGACY, "nvfuser_direct": DIRECT,
                     "nvfuser_next": DIRECT}


@dataclass
class Source:
    """The parsed script, kept so that printing can reuse every untouched byte."""
    text: str
    path: str
    module: cst.Module
    func: cst.FunctionDef
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


class _Reader:
    def __init__(self, text: str, path: str, module: cst.Module, positions):
        self.text, self.path, self.module, self.pos = text, path, module, positions

    # ---- errors ----
    def where(self, node: cst.CSTNode) -> tuple[int, int]:
        p = self.pos.get(node)
        return (p.start.line, p.start.column + 1) if p else (1, 1)

    def fail(self, node: cst.CSTNode | None, message: str):
        line, col = self.where(node) if node is not None else (1, 1)
        raise ScriptError(message, self.path, line, col)

    # ---- top level ----
    def read(self) -> Program:
        import_node, import_module = self._find_import()
        func, fd_name = self._find_fusion_function()
        frontend = _FRONTEND_MODULES.get(import_module or "", None) or self._guess_frontend(func)
        stmts, spellings = self._read_body(func, fd_name, frontend)
        dialect = Dialect(frontend=frontend, module=import_module or frontend, spellings=frozenset(spellings))
        block = find_inputs(self.module, self.pos, self.path)
        inputs = block.args if block is not None else None
        if block is not None:
            self._check_input_count(stmts, block)
        src = Source(self.text, self.path, self.module, func, import_node, import_module, block, dialect,
                     tuple(stmts), inputs, self.pos)
        return Program(dialect=dialect, func_name=func.name.value, stmts=tuple(stmts), inputs=inputs,
                       fd_name=fd_name, source=src)

    def _check_input_count(self, stmts, block) -> None:
        from .interpret import input_count
        want = input_count(stmts)
        if want != len(block.args):
            names = ", ".join(s.outs[0] for s in stmts if is_input_decl(s) and s.outs)
            self.fail(block.list_node, f"the fusion declares {want} inputs ({names}) but the inputs list "
                                       f"has {len(block.args)}")

    def _find_import(self):
        for stmt in self.module.body:
            if not isinstance(stmt, cst.SimpleStatementLine):
                continue
            for small in stmt.body:
                if isinstance(small, cst.ImportFrom) and small.module is not None:
                    name = dotted(small.module)
                    if name in _FRONTEND_MODULES:
                        return small, name
                if isinstance(small, cst.Import):
                    for alias in small.names:
                        name = dotted(alias.name)
                        if name in _FRONTEND_MODULES:
                            return small, name
        return None, None

    def _find_fusion_function(self) -> tuple[cst.FunctionDef, str]:
        candidates = []
        for stmt in self.module.body:
            if isinstance(stmt, cst.FunctionDef):
                params = stmt.params.params
                if len(params) >= 1:
                    fd = params[0].name.value
                    if _calls_fd(stmt, fd):
                        candidates.append((stmt, fd))
                elif _calls_fd(stmt, "fd"):
                    self.fail(stmt.name, f"the fusion function '{stmt.name.value}' must take the "
                                         f"FusionDefinition as its parameter, e.g. def {stmt.name.value}(fd : FusionDefinition)")
        if not candidates:
            raise ScriptError("expected a function `def <name>(fd : FusionDefinition)` whose body calls "
                              "fd.define_tensor/fd.ops.* (none found)", self.path, 1, 1)
        if len(candidates) > 1:
            names = ", ".join(c[0].name.value for c in candidates)
            self.fail(candidates[1][0].name, f"expected one fusion function, found {len(candidates)}: {names}")
        return candidates[0]

    def _guess_frontend(self, func: cst.FunctionDef) -> str:
        if func.name.value == "nvfuser_fusion":
            return DIRECT
        return LEGACY

    # ---- the fusion body ----
    def _read_body(self, func: cst.FunctionDef, fd: str, frontend: str):
        body = func.body
        if not isinstance(body, cst.IndentedBlock):
            self.fail(func, "expected the fusion function's body on its own indented lines")
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
            stmt, aliases = self._read_stmt(small, fd, frontend, defined)
            spellings |= aliases
            l, c = self.where(line)
            # calls nested inside this line's call came first, as statements of their own
            for st in self._nested + [stmt]:
                stmts.append(Stmt(st.outs, st.call, st.args, st.npos, st.tuple_target,
                                  origin=Origin(line, l, c, parsed=st)))
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
        stmt, aliases = self._read_call(call, fd, frontend, defined)
        n_out = self._n_outputs(stmt)
        if outs and n_out >= 0 and len(outs) != n_out:  # -1: one result per dim, known at run time
            self.fail(small, f"{fd}.{stmt.call} returns {n_out} value(s), but {len(outs)} name(s) are assigned")
        return Stmt(outs, stmt.call, stmt.args, stmt.npos, tuple_target), aliases

    def _n_outputs(self, stmt: Stmt) -> int:
        spec = lookup(stmt.call)
        if spec.family == "define":
            return 0 if stmt.call == "add_output" else 1
        return spec.n_outputs

    def _read_call(self, call: cst.Call, fd: str, frontend: str, defined: set[str]):
        name = self._call_name(call.func, fd)
        spec = lookup(name)
        if spec is None:
            if name.startswith("ops."):
                self.fail(call.func, f"unknown op {fd}.{name} (not in fmin's op catalog)")
            self.fail(call.func, f"unknown FusionDefinition method {fd}.{name}")
        args, kwargs = [], []
        seen_kw: set[str] = set()
        for a in call.args:
            if a.star:
                self.fail(a, "expected plain arguments (no * or ** unpacking)")
            v = self._value(a.value, defined)
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
        return Stmt((), name, bound.args, bound.npos), set(bound.aliases_used)

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
        inner, aliases = self._read_call(node, self._fd, self._frontend, defined)
        if self._n_outputs(inner) != 1:
            self.fail(node, "expected a call with one result when nested inside another call")
        name = _fresh(defined | {n for s in self._nested for n in s.outs}, self._nested, self.where(node)[0])
        self._nested.append(Stmt((name,), inner.call, inner.args, inner.npos))
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
            self.fail(node, f"name '{v}' is used before it is defined in the fusion")
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
        if isinstance(node, (cst.List, cst.Tuple)):
            return tuple(self._value(el.value, defined) for el in node.elements)
        if isinstance(node, cst.Attribute):
            parts = attr_chain(node)
            if parts and len(parts) == 2 and parts[0] == "DataType":
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
                    parts[1] == "ops" or parts[1].startswith("define_") or parts[1] == "add_output"):
                found = True

    func.body.visit(V())
    return found
