"""The bug list's markdown tables: the columns of a bucket's row, a cell cut to its width, and
the table a section of rows makes (``page.row`` fills the cells; a class may lay out its own)."""
from __future__ import annotations

COLUMNS = ("bucket", "backend", "kind", "where raised", "message", "seen", "dtypes", "minimized ops",
           "reproduces standalone", "first seen", "attachment")


def cell(text, n: int = 110) -> str:
    """``text`` on one line, its pipes escaped, cut to ``n`` characters."""
    t = " ".join(str(text).split()).replace("|", "\\|")
    return t if len(t) <= n else t[: n - 1] + "…"


def table(rows: list[dict]) -> list[str]:
    """Markdown lines of the bug list's table."""
    out = ["| " + " | ".join(COLUMNS) + " |", "|" + "---|" * len(COLUMNS)]
    for r in rows:
        cells = [cell(r[c], 160 if c in ("message", "reproduces standalone") else 80) for c in COLUMNS]
        cells[-1] = r["attachment"]   # a link, kept whole
        out.append("| " + " | ".join(cells) + " |")
    return out


def counts(items) -> list[tuple[str, int]]:
    """Each distinct item and how often it comes, the most frequent first."""
    seen: dict[str, int] = {}
    for x in items:
        seen[x] = seen.get(x, 0) + 1
    return sorted(seen.items(), key=lambda kv: -kv[1])


def plural(n: int, word: str) -> str:
    """``n word`` or ``n words``."""
    return f"{n} {word}" + ("" if n == 1 else "s")
