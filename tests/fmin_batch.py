"""Several fmin commands in one Python process, for tests that run many (``fmin_batch`` below):
``python tests/fmin_batch.py JOBS.json RESULTS.json`` calls ``minimizer.cli.main`` once per argv
of JOBS, each with file descriptors 1 and 2 sent to files of its own — so what fmin and its
workers print is captured as a subprocess's would be — and writes one ``{returncode, stdout,
stderr}`` per job. An exception that escapes ``main`` is printed as Python would print it
(``Traceback ...``) into that job's stderr, with exit status 1.

Why: a test of every corpus script spends most of a subprocess per script importing torch and
fmin; one process per core pays that once. ``tests/test_no_traceback.py`` keeps a true
subprocess per command for ``fmin check``."""
import json
import os
import subprocess
import sys
import tempfile
import traceback


def _one(argv: list[str]) -> dict:
    from minimizer.cli import main
    with tempfile.TemporaryFile("w+") as out, tempfile.TemporaryFile("w+") as err:
        sys.stdout.flush()
        sys.stderr.flush()
        saved = os.dup(1), os.dup(2)
        os.dup2(out.fileno(), 1)
        os.dup2(err.fileno(), 2)
        try:
            code = main(argv)
        except SystemExit as e:   # argparse's usage errors
            code = e.code if isinstance(e.code, int) else 1
        except BaseException:
            traceback.print_exc()
            code = 1
        finally:
            sys.stdout.flush()
            sys.stderr.flush()
            os.dup2(saved[0], 1)
            os.dup2(saved[1], 2)
            os.close(saved[0])
            os.close(saved[1])
        out.seek(0)
        err.seek(0)
        return {"returncode": code, "stdout": out.read(), "stderr": err.read()}


def fmin_batch(jobs: list[list[str]], cwd: str, processes: int = 2, timeout: float = 900) -> list[dict]:
    """The results of ``jobs`` (argv lists), in order, run in ``processes`` Python processes."""
    from concurrent.futures import ThreadPoolExecutor
    shares = [jobs[i::processes] for i in range(processes)]

    def run(share):
        with tempfile.TemporaryDirectory() as d:
            src, dst = os.path.join(d, "jobs.json"), os.path.join(d, "results.json")
            with open(src, "w") as f:
                json.dump(share, f)
            r = subprocess.run([sys.executable, os.path.abspath(__file__), src, dst], cwd=cwd, capture_output=True,
                               text=True, timeout=timeout, env={**os.environ, "PYTHONPATH": cwd})
            assert r.returncode == 0, r.stderr[-3000:]
            with open(dst) as f:
                return json.load(f)

    with ThreadPoolExecutor(processes) as ex:
        done = list(ex.map(run, [s for s in shares if s]))
    results = [None] * len(jobs)
    for i, share in enumerate(done):
        for k, res in enumerate(share):
            results[i + k * processes] = res
    return results


if __name__ == "__main__":
    sys.path.insert(0, os.getcwd())
    with open(sys.argv[1]) as f:
        todo = json.load(f)
    results = [_one(argv) for argv in todo]
    with open(sys.argv[2], "w") as f:
        json.dump(results, f)
