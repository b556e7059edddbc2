"""Root causes of real nvFuser errors: the messages nvFuser 0.2.36 gave the H200 campaigns of
2026-12 (``tests/data/findings-2026-12-03``, each bucket's stored outcome and program) and the
probe logs (``tests/data/nvfuser/logs-0.2.36``). Every failure of that corpus gets a root cause;
the buckets a person triaged as one bug collide, the others stay apart; an input mismatch is the
user's only on a fusion input."""
import glob
import json
import os
import re

import pytest

from conftest import ROOT
from minimizer.backends import nvfuser
from minimizer.backends.nvfuser_log import fusion_inputs, parse_error
from minimizer.backends.nvfuser_rootcause import REDUCED_PRECISION, rootcause, template
from minimizer.oracle import Outcome
from minimizer.oracle.checks import Failure
from minimizer.oracle.outcome import outcome_key
from minimizer.oracle.rootcause import particulars, refreshed
from minimizer.program import parse
from minimizer.program.variants import relayout

DATA = os.path.join(ROOT, "tests", "data", "findings-2026-12-03")
LOGS = os.path.join(ROOT, "tests", "data", "nvfuser", "logs-0.2.36")
PROBES = os.path.join(ROOT, "tests", "data", "nvfuser", "probes")
SYNTHETIC = os.path.join(ROOT, "tests", "data", "nvfuser", "synthetic")
CAPTURED_KEYS = os.path.join(ROOT, "tests", "data", "nvfuser", "probes-keys", "checked-0.2.36.jsonl")


def _bucket(b):
    d = os.path.join(DATA, b)
    with open(os.path.join(d, "finding.json")) as f:
        meta = json.load(f)
    with open(os.path.join(d, "outcome.json")) as f:
        outcome = json.load(f)
    with open(os.path.join(d, "original.py")) as f:
        program = parse(f.read())
    if meta["kind"] == "layout-dependent":   # its outcome is the relayouted variant's
        program = relayout(program)[0]
    return meta, outcome, program


FAILED = sorted(os.path.basename(os.path.dirname(p)) for p in glob.glob(os.path.join(DATA, "*", "outcome.json"))
                if json.load(open(p)).get("status") == "error" and json.load(open(p)).get("backend") == "nvfuser")


def today(b):
    """The bucket's outcome as today's worker would sign it, and its root cause."""
    _, outcome, program = _bucket(b)
    fresh = refreshed(outcome, program)
    return fresh, rootcause(fresh["signature"], fresh["message"])


#: the buckets triaged as one bug each (read against nvFuser's source): two reductions with
#: different init values of one producer; the greedy scheduler's grouping of scan outputs; a scan
#: output handed to the next segment in another layout than the allocation pass decided (four
#: failures and two relayouted variants); an expanded broadcast of a scan's input bound to a
#: non-expanded intermediate
ONE_BUG = {
    "setReductionInitValue": {"55443618191a", "a46eb1d90c54", "b62b843f8bff", "d1b52bae3f38"},
    "partitionFusion": {"5b40de827f30", "7cfdedb69137", "a0cb2a11460c", "d0e5de7b0c33", "d991b69b4f4e",
                        "e669e6ee5cfb", "f75c0faeb726"},
    "validateAllocationSizesAndStrides": {"0912db3db28a", "5429353e5e76", "5eeb00963d6e", "66ce09b1d3ca",
                                          "3669972038b1", "5b0d0d93bde2"},
    "bindTensorDomain": {"96e967cbe1fa", "cf9165b05c22", "e83f735df3e1"},
    # Half/BFloat16 operands reaching a function or operator without a reduced-precision overload
    # (NVRTC: ``argument types are: (nvf::__half)``, ``operand types are: nvf::__bfloat * ...``)
    "reduced-precision": {"0d4b43767376", "1b9e4dc2e3d1", "2e24f41733a5", "35c33549bc07", "466b7527bc73",
                          "4a78ab93aa0a", "583fde2acfe9", "5fdf23084f7d", "687365ecb5ca", "6d2b988f4248",
                          "6e33b7120251", "6e441b0776b6", "805672844360", "b14548bad04f", "c6faea927bf1",
                          "c7ef611a998c", "c9088f30f8a8", "ca0a49b883ff"},
}


def test_the_corpus_holds_the_failures_the_table_names():
    assert len(FAILED) == 51
    assert set().union(*ONE_BUG.values()) <= set(FAILED)


