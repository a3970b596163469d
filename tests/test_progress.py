"""Progress bars: drawn on a terminal for reading, extraction and writing; silent when piped or quiet."""
from __future__ import annotations

import io
import subprocess
import sys

import kg
from kg._util.progress import progress


class Terminal(io.StringIO):
    """A stderr that says it is a terminal, so tqdm draws to it."""

    def isatty(self) -> bool:
        return True


def _terminal(monkeypatch) -> Terminal:
    """Make stderr a terminal. Called in the test body: pytest's capture resets sys.stderr after fixtures."""
    stream = Terminal()
    monkeypatch.setattr(sys, "stderr", stream)
    return stream


def test_progress_yields_every_item_and_names_the_current_one(monkeypatch):
    terminal = _terminal(monkeypatch)
    assert list(progress(["a", "b"], "steps", unit="step", describe=str.upper)) == ["a", "b"]
    drawn = terminal.getvalue()
    assert "steps" in drawn and "/2 " in drawn and "step/s, B" in drawn


def test_progress_is_silent_when_quiet_or_not_a_terminal(monkeypatch):
    terminal = _terminal(monkeypatch)
    assert list(progress(range(3), "quiet", quiet=True)) == [0, 1, 2]
    assert terminal.getvalue() == ""
    monkeypatch.setattr(sys, "stderr", io.StringIO())
    assert list(progress(range(3), "piped")) == [0, 1, 2]
    assert sys.stderr.getvalue() == ""


def test_build_shows_reading_extraction_and_writing_on_a_terminal(monkeypatch, tmp_path):
    terminal = _terminal(monkeypatch)
    kg.build(None, tmp_path)
    drawn = terminal.getvalue()
    # extraction keeps pace with reading, so both bars show at once, counting (no total known yet)
    for stage in ("reading sample_listing.txt", "record", "extracting", "paper", "writing", "RDF", "analysis", "views"):
        assert stage in drawn, stage


def test_build_quiet_draws_nothing(monkeypatch, tmp_path):
    terminal = _terminal(monkeypatch)
    kg.build(None, tmp_path, quiet=True)
    assert terminal.getvalue() == ""


def test_cli_piped_stderr_has_the_summary_and_no_bars(tmp_path):
    done = subprocess.run([sys.executable, "-m", "kg", "build", "-o", str(tmp_path)], capture_output=True,
                          text=True, check=True)
    assert "read 20 papers" in done.stdout
    assert "\r" not in done.stderr and "%|" not in done.stderr
