"""The segment graph of one run: what a fusion compiler split a fusion into, as data.

nvFuser splits a fusion it cannot schedule as one kernel into *segments*, each with a scheduler;
some segments launch no kernel (``expr_eval`` evaluates views and metadata ops on the host,
``no_op`` aliases memory). Segments are joined by the intermediate tensors that cross between
them (producer segment → consumer segment). Inductor's kernels and the buffers between them have
the same shape. A *boundary* is what a user asking "why 3 kernels instead of 1?" asks about: two
kernels joined by an intermediate tensor the compiler would not fuse through, possibly across
non-kernel segments (kernel → expr_eval view → kernel), with the compiler's reason when it says.

Backends build a ``SegmentGraph`` in the worker (from nvFuser's ``segmented_fusion`` dump, from
Inductor's scheduler nodes) and send it as JSON; properties, reports and ``isolate`` read it.
"""
from __future__ import annotations

import dataclasses
from collections import Counter
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Segment:
    scheduler: str | None
    kernel: bool = True
    inputs: tuple[str, ...] = ()       # tensors read (the compiler's names)
    outputs: tuple[str, ...] = ()      # tensors written
    exprs: tuple[str, ...] = ()        # the segment's operations, one short line each
    group: str | None = None           # the compiler's own id for it (nvFuser ``group id``)

    def to_json(self) -> dict:
        return {"scheduler": self.scheduler, "kernel": self.kernel, "inputs": list(self.inputs),
                "outputs": list(self.outputs), "exprs": list(self.exprs), "group": self.group}

    @classmethod
    def from_json(cls, d: dict) -> "Segment":
        return cls(d.get("scheduler"), bool(d.get("kernel", True)), tuple(d.get("inputs") or ()),
                   tuple(d.get("outputs") or ()), tuple(d.get("exprs") or ()), d.get("group"))


@dataclass(frozen=True)
class Edge:
    producer: int          # index into ``SegmentGraph.segments``
    consumer: int
    tensor: str            # the intermediate tensor that crosses

    def to_json(self) -> dict:
        return {"producer": self.producer, "consumer": self.consumer, "tensor": self.tensor}


@dataclass(frozen=True)
class Rejection:
    """Why the compiler did not merge the two kernels of a boundary (nvFuser's segmenter log)."""
    producer: int          # segment indices of the boundary's two kernels
    consumer: int
    reason: str            # ``scheduler: reason; ...``, names masked (stable across runs)

    def to_json(self) -> dict:
        return {"producer": self.producer, "consumer": self.consumer, "reason": self.reason}


@dataclass(frozen=True)
class Boundary:
    """Two kernels joined by intermediate tensors (through non-kernel segments if need be)."""
    producer: str | None    # the producing kernel's scheduler
    consumer: str | None    # the consuming kernel's scheduler
    tensors: tuple[str, ...] = field(default=(), compare=False)   # what crosses (first hop first)
    via: tuple[str, ...] = field(default=(), compare=False)       # non-kernel segments in between
    reason: str | None = field(default=None, compare=False)       # why not merged, where known

    @property
    def kinds(self) -> tuple[str | None, str | None]:
        return (self.producer, self.consumer)

    def words(self) -> str:
        via = f" via {' → '.join(self.via)}" if self.via else ""
        t = f" ({short_tensor(self.tensors[0])})" if self.tensors else ""
        return f"{self.producer} → {self.consumer}{t}{via}"

    def to_json(self) -> dict:
        return {"producer": self.producer, "consumer": self.consumer, "tensors": list(self.tensors),
                "via": list(self.via), "reason": self.reason}