@pytest.mark.parametrize("b", FAILED)
def test_every_failure_gets_a_root_cause_without_particulars(b):
    fresh, rc = today(b)
    assert rc.startswith("nvfuser ") and rc.count(": ") >= 3
    msg = rc.split(": ", 3)[3]
    assert not re.search(r"\bT\d+|T\?_[a-z]_|[a-z][A-Za-z.]*\??\{|__half|__bfloat|int64_t|\[N, N", msg), msg
    # the same root cause from the signature alone, wherever the signature kept the whole line
    # (the reduced-precision family needs the operand types, which only the message has)
    if len(fresh["signature"].split(": ", 3)[3]) < 200 and b not in ONE_BUG["reduced-precision"]:
        assert rootcause(fresh["signature"]) == rc


def test_known_duplicates_collide_and_distinct_causes_do_not():
    keys = {b: today(b)[1] for b in FAILED}
    for site, group in ONE_BUG.items():
        got = {keys[b] for b in group}
        assert len(got) == 1 and site in got.pop(), site
    rest = [b for b in FAILED if not any(b in g for g in ONE_BUG.values())]
    assert len({keys[b] for b in rest}) == len(rest)          # every other bucket a cause of its own
    assert len(set(keys.values())) == len(rest) + len(ONE_BUG) == 18


def test_the_reduced_precision_nvrtc_family_is_one_cause_with_its_functions_listed():
    """18 missing overloads met by Half/BFloat16 operands are one cause (nvFuser emits the op on
    the reduced-precision type); the functions each met are its particulars, not its key. An
    NVRTC error of float operands (``nvf::lerp`` ambiguous for ``(float, double, double)``) keeps
    its function."""
    family = ONE_BUG["reduced-precision"]
    keys = {b: today(b)[1] for b in FAILED}
    assert {keys[b] for b in family} == {keys["ca0a49b883ff"]}
    assert REDUCED_PRECISION in keys["ca0a49b883ff"] and '"ceil"' not in keys["ca0a49b883ff"]
    others = [k for b, k in keys.items() if "NVRTC" in k and b not in family]
    assert len(others) == 1 and '"nvf::lerp"' in others[0]
    listed = {b: particulars(today(b)[0])["functions"] for b in family}
    assert listed["ca0a49b883ff"] == ["ceil"] and listed["35c33549bc07"] == ["*"]
    assert listed["805672844360"] == [">", "isinf"]          # every function the log names, in order
    assert particulars(today("939adf12e7f5")[0]) == {}
    assert template('error: no instance of overloaded function "int" matches') == \
        'error: no instance of overloaded function "int" matches'


def test_template_of_real_lines():
    line = lambda b: parse_error(*json.load(open(os.path.join(DATA, b, "outcome.json")))["message"].split(": ", 1)).message
    from minimizer.backends.signature import mask
    assert template(mask(line("55443618191a"))) == "Inconsistent setting of initialization value for V. Prev: N, New: N"
    assert template(mask(line("d991b69b4f4e"))) == template(mask(line("7cfdedb69137"))) == \
        "Fail to group the following tensors: T?"
    assert template(mask(line("d58223e48047"))).startswith("Inconsistent parallelization found between T? (T?) and "
                                                          "T? (T?). Producer is required to be in Global Memory")
    assert template(mask(line("f5d63d291c5e"))) == "Grid sync not expected: T?, (P)"
    assert template(mask(line("8866bfb41c9c"))) == "BFS traversal could not visit some nodes: ID (from: ID), visited: (ID)"
    assert template(mask(line("102ba52b8e4d"))) == "Can't concatenate tensors with different data types: D"
    # an input's position (``in input 0, TensorView``) is the particular fusion's
    assert "input N" not in template(mask(line("cf9165b05c22")))


def test_twin_sites_are_one_root_cause():
    """``getMinimumValue``/``getMaximumValue`` on a dtype they do not handle: one bug (synthetic
    texts from nvFuser's source, until the probes in probes-keys/ are captured)."""
    sigs = []
    for name in ("min-value-0.2.36.txt", "max-value-0.2.36.txt"):
        with open(os.path.join(SYNTHETIC, name)) as f:
            text = f.read()
        e = parse_error("RuntimeError", text)
        sigs.append((e.signature, rootcause(e.signature, "RuntimeError: " + text)))
    assert sigs[0][0] != sigs[1][0] and sigs[0][1] == sigs[1][1]
    assert "getMinimumValue|getMaximumValue" in sigs[0][1] and "min|max op" in sigs[0][1]


