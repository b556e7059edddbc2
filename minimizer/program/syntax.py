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
