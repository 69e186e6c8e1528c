"""A small SMTP server on the loopback address for tests of a mail server that fails: it
greets and answers EHLO like a real one, then refuses the sender (554 to MAIL FROM), or
hangs up without a word (``mode="close"``). ``accept`` mode takes the mail, so that a test
can show the same action working once the server is back."""

from __future__ import annotations

import socketserver
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, ClassVar


class _Handler(socketserver.StreamRequestHandler):
    server: _Server

    def say(self, line: str) -> None:
        self.wfile.write(line.encode("ascii") + b"\r\n")
        self.wfile.flush()

    def handle(self) -> None:
        mode = self.server.mode
        self.server.connections += 1
        if mode == "close":
            return  # hang up at once: the client gets no greeting
        self.say("220 test.invalid ESMTP")
        in_data = False
        while True:
            raw = self.rfile.readline()
            if not raw:
                return
            line = raw.decode("utf-8", "replace").rstrip("\r\n")
            if in_data:
                if line == ".":
                    in_data = False
                    self.server.messages += 1
                    self.say("250 queued")
                continue
            verb = line[:4].upper()
            if verb in ("EHLO", "HELO"):
                self.say("250 test.invalid")
            elif verb == "MAIL":
                if mode == "refuse":
                    self.say("554 5.7.1 sender refused")
                else:
                    self.say("250 ok")
            elif verb == "RCPT":
                self.say("250 ok")
            elif verb == "DATA":
                self.say("354 go ahead")
                in_data = True
            elif verb == "QUIT":
                self.say("221 bye")
                return
            else:
                self.say("250 ok")


class _Server(socketserver.ThreadingTCPServer):
    daemon_threads = True
    allow_reuse_address = True
    mode: str
    connections: int = 0
    messages: int = 0


class SMTP:
    """A running test server: ``port``, and its ``mode`` that a test may switch."""

    instances: ClassVar[list[SMTP]] = []

    def __init__(self, server: _Server) -> None:
        self._server = server
        self.port: int = server.server_address[1]

    @property
    def mode(self) -> str:
        return self._server.mode

    @mode.setter
    def mode(self, value: str) -> None:
        self._server.mode = value

    @property
    def connections(self) -> int:
        return self._server.connections

    @property
    def messages(self) -> int:
        return self._server.messages

    def settings(self) -> dict[str, Any]:
        return {"EMAIL_BACKEND": "django.core.mail.backends.smtp.EmailBackend",
                "EMAIL_HOST": "127.0.0.1", "EMAIL_PORT": self.port, "EMAIL_USE_TLS": False,
                "EMAIL_USE_SSL": False, "EMAIL_HOST_USER": "", "EMAIL_HOST_PASSWORD": "",
                "EMAIL_TIMEOUT": 5}


@contextmanager
def smtp_server(mode: str = "refuse") -> Iterator[SMTP]:
    server = _Server(("127.0.0.1", 0), _Handler)
    server.mode = mode
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield SMTP(server)
    finally:
        server.shutdown()
        server.server_close()
        thread.join(5)
