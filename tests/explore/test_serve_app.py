import signal
import urllib.request

import anyio
from fastapi import FastAPI

from vistasim.explore._web import serve_app


def _app() -> FastAPI:
    app = FastAPI()

    @app.get("/")
    def home() -> dict:
        return {"ok": True}

    return app


async def test_two_sites_serve_at_once_and_leave_the_signal_handlers_alone():
    before = signal.getsignal(signal.SIGINT)
    async with serve_app(_app()) as first, serve_app(_app()) as second:
        assert first != second
        during = signal.getsignal(signal.SIGINT)
        for url in (first, second):
            body = await anyio.to_thread.run_sync(lambda u=url: urllib.request.urlopen(u).read())
            assert body == b'{"ok":true}'
    assert before is during is signal.getsignal(signal.SIGINT)
