"""One root cause, one row: real buckets of the H200/H100 campaigns (``tests/data/one-row``, see its
README) re-keyed offline as ``fmin merge-findings`` does. Each normalization of the key merges the
buckets it is for and nothing else; a bucket keeps its id when it is minimized; a stale flag does
not survive a merge with a live bucket; an input that does not match its own definition is fmin's."""
import json
import os
import re
import shutil

import pytest

from conftest import ROOT, bucket_dir
from minimizer.backends import nvfuser
from minimizer.backends.nvfuser_log import fusion_inputs
from minimizer.fuzz.campaign.run import apply_reduction
from minimizer.fuzz.store import record
from minimizer.fuzz.judging.today import TODAY, merge, rekey
from minimizer.fuzz.store.rekey import merge_equal_programs
from minimizer.fuzz.store.store import Store, bucket_id
from minimizer.fuzz.judging.keys import EXPANDED_AS_ONE, EXTENT_AS_ONE, canonical_form, dimension_error
from minimizer.fuzz.judging.mechanisms import STRIDED_INPLACE_WRITE
from minimizer.fuzz.judging.oracles import _failure, failure_owner
from minimizer.fuzz.store.finding import Finding
from minimizer.fuzz.store.key import MISMATCH, BucketKey
from minimizer.oracle import Outcome
from minimizer.oracle.checks import Failure
from minimizer.oracle.rootcause import rootcause
from minimizer.program import parse

DATA = os.path.join(ROOT, "tests", "data", "one-row")
PROBES_KEYS = os.path.join(ROOT, "tests", "data", "nvfuser", "probes-keys")


def corpus(tmp_path, *ids) -> str:
    root = str(tmp_path / "corpus")
    for b in ids:
        shutil.copytree(bucket_dir(DATA, b), os.path.join(root, b))
    return root


def buckets(root) -> dict:
    """id -> record of every bucket under ``root``."""
    return {m.id: m for m in Store(root).buckets()}


def answers(m) -> set:
    """The ids of the buckets (as first filed) that bucket ``m`` answers to."""
    return {bucket_id(k) for k in [m.key, *(m.old_keys or [])]}


def finding(b) -> record.Bucket:
    """The record of bucket ``b`` of the data."""
    return record.load(os.path.join(bucket_dir(DATA, b), record.FILE))


def read(*parts):
    with open(os.path.join(bucket_dir(DATA, parts[0]), *parts[1:]), encoding="utf-8") as f:
        return json.load(f) if parts[-1].endswith(".json") else f.read()


# ---------------------------------------------------------------- what the key ignores
@pytest.mark.parametrize("pair", [("cd067938e9c4", "6ebc0fba4ce1"), ("fd3ff714e502", "d63636f6f81a")])
def test_fmins_label_of_a_validation_site_is_not_the_key(tmp_path, pair):
    """One nvFuser validation, labelled ``input-mismatch`` where fmin could not tell the tensor it
    names is an intermediate and ``internal-assert`` where it could: one bucket."""
    labels = {finding(b).key.cause.split()[1] for b in pair}
    assert labels == {"input-mismatch:", "internal-assert:"}
    root = corpus(tmp_path, *pair)
    r = rekey(root)
    after = buckets(root)
    assert r["buckets_after"] == len(after) == 1
    (m,) = after.values()
    assert answers(m) >= set(pair) and " validation: " in m.key.cause


def test_a_printed_values_type_is_not_the_key(tmp_path):
    """``Prev: double(-inf), New: double(inf)`` and ``Prev: -9223372036854775808, New: ...`` (an
    int64 printed bare) are one site's message."""
    pair = ("9cd9e1df7d22", "48b6635736c4")
    assert len({finding(b).key for b in pair}) == 2
    keys = {rootcause(read(b, "outcome.json")) for b in pair}
    assert keys == {"nvfuser internal-assert: device_lower/analysis/predicate_elimination.cpp:setReductionInitValue: "
                    "RuntimeError: Inconsistent setting of initialization value for V. Prev: N, New: N"}
    root = corpus(tmp_path, *pair)
    rekey(root)
    assert len(buckets(root)) == 1


