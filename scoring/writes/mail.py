"""E-mail the site sends (issue 16): invitations, password-reset links, the confirmation of a
club's registration. Each is written in the club's language, whatever language the person
who set it off reads the site in.

The mail settings are the deployment's (EMAIL_URL; the console while DEBUG is on). A mail
server that refuses or cannot be reached is not an error page: ``send`` says False, the
failure goes to the logger ``skatclub.mail``, and the caller tells the person what happened
and that nothing was sent. Every link in a mail starts with the SITE_URL setting (``site_url``).
"""

from __future__ import annotations

import logging
import smtplib
import socket
from typing import Any

from django.conf import settings
from django.core.mail import EmailMessage
from django.template.loader import render_to_string
from django.utils import translation

logger = logging.getLogger("skatclub.mail")

# What a mail server or the way to it can do wrong: refuse (SMTP errors), close the
# connection, not answer (socket errors and timeouts are OSErrors).
MAIL_ERRORS = (smtplib.SMTPException, OSError, socket.timeout)


def site_url(path: str) -> str:
    """The absolute address of ``path`` (from ``reverse``) on the site, for a link in a mail:
    built from the SITE_URL setting, never from the request's Host header, which the client
    chooses (a reset link to ``localhost:31337`` or to a look-alike host would hand the token
    to whoever runs it)."""
    return settings.SITE_URL.rstrip("/") + path


def render(template: str, context: dict[str, Any], language: str) -> tuple[str, str]:
    """The subject and body of ``templates/scoring/mail/<template>_{subject,body}.txt`` in
    ``language``."""
    with translation.override(language):
        subject = render_to_string(f"scoring/mail/{template}_subject.txt", context)
        body = render_to_string(f"scoring/mail/{template}_body.txt", context)
    return " ".join(subject.split()), body


def send(to: str, template: str, context: dict[str, Any], language: str) -> bool:
    """Send one mail; False (and logged) if the mail server failed: nothing was sent."""
    subject, body = render(template, context, language)
    message = EmailMessage(subject, body, settings.DEFAULT_FROM_EMAIL, [to])
    try:
        message.send(fail_silently=False)
    except MAIL_ERRORS as err:
        logger.warning("Mail %r to %s could not be sent: %s", template, to, err)
        return False
    except Exception:  # a mail backend's own error: still a message to the admin, no 500
        logger.exception("Mail %r to %s could not be sent", template, to)
        return False
    return True
