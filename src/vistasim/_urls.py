"""What a URL in a config must be before anything is sent to it.

A URL with a port out of range, no host or a scheme other than http(s) would otherwise pass the
config and fail deep inside the HTTP client (an internal error, not the user's one line), or be
requested at all. `HttpUrl` checks it where the config is read, so the error names the setting.
"""

from __future__ import annotations

from typing import Annotated
from urllib.parse import urlsplit

from pydantic import AfterValidator

__all__ = ["HttpUrl", "check_http_url"]

_EXAMPLE = "write it like 'http://127.0.0.1:8000/v1'"


def check_http_url(url: str) -> str:
    """Return `url` if it is an http(s) URL with a host and a port in 1-65535.

    >>> check_http_url("http://127.0.0.1:99999/v1")
    Traceback (most recent call last):
    ...
    ValueError: the port is not a number from 1 to 65535; write it like 'http://127.0.0.1:8000/v1'

    Raises:
        ValueError: saying what is wrong and how to write it.
    """
    try:
        parts = urlsplit(url)
    except ValueError as exc:  # an unclosed `[` of an IPv6 host, say
        raise ValueError(f"not a valid URL ({exc}); {_EXAMPLE}") from None
    try:
        port = parts.port
    except ValueError:
        raise ValueError(f"the port is not a number from 1 to 65535; {_EXAMPLE}") from None
    if parts.scheme.lower() not in ("http", "https") or not parts.hostname:
        raise ValueError(f"not an http(s) URL with a host; {_EXAMPLE}")
    if port == 0:
        raise ValueError(f"port 0 cannot be connected to; {_EXAMPLE}")
    return url


HttpUrl = Annotated[str, AfterValidator(check_http_url)]
"""A config string that must be an http(s) URL with a host and a valid port."""
