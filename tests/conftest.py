import glob
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

CORPUS = os.path.join(ROOT, "corpus")


def corpus_scripts():
    """Every bundled corpus script (findings excluded), sorted."""
    files = sorted(glob.glob(os.path.join(CORPUS, "*.py")) + glob.glob(os.path.join(CORPUS, "seeds", "*.py")))
    return files