def test_ir_names_are_not_the_key():
    """86acf0590d80 ran standalone with ``bS?{N}`` where its record says ``bS?{N ex N}``: the same
    failure."""
    m = finding("86acf0590d80")
    got = re.match(r"error `(.*?)`, expected", m.standalone.why).group(1)
    want = m.attachment.expect["signature"]
    assert "bS?{N}" in got and "bS?{N ex N}" in want
    a = Outcome("error", "nvfuser", signature=want)
    b = Outcome("error", "nvfuser", signature=got)
    assert rootcause(a) == rootcause(b)
    assert Failure.of(a).holds(b)[0]


# ---------------------------------------------------------------- a wrong shape by its dimension
EXPANDED = ("0114a9146a59", "0fc0283ee4de", "20b50ae019e7", "551c087746af", "6447dc39a824", "a4e0aaaf4c16",
            "b2ee74c38265")
CONCATENATED = ("256ab333b76a", "6fc870649b3d")


def test_a_wrong_shape_is_named_by_what_went_wrong_with_the_dimension_and_the_op_that_loses_it(tmp_path):
    """Seven buckets keyed by seven ops (``broadcast_in_dim``, ``set``, ``welford``, ``cat``, ``ne``,
    ``prod`` ...) are one expanded extent returned as 1; two after a ``cat`` are one concatenated
    extent lost. Once minimized, a lost extent is also named by the op that loses it (its fix is
    in that op): the three minimized expanded ones lose it in a ``cat``, a ``broadcast_in_dim``
    and a ``prod``, three rows; the four not minimized yet stay one row, their op unknown; both
    concatenated ones lose it in their ``cat``."""
    assert len({finding(b).key for b in EXPANDED + CONCATENATED}) == 9
    root = corpus(tmp_path, *EXPANDED, *CONCATENATED)
    rekey(root)
    after = buckets(root)
    expanded = "nvfuser mismatch shape (an expanded extent returned as 1)"
    assert sorted(str(m.key) for m in after.values()) == [
        "nvfuser mismatch shape (a concatenated extent lost) at cat", expanded, f"{expanded} at broadcast_in_dim",
        f"{expanded} at cat", f"{expanded} at prod"]
    by_key = {str(m.key): answers(m) for m in after.values()}
    assert by_key[expanded] >= {"0fc0283ee4de", "20b50ae019e7", "551c087746af", "a4e0aaaf4c16"}
    assert "6447dc39a824" in by_key[f"{expanded} at cat"] and "0114a9146a59" in by_key[f"{expanded} at broadcast_in_dim"]
    assert "b2ee74c38265" in by_key[f"{expanded} at prod"]
    assert by_key["nvfuser mismatch shape (a concatenated extent lost) at cat"] >= set(CONCATENATED)


def test_an_extent_returned_as_1_is_an_expanded_ones_only_where_the_program_expands():
    """The kind of dimension error comes from the program too: 551c087746af's input is defined
    with an expanded dim; without it the same words say only that an extent came back as 1."""
    m = finding("551c087746af")
    program = parse(read("551c087746af", "original.py"))
    assert dimension_error(m.words, program) == EXPANDED_AS_ONE
    plain = parse(read("551c087746af", "original.py").replace("contiguity=[None, True]", "contiguity=[True, True]")
                  .replace("fd.ops.broadcast(T24, is_broadcast_dim=[False, True])", "fd.ops.set(T24)")
                  .replace("fd.ops.expand(T27, shape=[-1, 65])", "fd.ops.set(T27)")
                  .replace("as_strided((8, 65), (0, 1))", "as_strided((8, 65), (65, 1))"))
    assert dimension_error(m.words, plain) == EXTENT_AS_ONE


