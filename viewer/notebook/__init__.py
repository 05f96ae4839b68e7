"""animview inside Jupyter: ``viewer.show(...)`` returns a ``Player`` widget whose 3D view is drawn by the same
headless renderer as the window and ``animview render``, streamed to the notebook as frames (jupyter_rfb), with
ipywidgets controls for time, clip, mode and compare panes, a Python API a cell can drive, and a self-contained
HTML fallback so a notebook exported with nbconvert still plays offline. Nothing here is imported by the rest of
the package: ``viewer.show`` reaches it through the ``animview.api`` entry point (pyproject.toml), and it needs
the ``notebook`` extra (``pip install 'animview[notebook]'``) only when a player is made.
"""
