"""Team leagues through the services (issue 25): teams and players, a match day's line-ups,
each series seated onto real tables (one player of each team per table), the numbers read
from the tables' Seeger-Fabian points by the engine's function, signatures and binding."""

from __future__ import annotations

import datetime
from collections.abc import Iterator

import pytest
from django.core.exceptions import ValidationError
from django.utils import timezone, translation

from scoring.engine import LeagueDay, LeagueTeam, SkatError, generate_deals, league_standings
from scoring.models import MatchSeries, Player, ReportSignature, Table, TableScore, TeamPlayer
from scoring.reads.league import group_numbers, match_report, player_ranking
from scoring.writes import league as lw
from scoring.writes.services import Actor, deal_record

from .factories import make_club
from .leagues import check_in, make_day, make_league, play_day, play_series, team

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _english() -> Iterator[None]:
    with translation.override("en"):
        yield


def _tables(day: object, series: int) -> list[list[str]]:
    return [[s.player.name for s in t.seats.order_by("position")]
            for t in Table.objects.filter(evening=day.evening, series=series)  # type: ignore[attr-defined]
            .order_by("number")]


def test_series_1_seats_the_positions_together_one_player_of_each_team() -> None:
    league = make_league(make_club())
    day = make_day(league)
    check_in(day)
    drawn = lw.series_seat(day=day, seed=7)
    assert drawn.number == 1 and drawn.seed == 7 and drawn.repeated_pairs == 0
    tables = _tables(day, 1)
    assert len(tables) == 4
    # table k: the players at position k of each team, in the teams' order
    assert tables[0] == ["Frieda Grand", "Anna Herz", "Jonas Kreuz", "Nora Pik"]
    assert tables[3] == ["Ilse Grand", "Dieter Herz", "Mia Kreuz", "Quirin Pik"]


def test_later_series_meet_new_opponents_and_a_short_team_makes_a_3_table() -> None:
    league = make_league(make_club())
    day = make_day(league)
    check_in(day, short="Pik Dame")
    lw.series_seat(day=day, seed=1)
    assert sorted(len(t) for t in _tables(day, 1)) == [3, 4, 4, 4]
    play_series(day, 1)
    lw.series_seat(day=day, seed=2)
    play_series(day, 2)
    second = lw.series_seat(day=day, seed=3)
    assert MatchSeries.objects.get(match_day=day, number=2).repeated_pairs == 0
    assert second.repeated_pairs == 0
    for series in (1, 2, 3):
        for table in _tables(day, series):
            teams = [name.split()[1] for name in table]
            assert len(set(teams)) == len(teams)  # one player of each team


def test_the_next_series_waits_until_every_table_has_played() -> None:
    league = make_league(make_club())
    day = make_day(league)
    check_in(day)
    lw.series_seat(day=day)
    play_series(day, 1, leave=1)
    with pytest.raises(ValidationError, match="Series 1 is not finished yet: table 1 has "
                                              "played 3 of 4 games"):
        lw.series_seat(day=day)
    play_series(day, 1)
    assert lw.series_seat(day=day).number == 2


def test_a_substitute_comes_in_between_series() -> None:
    league = make_league(make_club())
    day = make_day(league)
    check_in(day)
    lw.series_seat(day=day)
    play_series(day, 1)
    herz = team(league, "Herz As")
    emil = Player.objects.get(name="Emil Herz")
    players = [tp.player for tp in herz.players.filter(position__isnull=False)
               .order_by("position")]
    lw.lineup_set(day=day, series=2, team=herz, players=[emil, *players[1:]])
    lw.series_seat(day=day)
    seated = {n for table in _tables(day, 2) for n in table}
    assert "Emil Herz" in seated and "Anna Herz" not in seated
    # series 1's line-up is played: it cannot be changed any more
    with pytest.raises(ValidationError, match="Series 1 is seated already"):
        lw.lineup_set(day=day, series=1, team=herz, players=players)


@pytest.mark.parametrize(("count", "message"), [
    (2, "three or four players"), (1, "three or four players")])
def test_a_team_of_one_or_two_is_refused(count: int, message: str) -> None:
    league = make_league(make_club())
    day = make_day(league)
    herz = team(league, "Herz As")
    players = [tp.player for tp in herz.players.order_by("position")][:count]
    with pytest.raises(ValidationError, match=message):
        lw.lineup_set(day=day, series=1, team=herz, players=list(players))
    assert not day.lineups.exists()


