"""The request id on every log record written while a request is served.

skatclub.middleware.RequestIdMiddleware sets it for the request it serves; the ``request_id``
filter of settings.LOGGING puts it (or ``-`` outside a request) on each record, and the log
format prints it beside the level. The same id goes back to the client (and the proxy's and
gunicorn's access logs) in the ``X-Request-ID`` header, so one line of an access log leads to
every line the request wrote, its traceback included.
"""

from __future__ import annotations

import logging
from contextvars import ContextVar

current_request_id: ContextVar[str] = ContextVar("skatclub_request_id", default="-")


class RequestIdFilter(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        if not hasattr(record, "request_id"):
            record.request_id = current_request_id.get()
        return True
