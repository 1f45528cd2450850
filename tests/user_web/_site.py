"""A hand-made stand-in for the shop site: page views by URL, changed by web actions."""

from __future__ import annotations

from dataclasses import dataclass, field

from vistasim.agent import Utterance
from vistasim.browser import (
    Back,
    Click,
    ElementView,
    Navigate,
    PageView,
    SelectOption,
    TypeText,
    WebStep,
)
from vistasim.scenario import Scenario

ORIGIN = "http://127.0.0.1:8765"
NAV = (
    ElementView(id="nav-catalog", role="link", label="Northwind Goods"),
    ElementView(id="nav-orders", role="link", label="Orders"),
    ElementView(id="chat-input", role="textbox", label="Message"),
    ElementView(id="chat-send", role="button", label="Send"),
)


def page(path: str, *elements: ElementView, text: str = "", title: str = "") -> PageView:
    return PageView(url=ORIGIN + path, title=title, elements=(*NAV, *elements), text=text)


def login_page() -> PageView:
    return page(
        "/login",
        ElementView(id="login-email", role="textbox", label="Email"),
        ElementView(id="login-submit", role="button", label="Log in"),
        title="Log in",
    )


def order_page(
    order_id: str, *, status: str, flash: str = "", cancellable: bool = True
) -> PageView:
    elements = (ElementView(id="cancel-order", role="button", label="Cancel order"),)
    return page(
        f"/orders/{order_id}",
        *(elements if cancellable else ()),
        title=f"Order {order_id}",
        text=f"{flash}\nOrder {order_id}\nStatus: {status} · placed 2026-03-10",
    )


@dataclass
class ShopSite:
    """Order W1003 of dana@example.com, pending; `broken` drops the cancel button."""

    broken: bool = False
    email: str = ""
    logged_in: bool = False
    cancelled: bool = False
    current: PageView = field(default_factory=lambda: page("/", title="Catalog"))
    history: list[PageView] = field(default_factory=list)

    def act(self, step: WebStep) -> str | None:
        """Apply a web action; return an error like the browser layer would, or None."""
        if isinstance(step, Navigate):
            self._go(step.url.removeprefix(ORIGIN))
            return None
        if isinstance(step, Back):
            self.current = self.history.pop() if self.history else self.current
            return None
        ids = {el.id for el in self.current.elements}
        if isinstance(step, Click | TypeText | SelectOption) and step.target not in ids:
            return f"no element {step.target!r} on this page; available: {sorted(ids)}"
        if isinstance(step, TypeText) and step.target == "login-email":
            self.email = step.text
        elif isinstance(step, Click) and step.target == "login-submit":
            self.logged_in = self.email == "dana@example.com"
            self._go("/orders" if self.logged_in else "/login")
        elif isinstance(step, Click) and step.target == "cancel-order":
            self.cancelled = True
            self.current = order_page(
                "W1003",
                status="cancelled",
                flash="Order W1003 has been cancelled.",
                cancellable=False,
            )
        return None

    def _go(self, path: str) -> None:
        self.history.append(self.current)
        if path == "/login" or (path.startswith("/orders") and not self.logged_in):
            self.current = login_page()
        elif path == "/orders/W1003":
            pending = not self.cancelled and not self.broken
            self.current = order_page(
                "W1003", status="cancelled" if self.cancelled else "pending", cancellable=pending
            )
        else:
            self.current = page(path, title="Orders")


def cancel_scenario(**overrides: object) -> Scenario:
    data: dict[str, object] = {
        "id": "shop-cancel",
        "persona": {"name": "Dana Reyes", "style": {"verbosity": "low", "patience": 2}},
        "goal": "Cancel order W1003.",
        "knowledge": {"email": "dana@example.com"},
        "agenda": [{"intent": "cancel_order", "slots": {"order_id": "W1003"}}],
    }
    data.update(overrides)
    return Scenario.model_validate(data)


def agent_says(transcript: tuple[Utterance, ...], text: str) -> tuple[Utterance, ...]:
    return (*transcript, Utterance(role="agent", text=text))
