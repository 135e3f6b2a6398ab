"""The one settings module, read from the environment.

Defaults give the embedded demo mode: SQLite, Celery tasks run eagerly in the web process, local-memory
cache, media on the local disk. Production sets DATABASE_URL (PostgreSQL), REDIS_URL (broker + cache),
SECRET_KEY, DEBUG=false, ALLOWED_HOSTS and, for workers on other machines, the S3 storage variables.
"""

from __future__ import annotations

from pathlib import Path

import environ
from django.core.exceptions import ImproperlyConfigured

BASE_DIR = Path(__file__).resolve().parent.parent

env = environ.Env()
if env.bool("DJANGO_READ_DOT_ENV_FILE", default=False):
    environ.Env.read_env(BASE_DIR / ".env")

DEBUG = env.bool("DEBUG", default=True)
# The default key only serves the embedded demo; deployments must set SECRET_KEY.
SECRET_KEY = env.str("SECRET_KEY", default="insecure-demo-key-set-SECRET_KEY-in-production-0123456789")
ALLOWED_HOSTS = env.list("ALLOWED_HOSTS", default=["127.0.0.1", "localhost", "testserver"])
CSRF_TRUSTED_ORIGINS = env.list("CSRF_TRUSTED_ORIGINS", default=[])

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "rest_framework",
    "drf_spectacular",
    # Redoc and Swagger UI as static files of a pinned package, served by us (registry.core.api_docs).
    "drf_spectacular_sidecar",
    "django_filters",
    "simple_history",
    "registry",
    "submissions",
    "frontend",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    # Every error under /api/ as JSON, whichever middleware below answered it (413, 429, CSRF 403).
    "registry.core.api_errors.ApiJsonErrorsMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # Below WhiteNoise (static files come precompressed), above everything that makes a body, so the
    # public cache's answers are compressed too; what it leaves alone for BREACH: registry.core.compression.
    "registry.core.compression.TextGZipMiddleware",
    # Outside the public cache, so its answers get the Content-Security-Policy too.
    "registry.core.security_headers.SecurityHeadersMiddleware",
    # Early: a cached public page or chart costs no session, log-in check, URL lookup or query.
    "registry.core.public_cache.PublicCacheMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "simple_history.middleware.HistoryRequestMiddleware",
    # Last, so that its log-in check runs after the CSRF check and right before the view.
    "registry.core.ratelimit.RateLimitMiddleware",
    "registry.core.errors.DatabaseErrorMiddleware",
]

ROOT_URLCONF = "registry.urls"
WSGI_APPLICATION = "registry.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
            # The filters that neutralise bidi controls in text people typed (isolate, no_bidi).
            "builtins": ["registry.core.text"],
        },
    },
]

DATABASES = {"default": env.db("DATABASE_URL", default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}")}
# Pipeline writes are short; keep connections for a minute to spare PostgreSQL the reconnects.
DATABASES["default"]["CONN_MAX_AGE"] = env.int("CONN_MAX_AGE", default=60)
# A kept connection is checked before each request reuses it, so a database restart costs no request.
DATABASES["default"]["CONN_HEALTH_CHECKS"] = True
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

REDIS_URL = env.str("REDIS_URL", default="")
# The cache may live in its own Redis database: clearing it then never drops queued Celery tasks.
CACHE_URL = env.str("CACHE_URL", default=REDIS_URL)
# Bytes of public answers each web process also keeps in its own memory (registry.core.public_cache).
PUBLIC_CACHE_LOCAL_BYTES = env.int("PUBLIC_CACHE_LOCAL_BYTES", default=64 * 1024 * 1024)
# The abuse limits' counters (registry.core.ratelimit). The page cache may evict whatever it likes under
# memory pressure (allkeys-lru in docker/compose.yaml); a counter evicted would reopen a lock-out, so
# a deployment keeps them in a Redis that never evicts (the broker's, in its own database).
LIMITS_CACHE_URL = env.str("LIMITS_CACHE_URL", default=CACHE_URL)
if CACHE_URL:
    CACHES = {
        "default": {"BACKEND": "registry.core.cache_backend.ReusingRedisCache", "LOCATION": CACHE_URL},
        "limits": {"BACKEND": "registry.core.cache_backend.ReusingRedisCache", "LOCATION": LIMITS_CACHE_URL},
    }
else:
    CACHES = {
        "default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"},
        "limits": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "limits"},
    }

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
    # Not a rule: its password_changed hook revokes the account's API tokens on every new password.
    {"NAME": "submissions.accounts.passwords.RevokeApiTokensOnPasswordChange"},
]
# User names compared as people type them (NFKC, any case), as the log-in lock counts them.
AUTHENTICATION_BACKENDS = ["submissions.accounts.backends.NormalisedUsernameBackend"]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "submissions:after-login"
LOGOUT_REDIRECT_URL = "frontend:home"

LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = env.path("STATIC_ROOT", default=BASE_DIR / "staticfiles")
MEDIA_ROOT = env.path("MEDIA_ROOT", default=BASE_DIR / "media")
MEDIA_URL = "media/"

# Raw archives go through Django's storage API: the local MEDIA_ROOT by default, S3-compatible object
# storage when ARCHIVE_STORAGE=s3 so that web and workers can run on separate machines.
ARCHIVE_STORAGE = env.str("ARCHIVE_STORAGE", default="local")
if ARCHIVE_STORAGE == "s3":
    # Imported only here: a deployment on local archives never loads boto.
    from boto3.s3.transfer import TransferConfig
    from botocore.config import Config

    _default_storage = {
        "BACKEND": "storages.backends.s3.S3Storage",
        "OPTIONS": {
            "bucket_name": env.str("S3_BUCKET"),
            "endpoint_url": env.str("S3_ENDPOINT_URL", default=None),
            "access_key": env.str("S3_ACCESS_KEY_ID", default=None),
            "secret_key": env.str("S3_SECRET_ACCESS_KEY", default=None),
            "region_name": env.str("S3_REGION", default=None),
            "file_overwrite": False,
            "default_acl": "private",
            # botocore waits 60 s per read and retries up to 5 times: a hung server then held a web
            # worker for minutes. Every call gives up after S3_ATTEMPTS x S3_READ_TIMEOUT_S at most;
            # the timeout counts seconds without a byte moving, never the length of a transfer.
            "client_config": Config(
                connect_timeout=env.float("S3_CONNECT_TIMEOUT_S", default=2.0),
                read_timeout=env.float("S3_READ_TIMEOUT_S", default=5.0),
                retries={"total_max_attempts": env.int("S3_ATTEMPTS", default=2), "mode": "standard"},
            ),
            # boto3's transfers retry a broken download 5 times more on their own.
            "transfer_config": TransferConfig(num_download_attempts=env.int("S3_ATTEMPTS", default=2)),
        },
    }
else:
    _default_storage = {"BACKEND": "django.core.files.storage.FileSystemStorage"}
# A storage call that failed after hanging this long means the storage hangs: for the next
# STORAGE_PAUSE_AFTER_HANG_S that process answers 507/503 at once instead of waiting out the timeouts
# again (submissions.archives), so uploads and downloads cannot hold every web worker.
STORAGE_HUNG_AFTER_S = env.float("STORAGE_HUNG_AFTER_S", default=2.0)
STORAGE_PAUSE_AFTER_HANG_S = env.float("STORAGE_PAUSE_AFTER_HANG_S", default=30.0)
STORAGES = {
    "default": _default_storage,
    "staticfiles": {
        "BACKEND": (
            "whitenoise.storage.CompressedManifestStaticFilesStorage"
            if not DEBUG
            else "django.contrib.staticfiles.storage.StaticFilesStorage"
        )
    },
}