def test_the_two_asserts_of_syncmaps_check_are_one_root_cause():
    """sync_information.cpp raises one check's failure from two NVF_ERRORs (block dims: "in Global
    Memory"; thread dims: "in Global, Shared or Tensor Memory"): real outcomes of each, var_mean over
    a broadcast dim and over an expanded one, share a root cause and keep the check's words."""
    block = json.load(open(os.path.join(DATA, "d58223e48047", "outcome.json")))
    thread = json.load(open(os.path.join(ROOT, "tests", "data", "nvfuser", "syncmap-0.2.36",
                                         "var_mean_expanded_tid.json")))
    assert "in Global Memory" in block["message"] and "Global, Shared or Tensor" in thread["message"]
    a, b = (rootcause(o["signature"], o["message"]) for o in (block, thread))
    assert a == b and "sync_information.cpp:SyncMap" in a and "Inconsistent parallelization found" in a
    assert rootcause(block["signature"], block["message"]) != rootcause(
        block["signature"].replace("Inconsistent parallelization", "Inconsistent predication"), None)


@pytest.mark.skipif(not os.path.exists(CAPTURED_KEYS), reason="probes-keys not captured on the H200 yet")
def test_captured_probes_for_the_key_rules():
    rows = {os.path.basename(r["file"]): r for r in map(json.loads, open(CAPTURED_KEYS))}
    a, b = rows["err_max_of_index.py"], rows["err_min_of_index.py"]
    assert rootcause(a["signature"], a["message"]) == rootcause(b["signature"], b["message"])
    assert rows["err_expanded_input.py"]["error_kind"] == "user-input"


# ---------------------------------------------------------------- whose an input mismatch is
def _log_exception(name):
    with open(os.path.join(LOGS, name + ".log")) as f:
        log = f.read()
    return re.search(r"^RuntimeError: (.*?)(?=^exit: )", log, re.S | re.M).group(1)


def test_a_mismatch_on_a_fusion_input_is_the_users():
    with open(os.path.join(PROBES, "err_stride_mismatch.py")) as f:
        probe = parse(f.read())
    text = _log_exception("err_stride_mismatch")
    e = parse_error("RuntimeError", text, fusion_inputs(probe))
    assert e.kind == "input-mismatch" and "T0_g_float" in e.message
    assert nvfuser.classify(RuntimeError(text), lambda: fusion_inputs(probe))["error_kind"] == "user-input"
    with open(os.path.join(PROBES, "err_dtype_mismatch.py")) as f:
        probe = parse(f.read())
    assert parse_error("RuntimeError", _log_exception("err_dtype_mismatch"), fusion_inputs(probe)).kind == \
        "input-mismatch"


@pytest.mark.parametrize("b", sorted(ONE_BUG["validateAllocationSizesAndStrides"] | ONE_BUG["bindTensorDomain"]))
def test_a_mismatch_on_an_intermediate_is_nvfusers(b):
    _, outcome, program = _bucket(b)
    exc, text = outcome["message"].split(": ", 1)
    e = parse_error(exc, text, fusion_inputs(program))
    assert e.kind == "internal-assert" and e.signature.startswith("nvfuser internal-assert: ")
    d = nvfuser.classify(RuntimeError(text), lambda: fusion_inputs(program))
    assert d["error_kind"] == "compiler"
    # not knowing the inputs (a script fmin cannot read) leaves it the user's
    assert parse_error(exc, text).kind == "input-mismatch"
    fresh = refreshed(outcome, program)
    assert fresh["signature"].startswith("nvfuser internal-assert: ") and fresh["error_kind"] == "compiler"


def test_fusion_inputs_follow_nvfusers_naming():
    late = parse('''
import torch
from nvfuser_direct import FusionDefinition, DataType
with FusionDefinition() as fd:
    a = fd.define_tensor(shape=[-1], contiguity=[True], dtype=DataType.Float)
    s = fd.define_scalar(None, dtype=DataType.Float)
    b = fd.ops.neg(a)
    c = fd.define_tensor(shape=[-1], contiguity=[True], dtype=DataType.Float)
    fd.add_output(fd.ops.add(b, c))
fd.execute([torch.ones(3), 2.0, torch.ones(3)])
''')
    fi = fusion_inputs(late)
    assert fi.names == {"T0"} and not fi.complete
    assert fi.names_input("T0") is True and fi.names_input("T2") is None   # c's name is unknown after an op
    _, _, program = _bucket("5429353e5e76")
    fi = fusion_inputs(program)
    assert fi.complete and fi.names_input("T4") is False and fi.names_input("T2") is True


