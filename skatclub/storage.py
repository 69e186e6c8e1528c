"""The static files' storage with DEBUG on (issue 26): collectstatic writes exactly what it
writes with DEBUG off (WhiteNoise's compressed copies under hashed names and the manifest,
staticfiles.json), so that the files make install collects with DEBUG=1 serve a DEBUG=0
gunicorn started by hand as they are. Only the links differ: with DEBUG on the pages name
the plain files, which the development server (and the tests' live server) finds in the
source folders, so a changed file needs no collectstatic to be seen."""

from __future__ import annotations

from django.contrib.staticfiles.storage import StaticFilesStorage
from whitenoise.storage import (  # type: ignore[import-untyped]
    CompressedManifestStaticFilesStorage,
)


class CollectedAsInProduction(CompressedManifestStaticFilesStorage):  # type: ignore[misc]
    def url(self, name: str | None, force: bool = False) -> str:
        return StaticFilesStorage.url(self, name)
