"""Which frontend a campaign generates for when none is asked (``campaign.default_frontend``)."""
import importlib.util

from minimizer.fuzz.campaign.options import default_frontend

NVFUSER_MODULES = ("nvfuser", "nvfuser_direct")


def _installed(monkeypatch, *present):
    """Make exactly ``present`` of nvFuser's two modules look installed, whatever this machine
    has (CI has neither), so the test judges the rule and not the machine."""
    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec",
                        lambda name, *a: (object() if name in present else None) if name in NVFUSER_MODULES
                        else real(name, *a))


def test_both_frontends_except_on_an_nvfuser_without_its_legacy_module(monkeypatch):
    assert default_frontend("inductor") is None and default_frontend("reference") is None
    _installed(monkeypatch, "nvfuser_direct")
    assert default_frontend("nvfuser") == "nvfuser_direct"   # 0.2.36: a legacy program could not run
    _installed(monkeypatch, "nvfuser", "nvfuser_direct")
    assert default_frontend("nvfuser") is None               # 0.2.35 and older: both
    _installed(monkeypatch)
    assert default_frontend("nvfuser") is None               # no nvFuser: nothing to translate to
