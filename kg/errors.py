"""The `kg.errors` hierarchy. Messages name the file, the line or record, and the fix."""
from __future__ import annotations


class KgError(Exception):
    """Base of every error kg raises on purpose; the CLI prints these without a traceback."""


class UsageError(KgError):
    """The command or call was given something it cannot use (bad option, unknown name)."""


class ArgumentError(KgError, ValueError):
    """A function or command was given a value it cannot use (bad option, unknown name)."""


class InputError(KgError):
    """An input file cannot be read at all (missing, empty, not UTF-8, unknown format)."""


class RecordError(InputError):
    """One record of an input is malformed. Carries `file` and `line` for `file:line: message`."""

    def __init__(self, file: str, line: int, message: str) -> None:
        self.file = file
        self.line = line
        self.message = message
        super().__init__(f"{file}:{line}: {message}")


class QueryError(KgError):
    """A SPARQL query is unknown, malformed or failed; the message gives the position if known."""


class StoreError(KgError):
    """A remote SPARQL store is unreachable or refused a request."""
