"""The studio's booking system the desk works through: `PhotostudioEnvironment` and its tools."""

from __future__ import annotations

import re
from datetime import date, datetime
from typing import Any, ClassVar

from pydantic import BaseModel, Field

from benchmarks.domains.photostudio import _seed
from vistasim.env import SqliteEnvironment, ToolFailure, tool


def money(pence: int) -> str:
    return f"£{pence / 100:,.2f}"


def norm_account(text: str) -> str:
    return "FG" + re.sub(r"\D", "", text)


def norm_postcode(text: str) -> str:
    return re.sub(r"\s+", "", text).upper()


def is_open(day: date) -> bool:
    """The studio shoots Tuesday to Saturday, and is closed for Christmas."""
    closed = _seed.CLOSED_FIRST <= day <= _seed.CLOSED_LAST
    return day.weekday() in _seed.OPEN_WEEKDAYS and not closed


def starts(day: str, time: str) -> datetime:
    hour, minute = (int(x) for x in time.split(":"))
    return datetime.fromisoformat(day).replace(hour=hour, minute=minute, tzinfo=_seed.UK)


class Account(BaseModel):
    account_id: str = Field(description="The client number, e.g. FG1001")


class Verify(Account):
    postcode: str = Field(description="The postcode on the account, e.g. BS6 5QT")


class Day(BaseModel):
    day: str = Field(description="YYYY-MM-DD")


class BookSession(Account):
    kind: str = Field(description="family, newborn or headshot")
    day: str = Field(description="YYYY-MM-DD")
    time: str = Field(description="HH:MM, one of 10:00, 12:00, 14:00, 16:00")
    people: int = Field(description="People in the photos, babies and children included")
    price_pence: int = Field(description="The session price the desk quoted")


class SessionRef(Account):
    session_id: str = Field(description="e.g. PS7004")


class Reschedule(SessionRef):
    day: str = Field(description="The new day, YYYY-MM-DD")
    time: str = Field(description="The new time, HH:MM")
    fee_pence: int = Field(description="The change fee the desk quoted (0 when free)")


class AddToSession(SessionRef):
    kind: str = Field(description="people or outfits")
    quantity: int = Field(description="How many people or outfit changes to add")
    price_pence: int = Field(description="The price the desk quoted for them")


class Cancel(SessionRef):
    refund_pence: int = Field(description="The deposit refund the desk quoted (0 if kept)")


class OrderItem(BaseModel):
    product: str = Field(description="print_8x10, print_11x14, canvas_16x20, digital_5, "
                         "digital_10 or digital_all")  # fmt: skip
    image: int | None = Field(default=None, description="The image number (prints, canvases)")
    quantity: int = Field(default=1, description="How many")


class PlaceOrder(SessionRef):
    items: list[OrderItem] = Field(description="What is ordered")
    subtotal_pence: int = Field(description="The items' prices added up")
    discount_pence: int = Field(description="The early-order discount the desk quoted")
    total_pence: int = Field(description="What the client pays")


