from __future__ import annotations

from scoring.views import club, entry, home, season, series, sheet

app_name = "scoring"

urlpatterns = [*home.urlpatterns, *club.urlpatterns, *entry.urlpatterns, *sheet.urlpatterns,
               *season.urlpatterns, *series.urlpatterns]
