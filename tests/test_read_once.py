"""A reduction reads, translates and statically checks its original once (issue 21): every later
step — the memory plan, establishing the property, the reducer's first pass, the checks of the
replays — takes those facts from the one ``Original``."""
import os
import shutil

import pytest

from conftest import ROOT
from minimizer.backends import get
from minimizer.fuzz.campaign.local import reduce_bucket
from minimizer.fuzz.campaign.options import CampaignOptions
from minimizer.fuzz.store.key import BucketKey
from minimizer.fuzz.store.record import Bucket
from minimizer.oracle.context import RunContext
from minimizer.program import printer, reader, static
from minimizer import upgrade as upgrade_mod

LEGACY = os.path.join(ROOT, "corpus", "legacy_softmax_fwd.py")


@pytest.fixture
def counted(monkeypatch):
    """Counts, per text, the parses, the translations and the static checks of programs."""
    calls = {"parse": [], "upgrade": [], "check": []}
    real_parse, real_check, real_partial = reader.parse, static.check, static.check_partial
    real_upgrade = upgrade_mod.upgrade

    def parse(text, path="<script>"):
        calls["parse"].append(text)
        return real_parse(text, path)

    inside = []   # check_partial calls check: one static check, counted once

    def check(program):
        if not inside:
            calls["check"].append(printer.to_source(program))
        return real_check(program)

    def check_partial(program):
        calls["check"].append(printer.to_source(program))
        inside.append(1)
        try:
            return real_partial(program)
        finally:
            inside.pop()

    def upgrade(program, to):
        calls["upgrade"].append(printer.to_source(program))
        return real_upgrade(program, to)

    monkeypatch.setattr(reader, "parse", parse)
    monkeypatch.setattr(static, "check", check)
    monkeypatch.setattr(static, "check_partial", check_partial)
    monkeypatch.setattr(upgrade_mod, "upgrade", upgrade)
    return calls


def test_a_fuzz_buckets_reduction_reads_translates_and_checks_its_original_once(tmp_path, monkeypatch, counted):
    # a backend that runs only nvfuser_direct scripts (as nvFuser 0.2.36 does): the legacy original
    # is translated; the reference runs the translation (its semantics are the same)
    ref = get("reference")
    monkeypatch.setattr(type(ref), "translation", lambda self, dialect: "nvfuser_direct" if dialect.is_legacy
                        else None)
    bucket = tmp_path / "bucket"
    bucket.mkdir()
    shutil.copy(LEGACY, bucket / "original.py")
    with open(LEGACY, encoding="utf-8") as f:
        original_text = f.read()
    # the bucket's property: a shell test that keeps any program with a `max` (no worker needed)
    meta = Bucket(kind="failure", key=BucketKey(verbatim="k"), flags={"test": "grep -q 'fd.ops.max' $1"})
    opt = CampaignOptions(ctx=RunContext(backend="reference", device="cpu", quiet=True, timeout=120),
                          minimize_seconds=120)
    result = reduce_bucket(str(bucket / "original.py"), str(bucket), meta, None, opt, pool=None, ref=None)
    assert "minimized" in result and result["minimized"]["ops_after"] < result["minimized"]["ops_before"]

    assert counted["parse"].count(original_text) == 1              # read once
    (translated_from,) = counted["upgrade"]                         # translated once
    assert translated_from == original_text
    translated = reader.parse(printer.to_source(upgrade_mod.upgrade(reader.parse(original_text, "x.py"),
                                                                    "nvfuser_direct")), "x.py")
    assert counted["check"].count(printer.to_source(translated)) == 1   # checked once
    with open(bucket / "repro.min.py", encoding="utf-8") as f:
        assert "nvfuser_direct" in f.read()