# ---------------------------------------------------------------- the reduced-precision NVRTC family
def test_the_reduced_precision_nvrtc_family_is_one_row_listing_its_functions(tmp_path):
    root = corpus(tmp_path, "ca0a49b883ff", "35c33549bc07", "939adf12e7f5")
    rekey(root)
    after = buckets(root)
    assert len(after) == 2
    family = next(m for m in after.values() if {"ca0a49b883ff", "35c33549bc07"} <= answers(m))
    assert "reduced-precision overload" in family.key.message and '"ceil"' not in family.key.message
    assert sorted(family.particulars["functions"]) == ["*", "ceil"]
    lerp = next(m for m in after.values() if "939adf12e7f5" in answers(m))
    assert '"nvf::lerp"' in lerp.key.message and lerp.particulars is None


# ---------------------------------------------------------------- one program up to names, sizes, dtypes
def test_one_program_up_to_names_sizes_and_dtypes_has_one_form():
    a = parse(read("1e67bbb91db1", "repro.min.py"))   # legacy frontend, Half -> Double, 6 elements
    b = parse(read("c628a67231ec", "repro.min.py"))   # nvfuser_direct, BFloat16 -> Int32, 13 elements
    assert canonical_form(a) == canonical_form(b)
    assert canonical_form(a) != canonical_form(parse(read("70a6003adcaf", "repro.min.py")))


def test_minimized_buckets_of_one_program_merge(tmp_path):
    root = corpus(tmp_path, "1e67bbb91db1", "c628a67231ec")
    store = Store(root)
    assert merge_equal_programs(store, TODAY.form) == []         # Inductor's and nvFuser's: two bugs
    p = record.path_in(os.path.join(root, "1e67bbb91db1"))
    m = record.load(p)
    m.backend = m.owner = "nvfuser"                    # as if nvFuser had shown both
    record.save(p, m)
    store = Store(root)
    assert len(merge_equal_programs(store, TODAY.form)) == 1
    (kept,) = buckets(root).values()
    assert kept.id == "1e67bbb91db1"                    # the first seen keeps its id
    assert store.resolve(finding("c628a67231ec").key) == str(kept.key)


# ---------------------------------------------------------------- a bucket keeps its identity
def test_a_bucket_keeps_its_id_when_it_is_minimized(tmp_path):
    """70a6003adcaf as it was filed (keyed by the op of its first differing output), then its
    reduction applied as a campaign applies it: the key names the repro's ops, the id stays,
    and the campaign counts the next example under either key in it."""
    first = BucketKey(MISMATCH, "nvfuser", difference="values", ops=("cast",))
    assert str(first) == "nvfuser mismatch values: cast"
    m = finding("70a6003adcaf")
    m.reduction = m.attachment = m.standalone = m.old_keys = None
    m.key, m.id, m.minimized = first, bucket_id(first), False
    root = str(tmp_path / "corpus")
    d = os.path.join(root, bucket_id(first))
    os.makedirs(d)
    for name in ("original.py", "outcome.json"):
        shutil.copy(os.path.join(DATA, "70a6003adcaf", name), d)
    record.save_dir(d, m)
    store = Store(root)
    apply_reduction(store, first, {"minimized": {"ops_before": 12, "ops_after": 2},
                                   "files": {"repro.min.py": read("70a6003adcaf", "repro.min.py")}})
    (now,) = buckets(root).values()
    assert now.id == bucket_id(first) and os.listdir(root) == [bucket_id(first)]
    assert str(now.key) == "nvfuser mismatch values: addcmul, cosh" and now.old_keys == [str(first)]
    for key in (first, now.key):
        f = Finding("mismatch", "nvfuser", key, "again", {"mismatch": "values"})
        d2, new = Store(root).add(f, "", "2031.1.1", "nvfuser")
        assert not new and os.path.basename(d2) == bucket_id(first)
    assert buckets(root)[bucket_id(first)].count == m.count + 2


# ---------------------------------------------------------------- stale
@pytest.mark.parametrize("stale", ["9cd9e1df7d22", "48b6635736c4"])
def test_a_stale_flag_does_not_survive_a_merge_with_a_live_bucket(tmp_path, stale):
    root = corpus(tmp_path, "9cd9e1df7d22", "48b6635736c4")
    store = Store(root)
    store.mark_stale(finding(stale).key, "not reproduced when replayed")
    assert buckets(root)[stale].stale is not None
    rekey(root)
    (m,) = buckets(root).values()
    assert m.stale is None


