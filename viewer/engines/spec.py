"""The glTF 2.0 specification itself (§Animations, Appendix C), as animview samples it: the reference every
engine is compared with. Its player does not loop: past the clip's end each channel holds its last key."""

from viewer.engines.engine import Engine

ENGINE = Engine(
    "spec",
    "glTF 2.0 specification",
    "2.0",
    "animview's sampling: the clip at the clock's time, each channel holding its first and last key beyond them",
)
