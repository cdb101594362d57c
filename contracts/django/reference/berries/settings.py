"""Settings of the reference backend: a plain Django 3.2 + DRF 3.14 project on SQLite.

Everything that the storefront's contract depends on is marked "guide:" (contracts/README.md,
"Django settings"); the rest is an ordinary development setup. Configured from the environment:

    DJANGO_DATA_DIR        the SQLite file and the media live here (default: <tmp>/berries-django)
    DJANGO_DEBUG           1 (default) or 0
    DJANGO_ALLOWED_HOSTS   comma-separated (default: 127.0.0.1,localhost,backend.internal,shop.example)
    DJANGO_SECRET_KEY      anything long and secret outside development
    DJANGO_SHOP_ADDRESSES  comma-separated networks the shop calls from (default: loopback)
    PACT_PROVIDER_STATES   1: mount the pact's provider-state view at /_pact/provider-states
    DJANGO_SHOP_HOOK_URL   the shop's change hook, through its nginx (https://shop.example/hooks/changed)
    DJANGO_SHOP_HOOK_SECRET  the secret the shop has as CHANGE_HOOK_SECRET
"""

import os
import tempfile
from pathlib import Path

BASE_DIR = Path(__file__).resolve().parent.parent
DATA_DIR = Path(os.environ.get("DJANGO_DATA_DIR") or Path(tempfile.gettempdir(), "berries-django"))

SECRET_KEY = os.environ.get("DJANGO_SECRET_KEY", "reference-backend-development-key-not-a-secret")
# A development backend: DEBUG by default. Its HTML error pages must never reach a shopper; the
# shop's proxy hides them.
DEBUG = os.environ.get("DJANGO_DEBUG", "1") == "1"
# guide: the backend's own names, and the shop's public name that X-Forwarded-Host carries (the
# pact's server calls name shop.example).
ALLOWED_HOSTS = os.environ.get(
    "DJANGO_ALLOWED_HOSTS", "127.0.0.1,localhost,backend.internal,shop.example"
).split(",")

# Behind the shop's proxy, which sends X-Forwarded-Host/-Proto/-For: absolute URLs (the photos'
# `image`) then name the shop's address and scheme, not the backend's internal one. Trust these
# headers only when the backend is reachable through that proxy alone.
USE_X_FORWARDED_HOST = True
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
# guide: where the shop's servers call from (here the same machine); shop.middleware believes
# their X-Forwarded-For only.
SHOP_ADDRESSES = os.environ.get("DJANGO_SHOP_ADDRESSES", "127.0.0.0/8,::1/128").split(",")

INSTALLED_APPS = [
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "rest_framework",
    "rest_framework.authtoken",
    "shop",
]

MIDDLEWARE = [
    # First, so that everything below (and the log line) sees the visitor, not the proxy.
    "shop.middleware.VisitorAddressMiddleware",
    "django.middleware.security.SecurityMiddleware",
    # guide: the anonymous visitor's basket and orders belong to the session (`sessionid`).
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    # guide: sets the `csrftoken` cookie when a view asks for the token; the basket view does
    # (ensure_csrf_cookie). DRF's views are CSRF-exempt here: CsrfSessionAuthentication checks.
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
]
CSRF_COOKIE_HTTPONLY = False  # guide: the app reads the cookie and sends it as X-CSRFToken

ROOT_URLCONF = "berries.urls"
TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "APP_DIRS": True,
        "OPTIONS": {"context_processors": ["django.template.context_processors.request"]},
    }
]

DATABASES = {
    "default": {"ENGINE": "django.db.backends.sqlite3", "NAME": DATA_DIR / "db.sqlite3"},
}
DEFAULT_AUTO_FIELD = "django.db.models.AutoField"

REST_FRAMEWORK = {
    # guide: prices, amounts, stock and sums are JSON numbers (890.0), not "890.00".
    "COERCE_DECIMAL_TO_STRING": False,
    # guide: TokenAuthentication first, so a wrong or revoked token answers 401, not 403.
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.TokenAuthentication",
        "shop.authentication.CsrfSessionAuthentication",
    ],
    # guide: no DEFAULT_PAGINATION_CLASS, every list is a plain JSON array.
    # JSON only: the shop asks for nothing else (DRF's browsable API would want staticfiles).
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"],
}

# Russian error texts (DRF's own: «Убедитесь, что значение меньше или равно 10.») and the shop's
# local time: timestamps go out as "2026-11-20T14:05:00.123456+03:00".
LANGUAGE_CODE = "ru"
USE_I18N = True
USE_TZ = True  # guide: timestamps carry their offset
TIME_ZONE = "Europe/Moscow"

# Photos and the policy PDF, served by Django itself (also with DEBUG off: berries/urls.py). A
# production site would let its web server or object storage do this.
MEDIA_URL = "/media/"
MEDIA_ROOT = DATA_DIR / "media"

PACT_PROVIDER_STATES = os.environ.get("PACT_PROVIDER_STATES") == "1"

# guide: tell the shop what changed (shop/changes.py); unset, nothing is sent.
SHOP_CHANGE_HOOK_URL = os.environ.get("DJANGO_SHOP_HOOK_URL", "")
SHOP_CHANGE_HOOK_SECRET = os.environ.get("DJANGO_SHOP_HOOK_SECRET", "")

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    # runserver's own request line names the proxy (127.0.0.1); shop.middleware logs the visitor.
    "handlers": {"none": {"class": "logging.NullHandler"}},
    "loggers": {"django.server": {"handlers": ["none"], "propagate": False}},
}
