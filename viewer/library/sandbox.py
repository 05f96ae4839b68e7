"""A worker process that checks (and renders) files one at a time under a time and a memory limit.

Why a process per worker, with files fed to it: a hostile or huge file may hang in a C loop, allocate
without end or crash the interpreter (a driver fault). Inside, each file runs under an interval timer and
an address-space limit (``RLIMIT_AS``: the worker's size when the file starts plus the limit), so a file
over either is answered as such; outside, the parent holds a deadline a little past the timer and kills a
worker that did not answer — a hang in C code ends too. A worker that dies is restarted; its file is run
once more and reported (``attempts``), never dropped. The GL context for previews lives as long as the
worker, so files do not pay for one each.

Protocol: one JSON line per request on stdin, one JSON line per result on the worker's own copy of stdout
(fd 1 itself is pointed at stderr, so anything a library prints cannot break a line); stderr goes to a log
file whose last line is quoted when the worker dies. ``{"ready": pid}`` is the first line.
"""

from __future__ import annotations

import json
import os
import resource
import signal
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import viewer

GRACE_S = 5.0  # the parent's deadline past the worker's own timer: time to answer "over the limit"
START_TIMEOUT_S = 120.0  # importing numpy and the viewer on a busy machine
MB = 1 << 20


class TimeLimit(BaseException):
    """Raised by the interval timer inside a file's run (a BaseException, so ``except Exception`` in the code
    being run does not swallow it)."""


def failure(request: dict, status: str, message: str, attempts: int = 1, worker: str = "") -> dict:
    """The result of a file whose run ended without a check: over a limit, or the worker died on it."""
    from viewer.library.report import Finding, counts

    code = {"time-limit": "time-limit", "memory-limit": "memory-limit"}.get(status, "crashed")
    result = {
        "file": request["label"],
        "path": request["path"],
        "status": status,
        "error": message,
        "findings": [Finding(code, "", message).as_dict()],
        "clips": [],
    }
    result.update(counts=counts(result), seconds=0.0, peak_mb=0.0, attempts=attempts, worker=worker)
    return result


# --- inside the worker -------------------------------------------------------------------------------


def _vm_kib(field: str) -> int:
    """``VmSize`` / ``VmHWM`` of this process in KiB (0 where /proc is absent)."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith(field + ":"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


def _reset_peak() -> None:
    """Start a new resident-memory peak (``VmHWM``) for the next file (Linux ≥ 4.0)."""
    try:
        Path("/proc/self/clear_refs").write_text("5")
    except OSError:
        pass


def run_limited(request: dict) -> dict:
    """``task.run(request)`` under the request's limits (``{"seconds": s, "memory_mb": m}``, either None)."""
    from viewer.library import task

    limits = request.get("limits") or {}
    seconds, memory_mb = limits.get("seconds"), limits.get("memory_mb")
    _reset_peak()
    old_as = resource.getrlimit(resource.RLIMIT_AS)
    start = time.perf_counter()
    try:
        if memory_mb:
            cap = _vm_kib("VmSize") * 1024 + int(memory_mb * MB)
            resource.setrlimit(resource.RLIMIT_AS, (min(cap, old_as[1]) if old_as[1] > 0 else cap, old_as[1]))
        if seconds:
            signal.setitimer(signal.ITIMER_REAL, float(seconds))
        result = task.run(request)
    except TimeLimit:
        result = failure(request, "time-limit", f"over the per-file time limit of {seconds:g} s")
    except MemoryError:
        result = failure(request, "memory-limit", f"over the per-file memory limit of {memory_mb:g} MB")
    except Exception as exc:  # a fault of the checker itself on this file: say so, never hide the file
        text = str(exc).splitlines()[0] if str(exc) else ""
        result = failure(request, "crashed", f"internal error: {type(exc).__name__}: {text}"[:300])
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0.0)
        resource.setrlimit(resource.RLIMIT_AS, old_as)
    result["seconds"] = time.perf_counter() - start
    result["peak_mb"] = round(_vm_kib("VmHWM") / 1024.0, 1)
    return result


def _exit_with_parent() -> None:
    """Leave when the process that started us is gone (a killed Dask worker's sandbox must not linger)."""
    parent = os.getppid()
    while True:
        time.sleep(1.0)
        if os.getppid() != parent:
            os._exit(3)


def _on_alarm(signum, frame) -> None:
    raise TimeLimit()


