"""Writes: every change to the stored data goes through here, one transaction each.

- ``services``: deals, evenings, tables, seasons and series, checked by the engine, audited;
- ``seating``: who sits where in a drawn or seeded series;
- ``import_checks``, ``imports``: import in the interchange format (deal-record.md), checked
  in full, then written in one transaction (the export is ``scoring.reads.export``);
  ``import_problems``: the words and problems of every import;
- ``backup``: a consistent snapshot of the database and its restore;
"""
