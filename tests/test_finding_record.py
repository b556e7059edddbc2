"""The finding record (``fuzz/record.py``): ``finding.json`` as a typed, versioned record.

Old corpora load (migrated on read) and are rewritten in the current schema with every field
kept; save/load is the identity on every real record this repository holds; keys fmin does not
know survive; and no module outside the record's looks a finding's field up by string key.
"""
import ast
import glob
import json
import os
import shutil

import pytest

from conftest import ROOT
from minimizer.fuzz.store import record
from minimizer.fuzz.judging.today import merge
from minimizer.fuzz.store.finding import Finding
from minimizer.fuzz.store.key import BucketKey
from minimizer.fuzz.store.oldkeys import key_of
from minimizer.fuzz.store.store import Store
from minimizer.fuzz.store.record import Bucket

OLD = os.path.join(ROOT, "tests", "data", "finding-records")
#: every finding.json the repository holds: the corpus and the frozen test copies
REAL = sorted(glob.glob(os.path.join(ROOT, "corpus", "findings", "*", "finding.json"))
              + glob.glob(os.path.join(ROOT, "tests", "data", "**", "finding.json"), recursive=True))


def _old() -> dict[str, dict]:
    out = {}
    for p in sorted(glob.glob(os.path.join(OLD, "*.json"))):
        with open(p, encoding="utf-8") as f:
            out[os.path.basename(p)[:-5]] = json.load(f)
    return out


def _corpus(tmp_path) -> str:
    """The old records as a corpus: one bucket directory each."""
    root = tmp_path / "corpus"
    for bid, raw in _old().items():
        (root / bid).mkdir(parents=True)
        (root / bid / "finding.json").write_text(json.dumps(raw, indent=1))
    return str(root)


def _disk(root: str, bid: str) -> dict:
    with open(os.path.join(root, bid, "finding.json"), encoding="utf-8") as f:
        return json.load(f)


def _without(d: dict, *keys) -> dict:
    return {k: v for k, v in d.items() if k not in keys}


def test_the_frozen_old_records_are_unversioned_and_cover_every_field():
    olds = _old()
    assert len(olds) == 6 and not any("schema" in m for m in olds.values())
    seen = set().union(*olds.values())
    assert {"attachment", "standalone", "stale", "recheck", "reduction", "old_keys", "layout_dependent", "seeds",
            "segment_graphs", "generator", "dtypes", "ranks"} <= seen
    assert any("generator" not in m and "dtypes" not in m for m in olds.values())   # the oldest vintage


def test_an_old_corpus_loads_with_its_fields_as_types(tmp_path):
    root = _corpus(tmp_path)
    buckets = {b.id: b for b in Store(root).buckets()}
    assert set(buckets) == set(_old())
    for bid, raw in _old().items():
        b = buckets[bid]
        assert b.schema == record.SCHEMA and not b.extra, bid
        assert (b.kind, str(b.key), b.count, b.examples, b.minimized) == (raw["kind"], raw["key"], raw["count"],
                                                                          raw["examples"], raw["minimized"])
        assert b.old_keys == raw.get("old_keys") and b.layout_dependent == raw.get("layout_dependent")
        if "standalone" in raw:
            sa = raw["standalone"]
            assert (b.standalone.ran, b.standalone.reproduced, b.standalone.why, b.standalone.exit_code) == \
                (sa["ran"], sa["reproduced"], sa["why"], sa["exit_code"])
            assert b.attachment.expect == raw["attachment"]["expect"]
        if "stale" in raw:
            assert (b.stale.reason, b.stale.at) == (raw["stale"]["reason"], raw["stale"]["at"])
        if "reduction" in raw:
            assert (b.reduction.ops_before, b.reduction.ops_after) == (raw["reduction"]["ops_before"],
                                                                       raw["reduction"]["ops_after"])
        if "recheck" in raw:
            assert b.recheck.reproduces is raw["recheck"]["reproduces"]