def test_a_stale_flag_does_not_survive_a_union_with_a_live_copy(tmp_path):
    into = corpus(tmp_path, "9cd9e1df7d22")
    Store(into).mark_stale(finding("9cd9e1df7d22").key, "recheck: not reproduced")
    src = str(tmp_path / "shard")
    shutil.copytree(os.path.join(DATA, "9cd9e1df7d22"), os.path.join(src, "9cd9e1df7d22"))
    merge([src], into)
    (m,) = buckets(into).values()
    assert m.stale is None and m.count == 2 * finding("9cd9e1df7d22").count


# ---------------------------------------------------------------- whose an input mismatch is
def _probe():
    row = next(r for r in map(json.loads, open(os.path.join(PROBES_KEYS, "checked-0.2.36.jsonl")))
               if r["file"].endswith("err_expanded_input.py"))
    with open(os.path.join(PROBES_KEYS, "err_expanded_input.py")) as f:
        text = f.read()
    return row, text, parse(text)


def test_an_inputs_expanded_extent_mismatch_is_fmins():
    """A fusion input defined expanded, given a tensor that is not (nvFuser's message, captured on
    the H100): the generated program's inputs do not match its own definition — fmin's, not a bug
    to file against nvFuser."""
    row, text, program = _probe()
    exc, _, message = row["message"].partition(": ")
    got = nvfuser.classify(RuntimeError(message), lambda: fusion_inputs(program))
    assert got["error_kind"] == "user-input"
    o = Outcome("error", "nvfuser", signature=got["signature"], message=got["message"], error_kind=got["error_kind"])
    assert failure_owner("nvfuser", o, program) == "fmin"

    class Reference:   # fmin's reference runs the program (a valid definition): it does not fail
        def run(self, request):
            return Outcome("ok", "reference")
    f = _failure(o, text, "probe.py", 0, Reference(), "nvfuser", program)
    assert f.owner == "fmin"


@pytest.mark.parametrize("b", ["d63636f6f81a", "fd3ff714e502"])
def test_an_expanded_extent_mismatch_on_an_intermediate_stays_nvfusers(b):
    """On an intermediate (d63636f6f81a), or on a tensor fmin cannot tell is an input
    (fd3ff714e502: a tensor defined after an op), it is nvFuser's."""
    o = read(b, "outcome.json")
    program = parse(read(b, "original.py"))
    assert failure_owner("nvfuser", o, program) == "nvfuser"


def test_a_validation_naming_no_tensor_is_nvfusers_once_the_reference_took_the_inputs():
    """d50635d251a7: "Error from segmentation group 3: ... Expecting an expanded dimension on
    dimension 2" names no tensor, so whose it is turns on the inputs. fmin's reference checks its
    inputs as nvFuser's validateAllocationSizesAndStrides does, and ran the program: the inputs
    match their definitions, and the tensor is one nvFuser allocated. Without that run (a stored
    outcome alone) it stays fmin's; a re-key of a bucket the reference ran keeps nvFuser's."""
    d = os.path.join(ROOT, "corpus", "findings", "d50635d251a7")
    o = json.load(open(os.path.join(d, "outcome.json")))
    program = parse(open(os.path.join(d, "original.py")).read())
    assert o["error_kind"] == "user-input"
    assert failure_owner("nvfuser", o, program) == "fmin"
    assert failure_owner("nvfuser", o, program, reference_took_inputs=True) == "nvfuser"
    assert failure_owner("reference", o, program, reference_took_inputs=True) == "fmin"

    class Reference:
        def run(self, request):
            return Outcome("ok", "reference")
    out = Outcome("error", "nvfuser", signature=o["signature"], message=o["message"], error_kind=o["error_kind"])
    assert _failure(out, open(os.path.join(d, "original.py")).read(), "original.py", 0, Reference(), "nvfuser",
                    program).owner == "nvfuser"


