# Skatclub: every recipe works on a fresh Debian 12 as root with nothing but python3.
#   make run    install, migrate, serve on http://127.0.0.1:8000/
#   make serve  the production way: DEBUG=0, gunicorn and WhiteNoise on 127.0.0.1:8000
#   make test   install, ruff, mypy (strict, every package), Django checks, the whole pytest
#               suite on SQLite, then the database tests again on a throwaway PostgreSQL server
#               with a throwaway Redis (those that use a database; on TEST_WORKERS processes)
#   make test-engine  the scoring engine's tests alone, without Django: seconds
#   make bench  run every bench/*.py
#   make docs   the documentation (docs/) as a static site in docs/_build/html; warnings fail

VENV ?= .venv
PY := $(VENV)/bin/python
HOST ?= 127.0.0.1
PORT ?= 8000

# Built from the .po by compilemessages; not committed.
MO := scoring/locale/de/LC_MESSAGES/django.mo
PO := $(MO:.mo=.po)

# The pip stamp lives in the venv, so a new venv always gets its packages.
STAMP := $(VENV)/.requirements-installed

export DEBIAN_FRONTEND := noninteractive

.PHONY: install vendor-pyodide run serve migrate demo test test-engine system-test-deps lint check \
	pytest pytest-postgres bench docs docs-screens \
	messages clean

install: $(STAMP) $(MO) vendor-pyodide
	$(PY) manage.py collectstatic --noinput --verbosity 0

# Debian's python3 lacks ensurepip until python3-venv is installed; a failed attempt leaves
# a half-made venv behind, so it is removed before the retry.
$(PY):
	python3 -m venv $(VENV) || { rm -rf $(VENV) && apt-get update \
		&& apt-get install -y python3-venv && python3 -m venv $(VENV); }

$(STAMP): requirements.txt | $(PY)
	$(PY) -m pip install --quiet --disable-pip-version-check -r requirements.txt
	touch $@

# The Pyodide runtime that runs scoring/engine in the browser
# (docs/developers/engine-in-browser.md): fetched with npm only when the pinned version is not
# in place (the script checks every file against the sums it recorded), verified against the sha512 in
# scripts/pyodide.pin (a mismatch fails the build) and unpacked into
# static/vendor/pyodide/VERSION/ (git-ignored), whence collectstatic serves it. Debian's npm
# is installed if it is missing and needed, as gettext is below.
vendor-pyodide:
	@python3 scripts/vendor_pyodide.py --check || { \
		command -v npm >/dev/null || { apt-get update && apt-get install -y npm; }; \
		python3 scripts/vendor_pyodide.py; }

# compilemessages needs GNU gettext's msgfmt. It is told to skip the venv, or it would
# compile the catalogues of every installed package as well.
$(MO): $(PO) | $(STAMP)
	command -v msgfmt >/dev/null || { apt-get update && apt-get install -y gettext; }
	$(PY) manage.py compilemessages --ignore '.venv*' --ignore staticfiles --verbosity 0

run: install migrate demo
	@echo "Skatclub runs at http://$(HOST):$(PORT)/  (Ctrl-C stops it)"
	SITE_URL="$${SITE_URL:-http://$(HOST):$(PORT)}" $(PY) manage.py runserver $(HOST):$(PORT)

