"""A long-lived worker process: imports everything once, then forks one child per case.

Started by ``runner.py`` as ``python -m tests.fuzz.worker`` (a fresh interpreter, so no GL context or
thread of the parent — a pytest run may hold both — is inherited by the forks). Protocol, JSON lines:
the first line on stdin is the campaign config; then each line is a task (``{"index": k}`` or
``{"selftest": name}``), answered by one line, the case's record, on the original stdout. fd 1 is
pointed at stderr so nothing else can corrupt that channel.
"""

from __future__ import annotations

import json
import os
import shutil
import sys
import traceback
from pathlib import Path

import numpy  # noqa: F401 - imported before forking, so children start warm

import viewer  # noqa: F401
import viewer.export  # noqa: F401 - imports moderngl, creates no context
import viewer.pose.pose  # noqa: F401
from tests.fuzz import check, report, selftest
from tests.fuzz.isolate import Limits, run_isolated
from tests.fuzz.mutate import make_mutant, write_case
from tests.fuzz.seeds import load_seeds


def main() -> None:
    channel = os.fdopen(os.dup(1), "w")
    os.dup2(2, 1)
    config = json.loads(sys.stdin.readline())
    seeds = load_seeds(config.get("only_seeds"))
    limits = Limits(**config["limits"])
    out = Path(config["out"])
    workroot = Path(config["workroot"])
    workroot.mkdir(parents=True, exist_ok=True)
    hang_read, _hang_write = os.pipe()  # never written, never closed while the worker lives
    for line in sys.stdin:
        task = json.loads(line)
        if "selftest" in task:
            record = run_selftest(task["selftest"], workroot, limits, hang_read)
        else:
            record = run_index(config, seeds, int(task["index"]), workroot, out, limits, hang_read)
        channel.write(json.dumps(record, default=str) + "\n")
        channel.flush()


def run_index(config: dict, seeds: list, index: int, workroot: Path, out: Path, limits: Limits, stdin_fd: int) -> dict:
    """Make case ``index``, run it isolated, keep its folder if it failed; its record."""
    seed, every = config["seed"], config["render_every"]
    record: dict = {"seed": seed, "index": index, "only_seeds": config.get("only_seeds")}
    workdir = workroot / f"{os.getpid()}-{index}"
    try:
        mutant = make_mutant(seeds, seed, index)
        path = write_case(mutant, workdir)
    except Exception:  # noqa: BLE001 - a fuzzer bug: reported as such, the campaign goes on
        record.update(
            outcome="crash", signature="fuzzer error making the case", traceback=traceback.format_exc()[-4000:]
        )
        workdir.mkdir(parents=True, exist_ok=True)
        report.keep_or_delete(workdir, out, record)
        return record
    render = bool(every) and index % every == 0
    record.update(
        seed_file=mutant.seed,
        container=mutant.container,
        mutations=mutant.descriptions,
        render=render,
        repro=repro_command(config, index),
    )
    record.update(
        run_isolated(lambda: check.run_case(path, render, mutant.injected_nonfinite), workdir, limits, stdin_fd)
    )
    report.keep_or_delete(workdir, out, record)
    return record


def run_selftest(name: str, workroot: Path, limits: Limits, stdin_fd: int) -> dict:
    workdir = workroot / f"{os.getpid()}-selftest-{name}"
    workdir.mkdir(parents=True, exist_ok=True)
    try:
        return {
            "selftest": name,
            **run_isolated(lambda: check.guarded(selftest.SELFTESTS[name]), workdir, limits, stdin_fd),
        }
    finally:
        shutil.rmtree(workdir, ignore_errors=True)


def repro_command(config: dict, index: int) -> str:
    only = f" --only-seeds '{config['only_seeds']}'" if config.get("only_seeds") else ""
    return f"python -m tests.fuzz --seed {config['seed']} --index {index}{only} --render-every 1"


if __name__ == "__main__":
    main()
