"""How ``liverpool serve`` logs: uvicorn's lines as text or as JSON lines
(``--log-format json``: one object per line, for a log collector), and in
either form no seat token: a ``token=…`` in a logged URL or message is
replaced by ``token=[hidden]`` before any handler sees it."""

from __future__ import annotations

import datetime
import json
import logging
import re
from typing import Any

__all__ = ["JsonFormatter", "RedactTokens", "log_config"]

_TOKEN = re.compile(r"(token[\"']?\s*[=:]\s*[\"']?)[A-Za-z0-9_\-]{8,}", re.IGNORECASE)


def redact(text: str) -> str:
    """``text`` with every seat token hidden.

    >>> redact("GET /ws/ABCDEF?token=kG3r_x8Zq1w2e3r4t5y6u7i8&lang=nb")
    'GET /ws/ABCDEF?token=[hidden]&lang=nb'
    """
    return _TOKEN.sub(r"\1[hidden]", text)


class RedactTokens(logging.Filter):
    """Hides seat tokens in a record's message and arguments."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.msg, str):
            record.msg = redact(record.msg)
        if isinstance(record.args, tuple):
            record.args = tuple(redact(a) if isinstance(a, str) else a for a in record.args)
        elif isinstance(record.args, dict):
            record.args = {k: redact(v) if isinstance(v, str) else v
                           for k, v in record.args.items()}
        return True


class JsonFormatter(logging.Formatter):
    """One JSON object per line: time (UTC, ISO 8601), level, logger, message,
    and the exception's traceback if there is one."""

    def format(self, record: logging.LogRecord) -> str:
        out: dict[str, Any] = {
            "time": datetime.datetime.fromtimestamp(record.created, datetime.UTC)
            .isoformat(timespec="milliseconds"),
            "level": record.levelname.lower(), "logger": record.name,
            "message": redact(record.getMessage())}
        if record.exc_info:
            out["exc"] = redact(self.formatException(record.exc_info))
        return json.dumps(out, ensure_ascii=False)


def log_config(fmt: str, level: str) -> dict[str, Any]:
    """The ``logging.config.dictConfig`` of the server: ``fmt`` "text" (uvicorn's
    own lines) or "json"; every handler hides seat tokens; the server's own
    loggers (``liverpool.*``) go to the same handlers at ``level``."""
    if fmt == "json":
        formatters: dict[str, Any] = {"default": {"()": f"{__name__}.JsonFormatter"},
                                      "access": {"()": f"{__name__}.JsonFormatter"}}
    else:
        formatters = {
            "default": {"()": "uvicorn.logging.DefaultFormatter",
                        "fmt": "%(levelprefix)s %(message)s", "use_colors": None},
            "access": {"()": "uvicorn.logging.AccessFormatter",
                       "fmt": '%(levelprefix)s %(client_addr)s - "%(request_line)s" '
                              "%(status_code)s"}}
    redacting = {"redact": {"()": f"{__name__}.RedactTokens"}}
    return {
        "version": 1, "disable_existing_loggers": False,
        "filters": redacting, "formatters": formatters,
        "handlers": {
            "default": {"formatter": "default", "class": "logging.StreamHandler",
                        "stream": "ext://sys.stderr", "filters": ["redact"]},
            "access": {"formatter": "access", "class": "logging.StreamHandler",
                       "stream": "ext://sys.stdout", "filters": ["redact"]}},
        "loggers": {
            "uvicorn": {"handlers": ["default"], "level": "INFO", "propagate": False},
            "uvicorn.error": {"level": "INFO"},
            "uvicorn.access": {"handlers": ["access"], "level": "INFO", "propagate": False},
            "liverpool": {"handlers": ["default"], "level": level.upper(),
                          "propagate": False}},
    }
