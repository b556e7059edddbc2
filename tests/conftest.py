import glob
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

CORPUS = os.path.join(ROOT, "corpus")


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


def corpus_scripts():
    """Every bundled corpus script (findings excluded), sorted."""
    files = sorted(glob.glob(os.path.join(CORPUS, "*.py")) + glob.glob(os.path.join(CORPUS, "seeds", "*.py")))
    return files
