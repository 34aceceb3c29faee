"""Opening a data folder for a user: the library with every check run.

The one place that puts the loader and the checks of the higher layers together.
:meth:`rulesbook.library.Library.load` reads and checks the files of the library
itself and runs the :class:`~rulesbook.library.LibraryCheck` functions it is
given; it cannot import the rulings or the ballots (they import it). This module
sits above all three and passes :func:`library_checks`: everything that opens a
folder for a user (the command line, the app, the rules folder's sync, the
proposal editor, the tests' fixtures) calls :func:`load_library` or
:func:`validate_folder` from here, through ``from rulesbook import load_library``
or directly.

A new kind of file with its own checks adds its ``check_library`` to
:func:`library_checks`, and only there.
"""
from __future__ import annotations

import os

from .datapath import chosen_data_dir
from .errors import LibraryError, Problem
from .library import Library, LibraryCheck

__all__ = ["library_checks", "load_library", "record_problems", "validate_folder"]


def library_checks() -> tuple[LibraryCheck, ...]:
    """The checks across files of the rulings (incidents, ``rulings:`` of rules and
    proposals, case files) and of the ballots (ballots, member ballots, the seal
    chain of the editions), in the order they report. What a member could forge in
    a record that is otherwise well formed (a proposal not its author's, a text not
    the one voted on or adopted) is :func:`record_problems`: reported, refused by
    sync and serve, but the folder still opens."""
    # Imported here, not at the top: the command line imports this module for every
    # command, and the rulings catalogue costs a few tenths of a second to import.
    from .ballots.checks import check_library as check_ballots
    from .rulings.checks import check_library as check_rulings

    return (check_rulings, check_ballots)


def load_library(path: str | os.PathLike[str] | None = None) -> Library:
    """Load and validate a data folder with every check: ``path``, else
    ``$RULESBOOK_DATA``, else the user's rules folder. The folder must exist:
    nothing is created here (:func:`rulesbook.datafolder.resolve_data_dir` makes the
    user's rules folder on first use and finishes an interrupted sync).

    Raises :class:`LibraryError` listing every problem when the folder is not clean.
    """
    return Library.load(chosen_data_dir(path).folder, library_checks())


def validate_folder(path: str | os.PathLike[str] | None = None) -> list[Problem]:
    """Every problem in a data folder, with every check (empty when it is clean): the
    problems that stop it loading, else the texts that are not the ones a ballot or an
    adopted edition recorded (:mod:`rulesbook.ballots.texts`: the folder loads, so the
    app can show them, but it does not validate)."""
    try:
        library = load_library(path)
    except LibraryError as exc:  # the proposals' authors too: they need no loaded library
        from .proposing.checks import check_records, folder_problems

        # on the documents the loader read (members.yaml's registry built once: 1,001
        # signatures of a committee); the folder read again when one of the files they
        # come from did not read or has a problem of its own (it may be left out)
        own = any(p.file == "members.yaml" or p.file.endswith("rulebook.yaml")
                  for p in exc.problems)
        records = (check_records(exc.documents) if exc.documents is not None and not own
                   else folder_problems(chosen_data_dir(path).folder))
        return sorted(exc.problems + records)
    return record_problems(library)


def record_problems(library: Library) -> list[Problem]:
    """The records of a loaded folder that are not what their signers signed: the
    proposals that are not their author's (:mod:`rulesbook.proposing.checks`) and the
    texts that are not the ones a ballot or an adopted edition recorded
    (:mod:`rulesbook.ballots.texts`). ``validate`` reports them, ``sync`` and
    ``serve`` refuse them; the folder still loads, so the app can show them."""
    from .ballots.texts import text_problems
    from .proposing.checks import check_records, folder_problems

    # the documents the library was loaded from (each read once, its registry built
    # once); a library made by hand has none, and its folder is read
    records = (check_records(library.documents) if library.documents
               else folder_problems(library.root))
    return sorted(records + text_problems(library))
