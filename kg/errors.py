"""The `kg.errors` hierarchy. Messages name the file, the line or record, and the fix.

Library code raises these; only the command line (`kg.cli`) turns them into exit codes: 2 for an
`ArgumentError`, 1 for any other `KgError`.
"""
from __future__ import annotations


class KgError(Exception):
    """Base of every error kg raises on purpose; the CLI prints these without a traceback."""


class ArgumentError(KgError, ValueError):
    """A function or command was given a value it cannot use (bad option, unknown name)."""


class InputError(KgError, ValueError):
    """An input file cannot be used at all (missing, empty, not UTF-8, unknown format)."""


class RecordError(InputError):
    """One record of an input is malformed. Carries `file` and `line` for `file:line: message`."""

    def __init__(self, file: str, line: int, message: str) -> None:
        self.file = file
        self.line = line
        self.message = message
        super().__init__(f"{file}:{line}: {message}")

    def __reduce__(self) -> tuple:
        """Pickled with its fields (any subclass, whatever its constructor): problems found by a
        Dask worker travel to the client (`kg.engine`)."""
        return _restored, (type(self), self.args, self.__dict__)


def _restored(cls: type, args: tuple, state: dict) -> RecordError:
    error = cls.__new__(cls, *args)
    error.args = args
    error.__dict__.update(state)
    return error


class QueryError(KgError, ValueError):
    """A SPARQL query is unknown, malformed or failed; the message gives the position if known."""


class StoreError(KgError, OSError):
    """A SPARQL store (on disk or remote) cannot be opened or refused a request."""
