"""The campaign: spread case indices over ``jobs`` worker processes and gather their records.

Each worker (``worker.py``) is a fresh interpreter that imports numpy and viewer once and forks a
child per case (``isolate.py``), so a case costs a fork, not an import, and no case can take the
campaign down: a child that crashes, hangs or runs out of memory is reported and the next one starts.
A worker that dies itself is restarted and its case reported as a crash of the fuzzer.

API: ``run_campaign(Config(...)) -> report.Summary``; ``run_selftests(names, limits)`` for the tests.
"""

from __future__ import annotations

import dataclasses
import json
import os
import selectors
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterable

from tests.fuzz.isolate import Limits
from tests.fuzz.report import Summary

REPO_ROOT = Path(__file__).resolve().parents[2]


@dataclass
class Config:
    seed: int = 0
    cases: int = 1000
    jobs: int = 2
    render_every: int = 10  # render one frame for cases whose index is a multiple of this (0: never)
    out: Path = REPO_ROOT / "out" / "fuzz"
    only_seeds: str | None = None
    limits: Limits = field(default_factory=Limits)
    indices: list[int] | None = None  # run exactly these case indices instead of range(cases)

    def task_indices(self) -> list[int]:
        return list(self.indices) if self.indices is not None else list(range(self.cases))


class Worker:
    """One ``python -m tests.fuzz.worker`` process and the task it is on."""

    def __init__(self, config_line: str) -> None:
        env = dict(os.environ, OPENBLAS_NUM_THREADS="1", OMP_NUM_THREADS="1", PYTHONDONTWRITEBYTECODE="1")
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO_ROOT), env.get("PYTHONPATH")]))
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "tests.fuzz.worker"],
            cwd=REPO_ROOT,
            env=env,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            bufsize=1,
        )
        self.send(config_line)
        self.task: dict | None = None

    def send(self, line: str) -> None:
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def give(self, task: dict) -> None:
        self.task = task
        self.send(json.dumps(task))

    def close(self) -> None:
        try:
            self.proc.stdin.close()
        except OSError:
            pass
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


def _workroot(config: Config) -> Path:
    """Where this campaign's case folders are made: under ``out`` (so keeping one is a rename), per run."""
    return config.out / f".work-{os.getpid()}"


def _config_line(config: Config) -> str:
    return json.dumps(
        {
            "seed": config.seed,
            "out": str(config.out),
            "workroot": str(_workroot(config)),
            "render_every": config.render_every,
            "only_seeds": config.only_seeds,
            "limits": dataclasses.asdict(config.limits),
        }
    )


def run_tasks(config: Config, tasks: Iterable[dict], on_record: Callable[[dict], None]) -> None:
    """Feed ``tasks`` to ``config.jobs`` workers; call ``on_record`` with each record as it arrives."""
    config.out.mkdir(parents=True, exist_ok=True)
    line = _config_line(config)
    pending = list(tasks)[::-1]
    workers = [Worker(line) for _ in range(max(1, min(config.jobs, len(pending))))]
    sel = selectors.DefaultSelector()
    for w in workers:
        sel.register(w.proc.stdout, selectors.EVENT_READ, w)
        if pending:
            w.give(pending.pop())
    busy = sum(w.task is not None for w in workers)
    try:
        while busy:
            for key, _ in sel.select():
                w: Worker = key.data
                text = w.proc.stdout.readline()
                if text:
                    on_record(json.loads(text))
                else:  # the worker itself died: report its case, start another worker
                    on_record(
                        dict(
                            w.task,
                            seed=config.seed,
                            outcome="crash",
                            signature="fuzzer worker died",
                            message=f"worker exit status {w.proc.wait()}",
                        )
                    )
                    sel.unregister(w.proc.stdout)
                    w = Worker(line)
                    sel.register(w.proc.stdout, selectors.EVENT_READ, w)
                w.task = None
                busy -= 1
                if pending:
                    w.give(pending.pop())
                    busy += 1
    finally:
        for key in list(sel.get_map().values()):
            key.data.close()
        sel.close()
        shutil.rmtree(_workroot(config), ignore_errors=True)


def run_campaign(config: Config, progress: Callable[[Summary], None] | None = None) -> Summary:
    """Run every case of ``config``; the summary (failing cases are kept under ``config.out``)."""
    summary = Summary()

    def on_record(record: dict) -> None:
        summary.add(record)
        if progress is not None:
            progress(summary)

    run_tasks(config, ({"index": i} for i in config.task_indices()), on_record)
    summary.records.sort(key=lambda r: r["index"])
    return summary


def run_selftests(names: list[str], limits: Limits, out: Path) -> dict[str, dict]:
    """Run the deliberate misbehaviours of ``selftest.py`` through the real machinery; name → record."""
    records: dict[str, dict] = {}
    config = Config(jobs=min(len(names), 2), out=out, limits=limits)
    run_tasks(config, ({"selftest": n, "index": -1} for n in names), lambda r: records.__setitem__(r["selftest"], r))
    return records


def progress_printer(total: int, every: int = 100) -> Callable[[Summary], None]:
    """A progress callback printing a line to stderr every ``every`` cases."""
    start = time.monotonic()

    def show(summary: Summary) -> None:
        done = len(summary.records)
        if done % every == 0 or done == total:
            rate = done / max(time.monotonic() - start, 1e-9)
            print(
                f"fuzz: {done}/{total} cases, {len(summary.failures)} failed, {rate:.1f} cases/s",
                file=sys.stderr,
                flush=True,
            )

    return show
