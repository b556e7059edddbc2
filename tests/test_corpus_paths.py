"""The committed findings corpus names no directory of the machine that made it: its bug list,
each bucket's record, reduction report and attachment are read on other machines (the raw
``outcome*.json`` keep the backend's own stack traces as they were printed)."""
import os
import re

from conftest import ROOT

FINDINGS = os.path.join(ROOT, "corpus", "findings")
READ_BY_PEOPLE = ("report.md", "report.json", "finding.json", "repro.min.py", "reduced.py", "original.py")
#: an absolute path into a scratch or home directory (nvFuser's own build path, ``/workspace/Fuser``
#: inside its assert messages, is the library's text, not a machine's)
MACHINE_PATH = re.compile(r"(?<![\w.])/(tmp|root|home|work|scratch|mnt)/[\w.+-]+")


def test_no_report_or_attachment_names_a_machine_path():
    found = []
    for d, _, files in os.walk(FINDINGS):
        for f in files:
            if f in READ_BY_PEOPLE:
                with open(os.path.join(d, f), encoding="utf-8") as fh:
                    m = MACHINE_PATH.search(fh.read())
                if m:
                    found.append(f"{os.path.relpath(os.path.join(d, f), FINDINGS)}: {m.group(0)}")
    assert not found, found
