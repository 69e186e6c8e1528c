"""The players sign the list (issue 23): the services. Who may change a signed list, the
PIN mode, and what a change after signing leaves in the audit log."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from django.utils import translation

from scoring.engine import SkatError
from scoring.models import AuditEntry, Player, Signature, SigningPin, Table
from scoring.writes.services import Actor, deal_delete, deal_edit, deal_record, deal_restore
from scoring.writes.signing import SigningRefused, pin_set, sign

from .factories import make_club, make_user, won
from .signing_fixtures import SCORER, seated, short_table

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def in_english() -> Iterator[None]:
    with translation.override("en"):
        yield

ADMIN = Actor(None, "admin", admin=True)
MEMBER_SCORER = Actor(None, "scorer")


def sign_all(table: Table, actor: Actor = SCORER) -> None:
    for player in seated(table):
        sign(table=table, player_id=player.pk, actor=actor)
    table.refresh_from_db()


def test_each_player_signs_and_the_last_signature_locks_the_list() -> None:
    table = short_table(make_club())
    players = seated(table)
    before = table.signing
    for n, player in enumerate(players, start=1):
        sign(table=table, player_id=player.pk, actor=SCORER)
        table.refresh_from_db()
        assert (table.signed_at is None) == (n < len(players))
    assert table.signing == before + 4
    assert Signature.objects.filter(table=table).count() == 4
    assert AuditEntry.objects.filter(table=table, action="sign").count() == 4


def test_a_list_is_signed_only_when_the_series_is_finished() -> None:
    table = short_table(make_club(), play=3)  # 3 of 4 games
    with pytest.raises(SigningRefused, match="finished"):
        sign(table=table, player_id=seated(table)[0].pk, actor=SCORER)
    assert not Signature.objects.exists()


def test_an_open_list_is_signed_once_it_has_games() -> None:
    club = make_club()
    table = short_table(club, rounds=1, play=0)
    table.evening.series_rounds = None
    table.evening.save()
    with pytest.raises(SigningRefused):
        sign(table=table, player_id=seated(table)[0].pk, actor=SCORER)
    deal_record(table=table, record=won(1), expected_version=table.version, actor=SCORER)
    sign(table=table, player_id=seated(table)[0].pk, actor=SCORER)


def test_nobody_signs_twice_and_strangers_not_at_all() -> None:
    club = make_club()
    table = short_table(club)
    first = seated(table)[0]
    sign(table=table, player_id=first.pk, actor=SCORER)
    with pytest.raises(SigningRefused, match="already"):
        sign(table=table, player_id=first.pk, actor=SCORER)
    sixth = club.players.order_by("-pk").first()
    assert sixth is not None and sixth not in seated(table)
    with pytest.raises(SigningRefused, match="Only a player"):
        sign(table=table, player_id=sixth.pk, actor=SCORER)
    assert Signature.objects.count() == 1


@pytest.mark.parametrize("actor", [SCORER, MEMBER_SCORER], ids=["table code", "scorer"])
@pytest.mark.parametrize("op", ["record", "edit", "delete", "restore"])
def test_a_signed_list_is_locked_for_scorers(actor: Actor, op: str) -> None:
    table = short_table(make_club())
    deal = table.deals.order_by("position").first()
    assert deal is not None
    if op == "restore":  # the last deal deleted and played again: a deleted deal to restore
        deal = table.deals.order_by("position").last()
        assert deal is not None
        deal_delete(deal=deal, reason="test", expected_version=table.version, actor=SCORER)
        deal_record(table=table, record=deal.record, expected_version=table.version,
                    actor=SCORER)
        deal.refresh_from_db()
    sign_all(table)
    version = table.version
    with pytest.raises(SkatError, match="locked") as refused:
        if op == "record":
            deal_record(table=table, record={"kind": "penalty", "penalty": {
                "seat": 0, "points": 50, "reason": "x"}}, expected_version=version,
                        actor=actor)
        elif op == "edit":
            deal_edit(deal=deal, record=won(1, 80), reason="typo", expected_version=version,
                      actor=actor)
        elif op == "delete":
            deal_delete(deal=deal, reason="typo", expected_version=version, actor=actor)
        else:
            deal_restore(deal=deal, reason="typo", expected_version=version, actor=actor)
    assert refused.value.field is None
    table.refresh_from_db()
    assert table.version == version and table.signed_at is not None
    assert Signature.objects.filter(table=table).count() == 4


def test_an_admin_changes_a_signed_list_only_with_a_reason() -> None:
    table = short_table(make_club())
    sign_all(table)
    deal = table.deals.order_by("position").first()
    assert deal is not None
    with pytest.raises(SkatError) as refused:
        deal_edit(deal=deal, record=won(1, 80), reason="  ", expected_version=table.version,
                  actor=ADMIN)
    assert refused.value.field == "reason"
    table.refresh_from_db()
    assert table.signed_at is not None
    deal_edit(deal=deal, record=won(1, 80), reason="Augen falsch gezählt",
              expected_version=table.version, actor=ADMIN)
    after = Table.objects.get(pk=table.pk)
    assert after.signed_at is None and after.changed_after_signing
    assert not Signature.objects.filter(table=table).exists()
    entry = AuditEntry.objects.get(table=table, action="unsign")
    assert entry.reason == "Augen falsch gezählt" and entry.actor == "admin"
    assert isinstance(entry.before, dict)
    assert [s["player"] for s in entry.before["signed"]] == [p.name for p in seated(table)]
    edit = AuditEntry.objects.filter(table=table, action="edit").last()
    assert edit is not None and edit.reason == "Augen falsch gezählt"
    # everybody signs again: the mark goes, the list is locked again
    sign_all(table)
    assert table.signed_at is not None and not table.changed_after_signing


def test_an_admin_adds_a_penalty_to_a_signed_list_with_a_reason() -> None:
    table = short_table(make_club())
    sign_all(table)
    penalty = {"kind": "penalty", "penalty": {"seat": 0, "points": 50, "reason": "x"}}
    with pytest.raises(SkatError, match="say why"):
        deal_record(table=table, record=penalty, expected_version=table.version, actor=ADMIN)
    deal_record(table=table, record=penalty, expected_version=table.version, actor=ADMIN,
                reason="Strafe vergessen")
    table.refresh_from_db()
    assert table.changed_after_signing and table.signed_at is None


def test_a_change_before_everybody_signed_clears_the_signatures_given() -> None:
    table = short_table(make_club())
    first = seated(table)[0]
    sign(table=table, player_id=first.pk, actor=SCORER)
    deal = table.deals.order_by("position").first()
    assert deal is not None
    table.refresh_from_db()
    deal_edit(deal=deal, record=won(1, 80), reason="typo", expected_version=table.version,
              actor=SCORER)
    table.refresh_from_db()
    assert not Signature.objects.filter(table=table).exists()
    assert table.changed_after_signing and table.signed_at is None
    assert AuditEntry.objects.filter(table=table, action="unsign").count() == 1


def test_a_refused_change_keeps_the_signatures() -> None:
    table = short_table(make_club())
    sign(table=table, player_id=seated(table)[0].pk, actor=SCORER)
    deal = table.deals.order_by("position").first()
    assert deal is not None
    table.refresh_from_db()
    with pytest.raises(SkatError):  # the dealer cannot declare: the engine refuses
        deal_edit(deal=deal, record=won(0), reason="typo", expected_version=table.version,
                  actor=SCORER)
    table.refresh_from_db()
    assert Signature.objects.filter(table=table).count() == 1
    assert not table.changed_after_signing


# ---------------------------------------------------------------- PIN mode

def _pin_club() -> tuple[Table, list[Player]]:
    club = make_club()
    club.sign_with_pin = True
    club.save()
    table = short_table(club)
    players = seated(table)
    for n, player in enumerate(players[:3]):  # the fourth has no account
        user = make_user(club, "viewer", username=f"member{n}")
        player.user = user
        player.save()
        pin_set(user=user, pin=f"{n}{n}{n}{n}")
    return Table.objects.select_related("evening__club").get(pk=table.pk), players


def test_pin_mode_needs_the_players_own_pin() -> None:
    table, players = _pin_club()
    with pytest.raises(SigningRefused) as wrong:
        sign(table=table, player_id=players[0].pk, actor=SCORER, pin="1111")
    assert wrong.value.wrong_pin
    with pytest.raises(SigningRefused) as missing:
        sign(table=table, player_id=players[0].pk, actor=SCORER, pin=None)
    assert missing.value.wrong_pin
    assert not Signature.objects.exists()
    signature = sign(table=table, player_id=players[0].pk, actor=SCORER, pin="0000")
    assert signature.with_pin


def test_pin_mode_one_answer_for_no_account_no_pin_and_a_wrong_pin() -> None:
    """Issue 35: the answer does not tell a wrong PIN from a player without an account or
    without a PIN, and each is counted as a wrong PIN (before: "no member account", "not set
    a PIN yet", "Wrong PIN." told them apart)."""
    table, players = _pin_club()
    assert players[0].user_id is not None
    SigningPin.objects.filter(user_id=players[0].user_id).delete()
    answers = []
    for player, pin in ((players[3], "0000"), (players[0], "0000"), (players[1], "0000")):
        with pytest.raises(SigningRefused) as refused:
            sign(table=table, player_id=player.pk, actor=SCORER, pin=pin)
        assert refused.value.wrong_pin and refused.value.player == player
        answers.append(refused.value.message)
    assert len(set(answers)) == 1
    assert not Signature.objects.exists()


def test_the_pin_is_kept_hashed_and_must_be_four_digits() -> None:
    club = make_club()
    user = make_user(club)
    kept = pin_set(user=user, pin="4711")
    assert "4711" not in kept.pin and kept.pin.startswith(("pbkdf2", "argon2", "md5", "sha"))
    for bad in ("471", "47110", "abcd", "", "47 1"):
        with pytest.raises(SigningRefused):
            pin_set(user=user, pin=bad)
