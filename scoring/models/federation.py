"""The table scores the federation ranking adds up (kept in each deal change's transaction)."""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _

from scoring.models.club import Player
from scoring.models.evening import (
    Evening,
    Table,
)


class TableScore(models.Model):
    """One player's result at one table: Seeger-Fabian points, classic game points, games won
    and lost as declarer. Derived by the engine from the table's live deals and kept by the
    deal services in the same transaction as every change (writes/scores.py), so that the
    federation-wide ranking (reads/federation.py) is one indexed query over these rows instead
    of scoring every club's deals. Only for tables that have Seeger-Fabian points (the
    International Skat Order at a table of 3 or 4); never edited by hand."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="scores",
                              verbose_name=_("table"))
    evening = models.ForeignKey(Evening, on_delete=models.CASCADE, related_name="scores",
                                verbose_name=_("evening"))
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="scores",
                               verbose_name=_("player"))
    seeger_fabian = models.IntegerField(_("Seeger-Fabian"))
    points = models.IntegerField(_("points"))
    won = models.PositiveIntegerField(_("won"))
    lost = models.PositiveIntegerField(_("lost"))

    class Meta:
        verbose_name = _("table score")
        verbose_name_plural = _("table scores")
        constraints = [
            models.UniqueConstraint(fields=["table", "player"], name="score_once_per_table"),
        ]

    def __str__(self) -> str:
        return f"{self.table} – {self.player}: {self.seeger_fabian}"
