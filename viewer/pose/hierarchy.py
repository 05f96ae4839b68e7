"""Walking the node hierarchy with numpy: world matrices from local ones, inherited visibility, subtrees.

Pure functions over parent / depth arrays, so the pose (``pose.py``), the bounds and the tests share one
definition; a hierarchy of any depth costs a few numpy calls per level, or ⌈log2 depth⌉ by pointer jumping.
"""

from __future__ import annotations

import numpy as np

# Cost model of one ``compose_world`` step, in µs (this VM, numpy 2.4): its few numpy calls, and each
# node it multiplies (gathers, a 4×4 product, a scatter).
STEP_COSTS = (3.0, 0.2)


def inherit_visibility(own: np.ndarray, parent: np.ndarray) -> np.ndarray:
    """(N,) bool: a node shows when it and all its ancestors are visible (KHR_node_visibility). Pointer
    doubling: each pass looks twice as far up, so a chain of depth d takes log2(d) passes, not d."""
    if own.all():
        return own.copy()
    hidden = ~own
    up = parent.copy()
    while (up >= 0).any():
        reach = up >= 0
        hidden[reach] |= hidden[up[reach]]
        up[reach] = up[up[reach]]
    return ~hidden


def subtree(parent: np.ndarray, depth: np.ndarray, root: int) -> np.ndarray:
    """Indices of ``root`` and every node below it: one pass in depth order sees each parent first
    (once per clip, so a plain loop)."""
    inside = np.zeros(len(parent), dtype=bool)
    inside[root] = True
    for n in np.argsort(depth, kind="stable").tolist():
        p = parent[n]
        if p >= 0 and inside[p]:
            inside[n] = True
    return np.flatnonzero(inside)


def world_steps(parent: np.ndarray, depth: np.ndarray) -> list[tuple[np.ndarray, np.ndarray]]:
    """A plan for ``compose_world``: steps ``(dst, src)`` meaning ``M[dst] = M[src] @ M[dst]``.

    Two plans give the same products; the cheaper one is kept. Level by level, each node is
    multiplied once but every level costs a few numpy calls, so a 30 000-deep chain would make
    30 000 steps. Pointer jumping (each node takes over its jump target's product, then jumps twice as
    far) needs only ⌈log2(depth + 1)⌉ steps, at the price of touching nodes more than once.
    """
    n = len(parent)
    levels: list[tuple[np.ndarray, np.ndarray]] = []
    if n:
        order = np.argsort(depth, kind="stable")
        bounds = np.flatnonzero(np.diff(depth[order])) + 1
        for idx in np.split(order, bounds)[1:]:  # level 0 (the roots) is its own world already
            levels.append((idx, parent[idx]))
    jumps: list[tuple[np.ndarray, np.ndarray]] = []
    jump = np.asarray(parent, dtype=np.int64).copy()
    while n and (jump >= 0).any():
        active = np.flatnonzero(jump >= 0)
        jumps.append((active, jump[active]))
        jump = np.where(jump >= 0, jump[np.maximum(jump, 0)], -1)
    call_cost, row_cost = STEP_COSTS

    def cost(steps):
        return sum(call_cost + row_cost * len(dst) for dst, _ in steps)

    return levels if cost(levels) <= cost(jumps) else jumps


def compose_world(
    local: np.ndarray, steps: list[tuple[np.ndarray, np.ndarray]], out: np.ndarray | None = None
) -> np.ndarray:
    """World matrices (..., N, 4, 4) from local ones, parents before children, by a ``world_steps`` plan.

    Any leading batch axes (e.g. F frames) are carried along. Each step's right side is computed in full
    before it is written, which pointer jumping relies on.
    """
    if out is None:
        world = local.copy()
    else:
        world = out
        world[...] = local
    for dst, src in steps:
        world[..., dst, :, :] = world[..., src, :, :] @ world[..., dst, :, :]
    return world
