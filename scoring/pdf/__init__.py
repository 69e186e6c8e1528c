"""The printed evening: a table's score sheet, the evening's settlement and its summary as
A4 PDFs (WeasyPrint), and the season standings. Printing imports reads and scoring/notation.py,
never the views or the template tags.

- ``grid``: the score sheet as a monospaced character grid, paginated here (fast: one text
  line per deal instead of a box per cell);
- ``documents``: each document's HTML from the reads (scoring/reads/), its cache key and the
  cache;
- ``standings``: the season table as an A4 landscape PDF;
- ``weasy``: WeasyPrint set up once per process, timed as layout and PDF writing;
- ``print.css``: the stylesheet every document shares.
"""
