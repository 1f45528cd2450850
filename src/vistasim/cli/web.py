"""`vistasim web inspect URL`: what vistasim finds of a chat page, and the selectors to paste."""

from __future__ import annotations

from typing import Any, cast, get_args

import anyio
import click

from vistasim.browser import WidgetFramework
from vistasim.cli._common import console

_FRAMEWORKS: tuple[str, ...] = get_args(WidgetFramework)


@click.group("web")
def command() -> None:
    """Look at a chat page: the widget vistasim finds and the selectors to paste."""


@command.command("inspect")
@click.argument("url")
@click.option(
    "--framework",
    type=click.Choice(["auto", *_FRAMEWORKS]),
    default="auto",
    show_default=True,
    help="Whose selectors to start from.",
)
@click.option("--message", help="Send this message and show the reply as vistasim reads it.")
@click.option("--timeout", "timeout_s", type=float, default=10.0, show_default=True,
              help="Seconds to wait for the widget once the page stopped changing.")  # fmt: skip
@click.option("--chromium", help="Chromium executable (default: searched).")
def inspect(
    url: str, framework: str, message: str | None, timeout_s: float, chromium: str | None
) -> None:
    """Open URL, find its chat widget, and print each part and the [web.widget] to paste."""
    from vistasim.agent import inspect_page

    chosen = cast(WidgetFramework, framework)  # one of the Choice's, all framework names
    found = anyio.run(
        lambda: inspect_page(
            url, chromium=chromium, framework=chosen, timeout_s=timeout_s, message=message
        )
    )
    _print(found)
    if found.selectors is None:
        raise SystemExit(1)


def _print(found: Any) -> None:
    out = console()
    out.print(f"page: {found.url}")
    out.print(f"widget: {found.framework or 'not found'}")
    for name, part in found.parts.items():
        if part.selector is None:
            continue
        sample = f" - first: {part.sample!r}" if part.sample else ""
        out.print(f"  {name}: {part.visible} visible of {part.matches} ({part.selector}){sample}")
    if found.transcript:
        out.print("transcript:")
        for line in found.transcript:
            out.print(f"  {line.role}: {line.text[:200]}")
    if found.reply is not None:
        out.print(f"reply: {found.reply[:500]}")
    if found.problem:
        out.print(f"problem: {found.problem}")
    if found.selectors is not None:
        out.print("\nto pin these selectors, paste into vistasim.toml:\n")
        out.print(found.toml())
