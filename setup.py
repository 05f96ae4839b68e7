"""Package discovery that pyproject.toml cannot say alone: every ``viewer.*`` package is found, and the
top-level ``shaders/`` and ``assets/`` folders are installed as ``viewer.shaders`` / ``viewer.assets``
(``package-dir`` in pyproject.toml maps them), so an installed copy finds them beside its code."""

from setuptools import find_packages, setup

setup(packages=find_packages(include=["viewer", "viewer.*"]) + ["viewer.shaders", "viewer.assets"])
