"""A build publishes as a whole: staged beside the target and switched in; a killed build leaves the
old folder, a later build cleans up after it, and no worker outlives the build."""
from __future__ import annotations

import hashlib
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from kg._util.publish import MANIFEST, remove_stale, staged

SHARED = Path(__file__).resolve().parents[2] / "shared" / "data"
IJCAI = SHARED / "ijcai2024.jsonl"


def test_a_staged_folder_replaces_the_old_build_and_keeps_the_users_files(tmp_path):
    out = tmp_path / "exports"
    with staged(out) as folder:
        (folder / "graph.nt").write_text("old")
        (folder / "dropped.csv").write_text("only in the old build")
    (out / ".gitkeep").write_text("")
    (out / "notes").mkdir()
    (out / "notes" / "mine.md").write_text("the user's")
    with staged(out) as folder:
        assert folder.parent == out.parent and folder != out
        assert (out / "graph.nt").read_text() == "old", "the old build stays until the switch"
        (folder / "graph.nt").write_text("new")
    assert sorted(p.name for p in out.iterdir()) == sorted([".gitkeep", "notes", "graph.nt", MANIFEST])
    assert (out / "graph.nt").read_text() == "new" and (out / "notes" / "mine.md").read_text() == "the user's"
    assert [p.name for p in tmp_path.iterdir()] == ["exports"], "no staging folder left beside it"


def test_a_failed_build_leaves_the_old_folder_as_it_was(tmp_path):
    out = tmp_path / "exports"
    with staged(out) as folder:
        (folder / "graph.nt").write_text("old")
    with pytest.raises(RuntimeError), staged(out) as folder:
        (folder / "graph.nt").write_text("half")
        raise RuntimeError("the build failed")
    assert (out / "graph.nt").read_text() == "old"
    assert [p.name for p in tmp_path.iterdir()] == ["exports"]


def test_staging_folders_of_dead_builds_are_removed_and_live_ones_kept(tmp_path):
    out = tmp_path / "exports"
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True,
                          text=True, check=True).stdout.strip()
    (tmp_path / f".exports.kg-staging-{dead}").mkdir()
    (tmp_path / f".exports.kg-staging-old-{dead}").mkdir()
    live = tmp_path / f".exports.kg-staging-{os.getppid()}"
    live.mkdir()
    removed = remove_stale(out)
    assert sorted(p.name for p in removed) == sorted([f".exports.kg-staging-{dead}", f".exports.kg-staging-old-{dead}"])
    assert live.is_dir()


def _digest(folder: Path) -> dict[str, str]:
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(folder.iterdir()) if p.is_file()}


def _session_processes(sid: int) -> list[int]:
    """Live processes of session `sid` (field 6 of /proc/PID/stat), zombies excepted."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rpartition(")")[2].split()
        except OSError:
            continue
        if int(fields[3]) == sid and fields[0] != "Z":
            found.append(int(stat.parent.name))
    return found


def _build(out: Path, *extra: str) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "kg", "build", str(IJCAI), "-o", str(out), "--quiet", *extra],
                            start_new_session=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


@pytest.mark.slow
@pytest.mark.skipif(not IJCAI.is_file(), reason="../shared/data/ijcai2024.jsonl is not beside the repo")
@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs /proc to find surviving workers")
def test_a_killed_build_leaves_the_old_or_the_new_build_and_no_worker(tmp_path):
    old_ref, new_ref = tmp_path / "old", tmp_path / "new"
    assert _build(old_ref, "--counting", "fractional").wait(timeout=300) == 0
    assert _build(new_ref).wait(timeout=300) == 0
    old, new = _digest(old_ref), _digest(new_ref)
    assert old != new
    out = tmp_path / "exports"
    for delay, workers in ((0.5, "1"), (2.0, "2"), (4.0, "1"), (6.0, "2"), (8.0, "2"), (10.0, "1")):
        subprocess.run(["cp", "-a", str(old_ref), str(out)], check=True)
        build = _build(out, "--workers", workers)
        time.sleep(delay)
        os.kill(build.pid, signal.SIGKILL)
        build.wait()
        deadline = time.monotonic() + 10
        while _session_processes(build.pid) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert _session_processes(build.pid) == [], f"workers outlived a build killed after {delay} s"
        assert _digest(out) in (old, new), f"a build killed after {delay} s left a mix"
        subprocess.run(["rm", "-rf", str(out)], check=True)
    subprocess.run(["cp", "-a", str(old_ref), str(out)], check=True)
    build = _build(out, "--workers", "2")
    time.sleep(3)
    os.kill(build.pid, signal.SIGKILL)
    build.wait()
    assert _build(out).wait(timeout=300) == 0, "the next build after a kill"
    assert _digest(out) == new
    assert not [p for p in tmp_path.iterdir() if ".kg-staging-" in p.name], "stale staging folders removed"
    assert not list(out.glob(".*.tmp"))
