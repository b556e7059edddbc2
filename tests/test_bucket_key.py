"""A bucket's key as a record (``store/key.py``): its text is the string fmin has always written,
today's key functions make the records the committed corpus stores, every part survives
``finding.json``, a schema-1 record migrates to the same record, and no code outside the
migration reads a key back from its text."""
import ast
import glob
import json
import os
import shutil
from types import SimpleNamespace

import pytest

from conftest import ROOT
from minimizer.fuzz.campaign.run import generator_finding
from minimizer.fuzz.judging.keys import change_key
from minimizer.fuzz.judging.today import TODAY
from minimizer.fuzz.sources.seeded import segmentation_key
from minimizer.fuzz.store import record
from minimizer.fuzz.store.key import FAILURE, GENERATOR, MISMATCH, OUTCOME_CHANGE, SEGMENTATION, BucketKey
from minimizer.fuzz.store.oldkeys import key_of
from minimizer.fuzz.store.store import Store

CORPUS = os.path.join(ROOT, "corpus", "findings")
#: every finding.json the repository holds: the corpus (schema 2) and the frozen test copies (older)
REAL = sorted(glob.glob(os.path.join(CORPUS, "*", "finding.json"))
              + glob.glob(os.path.join(ROOT, "tests", "data", "**", "finding.json"), recursive=True))


def _raw(path: str) -> dict:
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def _corpus() -> list[dict]:
    return [_raw(p) for p in sorted(glob.glob(os.path.join(CORPUS, "*", "finding.json")))]


# ---------------------------------------------------------------- the text is the stored string
@pytest.mark.parametrize("path", REAL, ids=lambda p: os.path.relpath(p, ROOT))
def test_every_stored_key_is_its_record_s_text(path):
    raw = _raw(path)
    assert str(record.load(path).key) == raw["key"]
    if "key_record" in raw:   # schema 2: the text is derived from the parts, not kept beside them
        key = BucketKey.from_json(raw["key_record"])
        assert key.verbatim is None and key.text == raw["key"]


def test_the_committed_corpus_holds_every_kind_and_form_of_key():
    """What the tests below cover is there: each kind of key and each form of its text."""
    keys = [BucketKey.from_json(m["key_record"]) for m in _corpus()]
    assert {k.kind for k in keys} == {FAILURE, MISMATCH, SEGMENTATION}
    assert {k.difference for k in keys if k.kind == MISMATCH} == {"dtype", "shape", "values", "aliasing"}
    assert any(k.rules for k in keys) and any(k.difference == "shape" and k.detail for k in keys)
    assert {k.seeded for k in keys if k.kind == SEGMENTATION} == {True, False}
    assert {k.label for k in keys if k.kind == FAILURE} == {"nvfuser", "reference"}


def test_todays_key_functions_make_the_records_the_corpus_stores(tmp_path):
    """Re-keying each failure and wrong-result bucket of the committed corpus from what it stores
    (``judging.today``: ``failure_key`` of its refreshed outcome, ``mismatch_key`` of its minimal
    repro) gives the record it holds, part for part: nothing to change."""
    root = str(tmp_path / "findings")
    shutil.copytree(CORPUS, root)
    store = Store(root)
    checked = 0
    for m in store.buckets():
        if m.kind in ("failure", "mismatch"):
            changed = TODAY.today(store, m)
            assert changed is None, f"{m.id}: {m.key!s} -> {changed.key!s}: {changed.key!r}"
            checked += 1
    assert checked > 100


def test_segmentation_keys_from_the_outcomes_they_compare():
    """A segmentation bucket's key made from two runs whose scheduler counts differ in its
    schedulers, by the oracle (``change_key``) or by a seeded campaign (``segmentation_key``)."""
    segs = [m for m in _corpus() if m["key_record"]["kind"] == SEGMENTATION]
    assert segs
    for m in segs:
        stored = BucketKey.from_json(m["key_record"])
        a, b = SimpleNamespace(schedulers=list(stored.schedulers)), SimpleNamespace(schedulers=[])
        make = segmentation_key if stored.seeded else change_key
        key = make(m["backend"], m["kind"], a, b)
        assert key == stored and str(key) == m["key"]


def test_a_generator_key_says_the_exception_with_numbers_masked():
    key = generator_finding(ValueError("length 3 at -2"), 1, 2).key
    assert (key.kind, key.label, key.cause) == (GENERATOR, "fmin", "ValueError: length N at -N")
    assert str(key) == "fmin generator ValueError: length N at -N"
    assert key_of(str(key), "generator") == key


