"""The seat draws, pure Python: the Preisskat's series (``preisskat``) and a team league's
match-day series, one player of each team at a table (``league``, built on the first)."""