def test_an_old_corpus_is_rewritten_in_the_new_schema_with_every_field_kept(tmp_path):
    """What the store does to a bucket (count another example, record a recheck) writes its record
    in the current schema; apart from what the operation changed, the file holds what it held."""
    root = _corpus(tmp_path)
    store, olds = Store(root), _old()
    counted = "6ebc0fba4ce1"
    raw = olds[counted]
    key = key_of(raw["key"], raw["kind"])
    store.add(Finding(raw["kind"], raw["owner"], key, raw["words"], raw["flags"]), "x", "9.9.9", raw["backend"])
    now = _disk(root, counted)
    assert now["schema"] == record.SCHEMA and now["key_record"] == key.to_json()
    assert now["count"] == raw["count"] + 1 and now["examples"] == (raw["examples"] + ["9.9.9"])[:50]
    assert _without(now, "schema", "count", "examples", "key_record") == _without(raw, "count", "examples")
    rechecked = "2be721392cf6"
    store.mark_recheck(olds[rechecked]["key"], True, "still", "reduced.py", {"device": "cuda"})
    now = _disk(root, rechecked)
    assert now["schema"] == record.SCHEMA and now["recheck"]["reason"] == "still"
    assert _without(now, "schema", "recheck", "key_record") == _without(olds[rechecked], "recheck")
    for bid, raw in olds.items():   # the rest: read and saved as they are, the key's record added
        if bid not in (counted, rechecked):
            record.save_dir(os.path.join(root, bid), record.load_dir(os.path.join(root, bid)))
            now = _disk(root, bid)
            assert now["schema"] == record.SCHEMA and _without(now, "schema", "key_record") == raw, bid
            assert BucketKey.from_json(now["key_record"]).text == raw["key"], bid


def test_a_merge_of_old_corpora_writes_the_new_schema(tmp_path):
    a = _corpus(tmp_path)
    into = str(tmp_path / "into")
    shutil.copytree(a, into)
    merge([a], into)   # every bucket known: counts added, then re-keyed (some move)
    merged = [_disk(into, d) for d in os.listdir(into) if record.exists(os.path.join(into, d))]
    assert all(m["schema"] == record.SCHEMA for m in merged)
    assert sum(m["count"] for m in merged) == 2 * sum(m["count"] for m in _old().values())
    for raw in _old().values():   # every old record's fields are in the bucket that holds it now
        (m,) = [m for m in merged if raw["key"] in [m["key"], *m.get("old_keys", [])]]
        assert set(raw) <= set(m)


@pytest.mark.parametrize("path", REAL, ids=lambda p: os.path.relpath(p, ROOT))
def test_save_and_load_are_the_identity_on_every_real_record(path, tmp_path):
    with open(path, encoding="utf-8") as f:
        raw = json.load(f)
    b = record.load(path)
    written = b.to_json()
    if raw.get("schema", 0) < 2:   # the key's record is what schema 2 adds
        assert BucketKey.from_json(written.pop("key_record")) == b.key
    assert _without(written, "schema") == _without(raw, "schema")     # nothing lost, nothing added
    out = str(tmp_path / "finding.json")
    record.save(out, b)
    again = record.load(out)
    assert again == b
    text = open(out, encoding="utf-8").read()
    record.save(out, again)
    assert open(out, encoding="utf-8").read() == text


def test_keys_this_fmin_does_not_know_survive_a_round_trip(tmp_path):
    """A newer fmin's fields (a bug-list class, validity violations) and a field inside a nested
    record stay where they were; a newer schema's number is kept, not lowered."""
    raw = _old()["9a1650f33ee7"]
    key = {**key_of(raw["key"], raw["kind"]).to_json(), "family": "cumulative ops"}   # a part this fmin lacks
    raw = {**raw, "schema": record.SCHEMA + 1, "key_record": key, "classification": {"class": "bug", "why": "x"},
           "violations": ["aliased input read"],
           "standalone": {**raw["standalone"], "no_environment": True},
           "reduction": {**raw["reduction"], "passes": 7}}
    p = str(tmp_path / "finding.json")
    with open(p, "w", encoding="utf-8") as f:
        json.dump(raw, f)
    b = record.load(p)
    assert b.extra == {"classification": {"class": "bug", "why": "x"}, "violations": ["aliased input read"]}
    assert b.standalone.extra == {"no_environment": True} and b.reduction.extra == {"passes": 7}
    assert b.key.extra == {"family": "cumulative ops"} and str(b.key) == raw["key"]
    record.save(p, b)
    assert json.load(open(p, encoding="utf-8")) == raw


def test_an_unversioned_record_migrates_to_the_current_schema():
    k = BucketKey(label="k", verbatim="k")   # a text of no form fmin writes: kept as it is
    assert record.migrate({"key": "k"}) == {"schema": record.SCHEMA, "key": "k", "key_record": k.to_json()}
    assert record.from_json({"key": "k", "count": 3}) == Bucket(key=k, count=3)


def test_a_broken_reduction_and_an_unrun_standalone_keep_their_shape():
    b = Bucket(key=BucketKey(verbatim="k"), reduction=record.Reduction(error="ValueError: x"),
               standalone=record.StandaloneRun(ran=False, reproduced=None, why="not installed", at="t"))
    j = b.to_json()
    assert j["reduction"] == {"error": "ValueError: x"}
    assert j["standalone"] == {"ran": False, "reproduced": None, "why": "not installed", "at": "t"}
    assert record.from_json(j) == b


