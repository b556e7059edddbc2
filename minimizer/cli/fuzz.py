"""``fmin fuzz``: a campaign, and its modes that are not one (``--replay``, ``--recheck``).

Options that contradict each other or a path that cannot be written are refused before a worker
starts; ``--seeds`` are read (and the unreadable ones reported) before the campaign starts.
"""
from __future__ import annotations

import argparse
import os
import sys

from ..argtypes import NON_NEGATIVE_INT, POSITIVE_INT, POSITIVE_SECONDS
from ..errors import UsageError
from .options import add_ray_options, add_run_options, ray_options, run_context
from .paths import require_out_dir, require_out_file


def add_fuzz(z: argparse.ArgumentParser) -> None:
    """fmin fuzz: a campaign (or --replay, --recheck)."""
    from ..fuzz.campaign.options import DEFAULT_CORPUS
    add_run_options(z, plans_memory=False)
    z.add_argument("--time", type=POSITIVE_SECONDS, default=None, metavar="S", help="seconds of generating and judging, "
                   "counted once the workers have started (minimizing new findings comes after)")
    z.add_argument("--max-examples", type=NON_NEGATIVE_INT, default=None, metavar="N", help="programs to run (default 100 "
                   "when --time is not given)")
    z.add_argument("--shard", default="0/1", metavar="I/N", help="run the I-th of N disjoint shares of the "
                   "campaign (a CI matrix; merge the corpora with fmin merge-findings)")
    z.add_argument("--corpus", default=None, metavar="DIR", help=f"findings corpus (default {DEFAULT_CORPUS}, in the "
                   "working directory)")
    z.add_argument("--junit", metavar="FILE", help="JUnit XML: one test per bucket hit, a new bucket fails")
    z.add_argument("--summary", metavar="FILE", help="the campaign summary as JSON")
    z.add_argument("--frontend", choices=["nvfuser", "nvfuser_direct"], default=None,
                   help="generate for one frontend only (default: both; on nvfuser, only nvfuser_direct when the "
                        "legacy nvfuser module is not installed)")
    z.add_argument("--max-ops", type=POSITIVE_INT, default=12, help="ops per program at most (default 12)")
    z.add_argument("--seeds", nargs="+", metavar="DIR", default=None,
                   help="seeded fuzzing: each program is a fusion read from these folders' scripts (every form fmin "
                        "reads), changed by a few mutations (docs/fuzz.md 'Seeded fuzzing'); --replay needs them too")
    z.add_argument("--feedback", action="store_true",
                   help="with --seeds: a mutant whose run shows a compiler decision no earlier program showed "
                        "(another scheduler, merge-rejection reason, segment count) joins a queue that later "
                        "programs are mutated from (docs/fuzz.md 'Feedback'); what it learned is kept in the "
                        "corpus (DIR/feedback.json), and the next campaign on it starts from there")
    z.add_argument("--feedback-from", metavar="DIR", default=None,
                   help="with --feedback: start from what the campaigns of this findings corpus learned instead of "
                        "--corpus's own (a CI shard writes into an empty corpus but starts from the known bugs'); "
                        "what this campaign learns still goes to --corpus")
    from ..fuzz.judging.oracles import names as oracle_names
    z.add_argument("--oracles", default=",".join(oracle_names()),
                   help=f"comma-separated subset of {','.join(oracle_names())}")
    z.add_argument("--no-minimize", action="store_true", help="store new findings without reducing them")
    z.add_argument("--minimize-time", type=POSITIVE_SECONDS, default=300.0, metavar="S",
                   help="seconds of reduction per new finding (default 300)")
    z.add_argument("--minimize-budget", type=POSITIVE_SECONDS, default=None, metavar="S",
                   help="seconds for all reductions of this campaign together (default: no limit); buckets "
                        "left unminimized are minimized by a later campaign on the same corpus")
    _add_fuzz_modes(z)


def _add_fuzz_modes(z) -> None:
    """What a campaign exits on, and the modes that are not a campaign (replay, recheck, Ray, resume)."""
    z.add_argument("--fail-on", choices=["new", "fmin", "never"], default="new",
                   help="exit 1 on any new finding (default), only on new findings in fmin's own code "
                        "(what CI on the CPU backends wants), or never")
    z.add_argument("--replay", metavar="ID", help="regenerate the program of example ID (SEED.CHUNK.INDEX, or a --feedback chain ID+ID+..., "
                   "from finding.json), print it and judge it; no campaign. Give the campaign's --frontend and "
                   "--max-ops (finding.json: generator)")
    z.add_argument("--recheck", action="store_true", help="no campaign: replay every bucket of the backend in "
                   "--corpus under its property (its minimal repro, else its original) and record which still "
                   "reproduce; those that do not are marked stale (after an nvFuser upgrade: the fixed ones); --summary writes "
                   "the rows as JSON")
    add_ray_options(z, "judge the programs (and reduce the new buckets, or --recheck them)")
    z.add_argument("--resume", dest="resume", action="store_true", default=None,
                   help="record which examples were judged (DIR/campaign-BACKEND-DEVICE-SEED-IofN.jsonl) and skip "
                        "those a killed run already judged (the default with --ray)")
    z.add_argument("--no-resume", dest="resume", action="store_false",
                   help="judge every example again, starting the record over")
    z.add_argument("-q", "--quiet", action="store_true", help="no progress line")


