"""What the N-Triples, Turtle and JSON-LD writers share: a subject's text from a layout made once
per list of predicates, and one streamed pass that writes any of them at once.

A layout is the texts around a subject's terms, with a slot (None) for the subject and for each
object; the writers fill the slots with the terms' texts in their syntax (`kg.rdf.terms.Term`).
Subjects with the same predicates (most papers, authorships, mentions) share one layout.
"""
from __future__ import annotations

import contextlib
from collections.abc import Iterable
from operator import itemgetter

from kg._util.io import Output, open_output
from kg.rdf.terms import Statement, Term

_PREDICATE, _OBJECT = itemgetter(0), itemgetter(1)


class SubjectWriter:
    """The text of one syntax for each subject's statements (`text`), written between `head` and `tail`.

    A syntax sets `form` (which text of a `Term` it writes) and `layout`; by default the subject
    goes in the first slot (`subject`) and the objects in every other slot after it.
    """

    #: The index of this syntax's text in a `Term`.
    form = 0
    head = tail = ""

    def __init__(self) -> None:
        self._layouts: dict[tuple[Term, ...], list[str | None]] = {}
        self._form = itemgetter(self.form)

    def layout(self, predicates: tuple[Term, ...]) -> list[str | None]:
        """The texts of a subject with these predicates, with a slot (None) for each term to fill in."""
        raise NotImplementedError

    def subject(self, iri: str) -> str:
        """The text that goes in a subject's slot."""
        return f"<{iri}>"

    def fill(self, pieces: list[str | None], subject: str, objects: list[str]) -> None:
        """Put the subject and the objects' texts in the slots of `pieces` (a copy of the layout)."""
        pieces[0] = self.subject(subject)
        pieces[2::2] = objects

    def text(self, subject: str, predicates: tuple[Term, ...], objects: list[Term]) -> str:
        """The text of `subject` with its statements (in N-Triples order), given as their
        predicates and their objects: `write_subjects` splits each subject's statements once for
        all its writers."""
        layout = self._layouts.get(predicates)
        if layout is None:
            layout = self._layouts[predicates] = self.layout(predicates)
        pieces = layout.copy()
        self.fill(pieces, subject, list(map(self._form, objects)))
        return "".join(pieces)  # type: ignore[arg-type]


def runs(predicates: tuple[Term, ...]) -> list[tuple[Term, bool, bool]]:
    """Each predicate with whether it starts and whether it ends a run of equal predicates.

    Examples
    --------
    >>> [(p, first, last) for p, first, last in runs(("a", "b", "b"))]
    [('a', True, True), ('b', True, False), ('b', False, True)]
    """
    n = len(predicates)
    return [(p, i == 0 or predicates[i - 1] != p, i + 1 == n or predicates[i + 1] != p)
            for i, p in enumerate(predicates)]


def write_subjects(subjects: Iterable[tuple[str, list[Statement]]],
                   targets: Iterable[tuple[SubjectWriter, Output]]) -> None:
    """Write `subjects` (`kg.rdf.model.statements`) with each writer to its output, in one pass.

    Parameters
    ----------
    subjects : iterable of (str, list of Statement)
        Each subject IRI with its statements, in N-Triples order.
    targets : iterable of (SubjectWriter, path or binary file)
        The writers and where each writes (a path is written atomically).

    Examples
    --------
    >>> import io
    >>> from kg.rdf.ntriples import NTriplesWriter
    >>> from kg.rdf.terms import P, literal_term
    >>> out = io.BytesIO()
    >>> write_subjects([("urn:x", [(P.SCHEMA.name, literal_term("X"))])], [(NTriplesWriter(), out)])
    >>> out.getvalue()
    b'<urn:x> <https://schema.org/name> "X" .\\n'
    """
    with contextlib.ExitStack() as stack:
        handles = [(writer, stack.enter_context(open_output(output))) for writer, output in targets]
        for writer, handle in handles:
            handle.write(writer.head)
        for subject, made in subjects:
            predicates, objects = tuple(map(_PREDICATE, made)), list(map(_OBJECT, made))
            for writer, handle in handles:
                handle.write(writer.text(subject, predicates, objects))
        for writer, handle in handles:
            handle.write(writer.tail)
