"""The league guest and his account on the match-day page (issue 35): a guest of another
club's team is linked to nobody by name, so his captain's account shows no signing button
for the team, and the league's desk is told why; once the league's club links his record
through its claim link, his account signs for his team (and only his)."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from scoring.models import Player, ReportSignature
from scoring.writes import league as lw
from scoring.writes import people

from .factories import make_club, make_user
from .leagues import make_day, make_league, play_day

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("in_english")]


def test_a_guest_captain_signs_with_his_account_only_once_his_record_is_claimed(
        client: Client) -> None:
    league = make_league(make_club(), teams=3)
    gotha = make_club("gotha", "SC Gotha")
    captain = make_user(gotha, "viewer", username="xaver")
    Player.objects.create(club=gotha, name="Xaver Gotha", user=captain)  # his record at home
    team = lw.team_create(group=league.groups.get(), name="Gotha Sieben", club=gotha)
    for position, name in enumerate(["Xaver Gotha", "Yvonne G.", "Zora G.", "Willi G."],
                                    start=1):
        lw.team_player_add(team=team, name=name, position=position, captain=position == 1)
    day = make_day(league)
    play_day(day)
    numbers = reverse("scoring:match-day-numbers", args=[day.pk])
    secretary = make_user(league.club, "admin", username="secretary")

    client.force_login(secretary)
    html = client.get(numbers).content.decode()
    mine = html.split(f'id="signature-team-{team.pk}"')[1].split("</li>")[0]
    assert "captain-unlinked" in mine and html.count("captain-unlinked") == 4  # none linked
    client.force_login(captain)
    html = client.get(numbers).content.decode()
    assert 'value="account"' not in html
    sign = reverse("scoring:match-day-sign", args=[day.pk])
    assert client.post(sign, {"team": team.pk, "where": "account"}).status_code == 403
    assert not ReportSignature.objects.exists()

    guest = Player.objects.get(club=league.club, name="Xaver Gotha")
    people.claim_use(token=people.claim_create(player=guest, by=secretary).token,
                     user=captain)
    html = client.get(numbers).content.decode()
    assert html.count('value="account"') == 1
    assert client.post(sign, {"team": team.pk, "where": "account"}).status_code == 302
    signed = ReportSignature.objects.get()
    assert signed.team == team and signed.user == captain
    client.force_login(secretary)
    assert client.get(numbers).content.decode().count("captain-unlinked") == 3
