"""Write docs/cli.md, the full command-line reference, from fmin's own argument parser.

    python3 scripts/cli_reference.py            # rewrite docs/cli.md
    python3 scripts/cli_reference.py --check    # exit 1 when docs/cli.md differs from the parser

The reference is generated, never edited by hand, so it cannot drift from what `fmin` accepts:
tests/test_cli_reference.py fails when the committed file is not what this script writes.
"""
from __future__ import annotations

import argparse
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "docs", "cli.md")
COMMAND = "python3 scripts/cli_reference.py"
#: argparse wraps usage lines to the terminal; a fixed width makes the file the same on every machine
WIDTH = "100"


def _parser() -> argparse.ArgumentParser:
    os.environ["COLUMNS"] = WIDTH
    sys.path.insert(0, ROOT)
    from minimizer.cli import build_parser
    return build_parser()


def _subcommands(ap: argparse.ArgumentParser) -> list[tuple[str, argparse.ArgumentParser, str]]:
    """(name, parser, one-line help) of every subcommand, in the parser's order."""
    out = []
    for action in ap._actions:
        if isinstance(action, argparse._SubParsersAction):
            helps = {a.dest: a.help or "" for a in action._choices_actions}
            out += [(name, p, helps.get(name, "")) for name, p in action.choices.items()]
    return out


def _flag(action: argparse.Action) -> str:
    """How an option is written: its spellings and its argument (``--jobs JOBS``, ``-q, --quiet``)."""
    if not action.option_strings:
        name = action.metavar or action.dest
        return f"{name}..." if action.nargs in ("*", "+") else name
    if action.nargs == 0:
        return ", ".join(action.option_strings)
    arg = action.metavar or ("{" + ",".join(map(str, action.choices)) + "}" if action.choices else action.dest.upper())
    if action.nargs == "?":
        arg = f"[{arg}]"
    elif action.nargs in ("*", "+"):
        arg = f"{arg}..."
    return ", ".join(f"{s} {arg}" for s in action.option_strings)


def _describe(action: argparse.Action, prog: str) -> str:
    text = " ".join((action.help or "").split())
    if "%(" in text:
        text = text % {**vars(action), "prog": prog}
    extra = []
    if action.choices and action.metavar and action.option_strings:
        extra.append("one of " + ", ".join(f"`{c}`" for c in action.choices))
    if action.required and action.option_strings:
        extra.append("required")
    return text + (f" ({'; '.join(extra)})" if extra else "")


def _options(p: argparse.ArgumentParser) -> list[str]:
    """A bulleted list per argument group of the parser (positional, options, property flags...)."""
    lines = []
    for group in p._action_groups:
        actions = [a for a in group._group_actions if a.help is not argparse.SUPPRESS
                   and not isinstance(a, argparse._SubParsersAction)]
        if not actions:
            continue
        lines += ["", f"**{group.title}**" + (f": {' '.join(group.description.split())}" if group.description else ""), ""]
        lines += [f"- `{_flag(a)}`" + (f" — {d}" if (d := _describe(a, p.prog)) else "") for a in actions]
    return lines


def _section(name: str, p: argparse.ArgumentParser, summary: str) -> list[str]:
    return [f"## `fmin {name}`", "", " ".join(summary.split()) + ".", "", "```", p.format_usage().strip(), "```",
            *_options(p), ""]


def render() -> str:
    """docs/cli.md's text, from the parser as it is now."""
    ap = _parser()
    subs = _subcommands(ap)
    lines = ["# Command-line reference", "",
             f"Generated from fmin's argument parser by `{COMMAND}`; do not edit by hand (a test fails when this",
             "file and the parser disagree). The README has each command's most common form; this page has every",
             "option. `fmin SCRIPT` is short for `fmin reduce SCRIPT`.", "",
             "Commands: " + ", ".join(f"[`{n}`](#fmin-{n})" for n, _, _ in subs) + ".", "",
             "## `fmin`", "", "```", ap.format_usage().strip(), "```", *_options(ap), ""]
    for name, p, summary in subs:
        lines += _section(name, p, summary)
    return "\n".join(lines).rstrip() + "\n"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="write docs/cli.md from fmin's argument parser")
    ap.add_argument("--check", action="store_true", help="write nothing; exit 1 when docs/cli.md is out of date")
    args = ap.parse_args(argv)
    text = render()
    if args.check:
        current = open(OUT, encoding="utf-8").read() if os.path.exists(OUT) else ""
        if current != text:
            print(f"docs/cli.md is out of date with fmin's argument parser: run `{COMMAND}`", file=sys.stderr)
            return 1
        return 0
    with open(OUT, "w", encoding="utf-8") as f:
        f.write(text)
    print(f"wrote {os.path.relpath(OUT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
