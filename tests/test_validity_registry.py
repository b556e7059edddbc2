"""The registry of validity rules (``minimizer/program/validity/``): every registered rule fires on a
minimal program that breaks it (a rule without a program in ``BREAKING`` fails here), a rule
added in one new module runs with no other edit, and what the registry refuses (a rule that could
never run)."""
from __future__ import annotations

import textwrap

import pytest
import torch

from minimizer import plugins
from minimizer.ops import CATALOG
from minimizer.program import parse, validity
from minimizer.program.interpret import FusionError, run
from minimizer.program.validity import ValueWatch, base, violations

HEAD = "import torch\nfrom nvfuser_direct import FusionDefinition, DataType\n\ndef nvfuser_fusion(fd : FusionDefinition) -> None :\n"
TAIL = "\nwith FusionDefinition() as fd:\n    nvfuser_fusion(fd)\n\ninputs = [\n{inputs}]\nfd.execute(inputs)\n"


def program(body: str, *shapes_and_dtypes: tuple[tuple, str]) -> str:
    """A direct-frontend script of ``body`` (indented into the fusion function) whose inputs list
    has one ``make_tensor`` per (shape, torch dtype name)."""
    inputs = "".join(f"    torch.testing.make_tensor({shape}, dtype=torch.{dt}, device='cuda:0'),\n"
                     for shape, dt in shapes_and_dtypes)
    return HEAD + textwrap.indent(textwrap.dedent(body), "    ") + TAIL.format(inputs=inputs)


def tensor(name: str, rank: int, dtype: str = "Float", cpu: bool = False) -> str:
    return (f"{name} = fd.define_tensor(shape=[{', '.join(['-1'] * rank)}], contiguity=[{', '.join(['True'] * rank)}], "
            f"dtype=DataType.{dtype}, is_cpu={cpu})\n")


F2 = ((4, 4), "float32")
GROUPED_MM = ("T0 = fd.define_tensor(shape=[8, 4], contiguity=[True, True], dtype=DataType.BFloat16)\n"
              "T1 = fd.define_tensor(shape=[2, 4, 3], contiguity=[True, True, True], dtype=DataType.BFloat16)\n"
              "T2 = fd.define_tensor(shape=[2], contiguity=[None], dtype=DataType.Int32)\n"
              "T3 = fd.ops.grouped_mm(T0, T1, T2)\nfd.add_output(T3)\n")
INDEX_SELECT = tensor("T0", 2) + tensor("T1", 1, "Int") + "T2 = fd.ops.index_select(T0, T1, dim=0)\nfd.add_output(T2)\n"
SCATTER = (tensor("T0", 2) + tensor("T1", 2, "Int") + tensor("T2", 2) + "T3 = fd.ops.scatter(T0, T1, T2, dim=1)\n"
           "fd.add_output(T3)\n")