def _shard(text: str) -> tuple[int, int]:
    import re
    m = re.fullmatch(r"\s*(\d+)\s*/\s*(\d+)\s*", text)
    if not m or int(m.group(2)) < 1 or int(m.group(1)) >= int(m.group(2)):
        raise UsageError(f"--shard: expected I/N with 0 <= I < N (e.g. 0/4), got {text!r}")
    return int(m.group(1)), int(m.group(2))


def selected_oracles(text: str) -> tuple[str, ...]:
    """``--oracles``: the registered fuzz oracles it names (UsageError for another name)."""
    from ..fuzz.judging.oracles import names
    oracles = tuple(o.strip() for o in text.split(",") if o.strip())
    if not oracles or any(o not in names() for o in oracles):
        raise UsageError(f"--oracles: expected a comma-separated subset of {','.join(names())}, got {text!r}")
    return oracles


def cmd_fuzz(args) -> int:
    from ..fuzz.campaign.options import DEFAULT_CORPUS, CampaignOptions, default_frontend
    from ..fuzz.campaign.run import Interrupted, run_campaign
    from ..fuzz.campaign.summary import summary_lines
    if args.max_memory is not None:   # nothing to fit: a campaign's programs are drawn as it runs
        raise UsageError("fuzz: --max-memory is for check, reduce and isolate: a campaign draws its programs as it "
                         "runs, so there is no script to plan memory for; lower --jobs instead")
    oracles = selected_oracles(args.oracles)
    given_corpus = args.corpus is not None
    args.corpus = args.corpus or DEFAULT_CORPUS
    if not args.replay:   # where it writes, before anything runs
        require_out_dir(args.corpus, "--corpus")
        require_out_file(args.junit, "--junit")
        require_out_file(args.summary, "--summary")
    ctx = run_context(args, seed=0)   # --seed chooses the programs; every run's torch seed is 0
    ray_opt = ray_options(args, ctx.device)
    if args.frontend is None and (args.seeds or not args.replay):
        args.frontend = default_frontend(ctx.backend)
    if args.feedback and not args.seeds:
        raise UsageError("--feedback: needs --seeds (the queue holds mutated seeds)")
    if args.feedback_from is not None and not args.feedback:
        raise UsageError("--feedback-from: needs --feedback (it names where the feedback starts from)")
    args.capability = _capability(ctx) if args.seeds else None
    if args.seeds:
        _load_seeds(args)
    if args.replay:
        return _replay(args, ctx, oracles)
    max_examples = args.max_examples if (args.max_examples is not None or args.time) else 100
    opt = CampaignOptions(ctx=ctx, seconds=args.time, max_examples=max_examples,
                          seed=args.seed, shard=_shard(args.shard), corpus=args.corpus,
                          junit=args.junit, summary=args.summary, frontend=args.frontend, max_ops=args.max_ops,
                          oracles=oracles, minimize=not args.no_minimize, minimize_seconds=args.minimize_time,
                          minimize_budget=args.minimize_budget, seeds=tuple(args.seeds or ()), feedback=args.feedback,
                          feedback_from=args.feedback_from, capability=args.capability,
                          resume=True if ray_opt is not None and args.resume is None else args.resume)
    if args.recheck:
        return _recheck(opt, ray_opt)
    if not os.path.isdir(opt.corpus) and not args.quiet:
        print(f"fmin: findings go to {opt.corpus}/ (a new directory" + ("" if given_corpus else
              "; --corpus DIR to choose another") + ")", file=sys.stderr)
    try:
        if ray_opt is not None:
            from .. import cluster
            s = cluster.run_campaign(opt, ray_opt)
        else:
            s = run_campaign(opt)
    except Interrupted as stopped:   # what it did before Ctrl-C is worth the same table
        for line in summary_lines(stopped.summary):
            print(line)
        raise
    for line in summary_lines(s):
        print(line)
    return fuzz_exit_code(args.fail_on, s.new)


def fuzz_exit_code(fail_on: str, new: list) -> int:
    """A campaign's exit status under ``--fail-on``: 1 when a new bucket is one it fails on — any
    (``new``), only fmin's own (``fmin``: CI, where a compiler's bug is not a failure of fmin),
    none (``never``) — else 0."""
    if fail_on == "never":
        return 0
    return 1 if any(fail_on == "new" or n.bucket.owner == "fmin" for n in new) else 0