def test_a_dump_only_standalone_run_is_a_field_written_only_when_known():
    """``dump_only`` (``standalone.standalone``: it reproduced only with the debug dumps on) is an
    attribute, and a record that never had it is written without it."""
    run = {"ran": True, "reproduced": False, "why": "w", "command": "python repro.min.py", "exit_code": 1,
           "timed_out": False, "seconds": 1.0, "shows": "s", "tail": "t", "environment": {}, "passed": [], "at": "t"}
    b = record.from_json({"key": "k", "standalone": {**run, "dump_only": True}})
    assert b.standalone.dump_only is True and b.standalone.extra == {}
    assert b.to_json()["standalone"]["dump_only"] is True
    assert "dump_only" not in record.from_json({"key": "k", "standalone": run}).to_json()["standalone"]


# ---------------------------------------------------------------- no string-keyed lookups elsewhere
#: names the code gives a finding's record (or one of its nested records) when it holds one
FINDING_NAMES = {"m", "meta", "metas", "b", "bucket", "buckets", "finding", "dm", "sm", "keep", "other", "opened",
                 "now", "changed", "changes", "mine", "_m", "sa", "red", "standalone", "attachment", "reduction",
                 "unvaried_reduction", "recheck", "stale", "recurred"}
LOOKUPS = {"get", "pop", "setdefault", "update"}


def _receiver(node) -> str | None:
    """The name of what is looked into: ``m`` of ``m[...]``, ``meta`` of ``store.meta(k)[...]``,
    ``_m`` of ``r["_m"][...]``."""
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    if isinstance(node, ast.Call):
        return _receiver(node.func)
    if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant) and isinstance(node.slice.value, str):
        return node.slice.value
    return None


def string_lookups(tree) -> list[tuple[int, str, str]]:
    """(line, receiver, field) of every ``X["field"]``, ``X.get("field")`` (``pop``,
    ``setdefault``, ``update(field=)``) and ``"field" in X`` where ``X`` is named like a finding
    and ``field`` is a field of the record."""
    fields, out = record.names(), []

    def hit(node, recv, key):
        if isinstance(key, str) and key in fields and _receiver(recv) in FINDING_NAMES:
            out.append((node.lineno, _receiver(recv), key))
    for node in ast.walk(tree):
        if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant):
            hit(node, node.value, node.slice.value)
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in LOOKUPS:
            for a in node.args[:1]:
                if isinstance(a, ast.Constant):
                    hit(node, node.func.value, a.value)
            for k in node.keywords:
                hit(node, node.func.value, k.arg)
        elif isinstance(node, ast.Compare) and isinstance(node.left, ast.Constant) and \
                isinstance(node.ops[0], (ast.In, ast.NotIn)):
            hit(node, node.comparators[0], node.left.value)
    return out


def _sources(scripts: bool = True):
    paths = glob.glob(os.path.join(ROOT, "minimizer", "**", "*.py"), recursive=True) + \
        (glob.glob(os.path.join(ROOT, "scripts", "*.py")) if scripts else [])
    for p in sorted(paths):
        if os.path.samefile(p, record.__file__):
            continue
        with open(p, encoding="utf-8") as f:
            yield os.path.relpath(p, ROOT), ast.parse(f.read(), p)


def test_the_check_sees_a_string_keyed_lookup_of_a_finding():
    tree = ast.parse('def f(m, store, r, ok):\n    a = m["standalone"]\n    b = (m.get("stale") or {})\n'
                     '    c = store.meta(k)["count"]\n    d = r["_m"].get("owner")\n    e = "minimized" in meta\n'
                     '    g = ok["standalone"]\n    h = m.get("anything_else")\n')
    assert sorted((r, k) for _, r, k in string_lookups(tree)) == sorted([
        ("m", "standalone"), ("m", "stale"), ("meta", "count"), ("_m", "owner"), ("meta", "minimized")])


def test_no_finding_field_is_looked_up_by_string_key_outside_the_record_module():
    found = [f"{path}:{line}: {recv}[{key!r}]" for path, tree in _sources() for line, recv, key in string_lookups(tree)]
    assert not found, "use the record's attributes (minimizer/fuzz/store/record.py):\n" + "\n".join(found)


def test_only_the_record_module_names_the_record_s_file():
    """``finding.json`` is read and written in ``record`` alone: no other module of the package
    builds its path (a script may glob for bucket directories by it)."""
    found = [f"{path}:{node.lineno}" for path, tree in _sources(scripts=False) for node in ast.walk(tree)
             if isinstance(node, ast.Constant) and node.value == record.FILE]
    assert not found, found
