"""``--scheduler ADDRESS``: the same files, the same task function, on a Dask ``distributed`` cluster.

Each file is one Dask task, ``dask_task``: on the Dask worker it feeds the request to a sandbox worker
process of its own (``sandbox.Sandbox``, one per worker thread, kept for the worker's life, so the time and
memory limits and the one GL context hold there exactly as on this machine). Results stream back as they
finish (``as_completed``). A Dask worker that dies mid-file is the scheduler's business first: it runs the
task again elsewhere (up to its ``allowed-failures``); its ``remove-worker`` event names the tasks the worker
held, so the report says how many attempts a file took. A task the scheduler gives up on
(``KilledWorker``) is submitted once more by us, and if that fails too it is reported ``crashed``: no file is
silently dropped. Files are read by path, so every worker must see them at the same paths (a shared
file system), and previews are written there too.
"""

from __future__ import annotations

import threading
import uuid
from typing import Iterable, Iterator

from viewer.library.sandbox import Sandbox, WorkerDied, failure

_local = threading.local()  # the sandbox of this Dask worker thread


def dask_task(request: dict) -> dict:
    """Run one request on this Dask worker's sandbox; the sandbox's own death is retried once here."""
    from distributed import get_worker

    worker = get_worker()
    name = f"dask {worker.address} #{threading.get_ident() % 10000}"
    for attempt in (1, 2):
        sandbox = getattr(_local, "sandbox", None)
        if sandbox is None:
            sandbox = _local.sandbox = Sandbox(name)
        try:
            result = sandbox.run(request)
        except WorkerDied as exc:
            sandbox.stop()
            _local.sandbox = None
            if exc.timed_out:
                seconds = (request.get("limits") or {}).get("seconds") or 0
                result = failure(request, "time-limit", f"over the per-file time limit of {seconds:g} s (killed)")
            elif attempt == 2:
                result = failure(request, "crashed", f"the worker died on it twice: {exc}", attempts=2)
            else:
                continue
        result["attempts"], result["worker"] = attempt, name
        return result
    raise AssertionError("unreachable")


def connect(scheduler: str):
    """A ``distributed.Client`` for ``scheduler``: an address (``tcp://host:8786``) or ``dask-config`` (the
    address dask.config holds, e.g. from ``DASK_SCHEDULER_ADDRESS``)."""
    try:
        import dask
        from distributed import Client
    except ImportError:
        from viewer.base.errors import UsageError

        raise UsageError("animview: --scheduler needs Dask: pip install 'animview[cluster]'") from None
    address = dask.config.get("scheduler-address", None) if scheduler == "dask-config" else scheduler
    if not address:
        from viewer.base.errors import UsageError

        raise UsageError("animview: --scheduler dask-config, but dask.config has no scheduler-address")
    try:
        return Client(address, timeout="20s")
    except (OSError, TimeoutError) as exc:
        from viewer.base.errors import UsageError

        raise UsageError(f"animview: cannot reach the Dask scheduler at {address}: {exc}") from None


def run_on_cluster(client, requests: Iterable[dict]) -> Iterator[dict]:
    """Results of ``requests`` as the cluster finishes them; every request is answered exactly once.

    Finished tasks are gathered in batches (one round trip for all that finished since the last), and the
    scheduler's ``remove-worker`` events name the tasks a lost worker held: those files ran again, and
    their results say so (``attempts``)."""
    from distributed import as_completed

    run = uuid.uuid4().hex[:8]
    requests = list(requests)
    lost: dict[str, int] = {}  # task key -> times its worker was lost under it
    lock = threading.Lock()

    def on_event(event) -> None:  # on the client's event loop
        message = event[1] if isinstance(event, tuple) else event
        if isinstance(message, dict) and message.get("action") == "remove-worker":
            with lock:
                for key in message.get("processing-tasks") or ():
                    lost[str(key)] = lost.get(str(key), 0) + 1

    client.subscribe_topic("all", on_event)
    futures = {}
    for i, request in enumerate(requests):
        futures[client.submit(dask_task, request, key=f"animview-{run}-{i}", pure=False)] = (request, 1)
    pending = as_completed(list(futures))
    try:
        for batch in pending.batches():
            finished = [f for f in batch if f.status == "finished"]
            for future, result in zip(finished, client.gather(finished)):
                request, submitted = futures.pop(future)
                with lock:
                    result["attempts"] = max(result.get("attempts", 1), submitted + lost.get(str(future.key), 0))
                yield result
            for future in (f for f in batch if f.status != "finished"):
                request, submitted = futures.pop(future)
                if submitted == 1:  # the scheduler gave up (KilledWorker) or the task failed: once more, from us
                    retry = client.submit(
                        dask_task, request, key=f"animview-{run}-retry-{uuid.uuid4().hex[:8]}", pure=False
                    )
                    futures[retry] = (request, 2)
                    pending.add(retry)
                    continue
                error = future.exception()
                yield failure(
                    request, "crashed", f"lost on the cluster twice: {type(error).__name__}: {error}"[:300], attempts=2
                )
            for future in batch:
                future.release()
    finally:
        client.unsubscribe_topic("all")
