"""Where a command writes: checked before anything runs, and held while it writes.

A command that runs for minutes and only then finds it cannot write (``--out`` names a file, a
directory without permission) loses the minutes; so every place a command will write — a
reduction's or ``isolate``'s ``--out``, a campaign's ``--corpus``, ``--junit``/``--summary``
files — is checked up front (``check_out_dir``, ``check_out_file``), with the flag and what is
wrong. A reduction's directory is also held for the run (``claim_out_dir``): two reductions
writing one directory would overwrite each other's best-so-far; the lock file goes when the run
ends (``release_out_dir``), so a finished run leaves none behind. Errors are ValueError with the
flag, the path and what was expected.
"""
from __future__ import annotations

import os


def _writable_parent(path: str) -> str:
    """The nearest existing directory at or above ``path`` (where it would be created)."""
    parent = path
    while parent and not os.path.exists(parent):
        parent = os.path.dirname(parent.rstrip(os.sep))
    return parent or "."


def check_out_dir(out_dir: str, flag: str = "--out") -> None:
    """Is ``out_dir`` usable (a directory, or one that can be created)? Raises ValueError."""
    if os.path.exists(out_dir) and not os.path.isdir(out_dir):
        raise ValueError(f"{flag} {out_dir}: exists and is not a directory (expected a directory to write into)")
    parent = _writable_parent(out_dir)
    if not os.path.isdir(parent):
        raise ValueError(f"{flag} {out_dir}: {parent} is not a directory")
    if not os.access(parent, os.W_OK):
        raise ValueError(f"{flag} {out_dir}: cannot write there (no permission in {parent})")


def check_out_file(path: str, flag: str) -> None:
    """Can ``path`` be written as a file (its directory created where missing)? Raises ValueError."""
    if os.path.isdir(path):
        raise ValueError(f"{flag} {path}: is a directory (expected a file to write)")
    parent = _writable_parent(os.path.dirname(path) or ".")
    if not os.path.isdir(parent):
        raise ValueError(f"{flag} {path}: {parent} is not a directory")
    if not os.access(parent, os.W_OK) or (os.path.exists(path) and not os.access(path, os.W_OK)):
        raise ValueError(f"{flag} {path}: cannot write there (no permission)")


def claim_out_dir(out_dir: str, flag: str = "--out"):
    """Make ``out_dir`` (or check it), and hold its lock for the run. Returns the lock (give it
    to ``release_out_dir``). Raises ValueError with what is wrong (a file there, no permission,
    another run holding it)."""
    import fcntl
    check_out_dir(out_dir, flag)
    path = os.path.join(out_dir, ".fmin.lock")
    while True:
        try:
            os.makedirs(out_dir, exist_ok=True)
            f = open(path, "a+")
        except OSError as e:
            raise ValueError(f"{flag} {out_dir}: cannot write there ({e.strerror or e})") from None
        try:
            fcntl.flock(f, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            f.seek(0)
            who = f.read().strip()
            f.close()
            raise ValueError(f"{flag} {out_dir}: another fmin run is writing there" + (f" (pid {who})" if who else "")
                             + f"; wait for it or choose another {flag}") from None
        try:   # the run that held it may have removed it on its way out: then lock the new one
            if os.stat(path).st_ino == os.fstat(f.fileno()).st_ino:
                break
        except FileNotFoundError:
            pass
        f.close()
    f.seek(0)
    f.truncate()
    f.write(str(os.getpid()))
    f.flush()
    return f


def release_out_dir(lock) -> None:
    """End the hold: the lock file is removed (while still locked, so no run waits on a file
    that is gone — ``claim_out_dir`` checks it locked the file that is there), then closed."""
    try:
        os.remove(lock.name)
    except OSError:
        pass
    lock.close()


__all__ = ["check_out_dir", "check_out_file", "claim_out_dir", "release_out_dir"]
