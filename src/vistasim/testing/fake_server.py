"""Run the fake OpenAI-compatible server as a process, for benchmarks and manual tries.

    python -m vistasim.testing.fake_server --port 0 --latency-ms 50 [--responder module:attr]
        [--ignore-tools]

It prints `listening on http://127.0.0.1:PORT/v1` once ready and serves until killed.
"""

from __future__ import annotations

import argparse
import asyncio
import importlib
from collections.abc import Sequence

from vistasim.testing._fake_server import FakeOpenAIServer, Responder


def load_responder(target: str) -> Responder:
    """Import a responder named `module:attr`."""
    module_name, sep, attr = target.partition(":")
    if not sep or not module_name or not attr:
        raise SystemExit(f"--responder {target!r} is not module:attr, e.g. mypkg.fakes:answer")
    try:
        responder: Responder = getattr(importlib.import_module(module_name), attr)
    except (ImportError, AttributeError) as exc:
        raise SystemExit(f"--responder {target!r} cannot be loaded: {exc}") from None
    return responder


async def serve(server: FakeOpenAIServer) -> None:
    """Serve until cancelled, announcing the base URL on stdout."""
    async with server:
        print(f"listening on {server.base_url}", flush=True)
        await asyncio.Event().wait()


def main(argv: Sequence[str] | None = None) -> None:
    """Parse the command line and serve."""
    parser = argparse.ArgumentParser(
        prog="python -m vistasim.testing.fake_server",
        description="A loopback OpenAI-compatible chat server with deterministic answers.",
    )
    parser.add_argument("--port", type=int, default=0, help="TCP port; 0 picks a free one")
    parser.add_argument("--latency-ms", type=float, default=0.0, help="delay of every answer")
    parser.add_argument("--responder", default=None, help="module:attr of a responder function")
    parser.add_argument(
        "--ignore-tools", action="store_true", help="drop `tools` from requests, as llama.cpp does"
    )
    args = parser.parse_args(argv)
    responder = load_responder(args.responder) if args.responder else None
    server = FakeOpenAIServer(
        latency_s=args.latency_ms / 1000,
        responder=responder,
        port=args.port,
        ignore_tools=args.ignore_tools,
    )
    try:
        asyncio.run(serve(server))
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    main()