# Uploads above 2.5 MiB spool to disk instead of memory; archives are capped by the service.
FILE_UPLOAD_MAX_MEMORY_SIZE = 2_621_440
ARCHIVE_MAX_BYTES = env.int("ARCHIVE_MAX_BYTES", default=512 * 1024 * 1024)
DATA_UPLOAD_MAX_MEMORY_SIZE = 10 * 1024 * 1024

# Celery: without REDIS_URL tasks run eagerly in-process (the demo); with it, a real worker runs them.
CELERY_BROKER_URL = REDIS_URL or "memory://"
CELERY_RESULT_BACKEND = None
CELERY_TASK_ALWAYS_EAGER = env.bool("CELERY_TASK_ALWAYS_EAGER", default=not REDIS_URL)
CELERY_TASK_EAGER_PROPAGATES = False
CELERY_TASK_ACKS_LATE = True
# A worker killed mid-task leaves the message unacknowledged; Redis redelivers it after this delay.
# It must exceed CELERY_TASK_TIME_LIMIT, or a slow but healthy ingest would be delivered twice.
CELERY_BROKER_TRANSPORT_OPTIONS = {"visibility_timeout": env.int("CELERY_VISIBILITY_TIMEOUT", default=1800)}
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_TASK_TIME_LIMIT = 15 * 60
CELERY_TASK_SOFT_TIME_LIMIT = 10 * 60
CELERY_WORKER_HIJACK_ROOT_LOGGER = False

# Ingest recovery (submissions.ingest.lease): a worker renews its row's heartbeat every INGEST_HEARTBEAT_S;
# a `processing` row without a heartbeat for INGEST_STUCK_AFTER_MINUTES had its worker die, and a
# `received` row not picked up for as long lost its broker message: the requeue task, every
# INGEST_REQUEUE_EVERY_S, queues both again (so within 1.5 minutes by default), and a duplicate
# message for a row whose heartbeat is fresh is skipped. One that used up INGEST_MAX_ATTEMPTS ends
# `rejected` instead of looping on a poison archive.
INGEST_HEARTBEAT_S = env.float("INGEST_HEARTBEAT_S", default=15.0)
INGEST_STUCK_AFTER_MINUTES = env.float("INGEST_STUCK_AFTER_MINUTES", default=1.0)
INGEST_LEASE_S = INGEST_STUCK_AFTER_MINUTES * 60
if INGEST_HEARTBEAT_S * 2 > INGEST_LEASE_S:
    raise ImproperlyConfigured(
        f"INGEST_HEARTBEAT_S ({INGEST_HEARTBEAT_S:g} s) must be at most half the lease "
        f"(INGEST_STUCK_AFTER_MINUTES = {INGEST_LEASE_S:g} s), or live workers would look dead."
    )
