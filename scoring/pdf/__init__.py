"""The printed evening: a table's score sheet, the evening's settlement and its summary as
A4 PDFs (WeasyPrint).

- ``grid``: the score sheet as a monospaced character grid, paginated here (fast: one text
  line per deal instead of a box per cell);
- ``documents``: each document's HTML from the selectors, its cache key and the cache;
- ``weasy``: WeasyPrint set up once per process, timed as layout and PDF writing;
- ``print.css``: the stylesheet every document shares.
"""
