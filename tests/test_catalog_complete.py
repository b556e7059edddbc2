"""Every catalog entry says what each client of the catalog needs, so that no op is half-added.

The fuzzer (``OpSpec.generate``), FewerDims (``OpSpec.dim_rule``) and ``fmin upgrade``
(``OpSpec.renamed``, ``Param.int_in_legacy``) keep no op tables of their own: they derive them
from the catalog. An entry added without one of these facts, or with one that its client cannot
use, fails here rather than being silently skipped by the generator or refused by the pass.
"""
from __future__ import annotations

import pytest

from minimizer.fuzz.sources import specs, strategies
from minimizer.model import DIRECT, LEGACY
from minimizer.ops import CATALOG, GEN_CATEGORIES, NOT_FOLLOWED, POINTWISE, DimRule, Gen

ENTRIES = sorted(CATALOG)


@pytest.mark.parametrize("key", ENTRIES)
def test_entry_says_how_it_is_generated(key):
    g = CATALOG[key].generate
    assert isinstance(g, Gen), f"{key}: set generate= to a Gen, or to not_generated(why)"
    if g.step is None:
        assert g.why, f"{key}: not_generated needs a reason"
        return
    assert key.startswith("ops."), f"{key}: only fd.ops calls are generated as steps"
    assert g.step in strategies.FAMILY_NAMES, f"{key}: no fuzz step family {g.step!r}"
    assert callable(g.write), f"{key}: generated, but says not how it is written (Gen.write)"
    assert g.categories, f"{key}: generated for no operand category"
    allowed = {dt for c in g.categories for dt in specs.CATEGORY_DTYPES[c]}
    assert set(g.dtypes) <= allowed, f"{key}: dtypes outside its categories"


@pytest.mark.parametrize("key", ENTRIES)
def test_entry_says_how_its_dims_renumber(key):
    spec = CATALOG[key]
    rule = spec.dim_rule
    assert isinstance(rule, DimRule), f"{key}: set dim_rule= to the DimRule of its kind (ops.dims), or NOT_FOLLOWED"
    if spec.elementwise:
        assert rule is POINTWISE, f"{key}: an elementwise op has no dim arguments"
    missing = rule.reads - {p.name for p in spec.params}
    assert not missing, f"{key}: dim_rule {rule.name!r} reads parameters it lacks: {missing}"


def test_every_dim_rule_is_implemented_once():
    """Each rule an entry names can follow a drop (but ``NOT_FOLLOWED``) and says what it does;
    two rules of one name would be one kind of op spelt twice."""
    rules = {id(s.dim_rule): s.dim_rule for s in CATALOG.values()}.values()
    assert len({r.name for r in rules}) == len(rules)
    for r in rules:
        assert r.doc, r.name
        assert callable(r.follow) == (r is not NOT_FOLLOWED), r.name


def _positional(spec, frontend):
    return [p for p in spec.params_for(frontend) if not p.keyword_only]


@pytest.mark.parametrize("key", ENTRIES)
def test_entry_says_which_parameters_are_renamed(key):
    """A positional parameter that exists in one frontend only, at a position where the other
    frontend also has one of its own of the same kind, is the same parameter under two names:
    it must be declared in ``renamed`` (or upgrade cannot translate it). Every declared pair
    must be such a pair."""
    spec = CATALOG[key]
    if spec.frontends != frozenset({LEGACY, DIRECT}):
        assert not spec.renamed, f"{key}: an op of one frontend renames nothing"
        return
    leg, dire = _positional(spec, LEGACY), _positional(spec, DIRECT)
    leg_names, dir_names = {p.name for p in spec.params_for(LEGACY)}, {p.name for p in spec.params_for(DIRECT)}
    expected = set()
    for a, b in zip(leg, dire):
        if a.name != b.name and a.name not in dir_names and b.name not in leg_names and a.kind == b.kind:
            expected.add((a.name, b.name))
    assert set(spec.renamed) == expected, f"{key}: renamed= should be {sorted(expected)}"


@pytest.mark.parametrize("key", ENTRIES)
def test_int_in_legacy_marks_legacy_bools(key):
    for p in CATALOG[key].params:
        if p.int_in_legacy:
            assert p.kind == "bool" and LEGACY in p.frontends, f"{key}.{p.name}"


def test_generator_tables_come_from_the_catalog():
    """The generator draws exactly the ops the catalog marks as generated, by their step family
    and operand categories, each in its own frontends."""
    got = {(h, c, name) for h, t in strategies.OP_TABLES.items() for c, names in t.items() for name in names}
    want = {(s.generate.step, c, s.name) for k, s in CATALOG.items()
            if s.generate.step is not None for c in GEN_CATEGORIES if s.generate.rank(c) is not None}
    assert got == want
    assert strategies.covered_ops() == {name for _, _, name in want}
