"""Writes: every change to the stored data goes through here, one transaction each.

- ``services``: deals, evenings, tables, seasons and series, checked by the engine, audited;
- ``seating``: who sits where in a drawn or seeded series;
- ``interchange``: import and export in the interchange format (deal-record.md);
- ``backup``: a consistent snapshot of the database and its restore;
- ``demo``, ``demo_season``: realistic demo clubs, written through the services.
"""