class PhotostudioEnvironment(SqliteEnvironment):
    """Foxglove Portrait Studio: clients, sessions, extras, charges, orders and gallery links."""

    SCHEMA_SQL: ClassVar[str] = _seed.SCHEMA_SQL
    LEXICON: ClassVar[dict[str, list[str]]] = {
        "account_id": ["client number"],
        "postcode": ["postcode"],
        "kind": ["which kind of session", "family, newborn or headshot"],
        "date": ["which day"],
        "time": ["which time", "what time"],
        "people": ["how many people"],
        "image": ["image number"],
    }

    def seed(self, db: Any) -> None:
        _seed.seed(db)

    def now(self) -> datetime:
        """The desk's clock: fixed, so every episode sees the same day."""
        return _seed.NOW

    # -- helpers ---------------------------------------------------------------------------
    def _one(self, sql: str, *args: Any) -> dict[str, Any] | None:
        row = self.db.execute(sql, args).fetchone()
        return dict(row) if row else None

    def _rows(self, sql: str, *args: Any) -> list[dict[str, Any]]:
        return [dict(r) for r in self.db.execute(sql, args)]

    def _account(self, account_id: str) -> dict[str, Any]:
        found = self._one("SELECT * FROM clients WHERE account_id = ?", norm_account(account_id))
        if found is None:
            raise ToolFailure(f"no client {account_id}")
        return found

    def _session(self, c: dict[str, Any], session_id: str, status: str) -> dict[str, Any]:
        s = self._one("SELECT * FROM sessions WHERE session_id = ?", session_id.strip().upper())
        if s is None or s["account_id"] != c["account_id"]:
            raise ToolFailure(f"no session {session_id} on this account")
        if s["status"] != status:
            raise ToolFailure(f"session {s['session_id']} is {s['status']}")
        return s

    def _charge(self, c: dict[str, Any], kind: str, pence: int, ref: str) -> None:
        if pence:
            self.db.execute(
                "INSERT INTO charges (account_id, kind, amount_pence, ref, created_at) "
                "VALUES (?,?,?,?,?)",
                (c["account_id"], kind, pence, ref, self.now().strftime(_seed.STAMP)),
            )

    def hours_to(self, day: str, time: str) -> float:
        return (starts(day, time) - self.now()).total_seconds() / 3600

    def _taken(self, day: str, time: str, but: str = "") -> bool:
        return bool(self._one(
            "SELECT 1 AS x FROM sessions WHERE day = ? AND time = ? AND status = 'booked' "
            "AND session_id != ?", day, time, but))  # fmt: skip

    def _check_slot(self, day: str, time: str, but: str = "") -> None:
        when = date.fromisoformat(day)
        if when <= self.now().date():
            raise ToolFailure("the session must be on a future day")
        if not is_open(when):
            raise ToolFailure(f"the studio is closed on {day}")
        if time not in _seed.SLOTS:
            raise ToolFailure(f"sessions start at {', '.join(_seed.SLOTS)}")
        if self._taken(day, time, but):
            raise ToolFailure(f"{day} at {time} is already booked")

    def view(self, account_id: str) -> dict[str, Any]:
        """The account as staff see it: sessions with their extras, galleries and orders."""
        c = self._account(account_id)
        sessions = self._rows(
            "SELECT * FROM sessions WHERE account_id = ? AND status != 'cancelled' ORDER BY day",
            c["account_id"],
        )
        for s in sessions:
            s["hours_to_start"] = round(self.hours_to(s["day"], s["time"]), 1)
            s["extras"] = self._rows("SELECT * FROM extras WHERE session_id = ?", s["session_id"])
            if s["gallery_opened"]:
                s["gallery_days_open"] = (
                    self.now().date() - date.fromisoformat(s["gallery_opened"])
                ).days
        return {
            **c,
            "sessions": sessions,
            "orders": self._rows("SELECT * FROM orders WHERE account_id = ?", c["account_id"]),
        }

    # -- reads -----------------------------------------------------------------------------
    @tool(
        "Check the caller's identity: the client number and the postcode on that account "
        "must match. Returns the account."
    )
    def verify_client(self, args: Verify) -> dict[str, Any]:
        c = self._one("SELECT * FROM clients WHERE account_id = ?", norm_account(args.account_id))
        if c is None or norm_postcode(c["postcode"]) != norm_postcode(args.postcode):
            raise ToolFailure("verification failed: no client matches that number and postcode")
        return self.view(c["account_id"])

    @tool("Read an account (staff view, after verify_client only).")
    def get_account(self, args: Account) -> dict[str, Any]:
        return self.view(args.account_id)

    @tool("The free session times on a day (the studio is open Tuesday to Saturday).")
    def check_availability(self, args: Day) -> dict[str, Any]:
        when = date.fromisoformat(args.day)
        if not is_open(when) or when <= self.now().date():
            return {"day": args.day, "open": False, "free": []}
        free = [t for t in _seed.SLOTS if not self._taken(args.day, t)]
        return {"day": args.day, "open": True, "free": free}

    # -- writes ----------------------------------------------------------------------------
    @tool(
        "Book a session and take the £50 deposit from the card on the account. Refuses a "
        "closed day, a taken slot and more people than the session allows. The system does "
        "not check the newborn rules (weekday mornings): the desk must."
    )
    def book_session(self, args: BookSession) -> dict[str, Any]:
        c = self._account(args.account_id)
        kind = args.kind.strip().lower()
        if kind not in _seed.SESSIONS:
            raise ToolFailure("kind must be family, newborn or headshot")
        most = _seed.SESSIONS[kind][2]
        if not 1 <= args.people <= most:
            raise ToolFailure(f"a {kind} session is for 1 to {most} people")
        self._check_slot(args.day, args.time)
        last = self.db.execute("SELECT MAX(CAST(substr(session_id, 3) AS INTEGER)) FROM sessions")
        session_id = f"PS{(last.fetchone()[0] or 7000) + 1}"
        self.db.execute(
            "INSERT INTO sessions (session_id, account_id, kind, day, time, people, price_pence, "
            "deposit_pence) VALUES (?,?,?,?,?,?,?,?)",
            (session_id, c["account_id"], kind, args.day, args.time, args.people,
             args.price_pence, _seed.DEPOSIT_PENCE),
        )  # fmt: skip
        self._charge(c, "deposit", _seed.DEPOSIT_PENCE, session_id)
        return {"session_id": session_id, "kind": kind, "day": args.day, "time": args.time,
                "people": args.people, "price": money(args.price_pence),
                "deposit_taken": money(_seed.DEPOSIT_PENCE),
                "card_last4": c["card_last4"]}  # fmt: skip

    @tool(
        "Move a booked session to a new day and time; fee_pence (quoted by the desk) is "
        "charged. Refuses a move less than 48 hours before the session, except newborn ones."
    )
    def reschedule_session(self, args: Reschedule) -> dict[str, Any]:
        c = self._account(args.account_id)
        s = self._session(c, args.session_id, "booked")
        if s["kind"] != "newborn" and self.hours_to(s["day"], s["time"]) < _seed.NO_MOVE_HOURS:
            raise ToolFailure("sessions can't be moved less than 48 hours before they start")
        self._check_slot(args.day, args.time, but=s["session_id"])
        self.db.execute(
            "UPDATE sessions SET day = ?, time = ? WHERE session_id = ?",
            (args.day, args.time, s["session_id"]),
        )
        self._charge(c, "change_fee", args.fee_pence, s["session_id"])
        return {"session_id": s["session_id"], "day": args.day, "time": args.time,
                "fee": money(args.fee_pence)}  # fmt: skip

    @tool(
        "Add people or outfit changes to a booked session; price_pence (quoted by the desk) is "
        "added to the session's price. Refuses more people than the session allows and more "
        "than 3 extra outfit changes."
    )
    def add_to_session(self, args: AddToSession) -> dict[str, Any]:
        c = self._account(args.account_id)
        s = self._session(c, args.session_id, "booked")
        kind = args.kind.strip().lower()
        if args.quantity < 1:
            raise ToolFailure("quantity must be at least 1")
        if kind == "people":
            most = _seed.SESSIONS[s["kind"]][2]
            if s["people"] + args.quantity > most:
                raise ToolFailure(f"a {s['kind']} session is for at most {most} people")
            column = "people"
        elif kind == "outfits":
            if s["outfits"] + args.quantity > _seed.MAX_EXTRA_OUTFITS:
                raise ToolFailure("at most 3 extra outfit changes per session")
            column = "outfits"
        else:
            raise ToolFailure("kind must be people or outfits")
        self.db.execute(
            f"UPDATE sessions SET {column} = {column} + ?, price_pence = price_pence + ? "  # noqa: S608
            "WHERE session_id = ?",
            (args.quantity, args.price_pence, s["session_id"]),
        )
        self.db.execute(
            "INSERT INTO extras (session_id, kind, quantity, price_pence) VALUES (?,?,?,?)",
            (s["session_id"], kind, args.quantity, args.price_pence),
        )
        now = self._session(c, s["session_id"], "booked")
        noun = {"people": ("person", "people"), "outfits": ("outfit change", "outfit changes")}
        added = f"{args.quantity} {noun[kind][0] if args.quantity == 1 else noun[kind][1]}"
        return {"session_id": s["session_id"], "added": added,
                "people": now["people"], "extra_outfits": now["outfits"],
                "price_added": money(args.price_pence),
                "session_price": money(now["price_pence"])}  # fmt: skip

    @tool(
        "Cancel a booked session; refund_pence (the deposit, when the desk quoted it back) goes "
        "to the card. The system does not check the refund rule: the desk must."
    )
    def cancel_session(self, args: Cancel) -> dict[str, Any]:
        c = self._account(args.account_id)
        s = self._session(c, args.session_id, "booked")
        self.db.execute(
            "UPDATE sessions SET status = 'cancelled' WHERE session_id = ?", (s["session_id"],)
        )
        self._charge(c, "refund", args.refund_pence, s["session_id"])
        return {"session_id": s["session_id"], "status": "cancelled",
                "refunded": money(args.refund_pence), "card_last4": c["card_last4"]}  # fmt: skip

    @tool(
        "Order prints, canvases or a digital package from a completed session's gallery, paid "
        "by the card on the account. Refuses a closed gallery (60 days after it opened) and "
        "image numbers not in it. The system takes the totals the desk quoted."
    )
    def place_order(self, args: PlaceOrder) -> dict[str, Any]:
        c = self._account(args.account_id)
        s = self._session(c, args.session_id, "completed")
        if not s["gallery_opened"]:
            raise ToolFailure(f"session {s['session_id']} has no gallery yet")
        closes = date.fromisoformat(s["gallery_opened"]).toordinal() + _seed.GALLERY_OPEN_DAYS
        if self.now().date().toordinal() > closes:
            raise ToolFailure(
                f"the gallery for {s['session_id']} closed on "
                f"{date.fromordinal(closes).isoformat()}: nothing can be ordered from it"
            )
        if not args.items:
            raise ToolFailure("the order has no items")
        for item in args.items:
            if item.product not in _seed.PRODUCTS:
                raise ToolFailure(f"no product {item.product!r}")
            if not item.product.startswith("digital") and not (
                item.image and 1 <= item.image <= s["image_count"]
            ):
                raise ToolFailure(f"image {item.image} is not in the gallery "
                                  f"(images 1 to {s['image_count']})")  # fmt: skip
        last = self.db.execute("SELECT MAX(CAST(substr(order_id, 3) AS INTEGER)) FROM orders")
        order_id = f"OR{(last.fetchone()[0] or 9000) + 1}"
        self.db.execute(
            "INSERT INTO orders VALUES (?,?,?,?,?,?,?)",
            (order_id, c["account_id"], s["session_id"], args.subtotal_pence,
             args.discount_pence, args.total_pence, self.now().strftime(_seed.STAMP)),
        )  # fmt: skip
        for item in args.items:
            self.db.execute(
                "INSERT INTO order_items (order_id, session_id, product, image, quantity, "
                "price_pence) VALUES (?,?,?,?,?,?)",
                (order_id, s["session_id"], item.product, item.image, item.quantity,
                 _seed.PRODUCTS[item.product][1] * item.quantity),
            )  # fmt: skip
        return {"order_id": order_id, "session_id": s["session_id"],
                "total": money(args.total_pence), "discount": money(args.discount_pence),
                "card_last4": c["card_last4"]}  # fmt: skip

    @tool("Email the gallery link for a completed session to the email on the account.")
    def resend_gallery_link(self, args: SessionRef) -> dict[str, Any]:
        c = self._account(args.account_id)
        s = self._session(c, args.session_id, "completed")
        if not s["gallery_opened"]:
            raise ToolFailure(f"session {s['session_id']} has no gallery yet")
        self.db.execute(
            "INSERT INTO gallery_links (session_id, email, sent_at) VALUES (?,?,?)",
            (s["session_id"], c["email"], self.now().strftime(_seed.STAMP)),
        )
        return {"session_id": s["session_id"], "sent_to": c["email"]}


def make_environment() -> PhotostudioEnvironment:
    """A fresh booking system, from the seed data."""
    return PhotostudioEnvironment()
