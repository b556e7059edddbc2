"""Small readers of libcst nodes shared by the fusion-body reader and the inputs-list reader."""
from __future__ import annotations

import libcst as cst


def number(node: cst.CSTNode):
    """The value of an int/float/imaginary literal, or None if the node is not one."""
    if isinstance(node, cst.Integer):
        return int(node.value.replace("_", ""), 0)
    if isinstance(node, cst.Float):
        return float(node.value.replace("_", ""))
    if isinstance(node, cst.Imaginary):
        return complex(node.value.replace("_", ""))
    return None


def attr_chain(node: cst.CSTNode) -> list[str] | None:
    """``torch.testing.make_tensor`` as ['torch', 'testing', 'make_tensor']; None if not a chain of names."""
    if isinstance(node, cst.Name):
        return [node.value]
    if isinstance(node, cst.Attribute):
        head = attr_chain(node.value)
        return head + [node.attr.value] if head is not None else None
    return None


def dotted(node: cst.CSTNode) -> str:
    c = attr_chain(node)
    return ".".join(c) if c else ""


def is_main_guard(node: cst.CSTNode) -> bool:
    """``if __name__ == "__main__":`` (either operand order, either quote style)."""
    if not isinstance(node, cst.If) or not isinstance(node.test, cst.Comparison):
        return False
    test = node.test
    if len(test.comparisons) != 1 or not isinstance(test.comparisons[0].operator, cst.Equal):
        return False
    sides = (test.left, test.comparisons[0].comparator)
    names = [s for s in sides if isinstance(s, cst.Name) and s.value == "__name__"]
    strings = [s for s in sides if isinstance(s, cst.SimpleString) and s.evaluated_value == "__main__"]
    return len(names) == 1 and len(strings) == 1


def top_level(module: cst.Module) -> list[cst.BaseStatement]:
    """The statements that run at module level, in order: the module's own, with the body of an
    ``if __name__ == "__main__":`` block in its place (a script run as ``__main__`` runs it)."""
    out: list[cst.BaseStatement] = []
    for stmt in module.body:
        if is_main_guard(stmt) and isinstance(stmt.body, cst.IndentedBlock):
            out.extend(stmt.body.body)
        else:
            out.append(stmt)
    return out
