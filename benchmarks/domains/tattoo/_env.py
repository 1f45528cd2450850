"""The studio's booking system the desk works through: `TattooEnvironment` and its tools."""

from __future__ import annotations

import re
from datetime import date, datetime, timedelta
from typing import Any, ClassVar

from pydantic import BaseModel, Field

from benchmarks.domains.tattoo import _seed
from vistasim.env import SqliteEnvironment, ToolFailure, tool


def money(pence: int) -> str:
    return f"£{pence / 100:,.2f}"


def norm_client(text: str) -> str:
    return "IK" + re.sub(r"\D", "", text)


def parse_start(text: str) -> datetime:
    try:
        return datetime.strptime(text.strip(), _seed.STAMP).replace(tzinfo=_seed.UK)
    except ValueError:
        raise ToolFailure(f"{text!r} is not a time: use YYYY-MM-DD HH:MM") from None


def minutes_for(kind: str, hours: int) -> int:
    if kind == "consultation":
        return _seed.CONSULT_MINUTES
    if kind == "touchup":
        return _seed.TOUCHUP_MINUTES
    if kind == "session":
        if hours not in _seed.SESSION_HOURS:
            raise ToolFailure("sessions are 2, 4 or 6 hours")
        return hours * 60
    raise ToolFailure("kind must be consultation, session or touchup")


class Client(BaseModel):
    client_id: str = Field(description="The client number, e.g. IK1001")


class Verify(Client):
    date_of_birth: str = Field(description="The client's date of birth, YYYY-MM-DD")


class BookingRef(BaseModel):
    booking_id: str = Field(description="e.g. TB6006")


class Availability(BaseModel):
    artist: str = Field(description="The artist's id (AR1) or first name (Mara)")
    day: str | None = Field(default=None, description="YYYY-MM-DD: also the free start times")
    minutes: int = Field(default=120, description="The length wanted, for the free start times")


class Book(Client):
    artist_id: str = Field(description="e.g. AR2")
    kind: str = Field(description="consultation (20 min), session (2, 4 or 6 h) or touchup (1 h)")
    start: str = Field(description="YYYY-MM-DD HH:MM")
    hours: int = Field(default=0, description="Sessions only: 2, 4 or 6")
    colour: bool = Field(default=False, description="A colour piece (needs a patch test)")
    price_pence: int = Field(description="The price the desk quoted")
    deposit_pence: int = Field(description="The deposit the desk quoted, taken now")


class ClientBooking(Client):
    booking_id: str = Field(description="e.g. TB6006")


class Move(ClientBooking):
    start: str = Field(description="The new start, YYYY-MM-DD HH:MM (same length)")
    new_deposit_pence: int = Field(
        description="0 keeps the deposit (a free move); otherwise the old deposit is lost and "
        "this new deposit is taken"
    )


class Cancel(ClientBooking):
    refund_pence: int = Field(description="What the desk quoted back to the card (0 if none)")


class Aftercare(ClientBooking):
    kit: str = Field(description="standard or large")
    quantity: int = Field(default=1, description="How many kits")
    price_pence: int = Field(description="The price the desk quoted for them all")


class GiftCode(BaseModel):
    code: str = Field(description="The gift card's code, e.g. GC-5017")


class Redeem(ClientBooking):
    code: str = Field(description="The gift card's code, e.g. GC-5017")
    amount_pence: int = Field(description="How much of the card to put towards this booking")


class PatchTest(Client):
    at: str = Field(description="YYYY-MM-DD HH:MM, on the studio's 10-minute slots")


