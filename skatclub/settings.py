"""Settings for Skatclub: one file, every deployment knob read from the environment."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import django_stubs_ext
import environ
from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _

from skatclub.csp import static_file_headers
from skatclub.proxies import parse_networks

# Django classes that django-stubs makes generic (ModelAdmin[Club], ModelForm[Evening],
# BaseFormSet[...]) get the __class_getitem__ that lets them be subscripted as base classes.
django_stubs_ext.monkeypatch()

BASE_DIR = Path(__file__).resolve().parent.parent


env = environ.Env()


def envbool(name: str, default: str) -> bool:
    return os.getenv(name, default).strip().lower() in {"1", "true", "yes", "on"}


def envint(name: str, default: str) -> int:
    return int(os.getenv(name, default))


DEBUG = envbool("DEBUG", "1")

if os.getenv("SECRET_KEY"):
    SECRET_KEY = os.environ["SECRET_KEY"]
elif DEBUG:
    SECRET_KEY = "django-insecure-dev-only-never-use-in-production"
else:
    # Failing loudly beats running a production site with a key from the repository.
    raise ImproperlyConfigured(
        "SECRET_KEY must be set when DEBUG is off: a long random string, kept secret and kept "
        "the same across restarts (make serve keeps one in var/secret_key).")

ALLOWED_HOSTS = [h.strip() for h in os.getenv("ALLOWED_HOSTS", "").split(",") if h.strip()]
if DEBUG:
    ALLOWED_HOSTS += ["localhost", "127.0.0.1", "[::1]", "testserver"]
elif not ALLOWED_HOSTS:
    # Without it every request would be answered "400 Bad Request" and nothing would say why.
    raise ImproperlyConfigured(
        "ALLOWED_HOSTS must be set when DEBUG is off: the site's host names, comma-separated "
        "(e.g. ALLOWED_HOSTS=skat.example.org).")
CSRF_TRUSTED_ORIGINS = [o for o in os.getenv("CSRF_TRUSTED_ORIGINS", "").split(",") if o]
# A tablet's JSON sync request with a stale token is answered in JSON (scoring/views/sync.py).
CSRF_FAILURE_VIEW = "scoring.views.sync.csrf_failure"

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django_htmx",
    "django_tables2",
    "scoring",
]

MIDDLEWARE = [
    # First: the request's id (for every log line it writes) and, from our own proxies only,
    # the client's address and scheme (skatclub/middleware.py), before anything reads them.
    "skatclub.middleware.RequestIdMiddleware",
    "skatclub.middleware.ProxyHeadersMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "skatclub.csp.ContentSecurityPolicyMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
]

ROOT_URLCONF = "skatclub.urls"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

WSGI_APPLICATION = "skatclub.wsgi.application"

# ---------------------------------------------------------------- database

# DATABASE_URL names the database for every Django backend (django-environ reads it):
# postgres://user:pass@host:port/name, postgres://user@/name?host=/run/postgresql (a unix
# socket), sqlite:////absolute/path.sqlite3 or sqlite:///relative/to/the/checkout.sqlite3.
# Unset (or empty): SQLite in SQLITE_PATH, by default db.sqlite3 in the checkout.
SQLITE_PATH = os.getenv("SQLITE_PATH") or str(BASE_DIR / "db.sqlite3")
DATABASES: dict[str, dict[str, Any]] = {"default": (
    env.db_url_config(os.environ["DATABASE_URL"]) if os.getenv("DATABASE_URL")
    else {"ENGINE": "django.db.backends.sqlite3", "NAME": SQLITE_PATH})}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    _sqlite: dict[str, Any] = DATABASES["default"]
    if _sqlite["NAME"] != ":memory:" and not Path(_sqlite["NAME"]).is_absolute():
        _sqlite["NAME"] = str(BASE_DIR / _sqlite["NAME"])
    _sqlite["OPTIONS"] = {
        # Tablets write at the same time: a write transaction takes the lock when it begins
        # (no deadlock between two readers upgrading to writers), waits up to 20 s for it, and
        # the write-ahead log lets the sheet pages read meanwhile. WAL with synchronous=FULL
        # still syncs every commit: a saved deal survives a power cut.
        "transaction_mode": "IMMEDIATE",
        "timeout": 20,
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=FULL;",
        **_sqlite.get("OPTIONS", {}),
    }
# Connection reuse: a worker keeps its connection this many seconds (0: one per request,
# Django's default; make serve uses 60), checked before it is reused after a request, so a
# restarted database server costs no failed request.
DATABASES["default"].setdefault("CONN_MAX_AGE", envint("CONN_MAX_AGE", "0"))
DATABASES["default"].setdefault("CONN_HEALTH_CHECKS", envbool("CONN_HEALTH_CHECKS", "1"))

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# ---------------------------------------------------------------- caches

# Everything cached is shared by every worker process and every machine of the site: the
# polled pages' parts and the sessions (default; the limits' counts are in the database),
# each table's results (results) and rendered PDFs (pdf). CACHE_URL names a Redis server (redis://host:port/db,
# rediss:// for TLS, redis://:password@host/db), used through Django's own Redis backend;
# unset, the caches are tables in the database (created by migrate), which every worker of
# one site reaches already. Each alias has its own key prefix (and, in the database, its own
# table), so that one never culls another's entries. CACHE_KEY_PREFIX sets them apart when
# several sites share one Redis.
# Django's own Redis backend, degraded to an empty cache while the server cannot be reached
# (skatclub/cache.py): a read is a miss, a write is dropped, the site goes on from the database.
REDIS_CACHE = "skatclub.cache.ResilientRedisCache"
CACHE_KEY_PREFIX = os.getenv("CACHE_KEY_PREFIX", "skatclub")


def cache_config(alias: str, timeout: int | None, max_entries: int) -> dict[str, Any]:
    """One alias of the shared cache: Redis from CACHE_URL, else a table in the database.
    Redis has no entry limit of its own (give it maxmemory), the database culls beyond
    ``max_entries``."""
    prefix = f"{CACHE_KEY_PREFIX}:{alias}"
    if os.getenv("CACHE_URL"):
        config = env.cache_url_config(os.environ["CACHE_URL"])
        if "redis" in str(config["BACKEND"]).lower():
            config["BACKEND"] = REDIS_CACHE  # django-environ's default is django-redis
        return {**config, "KEY_PREFIX": prefix, "TIMEOUT": timeout}
    table = "skatclub_cache" if alias == "default" else f"skatclub_cache_{alias}"
    return {"BACKEND": "django.core.cache.backends.db.DatabaseCache", "LOCATION": table,
            "KEY_PREFIX": prefix, "TIMEOUT": timeout, "OPTIONS": {"MAX_ENTRIES": max_entries}}


CACHES = {
    # The polled pages' rendered parts, the signed-in accounts, the boards' versions.
    # Also the sessions (SESSION_CACHE_ALIAS below), each kept until the session expires.
    "default": cache_config("default", 300, envint("CACHE_ENTRIES", "100000")),
    # Rendered PDFs (scoring.pdf), keyed by the versions of what they print; old versions
    # age out.
    "pdf": cache_config("pdf", envint("PDF_CACHE_SECONDS", str(60 * 60 * 24 * 30)),
                        envint("PDF_CACHE_ENTRIES", "1000")),
    # Each table's results for rankings and statistics (scoring/reads/results.py). An entry is
    # keyed by the table's version, so it never goes stale; old versions are culled. A season
    # of 40 evenings at 12 tables is 480 entries.
    "results": cache_config("results", None, envint("RESULTS_CACHE_ENTRIES", "10000")),
}

# Sessions are read from the shared cache (Redis with CACHE_URL, else the database cache
# table) and written through to the database (django_session): a signed-in request then
# costs no session query on Redis, and flushing the cache signs nobody out. They use the
# default alias; its TIMEOUT and MAX_ENTRIES do not end a session early: the session backend
# gives each entry the session's own expiry, and an entry culled or evicted (the database
# cache culls beyond CACHE_ENTRIES, Redis evicts under maxmemory) is read from the database
# again on the next request: it costs one query, it never signs anyone out. Signing out
# deletes the session from both.
SESSION_ENGINE = "django.contrib.sessions.backends.cached_db"
SESSION_CACHE_ALIAS = "default"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

# Accounts come from the first-run set-up, invitations of club admins, the registration of
# a club (if open), the members page or the Django admin.
# Django's sign-in with the signed-in account kept in the shared cache (scoring/access.py).
AUTHENTICATION_BACKENDS = ["scoring.access.SignedInBackend"]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "scoring:home"
LOGOUT_REDIRECT_URL = "scoring:home"

# ---- Limits (docs/operators/limits.md). Wrong passwords and table codes are counted in the
# database (scoring.models.FailureCount: no cache traffic evicts them) per (address, account)
# and per (address, device), an IPv6 address by its /64; the first *_FREE_*
# cost nothing, then each attempt waits *_DELAY seconds, doubled per further failure, up to
# *_MAX_DELAY (at most the window less a second); a count is forgotten *_FAILURE_WINDOW
# seconds after its last failure. The per-address allowance (0: none) stops one address
# guessing across accounts or devices.
# What one upload on the import page may make the site do (issue 26): its size, the entries
# it may hold, the objects and lists of its JSON, the lines of a CSV, and the seconds its check
# may take. A larger file is imported on the server with manage.py import_club.
IMPORT_MAX_BYTES = envint("IMPORT_MAX_BYTES", str(8 * 1024 * 1024))
IMPORT_MAX_EVENINGS = envint("IMPORT_MAX_EVENINGS", "1000")
IMPORT_MAX_TABLES = envint("IMPORT_MAX_TABLES", "5000")
IMPORT_MAX_DEALS = envint("IMPORT_MAX_DEALS", "50000")
IMPORT_MAX_PLAYERS = envint("IMPORT_MAX_PLAYERS", "2000")
IMPORT_MAX_OBJECTS = envint("IMPORT_MAX_OBJECTS", "250000")
IMPORT_MAX_LINES = envint("IMPORT_MAX_LINES", "50000")
IMPORT_MAX_SECONDS = envint("IMPORT_MAX_SECONDS", "15")
# How many uploads (checks and confirmations) run at once on the whole site, and how many
# one account, or one client address, may start per hour: a check may take IMPORT_MAX_SECONDS
# of a worker, and the tablets need the others.
IMPORT_CHECKS_AT_ONCE = envint("IMPORT_CHECKS_AT_ONCE", "1")
IMPORT_UPLOADS_PER_HOUR = envint("IMPORT_UPLOADS_PER_HOUR", "20")

LOGIN_FREE_FAILURES = envint("LOGIN_FREE_FAILURES", "5")
LOGIN_FREE_FAILURES_PER_ADDRESS = envint("LOGIN_FREE_FAILURES_PER_ADDRESS", "30")
LOGIN_DELAY = envint("LOGIN_DELAY", "1")  # seconds
LOGIN_MAX_DELAY = envint("LOGIN_MAX_DELAY", "900")  # seconds
LOGIN_FAILURE_WINDOW = envint("LOGIN_FAILURE_WINDOW", "3600")  # seconds
TABLE_CODE_FREE_FAILURES = envint("TABLE_CODE_FREE_FAILURES", "5")
TABLE_CODE_FREE_FAILURES_PER_ADDRESS = envint("TABLE_CODE_FREE_FAILURES_PER_ADDRESS", "200")
TABLE_CODE_DELAY = envint("TABLE_CODE_DELAY", "1")  # seconds
TABLE_CODE_MAX_DELAY = envint("TABLE_CODE_MAX_DELAY", "3600")  # seconds
TABLE_CODE_FAILURE_WINDOW = envint("TABLE_CODE_FAILURE_WINDOW", "7200")  # seconds
# PDFs: how many render at once on one instance (the rest wait up to PDF_WAIT_SECONDS, then
# 503 with Retry-After), so that deal saves keep workers; 0 s waits not at all, as a waiting
# request holds a sync worker. PDF_RENDER_TIMEOUT frees a render's lock and slot if its worker
# dies; PDF_INSTANCE names the instance (default: host name).
PDF_RENDERS_AT_ONCE = envint("PDF_RENDERS_AT_ONCE", "1")

# Held operations (what tablets sent after the evening was closed or their code ran out,
# views/held.py): at most this many wait per sending device (an account, or a table code's
# device) and evening; beyond it /sync/ answers 429 and the tablet keeps the operation. One
# held record is at most HELD_RECORD_BYTES of JSON (a deal record is well under 1 KB).
HELD_PER_DEVICE = envint("HELD_PER_DEVICE", "50")
HELD_RECORD_BYTES = envint("HELD_RECORD_BYTES", "4096")
PDF_WAIT_SECONDS = envint("PDF_WAIT_SECONDS", "0")
PDF_RENDER_TIMEOUT = envint("PDF_RENDER_TIMEOUT", "120")
PDF_INSTANCE = os.getenv("PDF_INSTANCE", "")
# A PDF renders in a child process this much nicer than the worker (0: in the worker), so that
# on a busy machine the tablets' saves in the other workers get the processor first.
PDF_RENDER_NICE = envint("PDF_RENDER_NICE", "10")

# Self-service registration of new clubs on a hosted site (issue 16): closed unless switched
# on; registrations per address within the window (in the cache).
CLUB_REGISTRATION = envbool("CLUB_REGISTRATION", "0")
REGISTRATION_MAX_PER_ADDRESS = envint("REGISTRATION_MAX_PER_ADDRESS", "5")
REGISTRATION_WINDOW = envint("REGISTRATION_WINDOW", "3600")  # seconds

# Online self-registration for a tournament (issue 24): registrations within the window per
# client address (an IPv6 client's /64) and per e-mail address typed (counted in the
# database); how long a confirmation link works.
SIGNUPS_PER_ADDRESS = envint("SIGNUPS_PER_ADDRESS", "10")
SIGNUPS_PER_EMAIL = envint("SIGNUPS_PER_EMAIL", "3")
SIGNUP_WINDOW = envint("SIGNUP_WINDOW", "3600")  # seconds
SIGNUP_CONFIRM_HOURS = envint("SIGNUP_CONFIRM_HOURS", "48")
# An unconfirmed registration holds its place, its name and its team or tandem slot only so
# many minutes (issue 35); its link may confirm later while a place is free. Each tournament
# takes at most so many registrations per client address (an IPv6 client's /64) within
# SIGNUP_WINDOW: tighter than SIGNUPS_PER_ADDRESS, the site's over all tournaments.
SIGNUP_HOLD_MINUTES = envint("SIGNUP_HOLD_MINUTES", "30")
SIGNUPS_PER_ADDRESS_PER_TOURNAMENT = envint("SIGNUPS_PER_ADDRESS_PER_TOURNAMENT", "3")

# "Forgot your password" mails (docs/operators/limits.md): at most so many within the window per
# e-mail address typed, per account and per client address (an IPv6 client's /64); past
# them the page answers as always, and no mail goes out.
PASSWORD_RESET_MAILS_PER_EMAIL = envint("PASSWORD_RESET_MAILS_PER_EMAIL", "3")
PASSWORD_RESET_MAILS_PER_ACCOUNT = envint("PASSWORD_RESET_MAILS_PER_ACCOUNT", "3")
PASSWORD_RESET_MAILS_PER_CLIENT = envint("PASSWORD_RESET_MAILS_PER_CLIENT", "10")
PASSWORD_RESET_WINDOW = envint("PASSWORD_RESET_WINDOW", "3600")  # seconds

# The site's address for the links in its mails (password reset, invitations, registration
# confirmations): never the request's Host header, which the client chooses.
SITE_URL = os.getenv("SITE_URL", "http://127.0.0.1:8000").rstrip("/")

# German first: the clubs keep their lists in German; English is the second language.
LANGUAGE_CODE = "de"
LANGUAGES = [("de", _("German")), ("en", _("English"))]
LOCALE_PATHS = [BASE_DIR / "scoring" / "locale"]
TIME_ZONE = os.getenv("TIME_ZONE", "Europe/Berlin")
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
# Where collectstatic puts the files WhiteNoise serves (STATIC_ROOT: another folder, e.g. for
# a second checkout's or a test's own collection).
STATIC_ROOT = Path(os.getenv("STATIC_ROOT") or BASE_DIR / "staticfiles")
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        # collectstatic writes the same files whatever DEBUG says (hashed, compressed, the
        # manifest staticfiles.json), so that what make install collects with DEBUG=1 serves
        # a DEBUG=0 gunicorn too. With DEBUG off the pages link the hashed names; with DEBUG
        # on (development, the tests) the plain ones, found in the source folders
        # (skatclub/storage.py). Either way a big file's compressed copies are kept between
        # collections (COMPRESSED_CACHE, skatclub/storage.py).
        "BACKEND": "skatclub.storage.CollectedAsInProduction"
        if DEBUG
        else "skatclub.storage.CompressedManifestWithCache",
    },
}

# The scoring engine's Web Worker gets a policy of its own, and the vendored Pyodide (in a
# folder named after its version) is cached for good (skatclub/csp.py).
WHITENOISE_ADD_HEADERS_FUNCTION = static_file_headers

DJANGO_TABLES2_TEMPLATE = "django_tables2/table.html"

# ---------------------------------------------------------------- security headers

# Every page, in development too (so that a page that breaks the policy shows up before it
# is deployed): scripts, styles and images from our own origin only (skatclub/csp.py).
X_FRAME_OPTIONS = "DENY"
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
SECURE_CROSS_ORIGIN_OPENER_POLICY = "same-origin"

if not DEBUG:
    # Production: the site is reached over HTTPS only, usually through a TLS proxy (nginx,
    # Caddy) in front of gunicorn. Each knob can be turned off for a set-up that needs it.
    SESSION_COOKIE_SECURE = envbool("SECURE_COOKIES", "1")
    CSRF_COOKIE_SECURE = envbool("SECURE_COOKIES", "1")
    SECURE_SSL_REDIRECT = envbool("SECURE_SSL_REDIRECT", "1")
    # Browsers remember to use HTTPS only for this long (a year); SECURE_HSTS_SECONDS=0 turns
    # it off. Sub-domains and the preload list are opt-in (check --deploy warns W005 and
    # W021 until they are on): a club's domain often has sub-domains it does not run, which
    # includeSubDomains would lock out of plain HTTP for a year, and preloading is hard to undo.
    SECURE_HSTS_SECONDS = envint("SECURE_HSTS_SECONDS", str(60 * 60 * 24 * 365))
    SECURE_HSTS_INCLUDE_SUBDOMAINS = envbool("SECURE_HSTS_INCLUDE_SUBDOMAINS", "0")
    SECURE_HSTS_PRELOAD = envbool("SECURE_HSTS_PRELOAD", "0")

# ---------------------------------------------------------------- proxies

# Behind a proxy (nginx, Caddy, a load balancer) Django sees the proxy's address and plain
# HTTP. TRUSTED_PROXIES lists the proxies' addresses or networks (comma-separated, e.g.
# "127.0.0.1,::1" for a proxy on the same machine, "10.0.0.0/8"): from them, and only from
# them, X-Forwarded-For gives the client's address (which the limits count) and
# X-Forwarded-Proto the scheme (skatclub/middleware.py); gunicorn believes the scheme from the
# same addresses (skatclub/gunicorn_conf.py). Empty by default: nobody is believed.
try:
    TRUSTED_PROXIES = parse_networks(os.getenv("TRUSTED_PROXIES", ""))
except ValueError as err:
    raise ImproperlyConfigured(str(err)) from None
if os.getenv("SECURE_PROXY_SSL_HEADER"):
    # It used to be believed from every client; the proxy middleware replaces it.
    raise ImproperlyConfigured(
        "SECURE_PROXY_SSL_HEADER is no longer read: set TRUSTED_PROXIES to your proxy's "
        "address (e.g. TRUSTED_PROXIES=127.0.0.1,::1); X-Forwarded-Proto is believed from it "
        "and from nobody else.")
# A load balancer asks /healthz over plain HTTP.
SECURE_REDIRECT_EXEMPT = [r"^healthz$"]

# ---------------------------------------------------------------- e-mail

# EMAIL_URL: smtp+tls://user:pass@host:587 (STARTTLS), smtp+ssl://user:pass@host:465
# (TLS from the start), smtp://host:25 (plain); a user name with an @ is written %40. Unset:
# with DEBUG on, mails are printed on the console; with DEBUG off, Django's default (SMTP on
# localhost:25). Every failed mail is logged by the "skatclub.mail" logger.
if os.getenv("EMAIL_URL"):
    _email = env.email_url_config(os.environ["EMAIL_URL"])
    EMAIL_BACKEND = _email["EMAIL_BACKEND"]
    EMAIL_HOST = _email["EMAIL_HOST"] or "localhost"
    EMAIL_USE_TLS = bool(_email.get("EMAIL_USE_TLS", False))
    EMAIL_USE_SSL = bool(_email.get("EMAIL_USE_SSL", False))
    EMAIL_PORT = _email["EMAIL_PORT"] or (465 if EMAIL_USE_SSL else 587 if EMAIL_USE_TLS else 25)
    EMAIL_HOST_USER = _email["EMAIL_HOST_USER"] or ""
    EMAIL_HOST_PASSWORD = _email["EMAIL_HOST_PASSWORD"] or ""
elif DEBUG:
    EMAIL_BACKEND = "django.core.mail.backends.console.EmailBackend"
EMAIL_TIMEOUT = envint("EMAIL_TIMEOUT", "10")  # seconds; a hanging server must not hang a page
DEFAULT_FROM_EMAIL = os.getenv("DEFAULT_FROM_EMAIL", "Skatclub <webmaster@localhost>")
SERVER_EMAIL = DEFAULT_FROM_EMAIL

# ---------------------------------------------------------------- logging

# One stream, standard error (gunicorn's and systemd's journal keep it), with DEBUG on or
# off: every 500 with its traceback (logger django.request), every failed e-mail
# (skatclub.mail), the health checks that fail (skatclub.health); each line carries the id
# of the request that wrote it (skatclub/logs.py). LOG_LEVEL (default INFO) sets how much.
LOG_LEVEL = os.getenv("LOG_LEVEL", "INFO").upper()
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {"request_id": {"()": "skatclub.logs.RequestIdFilter"}},
    "formatters": {
        "line": {"format": "%(asctime)s %(levelname)s [%(request_id)s] %(name)s: %(message)s"},
    },
    "handlers": {
        "stderr": {"class": "logging.StreamHandler", "formatter": "line",
                   "filters": ["request_id"], "level": LOG_LEVEL},
    },
    "root": {"handlers": ["stderr"], "level": "WARNING"},
    "loggers": {
        # Replaces Django's own handlers (console only with DEBUG on, mail to ADMINS), so
        # that a 500 under DEBUG=0 is written too (runserver's request lines, django.server,
        # keep Django's own handler).
        "django": {"handlers": ["stderr"], "level": "INFO", "propagate": False},
        "skatclub": {"handlers": ["stderr"], "level": "INFO", "propagate": False},
        "scoring": {"handlers": ["stderr"], "level": "INFO", "propagate": False},
    },
}