def _load_seeds(args) -> None:
    """``--seeds``: a missing folder or no readable seed is a usage error; each unreadable seed
    is reported once (``file:line:col: why``) and left out, an nvFuser checkout's as one block
    (its fusion functions found, read, left out by reason)."""
    from ..fuzz.sources import seeded
    got = seeded.load(args.seeds, args.frontend, args.capability)
    for report in got.harvests:   # an nvFuser checkout's fusions: one block, by reason
        print(report.block(), file=sys.stderr)
    if got.set_aside:
        need = max(got.set_aside.values())
        print(f"fmin: {len(got.set_aside)} seed(s) set aside: their nvFuser tests skip GPUs below compute capability "
              f"{need[0]}.{need[1]} (this GPU: {args.capability[0]}.{args.capability[1]})", file=sys.stderr)
    for line in got.unreadable:
        if not any(line.startswith(r.checkout + os.sep) for r in got.harvests):
            print(f"fmin: seed left out: {line}", file=sys.stderr)
    if not got.seeds:
        raise UsageError(f"--seeds {' '.join(args.seeds)}: no seed fmin can read and check")


def _capability(ctx) -> tuple[int, int] | None:
    """The compute capability of the GPU the campaign runs on (None: a CPU device, no GPU, or
    ``nvidia-smi`` cannot tell): the seeds of tests that need a newer one are set aside."""
    from ..oracle.machine import compute_capability
    return compute_capability(ctx.device or "")


def _recheck(opt, ray_opt=None) -> int:
    from ..fuzz.campaign.recheck import recheck
    if not os.path.isdir(opt.corpus):
        raise UsageError(f"--corpus {opt.corpus}: no such directory")
    if ray_opt is not None:
        from .. import cluster
        rows = cluster.recheck(opt, ray_opt)
    else:
        rows = recheck(opt)
    if opt.summary:
        import json
        with open(opt.summary, "w", encoding="utf-8") as f:
            json.dump({"backend": opt.ctx.backend, "device": opt.ctx.device, "corpus": opt.corpus, "buckets": rows},
                      f, indent=1)
    if not rows:
        print(f"no {opt.ctx.backend} buckets in {opt.corpus}")
        return 0
    print("| bucket | script | reproduces | reason | repro.min.py standalone |\n|---|---|---|---|---|")
    for r in rows:
        rep = {True: "yes", False: "**no** (stale)", None: "not rechecked"}[r["reproduces"]]
        rep += f", re-keyed: {r['rekeyed']}".replace("|", "\\|") if r.get("rekeyed") else ""
        why = r["reason"].replace("|", "\\|").replace("\n", " ")
        alone = {True: "yes", False: "**no**", None: "not run"}[r.get("standalone")]
        if r.get("standalone") is not True and r.get("standalone_why"):
            alone += ": " + r["standalone_why"].replace("|", "\\|").replace("\n", " ")[:120]
        print(f"| {r['id']} | {r['script']} | {rep} | {why[:160]} | {alone} |")
    n = sum(r["reproduces"] is False for r in rows)
    shown = sum(r.get("standalone") is True for r in rows)
    left = sum(r["reproduces"] is None for r in rows)
    moved = sum(bool(r.get("rekeyed")) for r in rows)
    print(f"{len(rows)} bucket(s) rechecked on {opt.ctx.backend}: {len(rows) - n - left} reproduce, {n} stale, "
          f"{moved} re-keyed on another bug, {left} not rechecked; "
          f"{shown} shown by repro.min.py run standalone; bug list {os.path.join(opt.corpus, 'report.md')}")
    return 0


def _replay(args, ctx, oracles) -> int:
    from ..fuzz.sources import generate
    from ..fuzz.judging.oracles import run_oracles
    from ..program import to_source
    try:
        if args.seeds:
            from ..fuzz.sources import seedqueue
            e = seedqueue.program_for(args.replay, args.seeds, frontend=args.frontend, capability=args.capability)
            prog = e.program
            print(f"# seed {e.seed_file}, mutations: {', '.join(e.mutations) or 'none'}")
            for link, names in seedqueue.chain_of(e)[1:] if isinstance(e, seedqueue.DerivedExample) else ():
                print(f"#   queue-derived in slot {link}: {', '.join(names)}")
        else:
            prog = generate.program_for(args.replay, frontend=args.frontend, max_ops=args.max_ops)
    except ValueError as e:
        raise UsageError(str(e)) from None
    text = to_source(prog)
    sys.stdout.write(text)
    with ctx.judging_pools(jobs=1) as (pool, ref):
        j = run_oracles(prog, text, f"fuzz_{args.replay.replace('.', '_')}.py", pool, ref, backend=ctx.backend,
                         oracles=oracles, seed=ctx.seed, example_seed=generate.example_seed(args.replay))
    o = j.outcome
    print(f"# {args.replay} on {ctx.backend}: {o.status}" + (f" `{o.signature}`" if not o.ok else
                                                         f", {o.segments} segments" if o.segments is not None else ""))
    for f in j.findings:
        print(f"# finding [{f.owner}] {f.kind}: {f.words}")
    if not j.findings:
        print("# no finding")
    return 1 if j.findings else 0
