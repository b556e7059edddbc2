"""The bug list's classes (``fuzz/buglist/classes/``), one test per class from real finding records of
``corpus/findings`` (copied into ``tests/data/classes``: GPU campaigns on the H100/H200), and
the bug list's sections built from them."""
import dataclasses
import json
import os
import shutil

import pytest

from conftest import ROOT, bucket_dir
from minimizer.fuzz.buglist import page as buglist, classes
from minimizer.fuzz.store import record

DATA = os.path.join(ROOT, "tests", "data", "classes")
#: this folder's buckets that other tests read too, kept once in tests/data/buckets
SHARED = ("1e67bbb91db1", "86acf0590d80")
FROZEN = os.path.join(ROOT, "tests", "data", "findings-2026-12-03")
#: buckets of corpus/findings as filed before its refile of 2026-12-07 (their README)
BEFORE_REFILE = os.path.join(ROOT, "tests", "data", "corpus-before-refile")


class Violation:
    """What ``program.validity.violations`` returns for a broken rule (rule id, message)."""

    def __init__(self, rule, message):
        self.rule, self.message = rule, message


def _bucket(b, root=DATA):
    d = bucket_dir(root, b)
    meta = record.load_dir(d)
    outcome = None
    if os.path.exists(os.path.join(d, "outcome.json")):
        with open(os.path.join(d, "outcome.json"), encoding="utf-8") as f:
            outcome = json.load(f)
    return meta, buglist._ops_text(d), outcome


def _aliased_twice(program):
    """The alias-twice rule, stated on the program: an input written by two outputs."""
    targets = [s.arg("alias_input") for s in program.stmts if s.is_output and s.arg("alias_input") is not None]
    names = [t.name for t in targets]
    return [Violation("alias-twice", f"{n} is written by {names.count(n)} outputs")
            for n in dict.fromkeys(names) if names.count(n) > 1]


def test_an_internal_assert_of_a_valid_program_is_a_bug():
    meta, script, outcome = _bucket("86acf0590d80")   # transform_replay.cpp:selfReplay
    assert classes.decide(meta, script, outcome, violations=_aliased_twice) == classes.Decision("bug")


def test_an_invalid_program_is_a_missing_check_not_a_bug():
    """687832e6d588: an input written by two outputs (which value it holds is undefined); nvFuser
    accepted it and the 'wrong result' is no evidence."""
    meta, script, outcome = _bucket("687832e6d588")
    d = classes.decide(meta, script, outcome, violations=_aliased_twice)
    assert (d.cls, d.rule) == ("missing-check", "alias-twice") and "written by 2 outputs" in d.reason
    assert classes.decide(meta, script, outcome, violations=None).cls == "bug"     # no rule known: a bug


def test_the_validity_module_sends_the_real_invalid_rows_to_missing_checks():
    validity = pytest.importorskip("minimizer.program.validity")
    for b, rule in (("687832e6d588", "alias-twice"), ("c89c43396eca", "alias-twice"), ("654fc7bb8aa3", "shift-amount")):
        meta, script, outcome = _bucket(b)
        d = classes.decide(meta, script, outcome, violations=validity.violations)
        assert (d.cls, d.rule) == ("missing-check", rule), (b, d)
    meta, script, outcome = _bucket("86acf0590d80")
    assert classes.decide(meta, script, outcome).cls == "bug"


OVERFLOW = [{"rule": "int-overflow", "message": "prod of Int64 overflows"}]


def test_a_value_rule_the_reference_run_recorded_excuses_a_wrong_value():
    """654fc7bb8aa3, a wrong value: with an overflow its reference run recorded, the values have
    no single right answer, so the program's failing check is what is missing."""
    meta, script, outcome = _bucket("654fc7bb8aa3")
    assert classes.decide(meta, script, {**outcome, "undefined": OVERFLOW}, violations=None) == \
        classes.Decision("missing-check", "prod of Int64 overflows", "int-overflow")
    wrong_dtype = dataclasses.replace(meta, key=dataclasses.replace(meta.key, difference="dtype"),
                                      words="output 0: int32[4] vs reference int64[4]")   # the kind its words say
    assert classes.decide(wrong_dtype, script, {**outcome, "undefined": OVERFLOW}, violations=None).cls == "bug"


def test_a_value_rule_excuses_a_failure_only_where_it_is_a_check_of_values():
    """86acf0590d80 fails an internal assert (transform_replay.cpp:selfReplay) whatever the
    values are: a recorded overflow leaves it a bug. The same bucket failing a device-side assert
    (an index out of bounds, a check of values) is excused."""
    meta, script, outcome = _bucket("86acf0590d80")
    assert classes.decide(meta, script, {**outcome, "undefined": OVERFLOW}, violations=None) == classes.Decision("bug")
    for kind, says in (("cuda", "nvfuser cuda: CUDA error: unspecified launch failure"),
                       ("other", "RuntimeError: index out of range in self")):
        by_values = {**outcome, "undefined": OVERFLOW, "error_kind": kind, "signature": says}
        assert classes.decide(meta, script, by_values, violations=None).rule == "int-overflow", kind


