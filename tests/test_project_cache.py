"""A checked project is kept between runs, and never used once anything it depends on changed."""

from __future__ import annotations

import hashlib
import hmac
import os
import pickle
import stat
from pathlib import Path

import pytest

from generator.cli import main
from generator.project import Project, open_project
from generator.project import cache as project_cache

from .content.test_broken_corpus import VALID, make_project


def test_a_checked_project_is_kept_and_used_again(tmp_path: Path) -> None:
    root = make_project(tmp_path / "p")
    assert project_cache.load(root) is None
    first = open_project(root)
    kept = project_cache.load(root)
    assert isinstance(kept, Project) and kept == first
    assert open_project(root) == first


def test_a_change_of_the_same_size_at_once_is_seen(tmp_path: Path) -> None:
    root = make_project(tmp_path / "p")
    assert open_project(root).content.lessons[0].title == "A lesson"
    lesson = root / "content" / "lessons" / "broken.yaml"
    lesson.write_text(lesson.read_text().replace("title: A lesson", "title: B lesson"))
    assert project_cache.load(root) is None
    assert open_project(root).content.lessons[0].title == "B lesson"


@pytest.mark.parametrize("change", ["add a recipe", "remove the recipe"])
def test_adding_or_removing_a_file_is_seen(tmp_path: Path, change: str) -> None:
    root = make_project(tmp_path / "p")
    open_project(root)
    if change == "add a recipe":
        (root / "decks" / "more.yaml").write_text((VALID / "recipe.yaml").read_text())
    else:
        (root / "decks" / "deck.yaml").unlink()
    assert project_cache.load(root) is None


def test_a_broken_project_is_never_kept_so_its_errors_show_every_time(tmp_path: Path, capsys) -> None:
    root = make_project(tmp_path / "p", lesson=(VALID / "lesson.yaml").read_text() + "unknown: 1\n")
    for _ in range(2):
        assert main(["--project", str(root), "check"]) == 2
        assert "unknown key" in capsys.readouterr().err
    assert project_cache.load(root) is None


def test_card_rule_warnings_are_kept_with_the_project(tmp_path: Path, capsys) -> None:
    lesson = (VALID / "lesson.yaml").read_text().replace("back: Back.", "back: " + "Long back. " * 20)
    root = make_project(tmp_path / "p", lesson=lesson)
    for _ in range(2):  # checked, then taken from the cache
        assert main(["--project", str(root), "check"]) == 0
        assert "warning: " in capsys.readouterr().err


class _Plant:
    """Unpickling this creates the file ``path``: proof that code ran."""

    def __init__(self, path: Path):
        self.path = path

    def __reduce__(self):
        return (Path.write_text, (self.path, "code ran"))


@pytest.fixture
def own_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    return tmp_path / "cache" / "paperdeck"


def _planted(root: Path, proof: Path) -> bytes:
    return pickle.dumps((project_cache.key(root), _Plant(proof)))


@pytest.mark.parametrize("signed", ["unsigned", "signed with another key", "an old cache file"])
def test_a_planted_pickle_never_runs(tmp_path: Path, own_cache: Path, capsys, signed: str) -> None:
    root = make_project(tmp_path / "p")
    assert main(["--project", str(root), "list"]) == 0  # the cache and its key exist now
    cache_file = project_cache._path(root)
    proof = tmp_path / "proof"
    payload = _planted(root, proof)
    if signed == "unsigned":
        cache_file.write_bytes(project_cache.MAGIC + b"\0" * 32 + payload)
    elif signed == "signed with another key":
        cache_file.write_bytes(project_cache.MAGIC + hmac.new(b"k" * 32, payload, hashlib.sha256).digest()
                               + payload)
    else:
        cache_file.write_bytes(payload)
    assert main(["--project", str(root), "list"]) == 0
    assert "A lesson" in capsys.readouterr().out
    assert not proof.exists()
    assert project_cache.load(root) is not None, "the cache was written again, signed"


def test_the_key_is_private_and_a_key_others_can_write_is_not_used(tmp_path: Path, own_cache: Path) -> None:
    root = make_project(tmp_path / "p")
    open_project(root)
    key_file = own_cache / "cache.key"
    assert stat.S_IMODE(key_file.stat().st_mode) == 0o600
    assert project_cache.load(root) is not None
    # Someone who could write the folder put in a key they know: the cache is not used.
    key_file.chmod(0o666)
    proof = tmp_path / "proof"
    payload = _planted(root, proof)
    project_cache._path(root).write_bytes(project_cache.MAGIC + hmac.new(key_file.read_bytes(), payload,
                                                                         hashlib.sha256).digest() + payload)
    assert project_cache.load(root) is None
    open_project(root)
    assert not proof.exists()
    key_file.unlink()
    key_file.symlink_to(tmp_path / "elsewhere.key")
    (tmp_path / "elsewhere.key").write_bytes(b"k" * 32)
    (tmp_path / "elsewhere.key").chmod(0o600)
    assert project_cache.load(root) is None


def test_symbolic_link_loops_under_content_end(tmp_path: Path) -> None:
    """Two loops used to make the cache's walk of content/ run without end."""
    root = make_project(tmp_path / "p")
    (root / "content" / "lessons" / "again").symlink_to(root / "content")
    (root / "content" / "more").mkdir()
    (root / "content" / "more" / "up").symlink_to(root / "content")
    (root / "content" / "more" / "pipe").symlink_to("/dev/zero")
    (root / "content" / "more" / "gone").symlink_to(root / "nowhere")
    found = sorted(p.name for p in project_cache._files(root / "content"))
    assert found == ["broken.yaml", "gone", "paper.yaml", "pipe"]  # each folder walked once
    assert project_cache.key(root)  # the pipe is not read, the dangling link not followed
    assert main(["--project", str(root), "check"]) == 0


def test_a_pipe_planted_as_the_cache_file_does_not_hang(tmp_path: Path, own_cache: Path, capsys) -> None:
    root = make_project(tmp_path / "p")
    assert main(["--project", str(root), "list"]) == 0
    cache_file = project_cache._path(root)
    cache_file.unlink()
    os.mkfifo(cache_file)
    assert project_cache.load(root) is None
    assert main(["--project", str(root), "list"]) == 0  # checked again; the pipe is replaced
    assert project_cache.load(root) is not None
