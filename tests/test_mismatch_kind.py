"""A wrong result's kind of difference (in its key, and the property it is reduced and rechecked
under) is what its words say: both come from the output the deciding comparison found wrong.

Issue 43's bucket 419f0ad75797 was keyed ``values`` while its words said a wrong shape: the
differential oracle took the kind from the comparison with eager (whose first wrong output was a
value the exact reference then cleared as rounding) and the words from the judgement against the
exact result (whose first wrong output was a shape). The words are real: bucket 9813c17e9e23's
(a shape, output 1 of its program) and 70a6003adcaf's (values)."""
import os
import shutil
from collections import Counter
from dataclasses import replace

from conftest import CORPUS
from minimizer.fuzz.judging.keys import DIFFERENCES, mismatch_key, worded_difference
from minimizer.fuzz.judging.oracles.base import Example
from minimizer.fuzz.judging.oracles.differential import _mismatch
from minimizer.fuzz.judging.property import bucket_property, differs
from minimizer.fuzz.judging.today import rekey
from minimizer.fuzz.store import record
from minimizer.fuzz.store.store import Store
from minimizer.oracle import Outcome
from minimizer.oracle.checks.mismatch import Mismatch, MismatchEvidence
from minimizer.oracle.compare import Comparison, OutputDiff
from minimizer.oracle.property import Evaluation
from minimizer.program import parse

FINDINGS = os.path.join(CORPUS, "findings")
SHAPE_BUCKET = "9813c17e9e23"
PREFIX = "nvfuser outputs differ from the reference: "


def words_of(bucket: str) -> str:
    return record.load_dir(os.path.join(FINDINGS, bucket)).words


class NotRun:
    """A pool the judgement must not run (nvFuser has no translation to suspect)."""
    workers = ()

    def __init__(self, backend: str):
        self.backend = backend

    def run(self, req):
        raise AssertionError(f"{self.backend} run")


def agree(kind: str | None, said: str | None) -> bool:
    """A key's kind and its words' (``worded_difference``): an aliased input's wrong elements are
    values in words."""
    return said == kind or (said == "values" and kind == "aliasing")


def test_every_committed_mismatch_bucket_is_keyed_as_its_words_say():
    """Over the committed corpus: every wrong result's key kind is one of ``DIFFERENCES`` and the
    kind its recorded words say; the property it is reduced under and its attachment's
    expectation say the same."""
    kinds = Counter()
    for m in Store(FINDINGS).buckets():
        if m.kind != "mismatch":
            continue
        kind, said = m.key.difference, worded_difference(m.words)
        assert kind in DIFFERENCES and agree(kind, said), (m.id, str(m.key), m.words)
        assert differs(m) == ("values" if kind == "aliasing" else kind), m.id
        if m.attachment is not None and m.attachment.expect.get("kind") == "mismatch":
            assert m.attachment.expect["differs"] == differs(m), m.id
        kinds[kind] += 1
    assert {"dtype", "shape", "values", "aliasing"} <= set(kinds), kinds   # the check sees every kind


def test_the_oracle_keys_the_output_whose_words_it_files():
    """Eager's comparison flags output 0's values and output 1's shape; the exact reference
    clears output 0 as rounding. The finding is output 1's: keyed ``shape``, worded as a shape,
    reduced under ``--mismatch-in shape`` — the committed bucket's key."""
    shape_words = words_of(SHAPE_BUCKET)[len(PREFIX):]
    values_words = words_of("70a6003adcaf")[len(PREFIX):]
    value = OutputDiff("output 0", False, values_words, dtype="float32", what="values")
    shape = OutputDiff("output 1", False, shape_words, dtype="float32", what="shape", got="float32")
    rest = [OutputDiff(f"output {k}", True, dtype="float32") for k in (2, 3)]
    eager = Comparison(False, [value, shape, *rest], values_words)
    exact = Comparison(False, [replace(value, ok=True, reason=None), shape, *rest], shape_words)
    with open(os.path.join(FINDINGS, SHAPE_BUCKET, "original.py"), encoding="utf-8") as f:
        text = f.read()
    ex = Example(parse(text), text, "original.py", Outcome("ok", "nvfuser"), NotRun("nvfuser"), NotRun("reference"),
                 "nvfuser")
    found = _mismatch(Evaluation(True, shape_words, {}, None), MismatchEvidence(None, eager, exact), ex)
    assert found.key.difference == "shape" and worded_difference(found.words) == "shape"
    assert found.words == words_of(SHAPE_BUCKET) and found.flags == {"mismatch": "shape"}
    assert str(found.key) == "nvfuser mismatch shape (another extent)" and found.owner == "nvfuser"


def test_a_bucket_keyed_against_its_words_is_rekeyed_on_them(tmp_path):
    """The 419f0ad75797 case, made from bucket 9813c17e9e23 as the older oracle keyed it (output
    0's op, ``values``, its flag ``values``) with its shape words: held to a shape already, and
    a re-key moves it to the shape key, the values key kept as an alias."""
    shutil.copytree(os.path.join(FINDINGS, SHAPE_BUCKET), tmp_path / SHAPE_BUCKET)
    d = str(tmp_path / SHAPE_BUCKET)
    m = record.load_dir(d)
    right = str(m.key)
    wrong = mismatch_key("nvfuser", "values", ["erf"])
    record.save_dir(d, replace(m, key=wrong, flags={"mismatch": "values"}))
    (held,) = bucket_property(record.load_dir(d), None).checks
    assert isinstance(held, Mismatch) and held.what == "shape"
    report = rekey(str(tmp_path))
    assert report["moved"] == 1
    (now,) = Store(str(tmp_path)).buckets()
    assert str(now.key) == right and str(wrong) in now.old_keys and agree(now.key.difference,
                                                                          worded_difference(now.words))


def test_words_that_first_name_an_input_written_in_place_say_aliasing():
    """Words whose first wrong tensor is an input after ``fd.execute`` (bucket 7e0863eba51b's, of
    the 2026-12-07 nvFuser-tests campaign) are a wrong in-place write: ``aliasing``, the kind the
    in-place mechanisms key on; an output named first keeps ``values``."""
    assert worded_difference("input 0 (after execute) (float32[8, 16]): eager computes it exactly, "
                             "yet 85 of 128 elements are more than one ulp from it") == "aliasing"
    assert worded_difference("output 1 (float32[4, 4]): 16 of 16 elements differ; "
                             "input 0 (after execute) (float32[4, 4]) too") == "values"
    assert worded_difference("output 0: float32[7] vs reference float32[1]") == "shape"
