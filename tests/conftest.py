import glob
import os
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

CORPUS = os.path.join(ROOT, "corpus")
#: buckets more than one test folder reads, one copy each (tests/data/buckets/README.md)
BUCKETS = os.path.join(ROOT, "tests", "data", "buckets")


def bucket_dir(folder: str, bid: str) -> str:
    """Bucket ``bid`` of a test folder: in the folder, else the shared copy in ``BUCKETS``."""
    own = os.path.join(folder, bid)
    return own if os.path.isdir(own) else os.path.join(BUCKETS, bid)


def _private_hypothesis_storage() -> None:
    """Hypothesis keeps its storage (the constants it collects from the modules under test, an
    example database where one is enabled) in ``.hypothesis/`` of the working directory: the
    repository, when the suite runs. Pointed at a directory of the test session instead, removed
    at its end, so that running the tests leaves the checkout as it was; the variable is
    inherited by the fmin processes the tests start."""
    import atexit
    import shutil
    import tempfile
    if os.environ.get("HYPOTHESIS_STORAGE_DIRECTORY"):
        return
    where = tempfile.mkdtemp(prefix="fmin-tests-hypothesis-")
    os.environ["HYPOTHESIS_STORAGE_DIRECTORY"] = where
    atexit.register(shutil.rmtree, where, ignore_errors=True)


_private_hypothesis_storage()


@pytest.fixture(scope="session", autouse=True)
def warm_workers():
    """Every pool of the session takes idle warm workers before starting fresh ones
    (``tests/warm_workers.py``); the idle ones are shut down when the session ends."""
    from warm_workers import WarmWorkers
    fresh = os.environ.get("FMIN_TEST_FRESH_WORKERS") == "1"   # keep none: every pool starts its own, as in fmin
    warm = _WARM[0] = WarmWorkers(per_kind=0, in_all=0) if fresh else WarmWorkers()
    warm.install()
    try:
        yield warm
    finally:
        warm.uninstall()


_WARM: list = [None]


def pytest_terminal_summary(terminalreporter):
    """How many worker processes the session started and how many times a warm one served a
    new pool instead: the measure of the sharing that does not depend on the machine's load."""
    if _WARM[0] is not None:
        terminalreporter.write_line(f"worker processes: {_WARM[0].started} started, {_WARM[0].reused} reused warm")


def corpus_scripts():
    """Every bundled corpus script (findings excluded), sorted."""
    files = sorted(glob.glob(os.path.join(CORPUS, "*.py")) + glob.glob(os.path.join(CORPUS, "seeds", "*.py")))
    return files


def fmin_here(capfd, *argv, cwd: str = ROOT):
    """``python -m minimizer ARGV`` (started in ``cwd``) run as ``cli.main(ARGV)`` in this process:
    its exit status, stdout and stderr as a ``CompletedProcess``. Scripts still run only in worker
    processes (warm ones, ``warm_workers``); what is saved is the interpreter and the torch import
    of a subprocess per command. A usage error's ``SystemExit`` is its status; any other exception
    escapes into the test, as a traceback would have shown in a subprocess's stderr. For tests
    that are about the fmin process itself (a signal, what the interpreter prints on exit), start
    one instead."""
    import subprocess
    from minimizer.cli import main
    capfd.readouterr()
    here = os.getcwd()
    os.chdir(cwd)
    try:
        code = main(list(argv))
    except SystemExit as e:   # what the interpreter makes of it: an int is the status, anything else is printed
        code = e.code if isinstance(e.code, int) else 0 if e.code is None else 1
        if not isinstance(e.code, int) and e.code is not None:
            print(e.code, file=sys.stderr)
    finally:
        os.chdir(here)
    out, err = capfd.readouterr()
    return subprocess.CompletedProcess(["fmin", *argv], code, out, err)
