"""Defect 5 (a start page that cannot be served): the episode is errored, the run goes on."""

import pytest
from starlette.applications import Starlette

from vistasim.errors import BrowserError
from vistasim.explore._web import serve_app


async def test_a_site_that_cannot_bind_is_a_browser_error_not_an_exit():
    # 192.0.2.1 (TEST-NET-1) is no address of this machine: binding it fails like no loopback.
    with pytest.raises(BrowserError, match="could not serve"):
        async with serve_app(Starlette(), host="192.0.2.1"):
            pass


async def test_a_failure_while_the_site_serves_comes_out_as_itself():
    # The episode catches BrowserError to mark itself errored: a group around it would escape.
    with pytest.raises(BrowserError, match="did not open"):
        async with serve_app(Starlette()):
            raise BrowserError("the start page did not open")