def test_a_static_break_of_a_value_rule_excuses_no_internal_assert():
    """A shift by a constant out of range (``shift-amount``, found in the script without a run)
    is a rule on values too: 86acf0590d80's internal assert with such a script stays a bug, while
    a rule on the program's structure (``alias-twice``) still excuses it."""
    validity = pytest.importorskip("minimizer.program.validity")
    meta, _, outcome = _bucket("86acf0590d80")
    shift = _bucket("654fc7bb8aa3")[1]
    assert [v.rule for v in validity.violations(shift)] == ["shift-amount"]
    assert classes.decide(meta, shift, outcome) == classes.Decision("bug")
    assert classes.decide(meta, _bucket("687832e6d588")[1], outcome).rule == "alias-twice"


def test_a_dead_overflow_leaves_a_failure_of_the_host_evaluation_a_bug():
    """9b6cd5fbdead (the corpus's, as filed before its refile of 2026-12-07): nvFuser's host evaluation has no ``log1p`` ("Unexpected operator
    type log1p"), whatever the values; an Int32 ``cumprod`` nothing reads overflows on the
    reference, which its recheck recorded. A bug, not a missing check."""
    meta, script, outcome = _bucket("9b6cd5fbdead", BEFORE_REFILE)
    assert [u["rule"] for u in meta.undefined] == ["int-overflow"] and "log1p" in outcome["signature"]
    assert classes.decide(meta, script, outcome) == classes.Decision("bug")


@pytest.mark.parametrize("bucket", ["33e76fa39276", "45c1b711f3a0", "e92efb83df42"])
def test_a_wrong_value_of_an_input_read_while_written_is_a_bug(bucket):
    """Corpus buckets (as filed before the refile of 2026-12-07 merged two of them) that read an input an output is written into (a welford, a linear, an
    embedding reads it): nvFuser orders the write after the reads (``segment_inplace_update``), so
    the wrong value is a bug, not the missing check of a rule."""
    meta, script, outcome = _bucket(bucket, BEFORE_REFILE)
    assert any(s.arg("alias_input") is not None for s in _outputs(script))   # it writes an input
    assert classes.decide(meta, script, outcome) == classes.Decision("bug")


def _outputs(script):
    from minimizer.program import parse
    return [s for s in parse(script).stmts if s.is_output]


def test_a_layout_dependent_split_is_a_segmentation_difference():
    """9e4e8884bd9a: a cat whose kernels change with the inputs' layout (pointwise vs resize)."""
    meta, script, outcome = _bucket("9e4e8884bd9a")
    assert classes.changed_kinds(meta.key) == {"pointwise", "resize"}
    assert classes.decide(meta, script, outcome, violations=None) == classes.Decision("segmentation")


def test_a_reshape_that_copies_in_the_other_layout_is_by_design():
    """c3b9236fcb96: a lone reshape, a view (expr_eval) in one layout and a copy kernel in the other."""
    meta, script, outcome = _bucket("c3b9236fcb96")
    d = classes.decide(meta, script, outcome, violations=None)
    assert d.cls == "by-design" and "reshape" in d.reason


def test_nvfusers_transpose_scheduler_is_expected_and_other_splits_are_not():
    from minimizer.backends import policy_of
    nvf = policy_of("nvfuser")
    assert "transpose scheduler" in nvf.expected_segmentation(frozenset({"add"}), frozenset({"transpose", "pointwise"}))
    assert nvf.expected_segmentation(frozenset({"add"}), frozenset({"reduction", "pointwise"})) is None
    assert nvf.expected_segmentation(frozenset({"reshape", "sum"}), frozenset({"pointwise"})) is None
    assert policy_of("inductor").expected_segmentation(frozenset({"add"}), frozenset({"transpose"})) is None


def test_inductors_float32_intermediates_are_by_design_on_inductor_only():
    """1e67bbb91db1: a Half cumsum on Inductor, which keeps Half intermediates in float32."""
    meta, script, outcome = _bucket("1e67bbb91db1")
    d = classes.decide(meta, script, outcome, violations=None)
    assert d.cls == "by-design" and "emulate_precision_casts" in d.reason
    assert classes.decide(dataclasses.replace(meta, backend="nvfuser"), script, outcome, violations=None).cls == "bug"


def test_a_failure_shown_only_with_the_dump_is_the_dumps():
    meta, script, outcome = _bucket("86acf0590d80")
    meta.standalone.dump_only = True
    assert classes.decide(meta, script, outcome, violations=None).cls == "debug-dump"


