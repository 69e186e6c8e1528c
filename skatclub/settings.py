"""Settings for Skatclub: one file, every deployment knob read from the environment."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, unquote, urlsplit

import django_stubs_ext
from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _

from skatclub.csp import static_file_headers

# Django classes that django-stubs makes generic (ModelAdmin[Club], ModelForm[Evening],
# BaseFormSet[...]) get the __class_getitem__ that lets them be subscripted as base classes.
django_stubs_ext.monkeypatch()

BASE_DIR = Path(__file__).resolve().parent.parent


def envbool(name: str, default: str) -> bool:
    return os.getenv(name, default).strip().lower() in {"1", "true", "yes", "on"}


def envint(name: str, default: str) -> int:
    return int(os.getenv(name, default))


def database_from_url(url: str) -> dict[str, Any]:
    """Turn postgres://user:pass@host:port/name[?host=/socket/dir] into a DATABASES entry."""
    parts = urlsplit(url)
    if parts.scheme not in {"postgres", "postgresql"}:
        raise ValueError(f"DATABASE_URL: unsupported scheme {parts.scheme!r}")
    query = parse_qs(parts.query)
    # ?host= wins over the netloc so that a unix-socket directory can be given,
    # which has no place in the netloc ("postgres://user@/db?host=/run/pg").
    host = query.get("host", [parts.hostname or ""])[0]
    return {
        "ENGINE": "django.db.backends.postgresql",
        "NAME": unquote(parts.path.lstrip("/")),
        "USER": unquote(parts.username or ""),
        "PASSWORD": unquote(parts.password or ""),
        "HOST": host,
        "PORT": str(parts.port or ""),
        "CONN_MAX_AGE": envint("DB_CONN_MAX_AGE", "0"),
    }


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

if os.getenv("DATABASE_URL"):
    DATABASES = {"default": database_from_url(os.environ["DATABASE_URL"])}
else:
    DATABASES = {
        "default": {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": os.getenv("SQLITE_PATH", str(BASE_DIR / "db.sqlite3")),
            "OPTIONS": {
                # Tablets write at the same time: a write transaction takes the lock when it
                # begins (no deadlock between two readers upgrading to writers), waits up to
                # 20 s for it, and the write-ahead log lets the sheet pages read meanwhile.
                # WAL with synchronous=FULL still syncs every commit: a saved deal survives
                # a power cut.
                "transaction_mode": "IMMEDIATE",
                "timeout": 20,
                "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=FULL;",
            },
        }
    }

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

CACHES = {
    "default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"},
    # Rendered PDFs (scoring.pdf), keyed by the versions of what they print: files, so that
    # every worker process serves what one of them rendered. Old versions age out.
    "pdf": {
        "BACKEND": "django.core.cache.backends.filebased.FileBasedCache",
        "LOCATION": os.getenv("PDF_CACHE_DIR", str(BASE_DIR / "var" / "pdf-cache")),
        "TIMEOUT": envint("PDF_CACHE_SECONDS", str(60 * 60 * 24 * 30)),
        "OPTIONS": {"MAX_ENTRIES": envint("PDF_CACHE_ENTRIES", "1000")},
    },
    # Each table's results for rankings and statistics (scoring/reads/results.py). An entry is keyed
    # by the table's version, so it never goes stale and needs no timeout; old versions are
    # culled least recently used first. A season of 40 evenings at 12 tables is 480 entries.
    "results": {
        "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
        "LOCATION": "table-results",
        "TIMEOUT": None,
        "OPTIONS": {"MAX_ENTRIES": envint("RESULTS_CACHE_ENTRIES", "10000")},
    },
}

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

# Accounts come from the first-run set-up, invitations of club admins, the registration of
# a club (if open), the members page or the Django admin.
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "scoring:home"
LOGOUT_REDIRECT_URL = "scoring:home"

# ---- Limits (issue 15; README "Limits"). Wrong passwords and table codes are counted in the
# shared default cache per (address, account) and per (address, device); the first *_FREE_*
# cost nothing, then each attempt waits *_DELAY seconds, doubled per further failure, up to
# *_MAX_DELAY (at most the window less a second); a count is forgotten *_FAILURE_WINDOW
# seconds after its last failure. The per-address allowance (0: none) stops one address
# guessing across accounts or devices.
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
PDF_WAIT_SECONDS = envint("PDF_WAIT_SECONDS", "0")
PDF_RENDER_TIMEOUT = envint("PDF_RENDER_TIMEOUT", "120")
PDF_INSTANCE = os.getenv("PDF_INSTANCE", "")

# Self-service registration of new clubs on a hosted site (issue 16): closed unless switched
# on; registrations per address within the window (in the cache).
CLUB_REGISTRATION = envbool("CLUB_REGISTRATION", "0")
REGISTRATION_MAX_PER_ADDRESS = envint("REGISTRATION_MAX_PER_ADDRESS", "5")
REGISTRATION_WINDOW = envint("REGISTRATION_WINDOW", "3600")  # seconds

# German first: the clubs keep their lists in German; English is the second language.
LANGUAGE_CODE = "de"
LANGUAGES = [("de", _("German")), ("en", _("English"))]
LOCALE_PATHS = [BASE_DIR / "scoring" / "locale"]
TIME_ZONE = os.getenv("TIME_ZONE", "Europe/Berlin")
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = BASE_DIR / "staticfiles"
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        # Hashed names need a collectstatic manifest; dev and tests run without one.
        "BACKEND": "whitenoise.storage.CompressedStaticFilesStorage"
        if DEBUG
        else "whitenoise.storage.CompressedManifestStaticFilesStorage"
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

# Behind a TLS proxy, Django sees plain HTTP from the proxy; the proxy says in a header that
# the browser used HTTPS. SECURE_PROXY_SSL_HEADER names that header (usually
# X-Forwarded-Proto). Set it only when the proxy always sets or overwrites the header:
# otherwise a client could claim HTTPS itself.
if os.getenv("SECURE_PROXY_SSL_HEADER"):
    SECURE_PROXY_SSL_HEADER = (
        "HTTP_" + os.environ["SECURE_PROXY_SSL_HEADER"].strip().upper().replace("-", "_"),
        "https",
    )
