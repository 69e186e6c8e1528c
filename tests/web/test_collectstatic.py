"""make install collects the static files with DEBUG=1; a DEBUG=0 gunicorn started by hand
afterwards must serve its pages from those files (issue 26): the storage is the same
whatever DEBUG says, so the manifest of hashed names is written either way."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from .servers import Browser, environment, gunicorn, manage

pytestmark = pytest.mark.slow
PRODUCTION = {"DEBUG": "0", "SECRET_KEY": "k" * 20 + "-test-only-" + "q9Z!x#7v" * 5,
              "ALLOWED_HOSTS": "127.0.0.1", "SECURE_SSL_REDIRECT": "0"}


def test_files_collected_with_debug_on_serve_a_server_with_debug_off(tmp_path: Path) -> None:
    static_root = tmp_path / "static"
    database = f"sqlite:///{tmp_path}/site.sqlite3"
    # Without the vendored Pyodide runtime: compressing its 12 MB (gzip and brotli) was
    # three quarters of this test, and the login page it asks for needs none of it. The
    # compressed copies are kept in the test's folder, not the user's cache (skatclub/storage.py).
    manage(environment(DEBUG="1", STATIC_ROOT=str(static_root), DATABASE_URL=database,
                       COMPRESSED_CACHE=str(tmp_path / "compressed")),
           "collectstatic", "--noinput", "-v0", "--ignore", "pyodide")
    assert (static_root / "staticfiles.json").exists()
    env = environment(STATIC_ROOT=str(static_root), DATABASE_URL=database, **PRODUCTION)
    manage(env, "migrate", "--noinput", "-v0")
    with gunicorn(env, tmp_path / "site.log", workers=1) as server:
        page = Browser().get(server.url + "/accounts/login/")
        assert page.status == 200, server.output()[-3000:]
        css = re.search(r'href="(/static/css/base\.[0-9a-f]{12}\.css)"', page.text)
        assert css, page.text[:2000]
        sheet = Browser().get(server.url + css.group(1))
        assert sheet.status == 200 and "text/css" in sheet.headers["Content-Type"]