def test_stale_and_fmins_own_come_first():
    meta, script, outcome = _bucket("8866bfb41c9c", FROZEN)
    assert classes.decide(meta, script, outcome, violations=_aliased_twice).cls == "stale"
    meta, script, outcome = _bucket("687832e6d588")
    assert classes.decide(dataclasses.replace(meta, owner="fmin"), script, outcome, violations=_aliased_twice).cls == "fmin"


def test_the_bug_list_has_a_section_per_class_and_counts_bugs_only(tmp_path):
    root = tmp_path / "corpus"
    for b in [*os.listdir(DATA), *SHARED]:
        shutil.copytree(bucket_dir(DATA, b), root / b)
    shutil.copytree(os.path.join(FROZEN, "8866bfb41c9c"), root / "8866bfb41c9c")
    md = buglist.render(str(root), violations=_aliased_twice)
    assert md.split("\n")[2].startswith("3 bugs of the compilers under test")
    bugs = {line.split(" | ")[0].strip("| ") for line in md.split("## Bugs (3)")[1].split("\n## ")[0].splitlines()
            if line.startswith("| ") and not line.startswith("| bucket")}
    assert bugs == {"86acf0590d80", "654fc7bb8aa3", "4c5bf5236ba2"}    # the shift is no rule of this test's stand-in
    checks = md.split("## Missing checks (1)")[1].split("\n## ")[0]
    (row,) = [line for line in checks.splitlines() if line.startswith("| alias-twice")]
    assert "687832e6d588" in row and "c89c43396eca" in row and "mismatch (values) ×2" in row   # one row per rule
    assert "## Segmentation differences (1)" in md and "## By design (5)" in md and "## Stale (1)" in md   # 788d422b67ee among them
    assert "## fmin's own (2)" in md   # d75eb7eb0dd7, e46106519102


def test_a_program_refused_while_it_is_defined_is_no_bug():
    """A seeded campaign on the GPU (H100, nvfuser_direct 0.2.36) filed nvFuser's own checks of a
    definition as bugs: ``add_output`` of a scalar ("Non-TensorView outputs are not supported at
    this point", f0ab62598954) and ``linear`` with K broadcast in one operand only ("K should be
    broadcast in both inputs and weights, or neither", 4598fd85ccea) are refusals that say so, by
    design; ``add_output`` of a shape vector (d75eb7eb0dd7) is a TypeError of the frontend's
    binding: the mutation's error, fmin's own. A check that fails at definition without saying the
    case is unsupported stays a bug: 4c5bf5236ba2, ``cummin`` of welford's count, whose Index dtype
    nvFuser's own ``getMaximumValue`` does not handle."""
    for b, cls in (("f0ab62598954", "by-design"), ("4598fd85ccea", "by-design"), ("d75eb7eb0dd7", "fmin"),
                   ("4c5bf5236ba2", "bug")):
        meta, script, outcome = _bucket(b)
        assert outcome["where"] == "definition", b
        assert classes.decide(meta, script, outcome, violations=None).cls == cls, b
    meta, script, outcome = _bucket("86acf0590d80")   # an internal assert while executing: a bug
    assert classes.refusal(meta, outcome) is None


def test_a_program_the_static_check_refuses_today_is_fmins_own():
    """e46106519102 (a seeded mutant, the H100): ``scaled_mm`` of an operand with a stride-0 row,
    which torch's cuBLAS path refuses ("self must be row_major") and nvFuser passed to it; filed
    before fmin's static check learnt the rule, it is the mutation's fault, not nvFuser's."""
    meta, script, outcome = _bucket("e46106519102")
    assert "overlap in memory" in classes.static_rejection(script)
    d = classes.decide(meta, script, outcome)
    assert d.cls == "fmin" and "static check rejects" in d.reason
    meta, script, outcome = _bucket("86acf0590d80")
    assert classes.static_rejection(script) is None


def test_a_fusion_the_gpu_is_too_old_for_is_by_design():
    """788d422b67ee (an H100, a seed of nvFuser's fp4 tests): nvFuser refuses to compile a
    Float8_e8m0fnu fusion for compute capability 9.0, saying it needs Blackwell: the GPU's limit,
    not a bug, whatever made the program."""
    meta, script, outcome = _bucket("788d422b67ee")
    d = classes.decide(meta, script, outcome, violations=None)
    assert d.cls == "by-design" and "compute capability" in d.reason
    cause = meta.key.cause.replace("Target compute capability is N but this fusion requires at least N", "something else")
    other = dataclasses.replace(meta, key=dataclasses.replace(meta.key, cause=cause))
    assert classes.newer_gpu(other, {**outcome, "signature": "nvfuser user-check: x: RuntimeError: other"}) is None
