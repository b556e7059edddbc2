"""No function of ``minimizer`` runs to 80 lines or more (issue 21): a function that long does
several things at once, and its parts deserve names and docstrings of their own. Functions and
methods alike, nested ones included, are read from the source with ``ast``; a function's length
runs from its ``def`` line to its last line, docstring and comments included."""
import ast
import pathlib

ROOT = pathlib.Path(__file__).resolve().parent.parent / "minimizer"

LIMIT = 80


def function_lengths(source: str) -> list[tuple[str, int]]:
    """(qualified name, lines) of every function and method defined in ``source``."""
    found = []

    def visit(node: ast.AST, prefix: str) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
                name = prefix + child.name
                found.append((name, child.end_lineno - child.lineno + 1))
                visit(child, name + ".")
            elif isinstance(child, ast.ClassDef):
                visit(child, prefix + child.name + ".")
            else:
                visit(child, prefix)

    visit(ast.parse(source), "")
    return found


def test_lengths_are_counted_from_def_to_last_line_at_every_depth():
    source = ("class A:\n"
              "    @staticmethod\n"
              "    def m():\n"
              "        def inner():\n"
              "            return 1\n"
              "        return inner\n"
              "if True:\n"
              "    async def f():\n"
              "        '''doc'''\n"
              "\n"
              "        # comment\n"
              "        return 2\n")
    assert function_lengths(source) == [("A.m", 4), ("A.m.inner", 2), ("f", 5)]


def test_no_function_of_80_lines_or_more():
    long = []
    for path in sorted(ROOT.rglob("*.py")):
        for name, lines in function_lengths(path.read_text(encoding="utf-8")):
            if lines >= LIMIT:
                long.append(f"{path.relative_to(ROOT.parent)}: {name} has {lines} lines")
    assert not long, f"functions of {LIMIT} lines or more:\n" + "\n".join(long)
