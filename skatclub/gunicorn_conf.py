"""gunicorn's settings for Skatclub (make serve; bench/ starts it the same way):

- X-Forwarded-Proto (and gunicorn's other scheme headers) believed only from TRUSTED_PROXIES,
  the same addresses the site's proxy middleware believes; gunicorn's own default would trust
  127.0.0.1 whatever the settings say.
- graceful shutdown: on SIGTERM each worker stops accepting, finishes the request
  in hand and exits; one still busy after GRACEFUL_TIMEOUT seconds (default 30) is killed.
- the access log on standard output, with the request id (X-Request-ID of the response) that
  every log line of the request carries, and the time taken.

Bind address and number of workers come from the command line (make serve: HOST, PORT,
WORKERS).
"""

from __future__ import annotations

import os

from skatclub.proxies import parse_networks

forwarded_allow_ips = ",".join(str(n) for n in parse_networks(os.getenv("TRUSTED_PROXIES", "")))
graceful_timeout = int(os.getenv("GRACEFUL_TIMEOUT", "30"))
accesslog = "-"
access_log_format = ('%(h)s %(t)s "%(r)s" %(s)s %(b)s %(M)sms "%(a)s" '
                     "request_id=%({x-request-id}o)s")
