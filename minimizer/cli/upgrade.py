"""``fmin upgrade``: re-emit a script for another nvFuser frontend."""
from __future__ import annotations

import argparse
import os
import sys

from ..errors import UsageError
from .paths import read_script


def add_upgrade(u: argparse.ArgumentParser) -> None:
    """fmin upgrade."""
    u.add_argument("script", metavar="SCRIPT")
    u.add_argument("--to", choices=["nvfuser", "nvfuser_direct"], default="nvfuser_direct",
                   help="the frontend to write for: nvfuser_direct (default; nvFuser 0.2.36 and later have only "
                        "this one) or the legacy nvfuser")
    u.add_argument("-o", "--output", help="where to write (default: standard output); never the input file")


def cmd_upgrade(args) -> int:
    from ..upgrade import upgrade
    from ..program.printer import to_source
    prog = read_script(args.script)
    new = upgrade(prog, args.to)
    text = to_source(new)
    if args.output:
        if os.path.exists(args.output) and os.path.samefile(args.output, args.script):
            raise UsageError(f"{args.output}: refusing to write over the input script; choose another -o")
        with open(args.output, "w", encoding="utf-8") as f:
            f.write(text)
    else:
        sys.stdout.write(text)
    return 0
