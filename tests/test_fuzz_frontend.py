"""Which frontend a campaign generates for when none is asked (``campaign.default_frontend``)."""
import importlib.util

from minimizer.fuzz.campaign import default_frontend


def test_both_frontends_except_on_an_nvfuser_without_its_legacy_module(monkeypatch):
    assert default_frontend("inductor") is None and default_frontend("reference") is None
    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "nvfuser" else real(name, *a))
    assert default_frontend("nvfuser") == "nvfuser_direct"   # 0.2.36: a legacy program could not run
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: object() if name == "nvfuser" else real(name, *a))
    assert default_frontend("nvfuser") is None               # 0.2.35 and older: both
