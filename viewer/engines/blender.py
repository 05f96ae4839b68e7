"""Blender's glTF importer (add-on 5.3.18, ``KhronosGroup/glTF-Blender-IO@7551a35b``) and Blender's F-curves
(``blender/blender`` ``curve.cc`` and ``fcurve.cc`` as stored at a68d39e9). Keys become F-curve keys at frame
t·fps, not rounded; CUBICSPLINE becomes Bézier with AUTO handles — the file's tangents discarded, the curve
Blender's smoothest through the values (``rewrite.auto_handles``) —, rotations four component F-curves
(sign-continuous, renormalized when the matrix is built), shape-key weights clamped to their slider range. The
first animation plays as the active action at frame t·fps, held outside its keys (``docs/engines_sources.md``
§8). The frame rate cancels out: the handles depend only on ratios of key spans."""

from viewer.engines.engine import Behaviour, Engine

IMPORT = "KhronosGroup/glTF-Blender-IO@7551a35b addons/io_scene_gltf2/blender/imp/"
CURVE = "blender/blender@a68d39e9 source/blender/blenkernel/intern/"

ENGINE = Engine(
    "blender",
    "Blender glTF importer",
    "add-on 5.3.18 (7551a35b), F-curves of blender a68d39e9, default preferences",
    "the active action (the file's first animation) at scene frame t·fps: no loop, constant extrapolation",
    (
        Behaviour(
            "cubic-auto-handles",
            IMPORT + "animation_utils.py:make_fcurve; " + CURVE + "curve.cc:bezier_handle_calc_smooth_fcurve",
            "CUBICSPLINE tangents discarded: Bézier through the values with AUTO handles, Continuous Acceleration "
            "smoothing (C2 inside, flat at the first and last key)",
        ),
        Behaviour(
            "rotation-lerp",
            IMPORT + "animation_node.py:do_channel",
            "rotations as four component F-curves after sign flips: LINEAR is a component lerp, renormalized",
        ),
        Behaviour(
            "weights-clamped",
            IMPORT + "animation_weight.py:anim",
            "shape-key values clamped to the slider range [0, 1], widened only to include the first key",
        ),
    ),
    cubic_tangents="auto-handles",
    lerp_above=-2.0,
    raw_keys="acos",
    weights_clamped=True,
)
