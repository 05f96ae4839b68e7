"""What every layer stands on and nothing in animview sits below: the error types that carry a file and a JSON
pointer to the CLI's one-line messages (``errors``), the quaternion and matrix conventions with pyrr kept behind
one door (``math3d``), and where ``shaders/`` and ``assets/`` are in a checkout or an installed wheel
(``resources``). Only numpy, pyrr and the standard library are imported here."""
