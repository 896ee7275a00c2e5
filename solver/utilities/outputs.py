"""A batch command's output folder: what it writes there, and a refusal of any folder that holds more.

Game-neutral (Hit!'s tables and tournaments and Hit the Deck's tournaments share it). :class:`Output`
says what a command writes into its folder, and :meth:`Output.check` refuses a folder that holds anything
else, so that no file of somebody else's is overwritten; :func:`atomic` writes a file through a temporary
renamed into place.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

__all__ = ["BUILD", "HEADINGS", "Output", "OutputFolderError", "atomic"]

#: The first line of the README.md each batch command writes into its folder; a folder with one of these
#: READMEs is one of theirs (``data/`` holds the tables and, in folders of their own, the others).
HEADINGS = ("# Decision tables", "# Endgame table", "# Tournament results", "# Hit the Deck tournaments",
            "# The chance-to-win evaluator")
#: Where a run keeps its chunks, inside its folder.
BUILD = ".build"


class OutputFolderError(ValueError):
    """A folder named for a batch command's output that it must not write into (one line saying why)."""


@dataclass(frozen=True)
class Output:
    """What a batch command writes into its folder, to recognise a folder as its own.

    ``files`` are the names it writes (``pattern``, a regular expression, for names that vary), each
    through a hidden temporary ``.NAME.tmp``; ``heading`` is the first line of the README.md it writes
    (None: it writes none); ``chunks``: it keeps its chunks in a ``.build`` folder. Folders of the other
    batch commands (a README.md beginning with one of :data:`HEADINGS`) may sit inside it, left alone.

    >>> import tempfile
    >>> out = Output("notes", frozenset({"a.csv"}), "# Tournament results")
    >>> folder = Path(tempfile.mkdtemp())
    >>> out.check(str(folder)) == folder
    True
    >>> _ = (folder / "mine.txt").write_text("x")
    >>> out.check(str(folder))  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    solver.utilities.outputs.OutputFolderError: notes ...: it holds mine.txt, which this command does not write; ...
    """

    option: str  # how the command line names the folder, for messages: "--out"
    files: frozenset[str] = frozenset()
    heading: str | None = None
    chunks: bool = False
    pattern: str = ""

    def __post_init__(self) -> None:
        assert self.heading is None or self.heading in HEADINGS, self.heading

    def _own_file(self, name: str) -> bool:
        return name in self.files or bool(self.pattern and re.fullmatch(self.pattern, name))

    def _foreign(self, entry: Path) -> str | None:
        """Why ``entry`` of the folder is not this command's output (None: it is)."""
        name = entry.name
        if name.startswith(".") and name.endswith(".tmp"):  # a temporary a killed run left
            inner = name[1:-4]
            if self._own_file(inner) or (self.heading is not None and inner == "README.md"):
                return None
        if entry.is_dir():
            if self.chunks and name == BUILD:
                return None
            if _heading(entry / "README.md") in HEADINGS:
                return None  # another batch command's folder (data/endgames/ in data/): never touched
            return f"{name}/"
        if self.heading is not None and name == "README.md":
            first = _heading(entry)
            return None if first == self.heading else f"README.md (it begins {first[:40]!r}, not {self.heading!r})"
        return None if self._own_file(name) else name

    def check(self, folder: str | Path) -> Path:
        """``folder`` as a path, if the command may write there: new, empty, or holding only its own output.

        Anything else (an empty name, a file, a folder holding other files) is an :class:`OutputFolderError`.
        """
        if isinstance(folder, str) and not folder.strip():
            raise OutputFolderError(f"{self.option}: the folder's name is empty; name the folder to write to")
        path = Path(folder)
        shown = f"{self.option} {folder}"
        if path.exists() and not path.is_dir():
            raise OutputFolderError(f"{shown} is a file, not a folder")
        if path.is_dir():
            try:
                foreign = sorted(f for f in map(self._foreign, path.iterdir()) if f is not None)
            except OSError as e:
                raise OutputFolderError(f"{shown}: cannot read the folder: {e.strerror or e}") from None
            if foreign:
                named, rest = foreign[:3], foreign[3:]
                listed = ", ".join(named) + (f" and {len(rest)} more" if rest else "")
                raise OutputFolderError(f"{shown}: it holds {listed}, which this command does not write; name "
                                        "a new or empty folder, or one this command wrote")
        return path


def _heading(readme: Path) -> str:
    """The first line of a README (empty when there is none or it cannot be read)."""
    try:
        with readme.open("rb") as f:
            return f.readline(200).decode("utf-8", errors="replace").rstrip("\r\n")
    except OSError:
        return ""


def atomic(path: Path, write: Callable[[Path], object]) -> None:
    """Write ``path`` through a hidden temporary file renamed into place."""
    tmp = path.with_name(f".{path.name}.tmp")
    write(tmp)
    os.replace(tmp, path)
