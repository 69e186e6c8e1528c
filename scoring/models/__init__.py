"""Clubs, their players and rule profiles, evenings with tables, and the deals scored at them.

Scores are never stored: a deal keeps the record the scorer entered (deal-record.md), and
every sheet, total and settlement is derived from the records by the engine on each read,
so nothing can go stale. An evening keeps a frozen copy of its rules.

One module per role, imported here in the order the models were always defined (the order
Django registers them in): rules.py (the rule fields profiles and evenings share), club.py,
evening.py (tables, seats, deals, signatures), audit.py (the audit log, held operations),
invitations.py, imports.py (paper totals, pending uploads, the club log), tournament.py,
federation.py (table scores), limits.py (failure counts), league.py (team leagues).
``scoring.models`` exports every model; import them from here.
"""

from __future__ import annotations

# The order Django registers the models in, as they were always defined (backup.py dumps and
# restores in it): not sorted.
# isort: off
from scoring.models.rules import RuleSystem, Scoring, RulesMixin
from scoring.models.club import (
    Club,
    Membership,
    Player,
    RuleProfile,
    Season,
    new_claim_token,
    CLAIM_DAYS,
    claim_expiry,
    PlayerClaim,
    PlayerMerge,
    AccountSettings,
)
from scoring.models.evening import (
    Evening,
    new_access_code,
    Table,
    Seat,
    Deal,
    Signature,
    SigningPin,
)
from scoring.models.audit import AuditEntry, HeldOperation
from scoring.models.invitations import (
    new_invitation_token,
    INVITATION_DAYS,
    invitation_expiry,
    Invitation,
)
from scoring.models.imports import ImportedTotal, PendingImport, ClubLogEntry
from scoring.models.tournament import (
    new_board_key,
    Tournament,
    Entrant,
    new_signup_token,
    Signup,
    TournamentSeries,
)
from scoring.models.federation import TableScore
from scoring.models.limits import FailureCount
from scoring.models.league import (
    POSITIONS,
    League,
    LeagueGroup,
    Team,
    TeamPlayer,
    MatchDay,
    Lineup,
    MatchSeries,
    ReportSignature,
)
# isort: on

__all__ = [
    "AccountSettings",
    "AuditEntry",
    "CLAIM_DAYS",
    "Club",
    "ClubLogEntry",
    "Deal",
    "Entrant",
    "Evening",
    "FailureCount",
    "HeldOperation",
    "INVITATION_DAYS",
    "ImportedTotal",
    "Invitation",
    "League",
    "LeagueGroup",
    "Lineup",
    "MatchDay",
    "MatchSeries",
    "Membership",
    "POSITIONS",
    "PendingImport",
    "Player",
    "PlayerClaim",
    "PlayerMerge",
    "ReportSignature",
    "RuleProfile",
    "RuleSystem",
    "RulesMixin",
    "Scoring",
    "Season",
    "Seat",
    "Signature",
    "SigningPin",
    "Signup",
    "Table",
    "TableScore",
    "Team",
    "TeamPlayer",
    "Tournament",
    "TournamentSeries",
    "claim_expiry",
    "invitation_expiry",
    "new_access_code",
    "new_board_key",
    "new_claim_token",
    "new_invitation_token",
    "new_signup_token",
]