# Production: DEBUG off, gunicorn with WhiteNoise serving the static files, on 127.0.0.1 for a
# TLS proxy in front (docs/operators/deployment.md). Settings come from the environment;
# SECRET_KEY, if not set there, is generated once into var/secret_key (git-ignored, mode 600) and read
# from it on every start, so sessions survive a restart. ALLOWED_HOSTS defaults to the local
# names; SECURE_SSL_REDIRECT to 0, so that plain http://127.0.0.1:8000/ can be tried out;
# behind the proxy set TRUSTED_PROXIES=127.0.0.1,::1 SECURE_SSL_REDIRECT=1 (the proxy's
# X-Forwarded-For and X-Forwarded-Proto are believed from those addresses only, by the site
# and by gunicorn: skatclub/gunicorn_conf.py, which also sets the graceful shutdown and the
# access log). Database connections are kept for CONN_MAX_AGE (60) seconds. SITE_URL (the
# links in mails) defaults to http://HOST:PORT; behind the proxy set the public address.
# HSTS covers the site's own host for a year; its sub-domains and the preload list are
# opt-in (SECURE_HSTS_INCLUDE_SUBDOMAINS=1 SECURE_HSTS_PRELOAD=1, only if every sub-domain
# of the domain serves HTTPS).
SECRET_KEY_FILE := var/secret_key
WORKERS ?= 3
serve: install $(SECRET_KEY_FILE)
	export DEBUG=0 ALLOWED_HOSTS="$${ALLOWED_HOSTS:-localhost,127.0.0.1}" \
		SECURE_SSL_REDIRECT="$${SECURE_SSL_REDIRECT:-0}" \
		SECURE_HSTS_INCLUDE_SUBDOMAINS="$${SECURE_HSTS_INCLUDE_SUBDOMAINS:-0}" \
		SECURE_HSTS_PRELOAD="$${SECURE_HSTS_PRELOAD:-0}" \
		CONN_MAX_AGE="$${CONN_MAX_AGE:-60}" SITE_URL="$${SITE_URL:-http://$(HOST):$(PORT)}" \
		SECRET_KEY="$${SECRET_KEY:-$$(cat $(SECRET_KEY_FILE))}" \
	&& $(PY) manage.py collectstatic --noinput --verbosity 0 \
	&& $(PY) manage.py migrate --noinput --verbosity 0 \
	&& echo "Skatclub (DEBUG=0) runs at http://$(HOST):$(PORT)/  (Ctrl-C stops it)" \
	&& exec $(VENV)/bin/gunicorn skatclub.wsgi --config skatclub/gunicorn_conf.py \
		--bind $(HOST):$(PORT) --workers $(WORKERS)

$(SECRET_KEY_FILE): | $(PY)
	mkdir -p $(dir $@)
	umask 077 && $(PY) -c 'import secrets; print(secrets.token_urlsafe(50))' > $@.tmp
	mv $@.tmp $@
	@echo "Generated a new SECRET_KEY in $@ (keep it secret, keep it across restarts)."

migrate: install
	$(PY) manage.py migrate --noinput --verbosity 0

# The demo club with a played evening and its team league; leaves an existing demo alone.
demo: migrate
	$(PY) manage.py demo
	$(PY) manage.py demo_league

test: install system-test-deps lint check docs pytest pytest-postgres

# The documentation (docs/, docs/index.md the start): Sphinx with MyST Markdown into
# docs/_build/html (git-ignored). -W --keep-going -n: every warning is an error, all of them
# listed: a broken internal link or anchor, a missing image, a page in no toctree, an
# include that is gone. Built offline: no link checking, the theme's own static files
# (tests/test_docs.py checks what Sphinx does not: the README's links, images committed and
# used, nothing fetched from elsewhere).
DOCS_OUT := docs/_build
docs: $(STAMP)
	rm -rf $(DOCS_OUT)
	$(PY) -m sphinx -b html -W --keep-going -n -q docs $(DOCS_OUT)/html
	@echo "docs: built into $(DOCS_OUT)/html/index.html"

# The handbook's pictures (docs/handbuch/bilder/*.png), taken by the browser test that checks
# the pages they show (tests/browser/test_handbook_screens_browser.py). In make test it writes
# to its tmp folder; here into the handbook, 1024 px wide and optimised. Commit the PNGs.
docs-screens: install system-test-deps
	SKATCLUB_HANDBOOK_SHOTS=docs/handbuch/bilder $(PY) -m pytest -m browser -q \
		tests/browser/test_handbook_screens_browser.py

# What the browser and PDF tests need from Debian: chromium (driven by Playwright; never
# Playwright's own browser download), poppler-utils (pdftotext/pdftoppm) and redis-server (the
# cache-outage tests of the SQLite run start and stop one of their own). Installed only
# when missing, so a machine that has them pays nothing.
system-test-deps:
	@command -v chromium >/dev/null && command -v pdftotext >/dev/null \
		&& command -v redis-server >/dev/null || { \
		apt-get update && apt-get install -y chromium poppler-utils redis-server; }