INGEST_MAX_ATTEMPTS = env.int("INGEST_MAX_ATTEMPTS", default=3)
# How long a run token stays valid after it is issued (submissions/run_tokens): long enough for a
# job to wait in a batch queue and run all phases, short enough that a token stands for a fresh run.
RUN_TOKEN_LIFETIME_HOURS = env.float("RUN_TOKEN_LIFETIME_HOURS", default=7 * 24.0)
# At most this many unused, unexpired run tokens per account: enough for a campaign of runs, not a
# way to fill the table.
RUN_TOKEN_MAX_OPEN = env.int("RUN_TOKEN_MAX_OPEN", default=50)
# Where archives are unpacked while they are verified (the system temporary folder when empty).
INGEST_SCRATCH_DIR = env.str("INGEST_SCRATCH_DIR", default="")
# An attempt stopped by a fault of ours (scratch disk full, archive storage unreachable) waits this
# long before the requeue tries again, doubling with each fault up to the cap; it never ends rejected.
INGEST_FAULT_RETRY_S = env.float("INGEST_FAULT_RETRY_S", default=60.0)
INGEST_FAULT_RETRY_MAX_S = env.float("INGEST_FAULT_RETRY_MAX_S", default=3600.0)
CELERY_BEAT_SCHEDULE = {
    # Audits (submissions/audits): the draw once a release's deadline has passed (AoE), and the audit
    # requests whose answer time ran out marked "not answered in time".
    "draw-due-audits": {
        "task": "submissions.tasks.audits_draw_due",
        "schedule": env.float("AUDIT_DRAW_EVERY_S", default=900.0),
    },
    "mark-overdue-audits": {
        "task": "submissions.tasks.audits_mark_overdue",
        "schedule": env.float("AUDIT_OVERDUE_EVERY_S", default=900.0),
    },
    "requeue-stuck-submissions": {
        "task": "submissions.tasks.submission_requeue_stuck",
        "schedule": env.float("INGEST_REQUEUE_EVERY_S", default=30.0),
    },
    # The bulk downloads (frontend.lists.bulk): built after every change of the lists; this catches a
    # lost message and the end of an embargo, which changes what is public without a list change.
    "refresh-bulk-downloads": {
        "task": "frontend.lists.tasks.bulk_downloads_refresh",
        "schedule": env.float("BULK_REFRESH_EVERY_S", default=60.0),
    },
}

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "submissions.accounts.tokens.HashedTokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticatedOrReadOnly"],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "DEFAULT_FILTER_BACKENDS": ["django_filters.rest_framework.DjangoFilterBackend"],
    "EXCEPTION_HANDLER": "registry.core.api_errors.api_exception_handler",
}
# The docs page's introduction (Markdown): where to start, the token, one whole journey by curl.
API_DESCRIPTION = """Upload IO500 result tarballs, follow their verification, read the ranked lists.

Start at [/api/v1/](/api/v1/): it links every endpoint. Every error under /api/ is JSON with
its reason in `detail`, e.g. `{"detail": "...", "status": 404}`. [Back to the registry](/).

**Your token**: log in and create one on the [token page](/accounts/token/); send it as
`Authorization: Token io500_...`. Reading public lists and systems needs none.

**Upload and submit** (the bundled runner's `io500-submit` does all of this for you). Upload the
result tarball with its system description (202: stored, verification queued):

```
TOKEN=io500_...
curl -H "Authorization: Token $TOKEN" -F archive=@io500-results.tgz \\
     -F "system=$(cat system.json)" https://REGISTRY/api/v1/submissions/
```

Ask for the submission (its `url`) until `status` is verified, invalid or rejected:

```
curl -H "Authorization: Token $TOKEN" https://REGISTRY/api/v1/submissions/42/
```

Answer the questionnaire (GET it for the sections), then submit for review:

```
curl -X PUT -H "Authorization: Token $TOKEN" -H "Content-Type: application/json" \\
     -d @questionnaire.json https://REGISTRY/api/v1/submissions/42/questionnaire/
curl -X POST -H "Authorization: Token $TOKEN" -H "Content-Type: application/json" \\
     -d '{"reviewed": true, "followed_rules": true, "permission_to_publish": true}' \\
     https://REGISTRY/api/v1/submissions/42/submit/
```
"""
SPECTACULAR_SETTINGS = {
    "TITLE": "IO500 results registry API",
    "DESCRIPTION": API_DESCRIPTION,
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    # Never a CDN: the docs' scripts come from drf-spectacular-sidecar's static files.
    "REDOC_DIST": "SIDECAR",
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    # Several models have a "kind" choice; the per-entry decisions' gets a name of its own.
    "ENUM_NAME_OVERRIDES": {
        "EntryDecisionKindEnum": "submissions.review.models.EntryDecision.Kind",
        "AuditOutcomeEnum": "submissions.audits.models.AuditOutcome",
        "ObjectionAnswerOutcomeEnum": "submissions.audits.models.ObjectionAnswer.Outcome",
    },
}

