"""Cases that misbehave on purpose, so the tests can check that the fuzzer classifies each way of ending.

Run through the same worker, fork and limits as real cases (``runner.run_selftests``).
"""

from __future__ import annotations

import os

import numpy as np


def raise_value_error(record: dict) -> None:
    raise ValueError("a bug that is not a GltfError")


def loop_forever(record: dict) -> None:
    x = 0
    while True:
        x += 1


def allocate_8_gib(record: dict) -> None:
    record["array"] = int(np.ones(8 << 30, dtype=np.uint8).sum())


def read_stdin(record: dict) -> None:
    """Blocks without using CPU, like a buffer URI of /dev/stdin at a terminal."""
    record["read"] = len(os.read(0, 1))


def finish(record: dict) -> None:
    record["finished"] = True


SELFTESTS = {
    "raise": raise_value_error,
    "loop": loop_forever,
    "alloc": allocate_8_gib,
    "stdin": read_stdin,
    "ok": finish,
}
