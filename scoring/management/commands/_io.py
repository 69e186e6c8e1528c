"""Shared by the import and export commands: reading a file or standard input, writing
UTF-8 whatever the terminal's locale, and turning an import problem into a clean error."""

from __future__ import annotations

import functools
import getpass
import sys
from pathlib import Path
from typing import Any

from django.core.management.base import CommandError, OutputWrapper

from scoring.writes.import_checks import loads
from scoring.writes.import_problems import ImportProblem
from scoring.writes.services import Actor

STDIN = "-"


def read_json(source: str) -> Any:
    if source == STDIN:
        raw = sys.stdin.buffer.read()
    else:
        try:
            raw = Path(source).read_bytes()
        except OSError as err:
            raise CommandError(f"Cannot read {source}: {err.strerror or err}") from None
    try:
        return loads(raw)
    except ImportProblem as err:
        raise CommandError(f"{err} Nothing was imported.") from None


def importer(function: Any, command: str, source: str) -> Any:
    """``function`` with who runs the import (the command and the system user) and the file,
    for the audit log."""
    try:
        user = getpass.getuser()
    except (KeyError, OSError):
        user = "?"
    actor = Actor(None, f"{command} ({user})")
    name = "" if source == STDIN else Path(source).name
    return functools.partial(function, actor=actor, source=name)


def run_import(write: Any, document: Any) -> Any:
    """``write(document)`` with every failure a one-line error: no traceback, exit status 1.
    The import runs in one transaction, so after an error nothing has been written."""
    try:
        return write(document)
    except ImportProblem as err:
        raise CommandError(f"{err} Nothing was imported.") from None
    except Exception as err:  # a bug must still not print a traceback to a club's scorer
        raise CommandError(f"Internal error: {type(err).__name__}: {err}. "
                           "Nothing was imported.") from None


def use_utf8(stream: OutputWrapper) -> None:
    # JSON and CSV are written as UTF-8 even under a C or Latin-1 locale (test buffers, which
    # are StringIO, have no reconfigure).
    reconfigure = getattr(stream._out, "reconfigure", None)
    if callable(reconfigure):
        reconfigure(encoding="utf-8")


def write_text(stream: OutputWrapper, text: str, output: str | None) -> None:
    if output and output != STDIN:
        try:
            Path(output).write_text(text, encoding="utf-8")
        except OSError as err:
            raise CommandError(f"Cannot write {output}: {err.strerror or err}") from None
        return
    use_utf8(stream)
    stream.write(text, ending="")