EMAIL_BACKEND = env.str("EMAIL_BACKEND", default="django.core.mail.backends.console.EmailBackend")
# The demo prints mails on the console; a deployment sets EMAIL_BACKEND to the SMTP backend and these.
EMAIL_HOST = env.str("EMAIL_HOST", default="localhost")
EMAIL_PORT = env.int("EMAIL_PORT", default=25)
EMAIL_HOST_USER = env.str("EMAIL_HOST_USER", default="")
EMAIL_HOST_PASSWORD = env.str("EMAIL_HOST_PASSWORD", default="")
EMAIL_USE_TLS = env.bool("EMAIL_USE_TLS", default=False)
DEFAULT_FROM_EMAIL = env.str("DEFAULT_FROM_EMAIL", default="IO500 registry <registry@io500.invalid>")
# Links in e-mails (activation, review decisions) point here.
SITE_URL = env.str("SITE_URL", default="http://127.0.0.1:8000")
# An account activation link stays valid this long (also the password-reset link's lifetime).
PASSWORD_RESET_TIMEOUT = env.int("PASSWORD_RESET_TIMEOUT", default=3 * 24 * 3600)

SESSION_COOKIE_SECURE = env.bool("SESSION_COOKIE_SECURE", default=not DEBUG)
CSRF_COOKIE_SECURE = env.bool("CSRF_COOKIE_SECURE", default=not DEBUG)
SECURE_CONTENT_TYPE_NOSNIFF = True
X_FRAME_OPTIONS = "DENY"
# HTTPS only in production (`manage.py check --deploy` is clean with DEBUG=false and a real SECRET_KEY);
# each can be switched off for a plain-HTTP stack on localhost, e.g. the load benchmark.
SECURE_SSL_REDIRECT = env.bool("SECURE_SSL_REDIRECT", default=not DEBUG)
SECURE_HSTS_SECONDS = env.int("SECURE_HSTS_SECONDS", default=0 if DEBUG else 365 * 24 * 3600)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env.bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", default=not DEBUG)
SECURE_HSTS_PRELOAD = env.bool("SECURE_HSTS_PRELOAD", default=not DEBUG)
SECURE_REFERRER_POLICY = "same-origin"
# Behind a TLS-terminating proxy that sets X-Forwarded-Proto (and nothing else may set it).
if env.bool("SECURE_PROXY_SSL_HEADER", default=False):
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SESSION_COOKIE_HTTPONLY = True

# Abuse limits (registry/core/ratelimit.py). Rates read "<count>/<period>", period s, m, h or d ("10/15m");
# an empty value switches a limit off. Uploads count the web form and the API together, per user.
UPLOAD_RATE = env.str("UPLOAD_RATE", default="30/h")
UPLOAD_BYTES_PER_DAY = env.int("UPLOAD_BYTES_PER_DAY", default=8 * 1024**3)
# Failed log-ins per (user name, client address) pair, and per client address over all names.
LOGIN_FAILURE_RATE = env.str("LOGIN_FAILURE_RATE", default="10/15m")
LOGIN_IP_FAILURE_RATE = env.str("LOGIN_IP_FAILURE_RATE", default="50/15m")
ACCOUNT_FORM_RATE = env.str("ACCOUNT_FORM_RATE", default="10/h")
# Activation mails sent again on request from the log-in page, per account.
ACTIVATION_RESEND_RATE = env.str("ACTIVATION_RESEND_RATE", default="3/h")
# Review comments per user (each may send an e-mail to the submitter or the committee).
COMMENT_RATE = env.str("COMMENT_RATE", default="30/h")
# Any request body above this is refused with 413 before it is read (archives above ARCHIVE_MAX_BYTES
# but below this are still stored, then rejected with the reason).
MAX_REQUEST_BYTES = env.int("MAX_REQUEST_BYTES", default=2 * ARCHIVE_MAX_BYTES)
# Behind a reverse proxy, the header that carries the client address (e.g. HTTP_X_REAL_IP).
RATELIMIT_CLIENT_IP_HEADER = env.str("RATELIMIT_CLIENT_IP_HEADER", default="")
# Prefixes every counter key; the tests give each test its own, so counters never leak between them.
RATELIMIT_NAMESPACE = env.str("RATELIMIT_NAMESPACE", default="")

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": env.str("LOG_LEVEL", default="INFO")},
}
