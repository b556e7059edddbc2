"""Delta debugging: Zeller's ddmin, which ``isolate`` runs over the differences between two scripts.

The reducer's passes walk ddmin's schedule without complements (halves, quarters, ... single
items: ``program.cuts.chunks``, below both the passes and the seeded fuzzer's cuts): removing a
chunk *is* keeping its complement, and each pass resumes after an accepted removal, so the
complement tests of full ddmin would repeat work. ``isolate`` needs the complements: its
configurations are sets of changes applied to GOOD, not programs that shrink.
"""
from __future__ import annotations

from typing import Callable


def ddmin(items: list, test: Callable[[list], bool | None], *, max_tests: int | None = None,
          test_many: Callable[[list[list]], list[bool | None]] | None = None, jobs: int = 1) -> tuple[list, int]:
    """Zeller's ddmin: a 1-minimal sublist of ``items`` for which ``test`` is True (``test(items)``
    is assumed True). ``test`` returns None for an unresolved (invalid) configuration, treated as
    not interesting. Returns (the sublist, tests run); results are cached.

    With ``test_many`` (configurations in, results out, same order) and ``jobs`` > 1, the
    configurations of one round are tested ``jobs`` at a time and the earliest one in ddmin's
    order that holds is taken — the same answer as the sequential run, sooner."""
    cache: dict[frozenset, bool | None] = {}
    count = [0]

    def first_true(configs: list[list]) -> int | None:
        """Index of the first configuration (in order) that holds, testing ``jobs`` at a time."""
        step = max(1, jobs) if test_many is not None else 1
        for start in range(0, len(configs), step):
            window = configs[start:start + step]
            todo = []
            for c in window:
                key = frozenset(c)
                if key not in cache and key not in {frozenset(t) for t in todo}:
                    if max_tests is not None and count[0] + len(todo) >= max_tests:
                        break
                    todo.append(c)
            if todo:
                results = test_many([list(c) for c in todo]) if step > 1 else [test(list(todo[0]))]
                for c, r in zip(todo, results):
                    count[0] += 1
                    cache[frozenset(c)] = r
            for k, c in enumerate(window):
                if cache.get(frozenset(c)) is True:
                    return start + k
            if max_tests is not None and count[0] >= max_tests:
                return None
        return None

    cur = list(items)
    if not cur:
        return cur, 0
    if first_true([[]]) is not None:
        return [], count[0]
    n = 2
    while len(cur) >= 2:
        n = min(n, len(cur))
        parts = [cur[len(cur) * k // n: len(cur) * (k + 1) // n] for k in range(n)]
        hit = first_true(parts)
        if hit is not None:
            cur, n = parts[hit], 2
            continue
        rests = [[x for x in cur if x not in c] for c in parts] if n > 2 else []
        hit = first_true(rests)
        if hit is not None:
            cur, n = rests[hit], max(n - 1, 2)
            continue
        if n >= len(cur) or (max_tests is not None and count[0] >= max_tests):
            break
        n = min(len(cur), 2 * n)
    return cur, count[0]