#: rule -> {part: a minimal program that breaks it}. A static part is a script; a value part is a
#: script and the CPU tensors its reference run is given (values chosen to break the rule).
BREAKING = {
    "alias-not-input": {"static": program(tensor("T0", 2) + "T1 = fd.ops.neg(T0)\nT2 = fd.ops.neg(T0)\n"
                                          "fd.add_output(T2, T1)\n", F2)},
    "alias-cpu": {"static": program("T0 = fd.define_tensor(shape=[], contiguity=[], dtype=DataType.Float, is_cpu=True)\n"
                                    "T1 = fd.ops.neg(T0)\nfd.add_output(T1, T0)\n", ((), "float32"))},
    "cpu-output": {"static": program("T0 = fd.define_tensor(shape=[], contiguity=[], dtype=DataType.Float, is_cpu=True)\n"
                                     "T1 = fd.ops.neg(T0)\nfd.add_output(T1)\n", ((), "float32"))},
    "alias-dtype": {"static": program(tensor("T0", 2) + tensor("T1", 2, "Half") + "T2 = fd.ops.neg(T0)\n"
                                      "fd.add_output(T2, T1)\n", F2, ((4, 4), "float16"))},
    "alias-shape": {"static": program(tensor("T0", 2) + tensor("T1", 1) + "T2 = fd.ops.sum(T0, dims=[0])\n"
                                      "T3 = fd.ops.broadcast_in_dim(T2, shape=[4, 4], broadcast_dims=[1])\n"
                                      "fd.add_output(T3, T1)\n", F2, ((4,), "float32"))},
    "alias-twice": {"static": program(tensor("T0", 2) + tensor("T1", 2) + "T2 = fd.ops.neg(T0)\n"
                                      "fd.add_output(T2, T1)\nfd.add_output(T2, T1)\n", F2, F2)},
    "shift-amount": {"static": program(tensor("T0", 1, "Int32") + "T1 = fd.ops.bitwise_left_shift(T0, 32)\n"
                                       "fd.add_output(T1)\n", ((4,), "int32")),
                     "value": (program(tensor("T0", 1, "Int") + "T1 = fd.ops.bitwise_right_shift(T0, T0)\n"
                                       "fd.add_output(T1)\n", ((4,), "int64")),
                               [torch.tensor([1, -2, 3, 64])])},
    "int-overflow": {"value": (program(tensor("T0", 1, "Int") + "T1 = fd.ops.mul(T0, T0)\nfd.add_output(T1)\n",
                                       ((2,), "int64")), [torch.tensor([2 ** 40, 3])])},
    "int-division": {"value": (program(tensor("T0", 1, "Int") + tensor("T1", 1, "Int") + "T2 = fd.ops.fmod(T0, T1)\n"
                                       "fd.add_output(T2)\n", ((2,), "int64"), ((2,), "int64")),
                               [torch.tensor([5, 7]), torch.tensor([2, 0])])},
    "cast-out-of-range": {"value": (program(tensor("T0", 1, "Float") + "T1 = fd.ops.cast(T0, dtype=DataType.Int32)\n"
                                            "fd.add_output(T1)\n", ((2,), "float32")),
                                    [torch.tensor([1.0, float("inf")])])},
    "grouped-mm-offsets": {"value": (program("T0 = fd.define_tensor(shape=[8, 4], contiguity=[True, True], "
                                             "dtype=DataType.BFloat16)\n"
                                             "T1 = fd.define_tensor(shape=[2, 4, 3], contiguity=[True, True, True], "
                                             "dtype=DataType.BFloat16)\n"
                                             "T2 = fd.define_tensor(shape=[2], contiguity=[True], dtype=DataType.Int32)\n"
                                             "T3 = fd.ops.grouped_mm(T0, T1, T2)\nfd.add_output(T3)\n",
                                             ((8, 4), "bfloat16"), ((2, 4, 3), "bfloat16"), ((2,), "int32")),
                                     [torch.ones(8, 4, dtype=torch.bfloat16), torch.ones(2, 4, 3, dtype=torch.bfloat16),
                                      torch.tensor([6, 4], dtype=torch.int32)]),
                           # the offsets input is expanded (stride 0): its two values cannot differ
                           "static": program(GROUPED_MM, ((8, 4), "bfloat16"), ((2, 4, 3), "bfloat16"), ((1,), "int32"))
                           .replace("make_tensor((1,), dtype=torch.int32, device='cuda:0')",
                                    "make_tensor((1,), dtype=torch.int32, device='cuda:0').as_strided((2,), (0,))")},
    # (tests/test_index_values.py: the same rules on the corpus's index programs)
    "index-range": {"static": program(INDEX_SELECT, ((0, 4), "float32"), ((2,), "int64")),   # no row to pick
                    "value": (program(INDEX_SELECT, F2, ((2,), "int64")), [torch.ones(4, 4), torch.tensor([0, 7])])},
    "scatter-index": {"static": program(SCATTER, F2, ((4, 8), "int64"), ((4, 8), "float32")),   # 8 distinct in [0, 4)
                      "value": (program(SCATTER, F2, ((4, 2), "int64"), ((4, 2), "float32")),
                                [torch.ones(4, 4), torch.zeros(4, 2, dtype=torch.int64), torch.ones(4, 2)])},
}


def watched(text: str, inputs) -> list[str]:
    """The value rules a reference run of ``text`` on ``inputs`` breaks (a run torch refuses
    still reports what the watch saw before it)."""
    p = parse(text)
    w = ValueWatch()
    try:
        run(p.stmts, inputs, frontend=p.dialect.frontend, watch=w)
    except FusionError:
        pass
    return [v.rule for v in w.found]


def test_every_registered_rule_has_a_breaking_program_for_each_of_its_parts():
    parts = {r.name: {part for part, has in (("static", r.is_static), ("value", r.is_value)) if has}
             for r in base.rules()}
    assert {rule: set(entry) for rule, entry in BREAKING.items()} == parts


@pytest.mark.parametrize("rule", sorted(BREAKING))
def test_each_rule_fires_on_its_breaking_program_and_only_it(rule):
    entry = BREAKING[rule]
    if "static" in entry:
        got = [v.rule for v in violations(entry["static"])]
        assert got == [rule], got
    if "value" in entry:
        assert watched(*entry["value"]) == [rule]


