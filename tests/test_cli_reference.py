"""docs/cli.md is the command-line reference generated from fmin's argument parser
(scripts/cli_reference.py): the committed file must be what the generator writes today, so a flag
added, renamed or re-described in minimizer/cli/ cannot leave the reference behind."""
import functools
import os
import subprocess
import sys

from conftest import ROOT

GENERATOR = os.path.join(ROOT, "scripts", "cli_reference.py")


@functools.lru_cache(maxsize=1)
def _render() -> str:
    r = subprocess.run([sys.executable, "-c", "import cli_reference, sys; sys.stdout.write(cli_reference.render())"],
                       capture_output=True, text=True, cwd=os.path.dirname(GENERATOR), timeout=300,
                       env={**os.environ, "PYTHONPATH": ROOT})
    assert r.returncode == 0, r.stderr
    return r.stdout


def test_docs_cli_md_is_what_the_parser_generates():
    text = _render()
    with open(os.path.join(ROOT, "docs", "cli.md"), encoding="utf-8") as f:
        committed = f.read()
    assert committed == text, "docs/cli.md is out of date with fmin's argument parser: run `python3 scripts/cli_reference.py`"


def test_the_reference_names_every_subcommand_and_option():
    """Every option string of every subcommand's parser appears in the reference (what the
    generator must not drop; an option hidden from ``--help`` stays hidden there too), and each
    subcommand has its section."""
    sys.path.insert(0, ROOT)
    from minimizer.cli import build_parser
    import argparse
    text = _render()
    ap = build_parser()
    subs = next(a for a in ap._actions if isinstance(a, argparse._SubParsersAction)).choices
    assert set(subs) >= {"check", "reduce", "isolate", "fuzz", "merge-findings", "upgrade"}
    for name, p in subs.items():
        section = text.split(f"## `fmin {name}`", 1)[1].split("\n## ", 1)[0]
        for a in p._actions:
            if a.help == argparse.SUPPRESS:
                assert all(f"`{s}" not in section for s in a.option_strings), (name, a.option_strings)
                continue
            for s in a.option_strings:
                assert f"`{s}" in section or f", {s}" in section, (name, s)


def test_check_mode_fails_on_a_stale_reference(tmp_path):
    """``--check`` exits 1 and says the one command to run when the file differs."""
    stale = tmp_path / "docs"
    stale.mkdir()
    (stale / "cli.md").write_text("# an old reference\n")
    code = ("import cli_reference, sys; cli_reference.OUT = sys.argv[1]; "
            "sys.exit(cli_reference.main(['--check']))")
    r = subprocess.run([sys.executable, "-c", code, str(stale / "cli.md")], capture_output=True, text=True,
                       cwd=os.path.dirname(GENERATOR), timeout=300, env={**os.environ, "PYTHONPATH": ROOT})
    assert r.returncode == 1 and "run `python3 scripts/cli_reference.py`" in r.stderr
    (stale / "cli.md").write_text(_render())
    r = subprocess.run([sys.executable, "-c", code, str(stale / "cli.md")], capture_output=True, text=True,
                       cwd=os.path.dirname(GENERATOR), timeout=300, env={**os.environ, "PYTHONPATH": ROOT})
    assert r.returncode == 0, r.stderr