# ---------------------------------------------------------------- finding.json
FULL = BucketKey(kind=MISMATCH, label="nvfuser", status="error", cause="c", site="f.cpp:g", message="m",
                 difference="dtype", detail="int for bool", ops=("cast", "where"), output_dtype="bool",
                 rules=("alias-twice",), mechanism="index type", upstream="NVIDIA/Fuser#1", lost_at="cat",
                 variant="layout", schedulers=("pointwise",), seeded=True, verbatim="nvfuser mismatch as an older fmin wrote it")


def test_every_part_of_a_key_is_written_and_read_back():
    """A part left out of ``to_json`` or not read by ``from_json`` fails here: every part is set."""
    names = {f for f in BucketKey.__dataclass_fields__ if f != "extra"}
    assert set(FULL.to_json()) == names
    assert BucketKey.from_json(FULL.to_json()) == FULL
    b = record.Bucket(kind="mismatch", key=FULL)
    again = record.from_json(json.loads(record.dumps(b)))
    assert again.key == FULL and again == b


def test_an_unset_part_is_not_written():
    key = BucketKey(MISMATCH, "nvfuser", difference="values", ops=("add",))
    assert key.to_json() == {"kind": "mismatch", "label": "nvfuser", "difference": "values", "ops": ["add"]}


def test_a_key_is_compared_with_a_key_never_with_its_text():
    key = BucketKey(MISMATCH, "nvfuser", difference="values", ops=["add"])
    assert key == BucketKey(MISMATCH, "nvfuser", difference="values", ops=("add",))   # lists become tuples
    assert str(key) == key.text == "nvfuser mismatch values: add"
    with pytest.raises(TypeError, match="str"):
        assert key == "nvfuser mismatch values: add"
    assert len({key, BucketKey(MISMATCH, "nvfuser", difference="values", ops=("add",))}) == 1


#: parts of a key no schema-1 record can hold: fmin learnt them after schema 2 (issue 43)
NEWER_THAN_SCHEMA_1 = ("mechanism", "upstream", "lost_at")


def test_a_schema_1_record_migrates_to_the_record_the_corpus_stores():
    """Every committed record written back as schema 1 (its key as text alone) reads as the
    schema-2 record it is: the migration loses no part of any key the corpus holds — but the
    parts fmin learnt after schema 2, which no schema-1 record says."""
    for raw in _corpus():
        if set(raw["key_record"]) & set(NEWER_THAN_SCHEMA_1):
            continue
        old = {**{k: v for k, v in raw.items() if k != "key_record"}, "schema": 1}
        assert record.from_json(old).key == BucketKey.from_json(raw["key_record"]), raw["id"]


def test_keys_of_older_forms_migrate_with_their_parts():
    """The forms only the frozen corpora of tests/data hold: a wrong result named by the op of its
    first differing output and that output's dtype, and a variant whose outcome changed (its text
    kept: today's fields do not say it)."""
    cat = key_of("nvfuser mismatch shape cat -> bfloat16", "mismatch")
    assert (cat.difference, cat.ops, cat.output_dtype, cat.verbatim) == ("shape", ("cat",), "bfloat16", None)
    assert key_of("nvfuser mismatch aliased input -> float32", "mismatch").ops == ("aliased input",)
    text = ("nvfuser layout-dependent status ok `None` -> error `nvfuser input-mismatch: tensor_metadata.cpp:"
            "validateAllocationSizesAndStrides: RuntimeError: Found N vs N.`")
    change = key_of(text, "layout-dependent")
    assert (change.kind, change.variant, change.status, change.site) == \
        (OUTCOME_CHANGE, "layout", "error", "tensor_metadata.cpp:validateAllocationSizesAndStrides")
    assert change.verbatim == text == str(change)
    broken = key_of("nvfuser mismatch shape (another extent) (breaks alias-twice)", "mismatch")
    assert (broken.detail, broken.rules, broken.verbatim) == ("another extent", ("alias-twice",), None)


# ---------------------------------------------------------------- nothing parses a key back
#: methods of a compiled pattern, or of ``re``, that read a string
REGEX = {"match", "search", "fullmatch", "findall", "finditer", "sub", "subn", "split"}
#: methods of ``str`` that read what a string says (``split`` with a separator: see ``_reads``)
STRING = {"startswith", "endswith", "split", "rsplit", "partition", "rpartition", "count", "find", "rfind", "index",
          "rindex", "removeprefix", "removesuffix"}
#: where a key's text may be read back: the migration of schema-1 records (``record._from_schema_1``)
MIGRATION = os.path.join("minimizer", "fuzz", "store", "oldkeys.py")