def test_a_scalars_dtype_letter_is_not_the_key():
    """A seeded campaign on the GPU filed one refusal twice: ``add_output`` of an Int scalar and
    of a Double one (f0ab62598954, 92d15f4f8021) print the scalar as ``i?`` and ``d?``."""
    from minimizer.backends.nvfuser_rootcause import rootcause
    sigs = [f"nvfuser user-check: fusion.cpp:addOutputInternal: RuntimeError: Non-TensorView outputs are not "
            f"supported at this point: {v}?" for v in "idb"]
    assert len({rootcause(s) for s in sigs}) == 1


def test_a_shards_bucket_of_a_known_key_under_another_id_merges(tmp_path):
    """A GPU campaign's corpus (8cd68d68b828: an expanded extent returned as 1, lost in a
    ``broadcast_in_dim`` after a ``slice``) merged into the known corpus, whose bucket of that
    dimension error (6447dc39a824) loses it in a ``cat``: two rows today, one per op that loses
    the extent. A second shard's bucket of 8cd68d68b828's key as it is now (0114a9146a59, the same
    ``slice`` and ``broadcast_in_dim``), filed under the id of the key it met: ``merge`` copies it
    in as new and nothing re-keys it, yet it is one row with 8cd68d68b828."""
    data = os.path.join(ROOT, "tests", "data", "merge-same-key")
    known = tmp_path / "known"
    shutil.copytree(os.path.join(data, "known"), known)
    report = merge([os.path.join(data, "shard")], str(known))
    got = {b.id: b for b in Store(str(known)).buckets()}
    assert set(got) == {"6447dc39a824", "8cd68d68b828", "ca0a49b883ff", "c9088f30f8a8"}
    assert report["rekey"]["merged"] == 0
    assert str(got["6447dc39a824"].key) == "nvfuser mismatch shape (an expanded extent returned as 1) at cat"
    at_broadcast = got["8cd68d68b828"].key
    assert str(at_broadcast) == "nvfuser mismatch shape (an expanded extent returned as 1) at broadcast_in_dim"
    # c9088f30f8a8's key (an NVRTC error naming ``nvf::threshold``) is one the known
    # reduced-precision bucket once absorbed: no reason on its own (its stored message lost the
    # operand types to the kernel source printed before them; its reduction's run decides)
    shard = tmp_path / "shard2"
    shutil.copytree(os.path.join(DATA, "0114a9146a59"), shard / "0114a9146a59")
    p = record.path_in(str(shard / "0114a9146a59"))
    m = record.load(p)
    m.key = at_broadcast
    record.save(p, m)
    report = merge([str(shard)], str(known))
    (row,) = [b for b in Store(str(known)).buckets() if str(b.key) == str(at_broadcast)]
    assert report["rekey"]["merged"] == 1 and row.id == "0114a9146a59"   # the first seen keeps its id
    assert row.count == record.load_dir(os.path.join(data, "shard", "8cd68d68b828")).count + m.count


def test_buckets_once_keyed_alike_then_told_apart_stay_apart(tmp_path):
    """b320a6909b04 was first keyed like 45c1b711f3a0 (``values: linear``) and then, minimized,
    ``values: permute``: its old key is another bucket's key now, which keeps it."""
    root = tmp_path / "c"
    for b in ("b320a6909b04", "45c1b711f3a0"):
        shutil.copytree(os.path.join(DATA, b), root / b)
    assert "nvfuser mismatch values: linear" in record.load_dir(str(root / "b320a6909b04")).old_keys
    rekey(str(root))
    assert sorted(b.id for b in Store(str(root)).buckets()) == ["45c1b711f3a0", "b320a6909b04"]


