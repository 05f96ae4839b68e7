"""A scene at one time: ``pose`` is the only writer of node state (locals → world matrices, joints, morph weights,
visibility, animated properties), ``hierarchy`` walks the node tree with whole-array steps, and ``bounds`` with
``skin_bounds`` answer what is drawn and how big it is, for the camera and the grid. Pure numpy, plus the compiled
frame of ``fast`` once its kernels are loaded."""