def _is_key(node, names=frozenset()) -> bool:
    """Is ``node`` a key or its text: ``m.key``, ``m.key.text``, ``str(m.key)``, ``r["key"]``,
    ``m.key or ""``, or a local name given one of those (``names``)?"""
    if isinstance(node, ast.BoolOp):
        return any(_is_key(v, names) for v in node.values)
    if isinstance(node, ast.Attribute):
        return node.attr == "key" or (node.attr == "text" and _is_key(node.value, names))
    if isinstance(node, ast.Name):
        return node.id in names
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "str" and node.args:
        return _is_key(node.args[0], names)
    if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant):
        return node.slice.value == "key"
    return False


def _key_names(scope) -> frozenset:
    """The local names a function gives a key (``key = m.key``, ``key, words = m.key, m.words``)."""
    names = set()
    for node in ast.walk(scope):
        if isinstance(node, ast.Assign):
            for target in node.targets:
                pairs = zip(target.elts, node.value.elts) if isinstance(target, ast.Tuple) and \
                    isinstance(node.value, ast.Tuple) else [(target, node.value)]
                names |= {t.id for t, v in pairs if isinstance(t, ast.Name) and _is_key(v)}
    return frozenset(names)


def _reads(node: ast.Call, names) -> str | None:
    """What ``node`` reads of a key's text, or None."""
    if not isinstance(node.func, ast.Attribute):
        return None
    on, method = node.func.value, node.func.attr
    if method in STRING and _is_key(on, names) and (node.args or method not in ("split", "rsplit")):
        return ast.unparse(node.func)
    if method in REGEX and not _is_key(on, names) and \
            any(_is_key(a, names) for a in [*node.args, *(k.value for k in node.keywords)]):
        return f"{ast.unparse(node.func)}(... key ...)"
    return None


def key_reads(tree) -> list[tuple[int, str]]:
    """(line, what) of every regex applied to a key, string test of one (``startswith``, a
    ``split`` at a separator ...) and ``"x" in key``. Formatting a key's text for display
    (``replace``, whitespace ``split``) reads nothing."""
    out = set()
    for scope in [tree, *(n for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)))]:
        names = _key_names(scope) if scope is not tree else frozenset()
        for node in ast.walk(scope):
            if isinstance(node, ast.Call) and (what := _reads(node, names)):
                out.add((node.lineno, what))
            elif isinstance(node, ast.Compare) and isinstance(node.ops[0], (ast.In, ast.NotIn)) and \
                    isinstance(node.left, ast.Constant) and isinstance(node.left.value, str) and \
                    _is_key(node.comparators[0], names):
                out.add((node.lineno, f"{node.left.value!r} in {ast.unparse(node.comparators[0])}"))
    return sorted(out)


def test_the_check_sees_a_key_read_back_from_its_text():
    tree = ast.parse('def f(m, meta, r):\n    a = m.key.startswith("reference ")\n'
                     '    b = re.search(r" -> (\\w+)$", m.key)\n    c = _MISMATCH.match(meta.key or "")\n'
                     '    d = "relu" in str(m.key)\n    key, w = m.key, m.words\n    e = _P.search(key)\n'
                     '    g = r["key"].rsplit(" ", 1)\n'
                     '    h = m.key.cause.startswith("x")\n    i = re.search("x", m.words)\n'
                     '    j = _NEEDS.search(m.key.message)\n    k = " ".join(str(m.key).split())\n'
                     '    n = str(m.key).replace("|", "/")\n    o = [k for k in d if k.startswith("ops.")]\n')
    assert [line for line, _ in key_reads(tree)] == [2, 3, 4, 5, 7, 8]


def test_no_key_is_read_back_from_its_text():
    """What a key says is read from its record's parts (``BucketKey``); a regex or a string test
    on its text is a second, drifting definition of the key. Reading a part that is a message
    (``key.cause``, ``key.message``: nVFuser's words) is reading the compiler's output, not the key."""
    paths = glob.glob(os.path.join(ROOT, "minimizer", "fuzz", "**", "*.py"), recursive=True) + \
        glob.glob(os.path.join(ROOT, "scripts", "*.py"))
    found = []
    for p in sorted(paths):
        rel = os.path.relpath(p, ROOT)
        if rel == MIGRATION:
            continue
        with open(p, encoding="utf-8") as f:
            found += [f"{rel}:{line}: {what}" for line, what in key_reads(ast.parse(f.read(), p))]
    assert not found, "read the key's parts (minimizer/fuzz/store/key.py):\n" + "\n".join(found)
