"""Reads: everything a page or a document shows, derived from the stored deals by the engine,
with a constant number of queries per page. Nothing here writes.

- ``sheet``: a table's score sheet (one source for HTML and PDF), the evening overview, the
  preview of a deal not yet saved, the audit log, the words of a deal's result;
- ``results``: each table's results, cached under the table's version;
- ``standings``: the evening ranking and the season table from those results;
- ``charts``: the season pages' charts as SVG;
- ``change_words``: what a correction changed, in words;
- ``rule_words``: a rule profile's (or an evening's frozen) options in words.
"""
