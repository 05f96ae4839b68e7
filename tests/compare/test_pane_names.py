"""Pane labels tell two files apart: an original and its optimized copy are often both ``Fox.glb``."""

from __future__ import annotations

from viewer.compare.against import file_names


def test_two_files_of_one_name_get_the_folders_that_tell_them_apart(tmp_path):
    assert file_names(tmp_path / "models/Fox/Fox.glb", tmp_path / "pack/Fox.glb") == ("Fox/Fox.glb", "pack/Fox.glb")
    assert file_names(tmp_path / "a/x/Fox.glb", tmp_path / "b/x/Fox.glb") == ("a/x/Fox.glb", "b/x/Fox.glb")


def test_different_names_and_one_file_keep_their_names(tmp_path):
    assert file_names(tmp_path / "Fox.glb", tmp_path / "Fox_packed.glb") == ("Fox.glb", "Fox_packed.glb")
    assert file_names(tmp_path / "Fox.glb", tmp_path / "sub/../Fox.glb") == ("Fox.glb", "Fox.glb")
