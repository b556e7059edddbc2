"""Filing a reduced bucket: the attachment a maintainer runs (``repro.min.py``), its plain-torch
check, and the standalone run that proves it shows the bug alone."""
