"""Every relative link in README.md and docs/*.md points at a file that exists, and a link to a
heading of a Markdown file (`fuzz.md#seeded-fuzzing-...`) at a heading that exists, as GitHub
names headings: the guides link to each other and to docs/benchmarks.md, and a moved or renamed
section must not leave a dead link behind."""
import glob
import os
import re

from conftest import ROOT

LINK = re.compile(r"(?<!!)\[[^\]]*\]\(([^)\s]+)\)")
FENCE = re.compile(r"^(```|~~~).*?^\1", re.S | re.M)


def _documents() -> list[str]:
    return [os.path.join(ROOT, "README.md"), *sorted(glob.glob(os.path.join(ROOT, "docs", "*.md")))]


def _prose(text: str) -> str:
    """The text outside fenced code blocks and inline code (links there are examples, not links)."""
    return re.sub(r"`[^`\n]*`", "", FENCE.sub("", text))


def slug(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, inline markup and punctuation dropped (letters,
    digits, spaces, hyphens and underscores kept), spaces made hyphens."""
    text = re.sub(r"[`*]|\[([^\]]*)\]\([^)]*\)", lambda m: m.group(1) or "", heading.strip().lower())
    return re.sub(r"[^\w\- ]", "", text).replace(" ", "-")


def anchors(path: str) -> set[str]:
    seen: dict[str, int] = {}
    out = set()
    for line in FENCE.sub("", open(path, encoding="utf-8").read()).splitlines():
        m = re.match(r"^#{1,6}\s+(.*?)\s*#*\s*$", line)
        if m:
            s = slug(m.group(1))
            out.add(s if s not in seen else f"{s}-{seen[s]}")
            seen[s] = seen.get(s, 0) + 1
    return out


def _broken(doc: str) -> list[str]:
    out = []
    for target in LINK.findall(_prose(open(doc, encoding="utf-8").read())):
        if re.match(r"^[a-z][a-z0-9+.-]*:", target):   # http:, https:, mailto:
            continue
        path, _, anchor = target.partition("#")
        full = os.path.normpath(os.path.join(os.path.dirname(doc), path)) if path else doc
        if not os.path.exists(full):
            out.append(f"{target}: no such file")
        elif anchor and full.endswith(".md") and anchor not in anchors(full):
            out.append(f"{target}: no heading #{anchor} in {os.path.relpath(full, ROOT)}")
    return out


def test_every_relative_link_in_the_docs_resolves():
    broken = {os.path.relpath(d, ROOT): b for d in _documents() if (b := _broken(d))}
    assert broken == {}


def test_the_slugs_are_githubs():
    assert slug("Seeded fuzzing: `fmin fuzz --seeds DIR...`") == "seeded-fuzzing-fmin-fuzz---seeds-dir"
    assert slug("On a Ray cluster (`--ray`, `minimizer/cluster/`)") == "on-a-ray-cluster---ray-minimizercluster"
    assert slug("`fmin merge-findings`") == "fmin-merge-findings"


def test_a_dead_link_is_caught(tmp_path):
    doc = tmp_path / "a.md"
    (tmp_path / "b.md").write_text("# Title here\n\n## Second\n")
    doc.write_text("[ok](b.md#second) [gone](c.md) [bad anchor](b.md#third) `[code](x.md)`\n"
                   "```\n[fenced](y.md)\n```\n")
    assert _broken(str(doc)) == ["c.md: no such file", "b.md#third: no heading #third in " +
                                 os.path.relpath(str(tmp_path / "b.md"), ROOT)]
