"""Codes and packed layouts shared by the kernels and the plans that build their tables (no numba here,
so plans and poses import it).

A frame takes few arguments because numba pays ~60 ns per argument on every call: a plan's tables travel
as one float, one int and one bool buffer, and a pose's state as one float and one bool buffer. The int
buffer starts with a header of sizes and offsets (``H_*``); ``state_layout`` places a pose's arrays.
"""

# What a channel writes (column 3 of a plan's ``ch`` table).
T_TRANSLATION, T_ROTATION, T_SCALE, T_WEIGHTS, T_VISIBLE, T_OTHER = range(6)

# Header of a frame plan's int buffer: sizes (channels, value width, nodes, weights, joints, skins), then
# offsets of the float tables, then of the int tables. (The clip table's coefficients, regions and key
# times, the largest arrays, are passed as they are, never copied.)
H_C, H_W, H_N, H_NW, H_J, H_S = range(6)
H_NORM, H_REST_TRS, H_REST_W, H_REST_M, H_IBM, H_VALUES = range(6, 12)
H_CH, H_LAST, H_ND, H_JT = range(12, 16)
HEADER = 16


def state_layout(nodes: int, weights: int, joints: int) -> dict[str, tuple[int, tuple[int, ...]]]:
    """Offsets and shapes of a pose's float state: TRS rows [t(3), r(4), s(3)], morph weights end to end,
    local, world and joint matrices."""
    shapes = {
        "trs": (nodes, 10),
        "weights": (weights,),
        "local": (nodes, 4, 4),
        "world": (nodes, 4, 4),
        "joints": (joints, 4, 4),
    }
    out, at = {}, 0
    for name, shape in shapes.items():
        out[name] = (at, shape)
        size = 1
        for d in shape:
            size *= d
        at += size
    return out


def flag_layout(nodes: int) -> dict[str, int]:
    """Offsets in a pose's bool state: own visibility, inherited visibility, drawable, then per skin ok."""
    return {"own_visible": 0, "visible": nodes, "drawable": 2 * nodes, "skin_ok": 3 * nodes}
