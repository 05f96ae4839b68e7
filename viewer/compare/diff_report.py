"""A clip pair's measurements as the report's plain data: per-node table, worst place, error over time.

Apart from the measuring so the report's shape (README's schema) is read in one place; everything here is
already reduced to maxima, so it costs nothing next to the measuring.
"""

from __future__ import annotations

import numpy as np

from viewer.compare.diff_measure import Accumulator, value_unit
from viewer.compare.matching import NodeMatch
from viewer.scene.scene import Scene

VALUE_TOLERANCE = 1e-5  # morph weights and pointer values (their own units) further apart than this: differs


def measured(
    acc: Accumulator, a: Scene, b: Scene, nodes: NodeMatch, size: float, threshold: float, rows: int | None = None
) -> dict:
    """The measured part of one clip's report (``diff._clip`` adds the names, mode and structure). ``rows``: the
    node table keeps the ``rows`` nodes that moved furthest and the ``rows`` that turned most, the mesh table the
    ``rows`` meshes that moved furthest (None: all; ``check`` names one, and a 50 000-node scene's tables cost
    seconds)."""
    over = np.concatenate(acc.over_time) if acc.over_time else np.zeros((0, 2))
    order = np.lexsort((-acc.angle, -acc.dist))
    if rows is not None and len(order) > 2 * rows:
        turned = np.argsort(-acc.angle, kind="stable")[:rows]
        order = order[np.isin(order, np.union1d(order[:rows], turned))]
    table = [
        {
            "name": a.nodes.names[i],
            "path": nodes.paths_a[i],
            "a": i,
            "b": j,
            "max_distance": float(acc.dist[k]),
            "max_distance_rel": float(acc.dist[k]) / size,
            "max_angle_deg": float(np.degrees(acc.angle[k])),
            "t": float(acc.dist_t[k]),
            "geometry": not bool(acc.counted[k]),
        }
        for k in order.tolist()
        for i, j in [(int(acc.ia[k]), int(acc.ib[k]))]
    ]
    shown = np.argsort(-acc.mesh_max, kind="stable")[: None if rows is None else rows]
    meshes = [
        {k: v for k, v in acc.entries[m].items() if k != "node_a"}
        | {"max_distance": float(acc.mesh_max[m]), "t": float(acc.mesh_t[m])}
        for m in shown.tolist()
    ]
    counted = [row for row, c in zip(table, acc.counted[order]) if c]
    node_max = counted[0]["max_distance"] if counted else 0.0
    vert_max = meshes[0]["max_distance"] if meshes else 0.0
    if meshes and vert_max > node_max:
        worst = {"node": meshes[0]["node"], "mesh": meshes[0]["mesh"], "t": meshes[0]["t"], "kind": "vertices"}
    else:
        top = counted[0] if counted else (table[0] if table else {"name": None, "t": 0.0})
        worst = {"node": top["name"], "t": top["t"], "kind": "node"}
    distance = max(node_max, vert_max)
    above = np.flatnonzero(over[:, 1] > threshold)
    weights = [
        {"node": a.nodes.names[i], "max_difference": d, "t": t} for (i, _), (d, t) in acc.weights.items() if d > 0
    ]
    values = [
        {"pointer": target, "max_difference": d, "unit": value_unit(target), "t": t}
        for target, (d, t) in sorted(acc.values.items())
        if d > 0
    ]
    flips = [
        {"node": a.nodes.names[int(acc.ia[k])], "flips": int(acc.flips[k]), "first_t": float(acc.flip_t[k])}
        for k in np.flatnonzero(acc.flips).tolist()
    ]
    differs = bool(
        distance > threshold or flips or any(w["max_difference"] > VALUE_TOLERANCE for w in weights + values)
    )
    return {
        "max_distance": distance,
        "max_distance_rel": distance / size,
        "max_angle_deg": float(np.degrees(acc.angle.max(initial=0.0))),
        "differs": differs,
        "worst": worst,
        "first_over": float(over[above[0], 0]) if len(above) else None,
        "nodes": table,
        "vertices": meshes[0] if meshes else None,
        "meshes": meshes,
        "weights": sorted(weights, key=lambda e: -e["max_difference"]),
        "pointers": values,
        "visibility": flips,
        "over_time": over.tolist(),
        "structure": {
            "morph_targets": [
                f"{a.nodes.names[i]}: {na} in A, {nb} in B"
                for (i, _), (na, nb) in acc.target_counts.items()
                if na != nb
            ],
            "pointers_a": sorted(acc.pointers_a - acc.pointers_b),
            "pointers_b": sorted(acc.pointers_b - acc.pointers_a),
        },
    }