def test_a_stranger_and_a_player_of_two_teams_are_refused() -> None:
    league = make_league(make_club())
    day = make_day(league)
    herz, grand = team(league, "Herz As"), team(league, "Grand Hand")
    frieda = Player.objects.get(name="Frieda Grand")
    herz_players = [tp.player for tp in herz.players.order_by("position")][:3]
    with pytest.raises(ValidationError, match="Frieda Grand is not on the team Herz As"):
        lw.lineup_set(day=day, series=1, team=herz, players=[*herz_players, frieda])
    with pytest.raises(ValidationError, match="Frieda Grand plays for Grand Hand already"):
        lw.team_player_add(team=herz, name="Frieda Grand")
    assert TeamPlayer.objects.filter(player=frieda).get().team == grand


def test_the_numbers_are_the_engines_from_the_tables_seeger_fabian_points() -> None:
    league = make_league(make_club())
    day = make_day(league)
    play_day(day)
    numbers = group_numbers(league.groups.get())
    # the same function on the points the tables hold, summed by hand
    teams = {tp.player_id: tp.team.name for tp in TeamPlayer.objects.select_related("team")}
    series = []
    for number in (1, 2, 3):
        series.append({str(s.player_id): s.seeger_fabian for s in TableScore.objects.filter(
            evening=day.evening, table__series=number)})
    expected = league_standings(
        [LeagueTeam(name, tuple(str(p) for p, t in teams.items() if t == name))
         for name in sorted(set(teams.values()))],
        [LeagueDay("1", tuple(series))])
    assert numbers.result.to_json() == expected.to_json()
    day_result = numbers.result.days[0]
    for number, rows in enumerate(day_result.series, start=1):
        assert sum(row.plus for row in rows) == 6  # n(n-1)/2 with four teams
        assert sum(row.points for row in rows) == sum(TableScore.objects.filter(
            evening=day.evening, table__series=number).values_list("seeger_fabian", flat=True))
    ranking = player_ranking(numbers)
    assert len(ranking) == 16 and ranking[0].place == 1
    assert sum(r.series for r in ranking) == 48
    assert sum(r.points for r in ranking) == sum(
        TableScore.objects.filter(evening=day.evening).values_list("seeger_fabian", flat=True))


def test_the_report_lists_lineups_tables_scores_and_signatures() -> None:
    league = make_league(make_club())
    day = make_day(league)
    play_day(day)
    herz = team(league, "Herz As")
    with pytest.raises(ValidationError, match="Only the captain of Herz As"):
        lw.report_sign(day=day, team=herz, user=None, where="account")
    lw.report_sign(day=day, team=herz)
    with pytest.raises(ValidationError, match="Herz As has signed already"):
        lw.report_sign(day=day, team=herz)
    report = match_report(day)
    assert [s.number for s in report.series] == [1, 2, 3]
    assert all(len(s.tables) == 4 for s in report.series)
    assert report.lineups[1]["Herz As"] == [(1, "Anna Herz"), (2, "Bernd Herz"),
                                            (3, "Clara Herz"), (4, "Dieter Herz")]
    assert report.captains[herz.pk] == "Anna Herz"
    assert list(report.signatures) == [herz.pk] and not report.signed
    assert [row.place for row in report.table][0] == 1
    assert not report.binding


def test_the_report_is_signed_only_when_every_series_is_played() -> None:
    league = make_league(make_club())
    day = make_day(league)
    check_in(day)
    lw.series_seat(day=day)
    play_series(day, 1)
    with pytest.raises(ValidationError, match="every series is played"):
        lw.report_sign(day=day, team=team(league, "Herz As"))


def test_binding_results_are_changed_only_by_the_league_secretary() -> None:
    league = make_league(make_club())
    day = make_day(league, date=timezone.localdate() - datetime.timedelta(days=14))
    check_in(day)
    lw.series_seat(day=day)
    table = Table.objects.filter(evening=day.evening).first()
    assert table is not None
    record = generate_deals(1, 4, seed=1)[0]
    with pytest.raises(SkatError, match="binding: only the league secretary"):
        deal_record(table=table, record=record, expected_version=table.version,
                    actor=Actor(None, "table code"))
    assert not table.deals.exists()
    deal_record(table=table, record=record, expected_version=table.version,
                actor=Actor(None, "secretary", admin=True))
    assert table.deals.count() == 1
    # thirteen days after the match day the host's tablet may still correct
    day.date = timezone.localdate() - datetime.timedelta(days=13)
    day.save(update_fields=["date"])
    table.refresh_from_db()
    deal_record(table=table, record=generate_deals(2, 4, seed=1)[1],
                expected_version=table.version, actor=Actor(None, "table code"))