# ---------------------------------------------------------------- the same failure
def test_the_same_failure_is_the_same_root_cause():
    """A reducer held to a partitionFusion failure accepts a candidate whose error names other
    tensors (the tensor list of the original held those repros at 2-7 ops)."""
    a, b = (Outcome.from_json(refreshed(_bucket(x)[1], _bucket(x)[2])) for x in ("d991b69b4f4e", "7cfdedb69137"))
    assert a.signature != b.signature
    held, _ = Failure.of(a).holds(b)
    assert held
    other = Outcome.from_json(refreshed(_bucket("a46eb1d90c54")[1], _bucket("a46eb1d90c54")[2]))
    assert not Failure.of(a).holds(other)[0]
    assert not Failure.of(a).holds(Outcome("crash", "nvfuser", signature=a.signature))[0]
    old = Failure(a.status, a.signature)   # a property stored before root causes: signatures
    assert old.holds(a)[0] and not old.holds(b)[0]
    # an input permutation that fails with the original's bug is no change of outcome
    assert outcome_key(a) == outcome_key(b) != outcome_key(other)


def test_an_ambiguous_overload_of_half_or_bfloat16_operands_is_the_reduced_precision_family():
    """Real NVRTC logs (H100, 0.2.36): a reduced-precision operand that several overloads take
    (it converts to each float type) is the same cause as one none takes; the function is listed."""
    import json
    from minimizer.backends.nvfuser_rootcause import particulars
    for name, fn in (("ambiguous_min_bf16", "nvf::min"), ("ambiguous_max_half", "nvf::max")):
        with open(os.path.join(ROOT, "tests", "data", "nvfuser", "nvrtc-0.2.36", f"{name}.json"), encoding="utf-8") as f:
            o = json.load(f)
        assert rootcause(o["signature"], o["message"]).endswith(REDUCED_PRECISION), name
        assert particulars(o["signature"], o["message"])["functions"][0] == fn   # then what else it met


CONVERSION = os.path.join(ROOT, "tests", "data", "nvfuser", "nvrtc-conversion-0.2.36")


@pytest.mark.parametrize("name", ["var_bf16_expanded", "conversion_half"])
def test_a_missing_half_conversion_is_the_reduced_precision_family(name):
    """NVRTC's ``no suitable conversion function from "nvf::__bfloat" to "float"`` (captured on an
    H100, the data folder's README says how) is a Half/BFloat16 operand meeting an operator it lacks
    (the cast): the family's one root cause, the cast listed as what it met."""
    with open(os.path.join(CONVERSION, name + ".json")) as f:
        o = json.load(f)
    assert rootcause(o["signature"], o["message"]).endswith(REDUCED_PRECISION)
    assert particulars(o) == {"functions": ["(float)"]}


def test_a_bucket_filed_from_a_cut_message_still_reproduces_on_its_whole_log():
    """The refile of 2026-12-07 (H100) marked 687365ecb5ca, 6e441b0776b6 and c9088f30f8a8 stale:
    their stored outcome's message was cut before the NVRTC log, so their property's root cause
    is the raw NVRTC line, while the replay's whole log names the reduced-precision family. The
    same failure: the check takes the root cause of the signature alone as well."""
    import json
    from minimizer.oracle.checks.failure import Failure
    with open(os.path.join(CONVERSION, "conversion_half.json")) as f:
        o = {**json.load(f), "status": "error", "backend": "nvfuser"}
    cut = {**o, "message": o["message"][:120]}
    prop = Failure.of(cut)
    assert prop.key != rootcause(o["signature"], o["message"])   # two readings of one failure
    from minimizer.oracle.outcome import Outcome
    replay = Outcome("error", "nvfuser", signature=o["signature"], message=o["message"])
    assert prop.holds(replay)[0]
    assert not Failure.of({**o, "signature": "nvfuser internal-assert: a.cpp:f: RuntimeError: other"}).holds(replay)[0]