def test_the_breaking_programs_are_otherwise_well_formed():
    """Each breaks its rule, not the static check (a rejected program would prove nothing)."""
    from minimizer.program import static
    for rule, entry in BREAKING.items():
        for part, text in entry.items():
            static.check(parse(text if part == "static" else text[0]))


def test_every_rule_judges_ops_the_catalog_tags():
    """A rule whose tags no op carries would never run."""
    carried = set().union(*(spec.tags for spec in CATALOG.values()))
    assert all(r.tags <= carried for r in base.rules()), [(r.name, r.tags - carried) for r in base.rules()]


def test_every_value_parameter_of_the_catalog_is_judged_by_its_rule():
    """A ``ValueParam`` names its rule; that rule is registered, has a value part and judges the op."""
    by_name = {r.name: r for r in base.rules()}
    for spec in CATALOG.values():
        for vp in spec.value_params:
            rule = by_name.get(vp.rule)
            assert rule is not None and rule.is_value and rule.tags & spec.tags, (spec.name, vp.rule)


NEW_RULE = '''
"""no-neg: a test's rule, in a module of its own."""
from minimizer.program.validity import Rule, register, Violation


@register
class NoNeg(Rule):
    name = "no-neg"
    statement = "a test's rule: no integer arithmetic named neg (only to see a new rule run)"
    order = 1000
    tags = frozenset({"int-arith"})
    needs = frozenset({"definitions"})

    def judges(self, s):
        return s.op == "neg"

    def static(self, program, facts, at):
        assert set(facts) == {"definitions"}
        return [Violation(self.name, "a neg", i) for i in at]

    def after(self, s, spec, args, results):
        return "a neg ran"
'''


@pytest.fixture
def new_rule(tmp_path, monkeypatch):
    """The module above, loaded as a plugin (``FMIN_PLUGINS``), into a copy of the registry."""
    base.rules()
    monkeypatch.setattr(base, "_REGISTRY", dict(base._REGISTRY))
    path = tmp_path / "no_neg.py"
    path.write_text(NEW_RULE, encoding="utf-8")
    monkeypatch.delitem(__import__("sys").modules, plugins.module_name(str(path)), raising=False)
    plugins.load({plugins.VARIABLE: str(path)})
    yield
    __import__("sys").modules.pop(plugins.module_name(str(path)), None)


def test_a_rule_in_one_new_module_runs_with_no_other_edit(new_rule):
    text = program(tensor("T0", 1, "Int") + "T1 = fd.ops.neg(T0)\nT2 = fd.ops.abs(T0)\nfd.add_output(T1)\n"
                   "fd.add_output(T2)\n", ((2,), "int64"))
    assert [(v.rule, v.stmt) for v in violations(text)] == [("no-neg", 1)]
    assert "no-neg" in validity.RULES and "no-neg" in validity.STATIC_RULES and "no-neg" in validity.VALUE_RULES
    assert "no-neg" in validity.enforced_for(parse(BREAKING["alias-twice"]["static"].replace("neg", "abs")))
    assert "no-neg" not in validity.enforced_for(parse(BREAKING["alias-twice"]["static"]))   # it breaks it
    assert watched(text, [torch.tensor([1, 2])]) == ["no-neg"]


def test_the_new_rule_is_gone_with_its_registry_copy():
    assert "no-neg" not in validity.RULES


@pytest.mark.parametrize("attrs, says", [
    (dict(tags=frozenset({"no-such-tag"})), "tags the catalog does not define"),
    (dict(tags=frozenset()), "names no catalog tag"),
    (dict(needs=frozenset({"no-such-fact"})), "facts nobody computes"),
    (dict(static=None), "defines neither"),
    (dict(statement=""), "no statement"),
])
def test_the_registry_refuses_a_rule_that_could_never_run(attrs, says, monkeypatch):
    monkeypatch.setattr(base, "_REGISTRY", dict(base._REGISTRY))
    body = {"name": "broken-rule", "statement": "a rule with a flaw", "tags": frozenset({"shift"}),
            "static": lambda self, program, facts, at: []}
    body.update(attrs)
    if body["static"] is None:
        del body["static"]
    with pytest.raises(ValueError, match=says):
        base.register(type("Broken", (base.Rule,), body))


def test_a_rule_sees_only_the_facts_it_declares():
    """A static part that reads a fact it did not declare fails where it reads it, never silently."""
    from minimizer.program.validity.facts import facts_for
    p = parse(BREAKING["alias-twice"]["static"])
    got = facts_for(frozenset({"definitions"}), p, {})
    with pytest.raises(KeyError):
        got["static"]
