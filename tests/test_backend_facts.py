"""What a backend is lives on its ``Backend`` (docs/architecture.md: adding a backend is one file):
no module outside ``minimizer/backends/`` branches on a backend's name — how its attachment runs
standalone, how its errors are classified, how its wrong results are triaged and which of its
differences are by design are methods and attributes of the backend."""
import pathlib
import re

from minimizer.backends import get, names

ROOT = pathlib.Path(__file__).resolve().parent.parent / "minimizer"
#: a comparison with a backend's name: ``backend == "nvfuser"``, ``!= "inductor"``, ``in ("nvfuser", ...)``
_BRANCH = re.compile(r"""(==|!=|\bin\b)\s*[\(\[{]?\s*["'](%s)["']""")


def test_no_module_outside_the_backends_branches_on_a_backend_name():
    rx = re.compile(_BRANCH.pattern % "|".join(n for n in names() if n != "reference"))
    hits = [f"{p.relative_to(ROOT)}:{k}: {line.strip()}" for p in ROOT.rglob("*.py")
            if "backends" not in p.relative_to(ROOT).parts
            for k, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1) if rx.search(line)]
    assert not hits, "\n".join(hits)


def test_each_backend_says_how_its_attachment_runs_and_reads():
    nvf, ind, ref = get("nvfuser"), get("inductor"), get("reference")
    assert not nvf.standalone_needs_fmin and ind.standalone_needs_fmin and ref.standalone_needs_fmin
    assert nvf.debug_env == {"NVFUSER_DUMP"} and not ind.debug_env
    assert ind.translation_only is not None and ind.translation_only.eager and nvf.translation_only is None
    argv, why = ref.standalone_command("x = 1\n", "cpu", ["a.b=1"])
    assert argv[1:] == ["-m", "minimizer.backends.launch", "reference", "cpu", "repro.min.py", "a.b=1"] and why == ""
    assert ref.standalone_outcome('noise\nfmin-launch: {"status": "ok", "segments": 2}\n', 0) == \
        {"status": "ok", "segments": 2}
    assert ref.standalone_outcome("no launcher line\n", 1) is None
    assert nvf.standalone_outcome("", 1) is None and nvf.standalone_outcome("", 0) == {"status": "ok"}
    assert nvf.classify_error(RuntimeError("x"))["signature"] == "nvfuser other: RuntimeError: x"
    assert ref.classify_error(RuntimeError("x"))["signature"] == "RuntimeError: x"
