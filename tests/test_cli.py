"""The command line's own promises: help with examples everywhere, --version, exit codes."""
from __future__ import annotations

import argparse
import gc
import json

import pytest

import kg
from kg.cli import main, make_parser


def _commands() -> list[str]:
    sub = next(a for a in make_parser()._actions if isinstance(a, argparse._SubParsersAction))
    return sorted(sub.choices)


def test_top_level_help_has_a_tour_and_the_exit_codes(capsys):
    with pytest.raises(SystemExit) as exc:
        main(["--help"])
    out = capsys.readouterr().out
    assert exc.value.code == 0
    assert "examples:" in out and "kg build" in out and "Exit codes: 0 ok, 1 problems" in out
    for command in _commands():
        assert command in out


@pytest.mark.parametrize("command", _commands())
def test_every_command_has_help_with_examples(command, capsys):
    with pytest.raises(SystemExit) as exc:
        main([command, "--help"])
    out = capsys.readouterr().out
    assert exc.value.code == 0
    assert "examples:" in out and f"kg {command}" in out


def test_version(capsys):
    with pytest.raises(SystemExit) as exc:
        main(["--version"])
    assert exc.value.code == 0 and capsys.readouterr().out.strip() == f"kg {kg.__version__}"


def test_unknown_command_and_bad_param_are_usage_errors(capsys):
    with pytest.raises(SystemExit) as exc:
        main(["frobnicate"])
    assert exc.value.code == 2
    assert main(["query", "coauthors", "--param", "no-equals-sign", "--data", "missing.nt"]) == 2
    assert "NAME=VALUE" in capsys.readouterr().err


def test_a_build_leaves_the_garbage_collector_as_it_found_it(tmp_path):
    """No process tricks: the command neither pauses nor freezes Python's collector."""
    assert main(["build", "-o", str(tmp_path / "b"), "--quiet"]) == 0
    assert (tmp_path / "b" / "report.json").is_file()
    assert gc.isenabled() and gc.get_freeze_count() == 0


@pytest.mark.parametrize("command", ["papers", "keywords", "analyze"])
def test_every_reading_command_defaults_to_the_embedded_sample(command, capsys):
    assert main([command, "--json", "--quiet"]) == 0
    out = capsys.readouterr().out
    assert out.strip(), f"kg {command} printed nothing"
    if command != "analyze":
        assert len(json.loads(out)) == 20


def test_analyze_names_its_folder_once(tmp_path, capsys):
    assert main(["analyze", "-o", f"{tmp_path}/", "--json"]) == 0
    err = capsys.readouterr().err
    assert f"files to {tmp_path}/:" in err and "//" not in err


def test_a_system_error_is_one_line_and_exit_1_not_a_traceback(tmp_path, capsys):
    """A folder that cannot be made (here under a plain file; a full disk alike) is named, not dumped."""
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    assert main(["build", "-q", "-o", str(blocker / "out")]) == 1
    err = capsys.readouterr().err
    assert err.startswith("kg: error: ") and str(blocker) in err and "Traceback" not in err
    assert blocker.read_text() == "not a folder"