def test_a_league_needs_a_seeger_fabian_profile() -> None:
    from scoring.models import RuleProfile
    from scoring.presets import PRESETS

    club = make_club()
    profile = RuleProfile.objects.get(club=club, name=PRESETS["club_evening"]["name"])
    with pytest.raises(ValidationError, match="Seeger-Fabian"):
        lw.league_create(club=club, name="Liga", season="2026", profile=profile)


def test_a_match_day_in_two_places_and_a_team_only_once_per_number() -> None:
    from .leagues import TEAMS

    club = make_club()
    league = make_league(club)
    group = league.groups.get()
    for name, players in (("Null Ouvert", ["R Null", "S Null", "T Null", "U Null"]),
                          ("Schneider", ["V Sch", "W Sch", "X Sch", "Y Sch"]),
                          ("Schwarz", ["Z Sw", "AA Sw", "BB Sw", "CC Sw"])):
        extra = lw.team_create(group=group, name=name, club_name="SC")
        for position, player in enumerate(players, start=1):
            lw.team_player_add(team=extra, name=player, position=position)
    teams = list(group.teams.order_by("name"))
    first = [t for t in teams if t.name in TEAMS]
    second = [t for t in teams if t.name not in TEAMS]
    here = lw.match_day_create(group=group, date=timezone.localdate(), teams=first)
    there = lw.match_day_create(group=group, date=timezone.localdate(), teams=second,
                                number=here.number)
    with pytest.raises(ValidationError, match="meets elsewhere on match day 1"):
        lw.match_day_create(group=group, date=timezone.localdate(), teams=second[:3],
                            number=1)
    play_day(here)
    numbers = group_numbers(group)
    assert [d.pk for d in numbers.played] == [here.pk]
    # the teams of the other place take nothing from this one: 0:0 in the league table
    table = {row.team: (row.plus, row.minus) for row in numbers.result.table}
    assert all(table[t.name] == (0, 0) for t in second)
    assert sum(table[t.name][0] for t in first) == 3 * 6
    play_day(there)
    numbers = group_numbers(group)
    # three series of four teams (6 plus points each) and three of three teams (3 each)
    assert sum(row.plus for row in numbers.result.table) == 3 * 6 + 3 * 3


def test_a_correction_after_signing_shows_on_the_report() -> None:
    league = make_league(make_club())
    day = make_day(league)
    play_day(day)
    herz = team(league, "Herz As")
    lw.report_sign(day=day, team=herz)
    assert match_report(day).stale == set()
    table = Table.objects.filter(evening=day.evening).first()
    assert table is not None
    deal = table.deals.order_by("-position").first()  # the last: no dealer moves
    assert deal is not None
    from scoring.writes.services import deal_delete

    deal_delete(deal=deal, reason="double entry", expected_version=table.version,
                actor=Actor(None, "secretary", admin=True))
    report = match_report(day)
    assert report.stale == {herz.pk} and not report.signed
    # the report says so on paper: a line to sign again, naming the old signature
    from scoring.pdf.league import _signature_lines

    with translation.override("en"):
        line = next(x for x in _signature_lines(report) if x.team == "Herz As")
    assert line.signed == "" and "signed by Anna Herz before a deal was corrected" in line.captain
    # the deal recorded again (the table's players sign their list again), the captain
    # signs again, for the numbers as they are now
    play_series(day, table.series, sign=False)
    from scoring.writes.signing import sign

    for seat in table.seats.all():
        sign(table=Table.objects.select_related("evening__club").get(pk=table.pk),
             player_id=seat.player_id, actor=Actor(None, "test"))
    again = lw.report_sign(day=day, team=herz)
    assert ReportSignature.objects.filter(match_day=day).count() == 1
    assert match_report(day).stale == set() and again.results_version > 0
    with pytest.raises(ValidationError, match="Herz As has signed already"):
        lw.report_sign(day=day, team=herz)


