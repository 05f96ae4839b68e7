"""One case in a forked child with CPU, memory and wall-clock limits; how it ended, as an outcome.

Why fork from a warm worker: importing numpy + viewer costs ~0.3 s, a case often less; the fork
inherits the imports for free. No GL context exists before the fork (Mesa's llvmpipe threads do not
survive one), so a child that renders makes its own.

Limits, set in the child only:
  * ``RLIMIT_AS`` (address space), default 4 GiB. Measured: a child that imports everything and renders
    a 64×48 frame with llvmpipe peaks at ~0.8 GiB of address space, so AS fits with room to spare, and
    unlike RLIMIT_DATA it also caps mmap (numpy's big arrays), making a huge allocation fail at once
    with MemoryError instead of the machine swapping or the OOM killer picking a victim.
  * ``RLIMIT_CPU`` soft = limit (SIGXCPU: faulthandler dumps the stack, the child goes on), hard = limit
    + 2 s (SIGKILL). The CPU time from ``wait4`` decides "hang", so a child that finishes between the
    two limits is still a hang.
  * wall clock: a child blocked in a read uses no CPU; after ``wall_s`` the worker sends SIGUSR1 (stack
    dump) and then SIGKILL.
Stdin of the child is the read end of a pipe the worker keeps open and never writes: reading
``/dev/stdin`` then blocks, as it does for a user at a terminal (``/dev/null`` would return EOF at once
and hide the hang).
"""

from __future__ import annotations

import faulthandler
import json
import os
import resource
import select
import signal
import time
import traceback
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from tests.fuzz.check import project_frame

FUZZER_ERROR = 70  # exit status of a child whose own harness failed (a bug in the fuzzer, not the viewer)


@dataclass(frozen=True)
class Limits:
    cpu_s: int = 10
    wall_s: float = 20.0
    memory: int = 4 << 30


def run_isolated(target: Callable[[], dict], workdir: Path, limits: Limits, stdin_fd: int) -> dict:
    """Run ``target()`` (returns the outcome dict) in a forked child; the outcome of how it ended.

    Files in ``workdir``: ``result.json`` (target's dict), ``child.log`` (its stdout/stderr),
    ``stack.txt`` (faulthandler dumps on SIGXCPU / SIGUSR1).
    """
    result_path, log_path, stack_path = workdir / "result.json", workdir / "child.log", workdir / "stack.txt"
    start = time.monotonic()
    pid = os.fork()
    if pid == 0:  # child: never returns
        _child(target, result_path, log_path, stack_path, limits, stdin_fd)
    pidfd = os.pidfd_open(pid)
    timed_out = not select.select([pidfd], [], [], limits.wall_s)[0]
    if timed_out:
        os.kill(pid, signal.SIGUSR1)
        select.select([pidfd], [], [], 0.5)
        os.kill(pid, signal.SIGKILL)
    _, status, usage = os.wait4(pid, 0)
    os.close(pidfd)
    cpu = usage.ru_utime + usage.ru_stime
    record = _read_json(result_path)
    record.update(cpu_s=round(cpu, 3), wall_s=round(time.monotonic() - start, 3), max_rss_mb=usage.ru_maxrss // 1024)
    if timed_out or cpu >= limits.cpu_s:
        why = f"CPU {limits.cpu_s} s" if cpu >= limits.cpu_s else f"wall clock {limits.wall_s:g} s"
        record.update(
            outcome="hang",
            signature=f"hang in {_hung_frame(stack_path)}",
            message=f"over the {why} limit",
            stack=_read_text(stack_path)[:3000],
        )
    elif "outcome" not in record:
        record.update(_died(status, log_path))
    return record


def _child(target, result_path: Path, log_path: Path, stack_path: Path, limits: Limits, stdin_fd: int) -> None:
    code = FUZZER_ERROR
    try:
        os.dup2(stdin_fd, 0)
        log = os.open(log_path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
        os.dup2(log, 1)
        os.dup2(log, 2)
        stack = open(stack_path, "w")
        faulthandler.register(signal.SIGUSR1, file=stack, all_threads=True)
        faulthandler.register(signal.SIGXCPU, file=stack, all_threads=True)
        resource.setrlimit(resource.RLIMIT_AS, (limits.memory, limits.memory))
        resource.setrlimit(resource.RLIMIT_CPU, (limits.cpu_s, limits.cpu_s + 2))
        record = target()
        tmp = result_path.with_suffix(".tmp")
        tmp.write_text(json.dumps(record, default=str))
        tmp.rename(result_path)
        code = 0
    except BaseException:  # noqa: BLE001 - reported through the log and the exit status
        try:
            traceback.print_exc()
        except BaseException:  # noqa: BLE001
            pass
    finally:
        os._exit(code)


def _read_json(path: Path) -> dict:
    try:
        return json.loads(path.read_text())
    except (OSError, ValueError):
        return {}


def _read_text(path: Path) -> str:
    try:
        return path.read_text(errors="replace")
    except OSError:
        return ""


def _died(status: int, log_path: Path) -> dict:
    """Outcome of a child that left no result: killed by a signal, or its harness failed."""
    log = _read_text(log_path)[-4000:]
    memory_words = ("MemoryError", "Cannot allocate memory", "out of memory", "std::bad_alloc")
    if os.WIFSIGNALED(status):
        name = signal.Signals(os.WTERMSIG(status)).name
        if any(w in log for w in memory_words) or name == "SIGKILL":
            return {"outcome": "oom", "signature": f"killed by {name} (out of memory)", "message": log[-500:]}
        return {"outcome": "crash", "signature": f"killed by {name}", "message": log[-500:]}
    code = os.WEXITSTATUS(status)
    if any(w in log for w in memory_words):
        return {"outcome": "oom", "signature": f"exit {code} (out of memory)", "message": log[-500:]}
    what = "fuzzer harness error" if code == FUZZER_ERROR else f"exit {code} without a result"
    return {"outcome": "crash", "signature": what, "message": log[-500:]}


def _hung_frame(stack_path: Path) -> str:
    """Where a hung child was: the innermost project frame of the first faulthandler dump."""
    text = _read_text(stack_path)
    frames = []
    for line in text.split("\n\n")[0].splitlines():
        line = line.strip()
        if line.startswith('File "'):
            filename, _, rest = line[6:].partition('", line ')
            number, _, func = rest.partition(" in ")
            frames.append((filename, int(number) if number.isdigit() else 0, func))
    if not frames:
        return "? (empty stack dump)"
    where = project_frame(list(reversed(frames)))  # faulthandler lists the most recent call first
    path, _, rest = where.partition(":")  # "viewer/x.py:12 (f)" → "viewer/x.py (f)": loops move between lines
    phase = next((f[2] for f in frames if f[0].endswith("tests/fuzz/check.py")), None)  # load, sample, render…
    return f"{path} {rest.partition(' ')[2]}".strip() + (f" via check.{phase}" if phase else "")