def serve() -> None:
    """The worker's loop: ready line, then one result per request until stdin closes."""
    out = os.fdopen(os.dup(1), "w", buffering=1)
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    signal.signal(signal.SIGALRM, _on_alarm)
    threading.Thread(target=_exit_with_parent, daemon=True).start()
    from viewer.library import task  # noqa: F401  (imported before the first file's clock starts)

    out.write(json.dumps({"ready": os.getpid()}) + "\n")
    crash_on = os.environ.get("ANIMVIEW_TEST_CRASH_ON")  # fault injection for the tests: die on this file
    for line in sys.stdin:
        request = json.loads(line)
        if crash_on and request["path"] == crash_on:
            os.kill(os.getpid(), signal.SIGKILL)
        result = run_limited(request)
        out.write(json.dumps(result) + "\n")
        if result["status"] in ("time-limit", "memory-limit"):
            return  # what the interrupted file left behind (half-built GL objects, a heap at its limit) goes too


# --- the parent's handle -----------------------------------------------------------------------------


class WorkerDied(RuntimeError):
    """The worker process ended while it held a file (the message says how: signal, exit status, last line);
    ``timed_out``: it was killed for passing its deadline."""

    def __init__(self, message: str, timed_out: bool = False) -> None:
        super().__init__(message)
        self.timed_out = timed_out


class Sandbox:
    """One worker process, started on demand; ``submit`` a request, then ``read`` its result when the
    process's ``fileno`` is readable (or ``run`` both, blocking, with the deadline)."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.proc: subprocess.Popen | None = None
        self.request: dict | None = None
        self.deadline = float("inf")
        self.ready = False
        self._log = None

    def start(self) -> None:
        """Start the process; it is ``ready`` once its first line has been read (``read``)."""
        self._log = tempfile.TemporaryFile(prefix="animview-worker-")
        root = str(Path(viewer.__file__).resolve().parents[1])
        env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [root, os.environ.get("PYTHONPATH")])))
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "viewer.library.sandbox"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=self._log,
            env=env,
            text=True,
            bufsize=1,
        )
        self.ready, self.request = False, None
        self.deadline = time.monotonic() + START_TIMEOUT_S

    @property
    def pid(self) -> int | None:
        return self.proc.pid if self.proc else None

    def fileno(self) -> int:
        return self.proc.stdout.fileno()

    @property
    def running(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def submit(self, request: dict) -> None:
        limits = request.get("limits") or {}
        self.request = request
        self.deadline = time.monotonic() + (limits.get("seconds") or float("inf")) + GRACE_S
        self.proc.stdin.write(json.dumps(request) + "\n")
        self.proc.stdin.flush()

    def read(self) -> dict | None:
        """The next line: None for the ready line, else the result of the request held.

        Raises:
            WorkerDied: the process ended (the request, if any, is still ``self.request``).
        """
        line = self.proc.stdout.readline()
        if not line:
            raise WorkerDied(self._death())
        message = json.loads(line)
        if "ready" in message:
            self.ready, self.deadline = True, float("inf")
            return None
        self.request, self.deadline = None, float("inf")
        if message["status"] in ("time-limit", "memory-limit"):
            self.stop()  # it leaves after such a file; wait for it so the next start is clean
        return message

    def run(self, request: dict) -> dict:
        """Submit and wait for the result, within the deadline (blocking; a Dask task's way).

        Raises:
            WorkerDied: the process died on it, or did not answer in time (then it is killed).
        """
        import select

        if not self.running:
            self.start()
        while not self.ready:
            self._wait(select)
            self.read()
        self.submit(request)
        self._wait(select)
        return self.read()

    def _wait(self, select) -> None:
        timeout = max(self.deadline - time.monotonic(), 0.0)
        readable, _, _ = select.select([self.proc.stdout], [], [], None if timeout == float("inf") else timeout)
        if not readable:
            self.kill()
            raise WorkerDied("did not answer before its deadline", timed_out=True)

    def kill(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
        self.stop()

    def stop(self) -> None:
        if self.proc is not None:
            for stream in (self.proc.stdin, self.proc.stdout):
                try:
                    stream.close()
                except OSError:
                    pass
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        if self._log is not None:
            self._log.close()
            self._log = None
        self.ready = False

    def _death(self) -> str:
        """How the process ended, for the report: the signal or status, and its last line of output."""
        code = self.proc.wait()
        how = f"killed by signal {-code}" if code < 0 else f"exited with status {code}"
        self._log.seek(0)
        lines = [ln for ln in self._log.read().decode("utf-8", "replace").splitlines() if ln.strip()]
        return how + (f" ({lines[-1].strip()[:200]})" if lines else "")


if __name__ == "__main__":
    serve()
