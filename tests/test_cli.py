"""The command line's own promises: help with examples everywhere, --version, exit codes."""
from __future__ import annotations

import argparse
import gc
import subprocess
import sys

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


#: Runs `main(argv, exiting=...)` in a fresh interpreter and prints its code and whether the cyclic
#: garbage collector is on afterwards (process-wide state, so not in the test process).
COLLECTOR_AFTER = """
import gc, sys
from kg.cli import main
code = main(sys.argv[2:], exiting=sys.argv[1] == "exiting")
print(code, gc.isenabled())
"""


def _collector_after(mode: str, *argv: str) -> str:
    done = subprocess.run([sys.executable, "-c", COLLECTOR_AFTER, mode, *argv], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    return done.stdout.strip().splitlines()[-1]


def test_an_exiting_build_leaves_the_collector_paused_other_commands_and_callers_do_not(tmp_path):
    assert _collector_after("exiting", "build", "-o", str(tmp_path / "a"), "--quiet") == "0 False"
    assert (tmp_path / "a" / "report.json").is_file()
    assert _collector_after("exiting", "queries") == "0 True"
    assert main(["build", "-o", str(tmp_path / "b"), "--quiet"]) == 0
    assert gc.isenabled(), "main() called as a function (the API, tests) turns the collector back on"
