"""``Original``: the script a command starts from, read once.

Reading a repro is the expensive, error-prone front of every reduction: parse it (libcst),
translate it where the backend cannot run its frontend (a legacy ``nvfuser`` script on an
nvFuser that only has ``nvfuser_direct``), and run the static check on meta tensors (its
values size the memory plan; whether it is connected, and which degenerate tensors it already
has, shape the default property and its guards). Each of those happens once here, and every
later step — the memory plan, establishing the property, the reducer's first pass — takes the
facts from this object instead of recomputing them.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property

from ..backends import get as get_backend
from ..model import Program


@dataclass
class Original:
    path: str
    text: str                     # the file's text, as the user wrote it
    program: Program              # what is judged and reduced (the translation, where there is one)
    translated_to: str | None = None   # the frontend it was translated to, if it was
    info: object = field(default=None, repr=False)   # ``static.check_partial`` of ``program``

    @classmethod
    def read(cls, path: str, *, backend: str | None = None, keep_frontend: bool = False) -> "Original":
        """Read ``path`` (raises ScriptError for a script fmin cannot read), then ``parsed``."""
        from ..program.reader import parse_file
        return cls.parsed(path, parse_file(path), backend=backend, keep_frontend=keep_frontend)

    @classmethod
    def parsed(cls, path: str, program: Program, *, backend: str | None = None,
               keep_frontend: bool = False) -> "Original":
        """A script already read: translated for ``backend`` where that backend cannot run the
        script's frontend (unless ``keep_frontend``), then checked statically."""
        text = program.source.text
        target = None if keep_frontend or backend is None else get_backend(backend).translation(program.dialect)
        if target is not None:
            from ..program.printer import to_source
            from ..program.reader import parse
            from ..upgrade import upgrade
            program = parse(to_source(upgrade(program, target)), path)
        return cls.of(path, text, program, target)

    @classmethod
    def of(cls, path: str, text: str, program: Program, translated_to: str | None = None) -> "Original":
        from ..program.static import check_partial
        return cls(path, text, program, translated_to, check_partial(program))

    @property
    def run_text(self) -> str:
        """The text that runs: the file's, or its translation's."""
        return self.program.source.text if self.translated_to else self.text

    @property
    def static_error(self) -> str | None:
        """Why fmin's static check rejects it (None: it does not)."""
        e = self.info.error
        return None if e is None else (e.describe(self.program) if hasattr(e, "describe") else str(e))

    @cached_property
    def connected(self) -> bool:
        """One piece, joined through tensors (only known for a program the check accepts)."""
        from ..program.edits import tensor_components
        return self.info.complete and len(tensor_components(self.program, self.info)) == 1

    @cached_property
    def degenerate(self) -> dict[str, str] | None:
        """Its zero-element, 0-d and all-broadcast tensors (None: unknown, the check rejects it)."""
        from ..program.static import degenerate_features
        return degenerate_features(self.program, self.info) if self.info.complete else None


__all__ = ["Original"]