class TattooEnvironment(SqliteEnvironment):
    """Ironink Tattoo Studio: artists, clients, bookings, kits, patch tests and gift cards."""

    SCHEMA_SQL: ClassVar[str] = _seed.SCHEMA_SQL
    LEXICON: ClassVar[dict[str, list[str]]] = {
        "client_id": ["client number"],
        "date_of_birth": ["date of birth"],
        "artist": ["which artist"],
        "day": ["which day"],
        "time": ["what time"],
        "hours": ["how many hours", "2, 4 or 6"],
        "colour": ["in colour", "black and grey"],
        "kit": ["which kit", "standard or large"],
        "code": ["gift card's code", "card code"],
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

    def _client(self, client_id: str) -> dict[str, Any]:
        found = self._one("SELECT * FROM clients WHERE client_id = ?", norm_client(client_id))
        if found is None:
            raise ToolFailure(f"no client {client_id}")
        return found

    def _artist(self, text: str) -> dict[str, Any]:
        key = text.strip().lower()
        for a in self._rows("SELECT * FROM artists"):
            if key in {a["artist_id"].lower(), a["name"].lower(), a["name"].split()[0].lower()}:
                return a
        raise ToolFailure(f"no artist {text}")

    def _booking(self, c: dict[str, Any], booking_id: str) -> dict[str, Any]:
        b = self._one("SELECT * FROM bookings WHERE booking_id = ?", booking_id.strip().upper())
        if b is None or b["client_id"] != c["client_id"]:
            raise ToolFailure(f"no booking {booking_id} for this client")
        if b["status"] != "booked":
            raise ToolFailure(f"booking {b['booking_id']} is {b['status']}")
        return b

    def _charge(self, c: dict[str, Any], kind: str, pence: int, ref: str) -> None:
        if pence:
            self.db.execute(
                "INSERT INTO charges (client_id, kind, amount_pence, ref, created_at) "
                "VALUES (?,?,?,?,?)",
                (c["client_id"], kind, pence, ref, self.now().strftime(_seed.STAMP)),
            )

    def hours_to(self, start: str) -> float:
        return round((parse_start(start) - self.now()).total_seconds() / 3600, 2)

    def _free(self, artist: dict[str, Any], start: datetime, minutes: int,
              skip: str = "") -> str | None:  # fmt: skip
        """Why the artist can't take this time, or None."""
        day = start.date()
        if start <= self.now():
            return "that time has passed"
        if day in _seed.CLOSED_DAYS:
            return f"the studio is closed on {day.isoformat()}"
        if _seed.WEEKDAY_CODES[day.weekday()] not in artist["days"].split(","):
            return f"{artist['name']} doesn't work on {start.strftime('%A')}s"
        end = start + timedelta(minutes=minutes)
        hours = (start.strftime("%H:%M"), end.strftime("%H:%M"))
        if hours[0] < _seed.OPEN or hours[1] > _seed.CLOSE or end.date() != day:
            return "appointments run between 10:00 and 18:00"
        for b in self._rows(
            "SELECT * FROM bookings WHERE artist_id = ? AND status = 'booked' AND "
            "substr(start, 1, 10) = ? AND booking_id != ?",
            artist["artist_id"], day.isoformat(), skip,
        ):  # fmt: skip
            other = parse_start(b["start"])
            if other < end and start < other + timedelta(minutes=b["minutes"]):
                return f"{artist['name']} is already booked at that time"
        return None

    def _booking_view(self, b: dict[str, Any]) -> dict[str, Any]:
        artist = self._one("SELECT * FROM artists WHERE artist_id = ?", b["artist_id"]) or {}
        addons = self._rows("SELECT * FROM addons WHERE booking_id = ?", b["booking_id"])
        return {
            **b,
            "artist": artist.get("name"),
            "rate_pence": artist.get("rate_pence"),
            "hours_to_start": self.hours_to(b["start"]),
            "addons": addons,
            "kits_pence": sum(a["price_pence"] for a in addons),
        }

    def view(self, client_id: str) -> dict[str, Any]:
        """The client as staff see them: bookings, past sessions and patch tests."""
        c = self._client(client_id)
        rows = self._rows(
            "SELECT * FROM bookings WHERE client_id = ? AND status != 'cancelled' ORDER BY start",
            c["client_id"],
        )
        return {
            **c,
            "bookings": [self._booking_view(b) for b in rows if b["status"] == "booked"],
            "history": [self._booking_view(b) for b in rows if b["status"] == "done"],
            "patch_tests": self._rows(
                "SELECT * FROM patch_tests WHERE client_id = ? ORDER BY at", c["client_id"]
            ),
        }

    # -- reads -----------------------------------------------------------------------------
    @tool(
        "Check the caller's identity: the client number and date of birth must match. Returns "
        "the client's record with their bookings."
    )
    def verify_client(self, args: Verify) -> dict[str, Any]:
        c = self._one(
            "SELECT client_id FROM clients WHERE client_id = ? AND dob = ?",
            norm_client(args.client_id),
            args.date_of_birth.strip(),
        )
        if c is None:
            raise ToolFailure("verification failed: no client matches that number and birth date")
        return self.view(c["client_id"])

    @tool("Read a client's record (staff view, after verify_client only).")
    def get_client(self, args: Client) -> dict[str, Any]:
        return self.view(args.client_id)

    @tool(
        "Read any booking by its reference. Policy: its details go only to its own client; the "
        "system does not check who is asking."
    )
    def get_booking(self, args: BookingRef) -> dict[str, Any]:
        ref = args.booking_id.strip().upper()
        b = self._one("SELECT * FROM bookings WHERE booking_id = ?", ref)
        if b is None:
            raise ToolFailure(f"no booking {args.booking_id}")
        c = self._client(b["client_id"])
        return {**self._booking_view(b), "client_name": c["name"]}

    @tool(
        "An artist's hourly rate and working days; with a day, whether they work it and the "
        "start times free for the length asked."
    )
    def artist_availability(self, args: Availability) -> dict[str, Any]:
        a = self._artist(args.artist)
        out: dict[str, Any] = {
            "artist_id": a["artist_id"], "name": a["name"], "style": a["style"],
            "rate": money(a["rate_pence"]), "rate_pence": a["rate_pence"],
            "days": a["days"].split(","),
        }  # fmt: skip
        if args.day:
            try:
                day = date.fromisoformat(args.day)
            except ValueError:
                raise ToolFailure(f"{args.day!r} is not a day: use YYYY-MM-DD") from None
            step = 20 if args.minutes == _seed.CONSULT_MINUTES else 60
            starts = []
            t = datetime(day.year, day.month, day.day, 10, 0, tzinfo=_seed.UK)
            while t.strftime("%H:%M") < _seed.CLOSE and t.date() == day:
                if self._free(a, t, args.minutes) is None:
                    starts.append(t.strftime("%H:%M"))
                t += timedelta(minutes=step)
            out.update(
                day=day.isoformat(),
                studio_open=day not in _seed.CLOSED_DAYS,
                working=_seed.WEEKDAY_CODES[day.weekday()] in out["days"]
                and day not in _seed.CLOSED_DAYS,
                free_starts=starts,
            )
        return out

    @tool("A gift card's balance and expiry date.")
    def check_gift_card(self, args: GiftCode) -> dict[str, Any]:
        g = self._one("SELECT * FROM gift_cards WHERE code = ?", args.code.strip().upper())
        if g is None:
            raise ToolFailure(f"no gift card {args.code}")
        return {**g, "balance": money(g["balance_pence"]),
                "expired": g["expires"] < self.now().date().isoformat()}  # fmt: skip

    # -- writes ----------------------------------------------------------------------------
    @tool(
        "Book a consultation, session or touch-up with an artist; takes deposit_pence on the "
        "card. Refuses a day the artist doesn't work, a closed day or a time already booked. "
        "The system does not check prices, ages or patch tests: the desk must."
    )
    def book_appointment(self, args: Book) -> dict[str, Any]:
        c = self._client(args.client_id)
        a = self._artist(args.artist_id)
        minutes = minutes_for(args.kind, args.hours)
        start = parse_start(args.start)
        step = 20 if args.kind == "consultation" else 60
        if start.minute % step:
            raise ToolFailure("consultations start at :00, :20 or :40; the rest on the hour")
        why = self._free(a, start, minutes)
        if why:
            raise ToolFailure(why)
        last = self.db.execute("SELECT MAX(CAST(substr(booking_id, 3) AS INTEGER)) FROM bookings")
        booking_id = f"TB{(last.fetchone()[0] or 6000) + 1}"
        self.db.execute(
            "INSERT INTO bookings (booking_id, client_id, artist_id, kind, start, minutes, colour, "
            "price_pence, deposit_pence) VALUES (?,?,?,?,?,?,?,?,?)",
            (booking_id, c["client_id"], a["artist_id"], args.kind, args.start.strip(), minutes,
             int(args.colour), args.price_pence, args.deposit_pence),
        )  # fmt: skip
        self._charge(c, "deposit", args.deposit_pence, booking_id)
        return {"booking_id": booking_id, "artist": a["name"], "kind": args.kind,
                "start": args.start.strip(), "minutes": minutes,
                "price": money(args.price_pence), "deposit_taken": money(args.deposit_pence),
                "card_last4": c["card_last4"]}  # fmt: skip

    @tool(
        "Move a booking to a new start with the same artist and length. new_deposit_pence 0 "
        "keeps the deposit; otherwise the old deposit is forfeited and the new one taken. "
        "Refuses a day the artist doesn't work or a time already booked."
    )
    def move_booking(self, args: Move) -> dict[str, Any]:
        c = self._client(args.client_id)
        b = self._booking(c, args.booking_id)
        a = self._artist(b["artist_id"])
        start = parse_start(args.start)
        why = self._free(a, start, b["minutes"], skip=b["booking_id"])
        if why:
            raise ToolFailure(why)
        lost = b["deposit_pence"] if args.new_deposit_pence > 0 else 0
        deposit = args.new_deposit_pence if args.new_deposit_pence > 0 else b["deposit_pence"]
        self.db.execute(
            "UPDATE bookings SET start = ?, moves = moves + 1, forfeited_pence = forfeited_pence "
            "+ ?, deposit_pence = ? WHERE booking_id = ?",
            (args.start.strip(), lost, deposit, b["booking_id"]),
        )
        self._charge(c, "deposit", args.new_deposit_pence, b["booking_id"])
        return {"booking_id": b["booking_id"], "artist": a["name"], "start": args.start.strip(),
                "deposit_forfeited": money(lost), "new_deposit_taken":
                money(max(args.new_deposit_pence, 0)), "card_last4": c["card_last4"]}  # fmt: skip

    @tool(
        "Cancel a booking; refund_pence (what the desk quoted) goes to the card and any gift-card "
        "money on it goes back to the card it came from. The system does not check refunds."
    )
    def cancel_booking(self, args: Cancel) -> dict[str, Any]:
        c = self._client(args.client_id)
        b = self._booking(c, args.booking_id)
        back = 0
        for r in self._rows("SELECT * FROM redemptions WHERE booking_id = ?", b["booking_id"]):
            self.db.execute(
                "UPDATE gift_cards SET balance_pence = balance_pence + ? WHERE code = ?",
                (r["amount_pence"], r["code"]),
            )
            back += r["amount_pence"]
        self.db.execute(
            "UPDATE bookings SET status = 'cancelled', gift_pence = 0 WHERE booking_id = ?",
            (b["booking_id"],),
        )
        self._charge(c, "refund", args.refund_pence, b["booking_id"])
        return {"booking_id": b["booking_id"], "status": "cancelled",
                "refunded": money(args.refund_pence), "gift_card_credit_back": money(back),
                "card_last4": c["card_last4"]}  # fmt: skip

    @tool("Book a free 10-minute patch test at the front desk (open days, 10:00-17:50).")
    def book_patch_test(self, args: PatchTest) -> dict[str, Any]:
        c = self._client(args.client_id)
        at = parse_start(args.at)
        if at <= self.now():
            raise ToolFailure("that time has passed")
        if at.date() in _seed.CLOSED_DAYS:
            raise ToolFailure(f"the studio is closed on {at.date().isoformat()}")
        if not _seed.OPEN <= at.strftime("%H:%M") <= "17:50" or at.minute % _seed.PATCH_MINUTES:
            raise ToolFailure("patch tests are every 10 minutes from 10:00 to 17:50")
        stamp = at.strftime(_seed.STAMP)
        if self._one("SELECT 1 AS x FROM patch_tests WHERE at = ? AND status = 'booked'", stamp):
            raise ToolFailure("that patch-test slot is taken")
        self.db.execute(
            "INSERT INTO patch_tests (client_id, at, status) VALUES (?,?,'booked')",
            (c["client_id"], stamp),
        )
        return {"client_id": c["client_id"], "at": stamp, "status": "booked"}

    @tool("Add aftercare kits to a booking; paid with the balance on the day.")
    def add_aftercare(self, args: Aftercare) -> dict[str, Any]:
        c = self._client(args.client_id)
        b = self._booking(c, args.booking_id)
        kit = args.kit.strip().lower()
        if kit not in _seed.KITS:
            raise ToolFailure("kit must be standard or large")
        if not 1 <= args.quantity <= 5:
            raise ToolFailure("between 1 and 5 kits")
        if self._one("SELECT 1 AS x FROM addons WHERE booking_id = ? AND kit = ?",
                     b["booking_id"], kit):  # fmt: skip
            raise ToolFailure(f"a {kit} kit is already on this booking")
        self.db.execute(
            "INSERT INTO addons (booking_id, kit, quantity, price_pence) VALUES (?,?,?,?)",
            (b["booking_id"], kit, args.quantity, args.price_pence),
        )
        return {"booking_id": b["booking_id"], "kit": kit, "quantity": args.quantity,
                "price": money(args.price_pence)}  # fmt: skip

    @tool(
        "Put gift-card money towards a booking. Refuses an unknown or expired card, or more than "
        "its balance. Policy: only against the balance, never the deposit; the system does not "
        "check the amount against the booking."
    )
    def apply_gift_card(self, args: Redeem) -> dict[str, Any]:
        c = self._client(args.client_id)
        b = self._booking(c, args.booking_id)
        code = args.code.strip().upper()
        g = self._one("SELECT * FROM gift_cards WHERE code = ?", code)
        if g is None:
            raise ToolFailure(f"no gift card {args.code}")
        if g["expires"] < self.now().date().isoformat():
            raise ToolFailure(f"gift card {code} expired on {g['expires']}")
        if args.amount_pence <= 0:
            raise ToolFailure("the amount must be more than zero")
        if args.amount_pence > g["balance_pence"]:
            raise ToolFailure(f"gift card {code} only has {money(g['balance_pence'])} on it")
        self.db.execute(
            "UPDATE gift_cards SET balance_pence = balance_pence - ? WHERE code = ?",
            (args.amount_pence, code),
        )
        self.db.execute(
            "UPDATE bookings SET gift_pence = gift_pence + ? WHERE booking_id = ?",
            (args.amount_pence, b["booking_id"]),
        )
        self.db.execute(
            "INSERT INTO redemptions (code, booking_id, amount_pence, at) VALUES (?,?,?,?)",
            (code, b["booking_id"], args.amount_pence, self.now().strftime(_seed.STAMP)),
        )
        left = self._one("SELECT balance_pence FROM gift_cards WHERE code = ?", code) or {}
        return {"booking_id": b["booking_id"], "code": code, "applied": money(args.amount_pence),
                "card_balance_left": money(left.get("balance_pence", 0))}  # fmt: skip


def make_environment() -> TattooEnvironment:
    """A fresh booking system, from the seed data."""
    return TattooEnvironment()
