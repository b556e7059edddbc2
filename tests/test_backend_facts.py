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
    assert not nvf.facts.standalone_needs_fmin and ind.facts.standalone_needs_fmin and ref.facts.standalone_needs_fmin
    assert nvf.facts.debug_env == {"NVFUSER_DUMP"} and not ind.facts.debug_env
    assert ind.facts.translation_only is not None and ind.facts.translation_only.eager and nvf.facts.translation_only is None
    argv, why = ref.standalone_command("x = 1\n", "cpu", ["a.b=1"])
    assert argv[1:] == ["-m", "minimizer.backends.launch", "reference", "cpu", "repro.min.py", "a.b=1"] and why == ""
    assert ref.standalone_outcome('noise\nfmin-launch: {"status": "ok", "segments": 2}\n', 0) == \
        {"status": "ok", "segments": 2}
    assert ref.standalone_outcome("no launcher line\n", 1) is None
    assert nvf.standalone_outcome("", 1) is None and nvf.standalone_outcome("", 0) == {"status": "ok"}
    assert nvf.classify_error(RuntimeError("x"))["signature"] == "nvfuser other: RuntimeError: x"
    assert ref.classify_error(RuntimeError("x"))["signature"] == "RuntimeError: x"


# ---------------------------------------------------------------- the three parts of a backend
RUNNER_METHODS = {"warm", "run_script", "analyze_log", "decision_features", "poisoned"}
POLICY_METHODS = {"by_design", "expected_segmentation"}


def _members(cls) -> set[str]:
    return {n for n in dir(cls) if not n.startswith("_")}


def test_a_backend_is_a_runner_facts_and_a_policy_each_its_own_object():
    """What a worker calls lives on the ``Runner`` only, what the bug list reads on the ``Policy``
    only, and the facts are frozen: the object that runs scripts carries no policy, and the fmin
    side runs nothing."""
    import dataclasses

    import pytest
    from minimizer.backends import Backend, Facts, Policy, Runner, policy_of, runner_for
    assert _members(Runner) == RUNNER_METHODS and _members(Policy) == POLICY_METHODS
    for name in names():
        b, r, p = get(name), runner_for(name), policy_of(name)
        assert isinstance(r, Runner) and isinstance(p, Policy) and isinstance(b.facts, Facts)
        assert b.facts.name == name and r.facts is b.facts
        assert not _members(type(b)) & (RUNNER_METHODS | POLICY_METHODS), name
        assert not _members(type(r)) & (POLICY_METHODS | {"available", "standalone_command", "rootcause"}), name
        assert _members(type(p)) == POLICY_METHODS, name
        with pytest.raises(dataclasses.FrozenInstanceError):
            b.facts.worker_bytes = 1
    assert runner_for("reference") is not runner_for("reference")   # each worker warms its own
    assert not _members(Backend) & (RUNNER_METHODS | POLICY_METHODS)


def test_the_registry_refuses_a_backend_without_facts_or_with_a_runner_that_is_none():
    import pytest
    from minimizer.backends import Backend, Facts, register
    with pytest.raises(ValueError, match="declares no Facts"):
        register(type("NoFacts", (Backend,), {}))
    with pytest.raises(ValueError, match="runner no Runner"):
        register(type("BadRunner", (Backend,), {"facts": Facts("bad-runner"), "runner": object}))
