"""The director's changes from the cockpit (issue 24, item 5): start a series' clock, set the
time limit per series, and send or clear the message to every table screen.

One statement each (an update of one row); a change that is not allowed raises
ValidationError with a message for the director and changes nothing. None of them changes a
ranking, a list or a document, so the tournament's version (the board's key) stays."""

from __future__ import annotations

from datetime import datetime

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from scoring.collation import invisible_characters
from scoring.models import Tournament, TournamentSeries
from scoring.reads import cockpit as reads
from scoring.reads.cockpit import MAX_MINUTES, MIN_MINUTES, NOTICE_LENGTH


def series_start(*, tournament: Tournament, series: int,
                 at: datetime | None = None) -> TournamentSeries:
    """Start the clock of a drawn series (once: a second tap changes nothing)."""
    draw = tournament.draws.filter(number=series).first()
    if draw is None:
        raise ValidationError(_("Series %(number)d is not drawn yet.") % {"number": series})
    if draw.started is not None:
        raise ValidationError(_("Series %(number)d has already been started.")
                              % {"number": series})
    started = at or reads.now()
    # only while still not started: two directors tapping at once start it once
    if not TournamentSeries.objects.filter(pk=draw.pk, started__isnull=True).update(
            started=started):
        raise ValidationError(_("Series %(number)d has already been started.")
                              % {"number": series})
    draw.started = started
    return draw


def series_minutes_set(*, tournament: Tournament, minutes: int) -> Tournament:
    """The time limit of every series of the tournament, in minutes."""
    if not MIN_MINUTES <= minutes <= MAX_MINUTES:
        raise ValidationError(_("The time limit is between %(min)d and %(max)d minutes.")
                              % {"min": MIN_MINUTES, "max": MAX_MINUTES})
    Tournament.objects.filter(pk=tournament.pk).update(series_minutes=minutes)
    tournament.series_minutes = minutes
    return tournament


def notice_send(*, tournament: Tournament, text: str,
                at: datetime | None = None) -> Tournament:
    """The message every table screen of the tournament shows on its next poll; it replaces
    the one before."""
    text = " ".join(text.split())
    if not text:
        raise ValidationError(_("Write the message first."))
    if len(text) > NOTICE_LENGTH:
        raise ValidationError(_("The message is at most %(length)d characters long.")
                              % {"length": NOTICE_LENGTH})
    bad = invisible_characters(text)
    if bad:  # a bidi control turns the line around on every table screen
        raise ValidationError(_("The message may not contain invisible or control characters "
                                "(%(codes)s): type it again without them.")
                              % {"codes": ", ".join(bad)})
    sent = at or reads.now()
    Tournament.objects.filter(pk=tournament.pk).update(notice=text, notice_at=sent)
    tournament.notice, tournament.notice_at = text, sent
    return tournament


def notice_clear(*, tournament: Tournament) -> Tournament:
    Tournament.objects.filter(pk=tournament.pk).update(notice="", notice_at=None)
    tournament.notice, tournament.notice_at = "", None
    return tournament