def test_the_bare_assertions_of_one_function_are_one_root_cause():
    """``RepeatOp``'s constructor asserts, with no message, that a repeated broadcast dim is not
    expanded and has extent one: a ``cat`` of one tensor with itself over an expanded dim
    (1d9b025f01de) and over a dim sliced to one (e1f05e2ae885, the H100) broke one and the other.
    One translation, one fix: one row, the conditions listed in it."""
    from minimizer.backends.nvfuser_rootcause import BARE_ASSERT, particulars, rootcause as nv_rootcause
    from minimizer.fuzz.buglist import page as buglist
    sigs = ["nvfuser internal-assert: ir/internal_nodes.cpp:RepeatOp: RuntimeError: Expected "
            f"{c} ." for c in ("!in_domain.at(i)->hasExpandedExtent()", "in_domain.at(i)->extent()->isOneInt()")]
    keys = {nv_rootcause(s) for s in sigs}
    assert len(keys) == 1 and keys.pop().endswith(BARE_ASSERT)
    assert particulars(sigs[1], None) == {"conditions": ["in_domain.at(i)->extent()->isOneInt()"]}
    other = "nvfuser internal-assert: scheduler/normalization_utils.cpp:isCacheableUnmappableTv: RuntimeError: " \
            "Expected !immediate_reduction_tvs.empty() ."
    assert nv_rootcause(other) != nv_rootcause(sigs[0])                    # another function: another cause
    said = "nvfuser internal-assert: ops/arith.cpp:scan: RuntimeError: Closed-form scan of expanded dimension"
    assert not nv_rootcause(said).endswith(BARE_ASSERT)                # an assertion that says why keeps its words
    m = Store(os.path.join(ROOT, "corpus", "findings")).meta(nv_rootcause(sigs[0]).join(["nvfuser error ", ""]))
    assert m is not None and set(m.particulars["conditions"]) == {c.split("Expected ")[1][:-2] for c in sigs}
    assert "`in_domain.at(i)->extent()->isOneInt()`" in buglist._listed(m)


def test_an_input_written_into_itself_is_one_row_and_an_ill_defined_write_another(tmp_path):
    """Three real buckets without ops: a non-contiguous input written into itself at rank 2 (keyed
    ``aliasing``) and at rank 3 (first keyed ``values: where``, by the output its unreduced program
    broke), and a BFloat16 value written into a Float input. The rank-3 repro returns nothing, so
    what it shows wrong is an input: it joins the rank-2 row, both keyed by the strided in-place
    write. The third breaks ``alias-dtype``: its key says so and it stays apart, though its ops
    (none) and its difference are the same."""
    root = corpus(tmp_path, "7e0863eba51b", "4663d1cbec89", "0d4b417dfcc0")
    before = buckets(root)
    rekey(root)
    got = buckets(root)
    first, later = before["7e0863eba51b"], before["4663d1cbec89"]
    assert first.first_seen < later.first_seen   # the row keeps the first example, whichever repro it keeps
    assert (got["7e0863eba51b"].first_seen, got["7e0863eba51b"].first_example) == (first.first_seen, first.first_example)
    assert got["7e0863eba51b"].count == first.count + later.count
    assert got["7e0863eba51b"].seeds == {k: (first.seeds or {}).get(k, 0) + (later.seeds or {}).get(k, 0)
                                         for k in {**(first.seeds or {}), **(later.seeds or {})}}
    assert set(got) == {"7e0863eba51b", "0d4b417dfcc0"}
    assert got["7e0863eba51b"].key.mechanism == STRIDED_INPLACE_WRITE.words   # both inputs non-contiguous
    assert "nvfuser mismatch values: where" in got["7e0863eba51b"].old_keys
    assert str(got["0d4b417dfcc0"].key) == "nvfuser mismatch aliasing: no op (breaks alias-dtype)"
    assert Store(root).meta("nvfuser mismatch aliasing: no op").id == "7e0863eba51b"


def test_a_buckets_key_now_answers_before_another_buckets_old_key(tmp_path):
    """A key one bucket once had may be another's today: the one that has it today answers. Both
    real buckets below are keyed ``values: no op``; the first re-keyed (``alias-dtype``) keeps that
    as an old key, and the second must still be found by it and re-keyed in turn."""
    root = corpus(tmp_path, "0d4b417dfcc0", "4663d1cbec89")
    assert {str(m.key) for m in buckets(root).values()} == {"nvfuser mismatch values: no op"}
    rekey(root)
    got = buckets(root)
    assert got["0d4b417dfcc0"].key.rules == ("alias-dtype",)
    assert "nvfuser mismatch values: no op" in got["0d4b417dfcc0"].old_keys
    assert got["4663d1cbec89"].key.mechanism == STRIDED_INPLACE_WRITE.words
