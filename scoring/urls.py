from __future__ import annotations

from scoring.views import (
    account,
    board,
    club,
    cockpit,
    engine,
    entry,
    federation,
    held,
    home,
    imports,
    league,
    league_day,
    league_pdf,
    members,
    offline_app,
    onboarding,
    people,
    preisskat,
    printed,
    season,
    series,
    settlement,
    sheet,
    signing,
    signup,
    sync,
    table_live,
    tournament,
)

app_name = "scoring"

urlpatterns = [*home.urlpatterns, *club.urlpatterns, *entry.urlpatterns, *sheet.urlpatterns,
               *settlement.urlpatterns, *printed.urlpatterns, *season.urlpatterns,
               *series.urlpatterns, *table_live.urlpatterns, *engine.urlpatterns,
               *sync.urlpatterns, *held.urlpatterns, *offline_app.urlpatterns,
               *onboarding.urlpatterns, *members.urlpatterns, *account.urlpatterns,
               *imports.urlpatterns, *tournament.urlpatterns, *board.urlpatterns,
               *federation.urlpatterns, *signing.urlpatterns, *cockpit.urlpatterns,
               *signup.urlpatterns, *preisskat.urlpatterns, *league.urlpatterns,
               *league_day.urlpatterns, *league_pdf.urlpatterns, *people.urlpatterns]
