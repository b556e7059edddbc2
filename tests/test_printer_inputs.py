"""The inputs list after an edit (issue 16): a new input gets a line of its own in a list written
one element per line, and a comment that names its input (``# T1``) follows the input when it is
renamed, moved or another input is removed."""
import dataclasses
import os

from conftest import ROOT
from minimizer.model import Ref
from minimizer.program import edits, parse, parse_file, to_source

SEED = os.path.join(ROOT, "corpus", "seeds", "layernorm_bwd_segmented.py")
SOFTMAX = os.path.join(ROOT, "corpus", "legacy_softmax_fwd.py")


def _inputs_text(text: str) -> list[str]:
    lines = text.split("inputs = [", 1)[1].split("]\n", 1)[0].splitlines()
    return [ln.strip() for ln in lines if ln.strip()]


def _rename(p, old: str, new: str):
    i = next(k for k, s in enumerate(p.stmts) if s.outs and s.outs[0] == old)
    q = edits.replace_uses(p, i, old, Ref(new))
    stmts = list(q.stmts)
    stmts[i] = dataclasses.replace(stmts[i], outs=(new,))
    return q.replace(stmts=tuple(stmts))


def test_an_added_input_gets_its_own_line():
    p = parse_file(SOFTMAX)
    decl = p.stmts[0]
    q = edits.insert_input(p, 1, dataclasses.replace(decl, outs=("T99",), origin=None), p.inputs[0])
    text = to_source(q)
    rows = _inputs_text(text)
    assert len(rows) == 2 and all(r.startswith("torch.testing.make_tensor(") and r.endswith(",") for r in rows)
    assert parse(text) == q


def test_name_comments_follow_renames_and_removals():
    p = _rename(parse_file(SEED), "T1", "A1")
    rows = _inputs_text(to_source(p))
    assert rows[1].endswith("# A1") and rows[0].endswith("# T0")
    k = next(k for k, s in enumerate(p.stmts) if s.outs and s.outs[0] == "T2")
    rows = _inputs_text(to_source(edits.remove_stmts(p, {k})))
    assert [r.rsplit("# ", 1)[1] for r in rows] == ["T0", "A1", "T3", "T4", "T5", "T6"]


def test_untouched_list_is_byte_exact():
    assert to_source(parse_file(SEED)) == open(SEED).read()