@dataclass(frozen=True)
class SegmentGraph:
    segments: tuple[Segment, ...]
    edges: tuple[Edge, ...] = ()
    rejections: tuple[Rejection, ...] = ()

    # ---- queries ----
    @property
    def kernels(self) -> int:
        return sum(s.kernel for s in self.segments)

    def boundaries(self) -> list[Boundary]:
        """Every (producing kernel, consuming kernel) pair joined by intermediates, directly or
        through non-kernel segments; one per pair of segments, in segment order."""
        return list(self._boundaries().values())

    def boundary_pairs(self) -> list[tuple[int, int]]:
        """The segment indices (producer, consumer) of each boundary, in ``boundaries`` order."""
        return list(self._boundaries())

    def _boundaries(self) -> dict[tuple[int, int], Boundary]:
        out_edges: dict[int, list[Edge]] = {}
        for e in self.edges:
            out_edges.setdefault(e.producer, []).append(e)
        found: dict[tuple[int, int], Boundary] = {}
        for k, seg in enumerate(self.segments):
            if not seg.kernel:
                continue
            # walk forward through non-kernel segments only
            todo = [(e, (e.tensor,), ()) for e in out_edges.get(k, [])]
            seen = set()
            while todo:
                e, tensors, via = todo.pop(0)
                if e.consumer in seen:
                    continue
                seen.add(e.consumer)
                dst = self.segments[e.consumer]
                if dst.kernel:
                    if (k, e.consumer) not in found and e.consumer != k:
                        found[(k, e.consumer)] = Boundary(seg.scheduler, dst.scheduler, tensors, via)
                else:
                    for nxt in out_edges.get(e.consumer, []):
                        todo.append((nxt, tensors + (nxt.tensor,), via + (dst.scheduler or "?",)))
        why = {(r.producer, r.consumer): r.reason for r in self.rejections}
        return {key: dataclasses.replace(found[key], reason=why.get(key)) for key in sorted(found)}

    def boundary_kinds(self) -> set[tuple[str | None, str | None]]:
        return {b.kinds for b in self.boundaries()}

    def words(self) -> str:
        """``3 kernels [pointwise, reduction×2] + 1 expr_eval; reduction → pointwise (T5)``."""
        ks = Counter(s.scheduler or "?" for s in self.segments if s.kernel)
        others = Counter(s.scheduler or "?" for s in self.segments if not s.kernel)
        w = f"{self.kernels} kernel" + ("" if self.kernels == 1 else "s")
        if ks:
            w += " [" + ", ".join(k if v == 1 else f"{k}×{v}" for k, v in sorted(ks.items())) + "]"
        if others:
            w += " + " + ", ".join(f"{v} {k}" for k, v in sorted(others.items()))
        bs = self.boundaries()
        if bs:
            w += "; " + ", ".join(b.words() for b in bs[:3]) + (" …" if len(bs) > 3 else "")
        return w

    # ---- as text ----
    def mermaid(self, max_exprs: int = 8) -> str:
        """A Mermaid flowchart (GitHub renders it): one node per segment with its operations, one
        arrow per crossing tensor; non-kernel segments drawn with rounded corners."""
        lines = ["flowchart TD"]
        for k, s in enumerate(self.segments):
            body = [f"<b>{_esc(s.scheduler or '?')}</b>" + ("" if s.kernel else " (no kernel)")]
            body += [_esc(x) for x in s.exprs[:max_exprs]]
            if len(s.exprs) > max_exprs:
                body.append(f"… {len(s.exprs) - max_exprs} more")
            text = "<br/>".join(body)
            lines.append(f'  s{k}["{text}"]' if s.kernel else f'  s{k}("{text}")')
        for e in self.edges:
            lines.append(f'  s{e.producer} -->|"{_esc(short_tensor(e.tensor))}"| s{e.consumer}')
        return "\n".join(lines)

    # ---- storage ----
    def to_json(self) -> dict:
        return {"segments": [s.to_json() for s in self.segments], "edges": [e.to_json() for e in self.edges],
                "rejections": [r.to_json() for r in self.rejections]}

    @classmethod
    def from_json(cls, d: dict | None) -> "SegmentGraph | None":
        if not d:
            return None
        return cls(tuple(Segment.from_json(s) for s in d.get("segments") or ()),
                   tuple(Edge(e["producer"], e["consumer"], e.get("tensor", "")) for e in d.get("edges") or ()),
                   tuple(Rejection(int(r["producer"]), int(r["consumer"]), r.get("reason", ""))
                         for r in d.get("rejections") or ()))


def short_tensor(t: str) -> str:
    """``T5_g_float[iS15{i0}, iS16{i1}]`` -> ``T5 float[i0, i1]``: nvFuser's tensor in a few words."""
    import re
    m = re.match(r"^(T\d+)_[a-z]_(\w+?)\[(.*)\]\s*(\w+)?$", t.strip())
    if not m:
        return t.strip()
    dims = [re.sub(r"^[a-zA-Z]+\d+\{(.*)\}(?:rf)?$", r"\1", d.strip()) for d in _split_dims(m.group(3))]
    return f"{m.group(1)} {m.group(2)}[{', '.join(dims)}]"


def _split_dims(text: str) -> list[str]:
    """``iS0{i0}, iS52{( ceilDiv(i2, 4) )}rf`` -> the dims (commas inside braces do not split)."""
    out, depth, cur = [], 0, ""
    for ch in text:
        if ch in "{(":
            depth += 1
        elif ch in "})":
            depth -= 1
        if ch == "," and depth == 0:
            out.append(cur.strip())
            cur = ""
        else:
            cur += ch
    if cur.strip():
        out.append(cur.strip())
    return out


def _esc(s: str) -> str:
    """Text inside a quoted Mermaid label: Mermaid's own entity codes for what it would read."""
    return s.replace("#", "#35;").replace('"', "#quot;").replace("<", "#lt;").replace(">", "#gt;")
