"""Ray is optional (fmin's ``ray`` extra): without ``--ray`` nothing imports it — a campaign, a recheck
and a batch check run in a fresh process end with ``ray`` absent from ``sys.modules`` — and where
it is not installed, ``--ray`` says how to install it (exit 2, no traceback). Runs with or without
Ray installed (Ray is hidden from ``import`` for the tests of the flag, which run through
``cli.main`` in this process: what they check is fmin's answer to an ImportError, not a process start)."""
import subprocess
import sys

from conftest import CORPUS, ROOT, fmin_here

SCRIPT = CORPUS + "/rope_qkv_split.py"


def _python(code: str, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", code, *args], cwd=ROOT, capture_output=True, text=True, timeout=600)


def test_without_the_flag_ray_is_never_imported(tmp_path):
    code = f"""
import sys
from minimizer.cli import main
corpus = sys.argv[1]
assert main(["fuzz", "--backend", "reference", "--device", "cpu", "--max-examples", "3", "--seed", "2",
             "--corpus", corpus, "-q"]) == 0
assert main(["fuzz", "--recheck", "--backend", "reference", "--device", "cpu", "--corpus", corpus, "-q"]) == 0
assert main(["check", {SCRIPT!r}, "--backend", "reference", "--device", "cpu"]) == 0
print("ray imported:", "ray" in sys.modules)
"""
    r = _python(code, str(tmp_path / "c"))
    assert r.returncode == 0, r.stdout + r.stderr
    assert "ray imported: False" in r.stdout
    assert not any(n.startswith("campaign-") for n in __import__("os").listdir(tmp_path / "c"))  # no record


def _without_ray(monkeypatch):
    """This process as one without Ray installed: ``import ray`` (and of any ``ray.`` module)
    raises ImportError while the test runs, as in a process where it is not installed."""
    for name in [n for n in sys.modules if n == "ray" or n.startswith("ray.")]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, "ray", None)


def test_without_ray_installed_the_flag_says_how_to_install_it(tmp_path, capfd, monkeypatch):
    _without_ray(monkeypatch)
    for args in (["fuzz", "--ray", "--backend", "reference", "--device", "cpu", "--corpus", str(tmp_path)],
                 ["check", SCRIPT, "--ray", "--backend", "reference", "--device", "cpu"],
                 ["check", "--ray", SCRIPT, "--backend", "reference"]):   # a script after --ray is a script
        r = fmin_here(capfd, *args)
        assert r.returncode == 2, r.stdout + r.stderr
        assert "pip install 'ray>=2.50'" in r.stderr and "Traceback" not in r.stderr, r.stderr


def test_a_bad_ray_address_is_a_usage_error(tmp_path, capfd, monkeypatch):
    _without_ray(monkeypatch)
    r = fmin_here(capfd, "fuzz", "--ray", "no address", "--backend", "reference", "--device", "cpu",
                  "--corpus", str(tmp_path))
    assert r.returncode == 2 and "--ray: expected an address" in r.stderr, r.stderr


def test_a_connection_fmin_made_gives_the_signal_handlers_back(monkeypatch):
    """``ray.init`` installs its own SIGTERM handler in the driver and ``ray.shutdown`` leaves it;
    a process that goes on after a ``--ray`` command (a test session calling ``main()``) must get
    its own handlers back, or it answers signals Ray's way. A fake Ray (none needs installing):
    its ``init`` replaces both handlers, and the cluster it reports has no CPU, so the runner
    gives up at once — through the same shutdown as a finished campaign."""
    import signal

    import pytest

    from minimizer.cluster import runner
    from minimizer.errors import UsageError
    from minimizer.fuzz.campaign.options import CampaignOptions

    class FakeRay:
        up = False

        def is_initialized(self):
            return self.up

        def init(self, **kw):
            self.up = True
            for s in (signal.SIGINT, signal.SIGTERM):
                signal.signal(s, lambda *a: None)

        def cluster_resources(self):
            return {"CPU": 0}

        def shutdown(self):
            self.up = False

    before = {s: signal.getsignal(s) for s in (signal.SIGINT, signal.SIGTERM)}
    monkeypatch.setattr(runner, "import_ray", FakeRay)
    try:
        with pytest.raises(UsageError, match="the cluster has 0 in all"):
            with runner.RayRunner(CampaignOptions()):
                pass
        assert {s: signal.getsignal(s) for s in before} == before
    finally:
        for s, h in before.items():
            signal.signal(s, h)


def _hints() -> list[tuple[str, str]]:
    """(file, what it tells to pip install) for every install hint of fmin's code, scripts and docs
    (the changelog, a record of what was, aside)."""
    import pathlib
    import re
    root = pathlib.Path(ROOT)
    files = [*root.glob("minimizer/**/*.py"), *root.glob("scripts/*"), root / "README.md", *root.glob("docs/*.md"),
             *root.glob("docs/ci/*.yml")]
    out = []
    for f in files:
        if f.is_file() and f.name != "changelog.md":
            for m in re.finditer(r"pip install (?:-q )?(?:-e )?'([^']+)'", f.read_text(encoding="utf-8")):
                out.append((str(f.relative_to(root)), m.group(1)))
    return out


def test_every_install_hint_names_something_that_installs():
    """fmin is on no package registry: a hint may name a requirement a registry has (Ray, as fmin's
    ray extra pins it in pyproject.toml) or an extra of a checkout (`.[ray]`), never `fmin[...]`."""
    import re
    pyproject = open(f"{ROOT}/pyproject.toml", encoding="utf-8").read()
    ray = re.search(r'^ray = \["([^"]+)"\]', pyproject, re.M).group(1)
    hints = _hints()
    assert any(f.startswith("minimizer/") and what == ray for f, what in hints)   # the error and --help name it
    for f, what in hints:
        assert not what.startswith("fmin"), f"{f}: pip install '{what}': no registry has fmin"
        if what.startswith("ray"):
            assert what == ray, f"{f}: pip install '{what}', but fmin's ray extra is {ray!r}"
