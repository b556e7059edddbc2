"""Understand a script's ``inputs`` list without running the script.

Repros build inputs many ways (``torch.testing.make_tensor``, ``torch.randn(N).as_strided(...)``,
``torch.randint(...)``, ``torch.randn(...) > 0``, Python scalars, names bound earlier). Each element
is evaluated by a small whitelisted interpreter over the syntax tree, on torch ``meta`` tensors:
only the calls listed here run, no data is made, and nothing from the script executes. What comes
out is a ``TensorArg`` (shape, strides, dtype, device) or a ``ScalarArg``.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import libcst as cst
import torch

from .. import dtypes
from ..errors import ScriptError
from ..model import Origin, ScalarArg, TensorArg
from .syntax import attr_chain, dotted, number, top_level

_FACTORIES = {"randn", "rand", "zeros", "ones", "empty", "randint", "full", "tensor", "arange",
              "empty_strided", "randn_like", "rand_like", "zeros_like", "ones_like", "empty_like",
              "full_like", "randint_like", "scalar_tensor", "as_strided", "linspace", "eye", "randperm"}
_METHODS = {"as_strided", "to", "cuda", "cpu", "contiguous", "t", "transpose", "permute", "expand",
            "expand_as", "unsqueeze", "squeeze", "view", "reshape", "float", "half", "bfloat16", "double",
            "int", "long", "bool", "clone", "requires_grad_", "detach", "mT", "T", "flatten", "narrow",
            "stride", "size", "abs", "neg", "sin", "cos", "exp", "mul", "add", "div", "sub",
            "fill_", "normal_", "uniform_", "zero_"}
_DTYPE_METHODS = {"float": torch.float32, "half": torch.float16, "bfloat16": torch.bfloat16,
                  "double": torch.float64, "int": torch.int32, "long": torch.int64, "bool": torch.bool}


@dataclass
class InputsBlock:
    """Where the inputs list is and what it holds."""
    list_node: cst.List
    elements: tuple[cst.Element, ...]
    args: tuple


class _Unsupported(Exception):
    def __init__(self, node: cst.CSTNode, message: str):
        super().__init__(message)
        self.node = node


_AUG = {cst.AddAssign: cst.Add, cst.SubtractAssign: cst.Subtract, cst.MultiplyAssign: cst.Multiply,
        cst.FloorDivideAssign: cst.FloorDivide, cst.DivideAssign: cst.Divide, cst.PowerAssign: cst.Power,
        cst.ModuloAssign: cst.Modulo}


@dataclass
class ModuleScan:
    """What runs at module level before ``fd.execute``, read without running it.

    ``statements`` are the top-level statements with an ``if __name__ == "__main__":`` body in its
    place (``syntax.top_level``). ``env`` maps each name bound by a plain assignment (``x = ...``,
    ``M, N = 64, 128``, ``N *= 2``) to the expression it holds, the last binding before
    ``fd.execute`` winning, as at run time; ``opaque`` names the ones bound in a way fmin does not
    evaluate (``a, b = f()``), with the node that binds them. ``exec_arg`` is the expression given
    to ``fd.execute`` (positionally or as ``inputs=``)."""
    statements: list
    env: dict
    opaque: dict
    execute: cst.Call | None
    exec_arg: cst.BaseExpression | None


def _execute_call(value) -> cst.Call | None:
    if isinstance(value, cst.Subscript):  # ``out = fd.execute(inputs)[0]``
        value = value.value
    if isinstance(value, cst.Call) and isinstance(value.func, cst.Attribute) and value.func.attr.value == "execute":
        return value
    return None


def scan_module(module: cst.Module) -> ModuleScan:
    statements = top_level(module)
    env: dict[str, cst.BaseExpression] = {}
    opaque: dict[str, cst.CSTNode] = {}

    def bind(name: str, value: cst.BaseExpression | None, node: cst.CSTNode) -> None:
        if value is None:
            env.pop(name, None)
            opaque[name] = node
        else:
            env[name] = value
            opaque.pop(name, None)

    def assign(target, value, node) -> None:
        if isinstance(target, cst.Name):
            bind(target.value, value, node)
        elif isinstance(target, (cst.Tuple, cst.List)):
            els = target.elements
            spread = isinstance(value, (cst.Tuple, cst.List)) and len(value.elements) == len(els) and not any(
                isinstance(e, cst.StarredElement) for e in list(els) + list(value.elements))
            for k, el in enumerate(els):
                assign(el.value, value.elements[k].value if spread else None, node)

    execute = None
    for stmt in statements:
        if not isinstance(stmt, cst.SimpleStatementLine):
            continue
        for small in stmt.body:
            value = None
            if isinstance(small, cst.Assign):
                value = small.value
                for t in small.targets:
                    assign(t.target, small.value, small)
            elif isinstance(small, cst.AnnAssign) and small.value is not None:
                value = small.value
                assign(small.target, small.value, small)
            elif isinstance(small, cst.AugAssign) and isinstance(small.target, cst.Name):
                old = env.get(small.target.value)
                op = _AUG.get(type(small.operator))
                bind(small.target.value, None if old is None or op is None else cst.BinaryOperation(
                    left=old, operator=op(), right=small.value), small)
            elif isinstance(small, cst.Expr):
                value = small.value
            execute = _execute_call(value)
            if execute is not None:
                break
        if execute is not None:
            break
    exec_arg = None
    if execute is not None:
        exec_arg = next((a.value for a in execute.args if a.keyword is None and not a.star), None)
        if exec_arg is None:
            exec_arg = next((a.value for a in execute.args if a.keyword is not None
                             and a.keyword.value == "inputs"), None)
    return ModuleScan(statements, env, opaque, execute, exec_arg)


def find_inputs(scan: ModuleScan, positions, path: str) -> InputsBlock | None:
    """The list passed to ``fd.execute`` (or, failing that, a module-level ``inputs = [...]``)."""
    env = scan.env
    exec_arg = scan.exec_arg
    list_node = None
    if isinstance(exec_arg, cst.List):
        list_node = exec_arg
    elif isinstance(exec_arg, cst.Name) and isinstance(env.get(exec_arg.value), cst.List):
        list_node = env[exec_arg.value]
    elif scan.execute is None and isinstance(env.get("inputs"), cst.List):
        list_node = env["inputs"]
    if list_node is None:
        return None
    ev = Evaluator(env, positions, path, scan.opaque)
    args = []
    for el in list_node.elements:
        if isinstance(el, cst.StarredElement):
            ev.fail(el, "expected one input per list element (no * unpacking)")
        args.append(ev.input_arg(el.value))
    return InputsBlock(list_node, tuple(list_node.elements), tuple(args))


class Evaluator:
    """Evaluates an input expression on ``meta`` tensors: the whitelisted torch calls below, numbers,
    and names bound at module level (``env``); nothing else runs."""

    def __init__(self, env: dict[str, cst.BaseExpression], positions, path: str, opaque: dict | None = None):
        self.env, self.pos, self.path = env, positions, path
        self.opaque = opaque or {}
        self.device = "cpu"
        self.depth = 0

    def fail(self, node: cst.CSTNode, message: str):
        p = self.pos.get(node)
        line, col = (p.start.line, p.start.column + 1) if p else (1, 1)
        raise ScriptError(message, self.path, line, col)

    def input_arg(self, node: cst.BaseExpression):
        self.device = "cpu"
        p = self.pos.get(node)
        line, col = (p.start.line, p.start.column + 1) if p else (1, 1)
        try:
            v = self.eval(node)
        except _Unsupported as e:
            self.fail(e.node, e.args[0])
        except (RuntimeError, TypeError, ValueError, IndexError) as e:
            self.fail(node, f"cannot understand this input ({type(e).__name__}: {str(e).splitlines()[0]})")
        if isinstance(v, torch.Tensor):
            try:
                dt = dtypes.from_torch(v.dtype)
            except KeyError:
                self.fail(node, f"unsupported input dtype {v.dtype}")
            arg = TensorArg(tuple(v.shape), tuple(v.stride()), dt, self.device)
            return TensorArg(arg.shape, arg.strides, arg.dtype, arg.device, origin=Origin(node, line, col, parsed=arg))
        if isinstance(v, (bool, int, float, complex)):
            arg = ScalarArg(v)
            return ScalarArg(v, origin=Origin(node, line, col, parsed=arg))
        self.fail(node, "expected an input tensor built with torch (e.g. torch.testing.make_tensor(...)) "
                        "or a Python scalar")

    # ---- expressions ----
    def eval(self, node: cst.BaseExpression) -> Any:
        """The value of one expression of the inputs list, tensors on ``meta``: a whitelist of
        expression kinds, each understood by a method of its own; anything else is refused with
        what was expected, since nothing of the script may run."""
        if number(node) is not None:
            return number(node)
        if isinstance(node, cst.SimpleString):
            return node.evaluated_value
        if isinstance(node, (cst.Tuple, cst.List)):
            return tuple(self.eval(e.value) for e in node.elements)
        if isinstance(node, cst.UnaryOperation):
            return self._sign(node)
        if isinstance(node, cst.BinaryOperation):
            return self._arithmetic(node)
        if isinstance(node, cst.Comparison):
            return self._comparison(node)
        if isinstance(node, cst.Name):
            return self._name(node)
        if isinstance(node, cst.Attribute):
            return self._attribute(node)
        if isinstance(node, cst.Subscript):
            return self._subscript(node)
        if isinstance(node, cst.Call):
            return self._call(node)
        raise _Unsupported(node, "expected an input tensor built with torch (e.g. torch.testing.make_tensor(...)) "
                                 "or a Python scalar")

    def _sign(self, node: cst.UnaryOperation):
        """``-x`` and ``+x``; no other unary operator (``not``, ``~``) builds an input."""
        v = self.eval(node.expression)
        if isinstance(node.operator, cst.Minus):
            return -v
        if isinstance(node.operator, cst.Plus):
            return v
        raise _Unsupported(node, "expected a number")

    def _arithmetic(self, node: cst.BinaryOperation):
        """Python arithmetic on the values of both sides (sizes such as ``B * S``)."""
        a, b = self.eval(node.left), self.eval(node.right)
        ops = {cst.Add: lambda: a + b, cst.Subtract: lambda: a - b, cst.Multiply: lambda: a * b,
               cst.FloorDivide: lambda: a // b, cst.Divide: lambda: a / b, cst.Power: lambda: a ** b,
               cst.Modulo: lambda: a % b}
        for k, f in ops.items():
            if isinstance(node.operator, k):
                return f()
        raise _Unsupported(node, "unsupported operator in an input expression")

    def _comparison(self, node: cst.Comparison):
        """``torch.randn(...) > 0``: a bool tensor of that shape (its values do not matter on
        ``meta``)."""
        left = self.eval(node.left)
        self.eval(node.comparisons[0].comparator)
        if isinstance(left, torch.Tensor):
            return torch.empty(left.shape, dtype=torch.bool, device="meta")
        raise _Unsupported(node, "unsupported comparison in an input expression")

    def _name(self, node: cst.Name):
        """A name: ``True``/``False``/``None``, what a plain module-level assignment binds
        (followed 20 deep at most, against cycles), or ``make_tensor`` imported by name. A name
        bound in a way fmin does not evaluate (``a, b = f()``) is refused with the line that binds
        it."""
        if node.value in ("True", "False", "None"):
            return {"True": True, "False": False, "None": None}[node.value]
        if node.value in self.env and self.depth < 20:
            self.depth += 1
            try:
                return self.eval(self.env[node.value])
            finally:
                self.depth -= 1
        if node.value == "make_tensor":
            return ("fn", "make_tensor")
        if node.value in self.opaque:
            p = self.pos.get(self.opaque[node.value])
            at = f" (line {p.start.line})" if p else ""
            raise _Unsupported(node, f"name '{node.value}' is bound by an assignment fmin does not "
                                     f"evaluate{at}; expected a plain `{node.value} = ...`")
        raise _Unsupported(node, f"name '{node.value}' is not defined before the inputs list")

    def _attribute(self, node: cst.Attribute):
        """``torch.<dtype>``, a torch factory (to be called), or an attribute of a tensor: its
        transpose, its shape, or a method (to be called)."""
        chain = attr_chain(node)
        if chain and chain[0] == "torch":
            if len(chain) == 2 and isinstance(getattr(torch, chain[1], None), torch.dtype):
                return getattr(torch, chain[1])
            if chain[1:] == ["testing", "make_tensor"]:
                return ("fn", "make_tensor")
            if len(chain) == 2 and chain[1] in _FACTORIES:
                return ("fn", chain[1])
        base = self.eval(node.value)
        if isinstance(base, torch.Tensor):
            name = node.attr.value
            if name in ("T", "mT"):
                return getattr(base, name)
            if name in ("shape",):
                return tuple(base.shape)
            if name in _METHODS:
                return ("method", base, name)
        raise _Unsupported(node, f"'{dotted(node)}' is not a torch call fmin understands in an inputs list")

    def _subscript(self, node: cst.Subscript):
        """An element of a list (only that element is evaluated: ``inputs[0]``) or basic indexing
        of a tensor (a view, as the script would pass)."""
        picked = self._list_element(node)
        if picked is not None:
            return self.eval(picked)
        base = self.eval(node.value)
        if not isinstance(base, torch.Tensor):
            raise _Unsupported(node, "expected indexing of a tensor")
        idx = tuple(self._index(e.slice) for e in node.slice)
        return base[idx if len(idx) > 1 else idx[0]]

    def _list_element(self, node: cst.Subscript):
        """The element expression ``xs[k]`` stands for, when ``xs`` names a list/tuple literal and
        ``k`` is an int literal; else None."""
        base = node.value
        for _ in range(20):
            if not (isinstance(base, cst.Name) and base.value in self.env):
                break
            base = self.env[base.value]
        if not isinstance(base, (cst.List, cst.Tuple)) or len(node.slice) != 1 \
                or not isinstance(node.slice[0].slice, cst.Index):
            return None
        k = node.slice[0].slice.value
        sign = 1
        if isinstance(k, cst.UnaryOperation) and isinstance(k.operator, cst.Minus):
            k, sign = k.expression, -1
        if not isinstance(k, cst.Integer):
            return None
        i = sign * int(k.value, 0)
        els = base.elements
        if any(isinstance(e, cst.StarredElement) for e in els) or not -len(els) <= i < len(els):
            return None
        return els[i].value

    def _index(self, s):
        if isinstance(s, cst.Index):
            return self.eval(s.value)
        if isinstance(s, cst.Slice):
            f = lambda x: None if x is None else self.eval(x)
            return slice(f(s.lower), f(s.upper), f(s.step))
        raise _Unsupported(s, "unsupported index")

    def _args(self, call: cst.Call):
        args, kwargs = [], {}
        for a in call.args:
            if a.star:
                raise _Unsupported(a, "expected plain arguments (no * unpacking)")
            v = self.eval(a.value)
            if a.keyword is None:
                args.append(v)
            else:
                kwargs[a.keyword.value] = v
        return args, kwargs

    def _device(self, kwargs: dict) -> dict:
        if "device" in kwargs:
            self.device = _device_name(kwargs["device"])
            kwargs["device"] = "meta"
        else:
            kwargs["device"] = "meta"
        return kwargs

    def _call(self, node: cst.Call):
        chain = attr_chain(node.func)
        if chain in (["float"], ["int"], ["complex"], ["bool"]):
            args, _ = self._args(node)
            return {"float": float, "int": int, "complex": complex, "bool": bool}[chain[0]](*args)
        if chain == ["torch", "device"]:  # torch.device("cuda", 1), torch.device("cuda:1"), type=/index=
            args, kwargs = self._args(node)
            kind = args[0] if args else kwargs.get("type")
            index = args[1] if len(args) > 1 else kwargs.get("index")
            if isinstance(kind, int) and not isinstance(kind, bool):
                return f"cuda:{kind}"
            return str(kind) if index is None else f"{kind}:{index}"
        target = self.eval(node.func)
        if not isinstance(target, tuple) or target[0] not in ("fn", "method"):
            raise _Unsupported(node.func, "expected a torch factory or tensor method call")
        args, kwargs = self._args(node)
        if target[0] == "fn":
            return self._factory(node, target[1], args, kwargs)
        return self._method(node, target[1], target[2], args, kwargs)

    def _factory(self, node, name, args, kwargs):
        kwargs = self._device(kwargs)
        for k in ("requires_grad", "generator", "pin_memory", "layout"):
            kwargs.pop(k, None)
        if name == "make_tensor":
            shape = args[0] if args and isinstance(args[0], tuple) else tuple(a for a in args if isinstance(a, int))
            dtype = kwargs.get("dtype") or next((a for a in args if isinstance(a, torch.dtype)), None)
            if dtype is None:
                raise _Unsupported(node, "make_tensor needs dtype=")
            mf = kwargs.get("memory_format")
            t = torch.empty(shape, dtype=dtype, device="meta")
            if kwargs.get("noncontiguous") and t.numel() > 1:
                t = torch.empty(shape[:-1] + (shape[-1] * 2,), dtype=dtype, device="meta")[..., ::2] \
                    if shape else t
            elif mf is not None:
                t = t.contiguous(memory_format=mf)
            return t
        if name in ("randn", "rand", "zeros", "ones", "empty"):
            shape = args[0] if len(args) == 1 and isinstance(args[0], tuple) else tuple(args)
            return torch.empty(shape, dtype=kwargs.get("dtype") or torch.get_default_dtype(), device="meta")
        if name == "randint":
            size = next((a for a in args if isinstance(a, tuple)), kwargs.get("size"))
            if size is None:
                raise _Unsupported(node, "randint needs a size")
            return torch.empty(size, dtype=kwargs.get("dtype") or torch.int64, device="meta")
        if name == "full":
            shape, value = args[0], args[1] if len(args) > 1 else kwargs.get("fill_value")
            dt = kwargs.get("dtype") or (torch.bool if isinstance(value, bool) else torch.int64
                                         if isinstance(value, int) else torch.get_default_dtype())
            return torch.empty(shape, dtype=dt, device="meta")
        if name in ("tensor", "scalar_tensor"):
            v = args[0]
            return torch.tensor(v, dtype=kwargs.get("dtype"), device="meta")
        if name == "arange":
            return torch.arange(*args, dtype=kwargs.get("dtype"), device="meta")
        if name == "randperm":   # how the printer draws distinct indices (printer._drawn)
            return torch.empty(args[0], dtype=kwargs.get("dtype") or torch.int64, device="meta")
        if name == "empty_strided":
            return torch.empty_strided(args[0], args[1], dtype=kwargs.get("dtype") or torch.get_default_dtype(),
                                       device="meta")
        if name == "linspace":
            return torch.empty(args[2] if len(args) > 2 else kwargs["steps"],
                               dtype=kwargs.get("dtype") or torch.get_default_dtype(), device="meta")
        if name == "eye":
            n = args[0]
            m = args[1] if len(args) > 1 else n
            return torch.empty((n, m), dtype=kwargs.get("dtype") or torch.get_default_dtype(), device="meta")
        if name.endswith("_like"):
            base = args[0]
            return torch.empty_like(base, dtype=kwargs.get("dtype") or base.dtype, device="meta")
        if name == "as_strided":
            return args[0].as_strided(*args[1:])
        raise _Unsupported(node, f"torch.{name} is not understood in an inputs list")

    def _method(self, node, base: torch.Tensor, name: str, args, kwargs):
        if name in _DTYPE_METHODS:
            return base.to(_DTYPE_METHODS[name])
        if name == "cuda":  # .cuda(), .cuda(1), .cuda(device=1), .cuda("cuda:1")
            d = args[0] if args else kwargs.get("device")
            self.device = "cuda" if d is None else _device_name(d)
            return base
        if name == "cpu":
            self.device = "cpu"
            return base
        if name == "to":
            out = base
            for a in list(args) + [kwargs.get("device"), kwargs.get("dtype")]:
                if isinstance(a, torch.dtype):
                    out = out.to(a)
                elif isinstance(a, str) or isinstance(a, int) and not isinstance(a, bool):
                    self.device = _device_name(a)
            return out
        if name in ("fill_", "normal_", "uniform_", "zero_", "requires_grad_", "detach", "clone",
                    "abs", "neg", "sin", "cos", "exp"):
            return base
        if name in ("mul", "add", "div", "sub"):
            return base
        if name in ("stride", "size"):
            return getattr(base, name)(*args)
        if name == "contiguous":
            mf = kwargs.get("memory_format") or (args[0] if args else torch.contiguous_format)
            return base.contiguous(memory_format=mf)
        return getattr(base, name)(*args, **kwargs)




def _device_name(d) -> str:
    """A device as written, with its index: ``"cuda:1"``; a bare int means that CUDA device (as in
    torch)."""
    if isinstance(d, int) and not isinstance(d, bool):
        return f"cuda:{d}"
    return str(d)