# ruff over the whole checkout; mypy --strict with the django-stubs plugin over every package:
# scoring (the engine and the Django app), skatclub, tests, bench, scripts and manage.py
# (pyproject.toml [tool.mypy] lists them).
lint: install
	$(PY) -m ruff check .
	$(PY) -m mypy

check: install
	$(PY) manage.py check

# The tests run on TEST_WORKERS processes (pytest-xdist; each has a test database of its own,
# and on Redis a database of its own: tests/django_fixtures.py), handed out one at a time
# (worksteal) so that the few long ones (the 1,001-player day) do not hold up the rest: first
# all but the browser's, then the browser's, each process with a live server and a Chromium
# of its own (pytest-django's live_server is per process, on a free port). Each run ends with
# its twenty longest tests: where the time goes.
# The browser tests run on one process more: a sixth of their time both processes waited (a
# page's poll, a sync's retry) with the cores idle.
TEST_WORKERS ?= 2
BROWSER_WORKERS ?= 3
XDIST := --dist worksteal --durations=20
pytest: install
	$(PY) -m pytest -m "not browser" -n $(TEST_WORKERS) $(XDIST)
	$(PY) -m pytest -m browser -n $(BROWSER_WORKERS) $(XDIST)

# The pure engine's tests need no Django (tests/conftest.py loads the Django fixtures only
# with pytest-django on), no database, no browser and no static files: only the packages.
# pytest-django being off, pyproject's DJANGO_SETTINGS_MODULE is an unknown option here.
test-engine: $(STAMP)
	$(PY) -m pytest -p no:django -q tests/engine \
		-W "ignore:Unknown config option:pytest.PytestConfigWarning"

# The suite again on PostgreSQL and Redis: scripts/pg-test-server installs the server if it is
# missing, starts a throwaway cluster, sets DATABASE_URL, and always stops and removes the
# cluster; scripts/redis-test-server does the same for a Redis server and CACHE_URL. The
# first run (make pytest) had SQLite with the cache in the database. The browser tests ran
# on SQLite already; they test the pages, not the database. Nor does a test run again that
# uses neither database nor cache (the pure engine, the draw, the layout, the commands'
# parsing …): on a database other than SQLite tests/django_fixtures.py leaves out every test
# without pytest-django's database (a django_db mark, db, live_server …) or the mark
# ``servers``; they ran on the SQLite run (tests/engine, none of which does, is not even
# collected).
pytest-postgres: install
	scripts/pg-test-server scripts/redis-test-server $(PY) -m pytest -m "not browser" \
		-n $(TEST_WORKERS) $(XDIST) \
		--ignore=tests/engine

# Each benchmark is a standalone script (bench/_*.py are their shared helpers, not run);
# bench/ may be empty or missing. Every script runs, also after one has failed (a missed
# target is an exit status 1, as a crash is); the failed ones are named at the end and make
# fails.
bench: install
	@failed=""; for script in bench/[!_]*.py; do \
		[ -e "$$script" ] || { echo "bench: no bench/*.py yet"; break; }; \
		echo "== $$script"; $(PY) "$$script" || failed="$$failed $$script"; \
	done; \
	if [ -n "$$failed" ]; then echo "bench: failed or missed a target:$$failed"; exit 1; fi

# Refresh the German catalogue after changing translatable strings, then translate.
messages: install
	$(PY) manage.py makemessages --locale de --no-obsolete \
		--ignore '.venv*' --ignore staticfiles --ignore static --ignore tests --ignore .pytest-tmp

clean:
	rm -rf staticfiles .pytest-tmp .hypothesis .mypy_cache .ruff_cache var/pdf-cache $(MO)
	find . \( -path './.venv*' -o -path ./.git \) -prune -o -name __pycache__ -type d -prune \
		-exec rm -rf {} +
