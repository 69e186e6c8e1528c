"""Left for scoring/writes/sheetcsv.py only (another part of issue 27 owns it), until its import
points at writes/import_problems.py: the interchange format is read in writes/import_checks.py
and writes/imports.py, written in reads/export.py. Remove this module at the merge."""

from __future__ import annotations

from scoring.writes.import_problems import ImportProblem

__all__ = ["ImportProblem"]
