"""Views, one module per feature; each module exports its own ``urlpatterns``.

URL names (namespace "scoring"), fixed so features can link to each other:
- entry.py  (table screen): table, deal-save, deal-preview, deal-edit, deal-delete, deal-restore
- sheet.py  (sheets, evening): sheet, sheet-fragment, evening, evening-live, evening-audit,
            deal-history
- club.py   (clubs, access): home, club, evening-create, table-create, player-create, members,
            codes, code-entry, code
- settlement.py (the treasurer's page): settlement
- printed.py (PDFs): sheet-pdf, settlement-pdf, summary-pdf
- season.py (seasons): season, season-create, season-edit, season-pdf, season-player
- series.py (an evening's series): evening-ranking, series-new
- onboarding.py (a club starts): setup, register, register-confirm
- members.py (members' accounts): invitation-create, invitation-send, invitation-revoke,
            member-remove, member-password-reset, member-player, departed-names, invitation
- account.py (one's own account): account, account-data, account-delete, my-results
- tournament.py (tournaments): tournament-create, tournament, tournament-entrant,
            tournament-settings, tournament-draw, tournament-seats-pdf, tournament-cards-pdf,
            tournament-list-pdf, tournament-results, tournament-results-pdf,
            tournament-results-csv
- board.py (the public live board): board, board-tv, board-fragment, board-tv-fragment,
            board-version
"""
