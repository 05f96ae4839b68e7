"""pygfx 0.17.0 with its glTF loader and AnimationMixer playing the clip's action at its defaults (infinite
repetitions). It nlerps rotation keys closer than dot 0.99, and a clip of duration 0 never plays. Its cubic
channels outside their key range and its CUBICSPLINE morph weights fail (errors in pygfx), which no emulation
reproduces (``docs/engines_sources.md`` §3)."""

from viewer.engines.engine import Behaviour, Engine

ENGINE = Engine(
    "pygfx",
    "pygfx",
    "0.17.0",
    "AnimationMixer.clip_action(clip).play(): repetitions inf; mixer.set_time(t)",
    (
        Behaviour(
            "end-of-loop",
            "pygfx/pygfx@ed8e491 pygfx/animation/animation_action.py:_update_time",
            "time >= duration wraps to time % duration: at t == duration the first pose shows",
        ),
        Behaviour(
            "rotation-lerp",
            "pygfx/pygfx@ed8e491 pygfx/animation/interpolant.py:QuaternionLinearInterpolant._interpolate",
            "LINEAR rotations lerp and normalize where the keys' dot product is > 0.99, slerp below",
        ),
        Behaviour(
            "zero-length",
            "pygfx/pygfx@ed8e491 pygfx/animation/animation_action.py:_update_time",
            "a clip of duration 0 disables its action: the nodes keep their rest pose",
        ),
    ),
    end="first",
    raw_keys="acos",
    lerp_above=0.99,
    zero_length="rest",
)
