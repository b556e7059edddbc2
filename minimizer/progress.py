"""What a long command says while it works, on stderr: one live status line (redrawn in place
with ``rich`` on a terminal; elsewhere — CI logs, pipes — printed as a plain new line at most every
``every`` seconds, so a long run neither floods a log nor stays silent), and one-off notes such as
the start-up line while workers warm (the first compile in a worker takes tens of seconds; a
command that says nothing for that long looks hung)."""
from __future__ import annotations

import sys
import time


class ProgressLine:
    def __init__(self, quiet: bool, every: float = 5.0):
        self.quiet = quiet
        self.tty = sys.stderr.isatty()
        self.every = every
        self._last = 0.0
        self._live = None
        self._console = None

    def note(self, line: str) -> None:
        """A line of its own (not redrawn), e.g. what is starting."""
        if self.quiet:
            return
        if self._live is not None:
            self._live.console.print(line, markup=False, highlight=False)
            return
        sys.stderr.write(line + "\n")
        sys.stderr.flush()

    def starting(self, backend, device: str, jobs: int, what: str = "") -> None:
        """The start-up line. ``backend`` is the ``Backend`` (its facts' ``name`` and ``warm_up``, what
        its worker's first run costs; this leaf module takes it as given and imports nothing
        of fmin)."""
        self.note(f"fmin: starting {jobs} {backend.facts.name} worker{'s' if jobs != 1 else ''} on {device}"
                  + (f" {what}" if what else "") + (f" ({backend.facts.warm_up})" if backend.facts.warm_up else ""))

    def show(self, line: str, final: bool = False) -> None:
        if self.quiet:
            return
        now = time.monotonic()
        if not final and now - self._last < (0.25 if self.tty else self.every):
            return
        self._last = now
        if self.tty:
            self._draw(line)
            if final:
                self.done()
        else:
            sys.stderr.write(line + "\n")
            sys.stderr.flush()

    def _draw(self, line: str) -> None:
        from rich.console import Console
        from rich.live import Live
        from rich.text import Text
        if self._live is None:
            self._console = self._console or Console(stderr=True)
            self._live = Live(Text(line), console=self._console, auto_refresh=False, transient=False)
            self._live.start()
        self._live.update(Text(line), refresh=True)

    def done(self) -> None:
        if self._live is not None:
            self._live.stop()
            self._live = None