def test_the_next_series_waits_for_the_signatures_or_a_reason() -> None:
    from scoring.models import AuditEntry

    league = make_league(make_club())
    day = make_day(league)
    check_in(day)
    lw.series_seat(day=day)
    play_series(day, 1, sign=False)
    with pytest.raises(ValidationError, match="Series 1 is not signed at every table yet: "
                                              "table 1, table 2, table 3, table 4"):
        lw.series_seat(day=day)
    lw.series_seat(day=day, unsigned_reason="Tablet 3 is out of power",
                   actor=Actor(None, "host"))
    entry = AuditEntry.objects.get(evening=day.evening, action="drawunsign")
    assert entry.reason == "Tablet 3 is out of power"
    assert entry.after == {"series": 2, "unsigned_tables": [1, 2, 3, 4]}


def test_a_captain_from_a_club_of_the_site_signs_with_his_own_account_once_claimed() -> None:
    """A team of another club on the site: its players come in as guests of the league's
    club by name, linked to nobody (issue 35: never by name, not even to the account of his
    player of that name at home). The captain signs the report with his own account only
    once his guest record is linked to it: through the league's club's claim link he
    confirms (before, the guest took the account of his namesake at home)."""
    from scoring.writes import people

    from .factories import make_user

    home = make_club("pik", "SC Pik")
    captain = make_user(home, "viewer", username="xaver")
    Player.objects.create(club=home, name="Xaver Pik", user=captain)
    league = make_league(make_club(), teams=3)
    pik = lw.team_create(group=league.groups.get(), name="Pik Sieben", club=home)
    for position, name in enumerate(["Xaver Pik ", "Yvonne Pik", "Zora Pik", "Willi Pik"],
                                    start=1):
        lw.team_player_add(team=pik, name=name, position=position, captain=position == 1)
    guest = Player.objects.get(name="Xaver Pik", club=league.club)
    assert guest.guest and guest.user_id is None  # never linked by name
    day = make_day(league)
    play_day(day)
    with pytest.raises(ValidationError, match="Only the captain of Pik Sieben"):
        lw.report_sign(day=day, team=pik, user=captain, where="account")
    secretary = make_user(league.club, "admin", username="secretary")
    claim = people.claim_create(player=guest, by=secretary)
    people.claim_use(token=claim.token, user=captain)
    other = make_user(home, "viewer", username="yvonne")
    with pytest.raises(ValidationError, match="Only the captain of Pik Sieben"):
        lw.report_sign(day=day, team=pik, user=other, where="account")
    signed = lw.report_sign(day=day, team=pik, user=captain, where="account")
    assert signed.user == captain and signed.name == "Xaver Pik"


def test_a_league_guest_named_like_another_clubs_member_is_never_linked_to_his_account(
) -> None:
    """The attack: a league secretary types the name of another club's member into a guest
    team; the guest record is not linked to that member's account (his results, his
    signature), whatever the team's club."""
    from .factories import make_user

    gotha = make_club("gotha", "SC Gotha")
    paula = make_user(gotha, "viewer", username="paula")
    Player.objects.create(club=gotha, name="Paula Wagner", user=paula)
    league = make_league(make_club(), teams=3)
    for club in (gotha, None):
        team = lw.team_create(group=league.groups.get(), name=f"Team {club or 'guests'}",
                              club=club, club_name="" if club else "SC Irgendwo")
        lw.team_player_add(team=team, name="Paula Wagner" if club else "Paula Wagner (2)",
                           position=1, captain=True)
    assert not Player.objects.filter(club=league.club, user=paula).exists()
    assert Player.objects.filter(user=paula).count() == 1


def test_a_guest_of_another_clubs_team_never_takes_a_member_record_by_name() -> None:
    """A guest of another club's team named like a member of the league's club is refused
    (he would take the member's record: his results, his account); a guest name that tells
    them apart is taken."""
    league = make_league(make_club(), teams=3)
    member = Player.objects.get(club=league.club, name="Anna Altenburg")
    team = lw.team_create(group=league.groups.get(), name="Gäste", club_name="SC Gotha")
    with pytest.raises(ValidationError, match="never taken for him"):
        lw.team_player_add(team=team, name="Anna Altenburg", position=1)
    assert not TeamPlayer.objects.filter(player=member).exists()
    added = lw.team_player_add(team=team, name="Anna Altenburg (SC Gotha)", position=1)
    assert added.player.guest and added.player.user_id is None
