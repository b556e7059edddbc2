"""One live progress line on stderr, for the reducer and the fuzzer: redrawn in place on a
terminal; elsewhere (CI logs, pipes) printed as a new line at most every ``every`` seconds, so a
long run neither floods a log nor stays silent."""
from __future__ import annotations

import sys
import time


class ProgressLine:
    def __init__(self, quiet: bool, every: float = 5.0):
        self.quiet = quiet
        self.tty = sys.stderr.isatty()
        self.every = every
        self._last = 0.0
        self._open = False

    def show(self, line: str, final: bool = False) -> None:
        if self.quiet:
            return
        now = time.monotonic()
        if not final and now - self._last < (0.2 if self.tty else self.every):
            return
        self._last = now
        if self.tty:
            sys.stderr.write("\r\033[K" + line)
            self._open = True
            if final:
                self.done()
        else:
            sys.stderr.write(line + "\n")
        sys.stderr.flush()

    def done(self) -> None:
        if self._open and not self.quiet:
            sys.stderr.write("\n")
            sys.stderr.flush()
            self._open = False
