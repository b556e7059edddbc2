"""The registry of bug-list classes (``minimizer/fuzz/buglist/classes/``): a class is one module
(or one plugin file) with a title and claims, refused at registration without them; every
registered class has a section the page can show with its rows; ``decide`` asks the claims in
their precedence, in the order the classes were decided before they were a registry; and a class
added in one file, with no other edit, takes its buckets and gets its section in report.md.
In process, on buckets of ``tests/data``."""
from __future__ import annotations

import os
import shutil
import sys

import pytest

from conftest import ROOT, bucket_dir
from minimizer import plugins
from minimizer.fuzz.buglist import classes, page
from minimizer.fuzz.buglist.classes import base
from minimizer.fuzz.store import record

DATA = os.path.join(ROOT, "tests", "data", "classes")
#: a stale bucket: it has every field any section reads (its stale reason too)
STALE = os.path.join(ROOT, "tests", "data", "findings-2026-12-03", "8866bfb41c9c")


@pytest.fixture
def registry(monkeypatch):
    """A copy of the registry, for the test's classes to go into and leave with the test."""
    base.registered()
    monkeypatch.setattr(base, "_REGISTRY", dict(base._REGISTRY))


def _never(bucket, script, outcome, context):
    return None


def test_the_classes_are_the_seven_in_order_and_on_the_page():
    assert classes.CLASSES == ("bug", "missing-check", "segmentation", "by-design", "debug-dump", "fmin", "stale")
    assert [c.name for c in classes.on_page()] == ["bug", "missing-check", "segmentation", "debug-dump", "fmin",
                                                   "by-design", "stale"]


def test_decide_asks_the_claims_in_the_order_classes_were_decided_in():
    """Stale; fmin's by owner; a broken rule nvFuser enforces (by design), else a missing check;
    the static check today; a refusal at definition (fmin's TypeError, a said unsupported case, a
    GPU too old); the dump; an expected split, else a segmentation; a documented difference; a bug.
    Read as a subsequence, so that a class added later may claim between them."""
    expected = [("stale", "marked_stale"), ("fmin", "owned"), ("by-design", "enforced_rule"),
                ("missing-check", "breaks_a_rule"), ("fmin", "rejected_today"), ("fmin", "wrong_arguments"),
                ("by-design", "refused_unsupported"), ("by-design", "gpu_too_old"), ("debug-dump", "dump_only"),
                ("by-design", "expected_split"), ("segmentation", "split_differs"),
                ("by-design", "documented_difference"), ("bug", "left_over")]
    asked = [(c.name, h.__name__) for p, c, h in sorted(((p, c, h) for c in base.registered() for p, h in c.claims),
                                                         key=lambda t: t[0])]
    assert [a for a in asked if a in expected] == expected
    assert asked[-1] == ("bug", "left_over")   # the catch-all answers last


@pytest.mark.parametrize("body, why", [
    ({"name": "untitled", "claims": ((500, _never),)}, "has no title"),
    ({"name": "idle", "title": "Idle"}, "claims no bucket"),
    ({"title": "Nameless", "claims": ((500, _never),)}, "has no name"),
    ({"name": "odd", "title": "Odd", "claims": ((500,),)}, "not a \\(precedence, hook\\) pair"),
    ({"name": "late", "title": "Late", "claims": ((1000, _never),)}, "precedence another class claims at: \\['bug'\\]"),
])
def test_an_incomplete_class_is_refused_at_registration(registry, body, why):
    with pytest.raises(ValueError, match=why):
        base.register(type("Broken", (base.BugClass,), body))
    assert set(base._REGISTRY) == set(classes.CLASSES)


def test_a_name_registered_by_another_module_is_refused(registry):
    with pytest.raises(ValueError, match="already registered"):
        base.register(type("Bug", (base.BugClass,), {"name": "bug", "title": "Bugs", "claims": ((999, _never),)}))


def test_a_claim_answering_for_another_class_is_an_error(registry):
    meta = record.load_dir(STALE)
    base.register(type("Thief", (base.BugClass,), {"name": "thief", "title": "Thief",
                                                  "claims": ((1, lambda *a: classes.Decision("bug")),)}))
    with pytest.raises(ValueError, match="a claim of the bug-list class 'thief' answered 'bug'"):
        classes.decide(meta, None, None, violations=None)


def test_every_registered_class_shows_its_rows_in_a_section_of_its_own():
    """A class the page cannot show (no section, a section without its rows, a title another
    class has) fails here: each class alone is given one row, as ``decide`` would give it."""
    titles = [c.title for c in classes.registered()]
    assert len(set(titles)) == len(titles)
    for c in classes.registered():
        (row,) = page.rows_of(os.path.dirname(STALE), [record.load_dir(STALE)])
        row["_class"] = classes.Decision(c.name, "the test's reason", "the-test-rule")
        lines = page.sections({c.name: [row]})
        heads = [line for line in lines if line.startswith("## ") and (line != "## Bugs (0)")]
        assert len(heads) == 1 and heads[0].startswith(f"## {c.title} ("), (c.name, heads)
        assert any(line.startswith("| ") and "8866bfb41c9c" in line for line in lines), (c.name, lines)
    empty = page.sections({})
    assert [line for line in empty if line.startswith("## ")] == ["## Bugs (0)"]   # shown even when empty


PLUGIN = '''
"""A bug-list class of a test, in one file: the failures of the bucket it names are flaky."""
from minimizer.fuzz.buglist.classes import BugClass, Decision, register


def named(bucket, script, outcome, context):
    return Decision("flaky", "seen once in ten runs") if bucket.id == "86acf0590d80" else None


@register
class Flaky(BugClass):
    name = "flaky"
    title = "Flaky"
    intro = "failures that come and go"
    order = page_order = 45
    claims = ((65, named),)
'''


def test_a_class_added_in_one_file_gets_its_section_in_report_md(registry, monkeypatch, tmp_path):
    """The plugin file above is the only addition: the bucket it claims leaves *Bugs* for the
    new section (its row laid out in the page's columns), and the header counts it."""
    root = tmp_path / "corpus"
    for b in ("86acf0590d80", "4c5bf5236ba2"):   # two bugs of valid programs
        shutil.copytree(bucket_dir(DATA, b), root / b)
    plugin = tmp_path / "flaky_class.py"
    plugin.write_text(PLUGIN)
    monkeypatch.setenv(plugins.VARIABLE, str(plugin))
    monkeypatch.setattr(base, "_LOADED", [False])   # the registry reads its plugins again
    monkeypatch.delitem(sys.modules, plugins.module_name(str(plugin)), raising=False)
    try:
        assert "flaky" in classes.CLASSES
        with open(page.write(str(root)), encoding="utf-8") as f:
            md = f.read()
    finally:
        sys.modules.pop(plugins.module_name(str(plugin)), None)
    assert md.split("\n")[2].startswith("1 bug of the compilers under test")
    assert "besides them 1 flaky (2 buckets)" in md.split("\n")[2]
    flaky = md.split("\n## Flaky (1): failures that come and go\n")[1].split("\n## ")[0]
    rows = [line for line in flaky.splitlines() if line.startswith("| ")]
    assert rows[0] == "| " + " | ".join(page.COLUMNS) + " |" and rows[1].startswith("| 86acf0590d80 |")
    bugs = md.split("## Bugs (1)")[1].split("\n## ")[0]
    assert "4c5bf5236ba2" in bugs and "86acf0590d80" not in bugs
    assert md.index("## Bugs (1)") < md.index("## Flaky (1)")
