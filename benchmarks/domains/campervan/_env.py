"""The hire company's reservation system the desk works through: `CampervanEnvironment`.

The system refuses only what cannot be done: a closed depot, no van of the size free, a bike
rack on a van without a tow bar, no awning left, a refund larger than what was paid, a hire that
has already started, a third additional driver. Prices, minimum hires, change fees, refund bands,
driver ages and licences, and who may hear about a booking are the desk's job.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import date, datetime
from typing import Any, ClassVar, TypeVar, cast

from pydantic import BaseModel, Field

from benchmarks.domains.campervan import _seed

# vistasim ships no py.typed marker: its names are Any to mypy here, so the decorator is
# re-typed to keep the tools' own signatures.
from vistasim.env import SqliteEnvironment, ToolFailure  # type: ignore[import-untyped]
from vistasim.env import tool as _tool

F = TypeVar("F", bound=Callable[..., Any])


def tool(description: str) -> Callable[[F], F]:
    """`vistasim.env.tool`, typed."""
    return cast(Callable[[F], F], _tool(description))


def money(pence: int) -> str:
    return f"£{pence / 100:,.2f}"


def norm_customer(text: str) -> str:
    return "DW" + re.sub(r"\D", "", text)


def norm_postcode(text: str) -> str:
    return re.sub(r"\s", "", text).upper()


def norm_ref(text: str) -> str:
    return "VB" + re.sub(r"\D", "", text)


class Customer(BaseModel):
    customer_id: str = Field(description="The customer number, e.g. DW1001")


class Verify(Customer):
    postcode: str = Field(description="The postcode the customer gives")


class BookingRef(BaseModel):
    booking_ref: str = Field(description="e.g. VB3006")


class Trip(BaseModel):
    van_size: int = Field(description="Berths: 2, 4 or 6")
    pickup_depot: str = Field(description="bristol, kendal or inverness")
    dropoff_depot: str = Field(description="bristol, kendal or inverness")
    pickup_date: str = Field(description="YYYY-MM-DD")
    dropoff_date: str = Field(description="YYYY-MM-DD")


class Availability(Trip):
    exclude_booking: str | None = Field(
        default=None, description="A booking being changed, not counted against itself"
    )


class BookHire(Trip, Customer):
    hire_pence: int = Field(description="The daily rates the desk quoted, summed")
    oneway_pence: int = Field(description="The one-way fee the desk quoted (0 for a return)")


class OwnBooking(Customer):
    booking_ref: str = Field(description="e.g. VB3006")


class ChangeDates(OwnBooking):
    pickup_date: str = Field(description="The new pick-up day, YYYY-MM-DD")
    dropoff_date: str = Field(description="The new drop-off day, YYYY-MM-DD")
    hire_pence: int = Field(description="The hire re-priced by the desk for the new days")
    fee_pence: int = Field(description="The amendment fee the desk quoted (0 if none)")


class ChangeDropoff(OwnBooking):
    dropoff_depot: str = Field(description="bristol, kendal or inverness")
    oneway_pence: int = Field(description="The one-way fee for the new route, as quoted")
    fee_pence: int = Field(description="The amendment fee the desk quoted (0 if none)")


class Cancel(OwnBooking):
    refund_pence: int = Field(description="The refund the desk quoted (0 if none)")


class AddExtra(OwnBooking):
    kind: str = Field(description="awning, bike_rack or outdoor_kit")
    price_pence: int = Field(description="The price the desk quoted")


class AddDriver(OwnBooking):
    name: str = Field(description="The additional driver's full name")
    date_of_birth: str = Field(description="YYYY-MM-DD")
    licence_since: str = Field(description="Full licence held since, YYYY-MM-DD")
    fee_pence: int = Field(description="The driver fee the desk quoted")


class CampervanEnvironment(SqliteEnvironment):  # type: ignore[misc]
    """Driftwood Campervan Hire: customers, fleet, closures, bookings, extras and drivers."""

    SCHEMA_SQL: ClassVar[str] = _seed.SCHEMA_SQL
    LEXICON: ClassVar[dict[str, list[str]]] = {
        "customer_id": ["customer number"],
        "postcode": ["postcode"],
        "van_size": ["size of van", "berth"],
        "pickup_depot": ["which depot", "pick up from"],
        "dates": ["which day", "pick the van up", "bring it back"],
        "new_dates": ["pick up instead", "new dates"],
        "dropoff_depot": ["bring the van back to", "drop-off depot"],
        "driver_name": ["driver's full name"],
        "driver_dob": ["date of birth"],
        "licence_since": ["licence", "passed their test"],
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

    def _customer(self, customer_id: str) -> dict[str, Any]:
        found = self._one(
            "SELECT * FROM customers WHERE customer_id = ?", norm_customer(customer_id)
        )
        if found is None:
            raise ToolFailure(f"no customer {customer_id}")
        return found

    def _booking(self, c: dict[str, Any], ref: str, *, open_only: bool = True) -> dict[str, Any]:
        b = self._one("SELECT * FROM bookings WHERE booking_ref = ?", norm_ref(ref))
        if b is None or b["customer_id"] != c["customer_id"]:
            raise ToolFailure(f"no booking {ref} on this customer's account")
        if b["status"] != "confirmed":
            raise ToolFailure(f"booking {b['booking_ref']} is {b['status']}")
        if open_only and date.fromisoformat(b["pickup_date"]) <= self.today():
            raise ToolFailure(f"the hire {b['booking_ref']} has already started")
        return b

    def _charge(self, c: dict[str, Any], ref: str, kind: str, pence: int) -> None:
        if pence:
            self.db.execute(
                "INSERT INTO charges (customer_id, booking_ref, kind, amount_pence, created_at) "
                "VALUES (?,?,?,?,?)",
                (c["customer_id"], ref, kind, pence, self.now().strftime(_seed.STAMP)),
            )

    def today(self) -> date:
        return self.now().date()

    def _closed(self, depot: str, day: str) -> str | None:
        found = self._one(
            "SELECT reason FROM closures WHERE depot = ? AND first_day <= ? AND last_day >= ?",
            depot,
            day,
            day,
        )
        return f"the {depot.capitalize()} depot is {found['reason']} on {day}" if found else None

    def _trip_problems(self, t: Trip, exclude: str | None) -> tuple[int, list[str]]:
        """Vans of the size free at the pick-up depot over the days, and closed depot days."""
        for depot in (t.pickup_depot, t.dropoff_depot):
            if depot not in _seed.DEPOTS:
                raise ToolFailure(f"no depot {depot!r}; depots: {', '.join(_seed.DEPOTS)}")
        if t.van_size not in _seed.SIZES:
            raise ToolFailure("van_size must be 2, 4 or 6")
        first, last = date.fromisoformat(t.pickup_date), date.fromisoformat(t.dropoff_date)
        if first <= self.today() or last <= first:
            raise ToolFailure("the pick-up must be a future day, before the drop-off")
        fleet = self._one(
            "SELECT vans FROM fleet WHERE depot = ? AND van_size = ?", t.pickup_depot, t.van_size
        )
        taken = self._one(
            "SELECT COUNT(*) AS n FROM bookings WHERE status = 'confirmed' AND pickup_depot = ? "
            "AND van_size = ? AND pickup_date < ? AND dropoff_date > ? AND booking_ref != ?",
            t.pickup_depot,
            t.van_size,
            t.dropoff_date,
            t.pickup_date,
            exclude or "",
        )
        free = (fleet["vans"] if fleet else 0) - (taken["n"] if taken else 0)
        closed = [
            why
            for why in (
                self._closed(t.pickup_depot, t.pickup_date),
                self._closed(t.dropoff_depot, t.dropoff_date),
            )
            if why
        ]
        return max(free, 0), closed

    def _check_trip(self, t: Trip, exclude: str | None = None) -> None:
        free, closed = self._trip_problems(t, exclude)
        if closed:
            raise ToolFailure(closed[0])
        if free < 1:
            raise ToolFailure(
                f"no {t.van_size}-berth van is free at {t.pickup_depot.capitalize()} for those days"
            )

    def view(self, customer_id: str) -> dict[str, Any]:
        """The account as staff see it: open bookings with their extras and drivers."""
        c = self._customer(customer_id)
        bookings = self._rows(
            "SELECT * FROM bookings WHERE customer_id = ? AND status = 'confirmed' "
            "ORDER BY pickup_date",
            c["customer_id"],
        )
        for b in bookings:
            self._detail(b)
        return {**c, "bookings": bookings}

    def _detail(self, b: dict[str, Any]) -> dict[str, Any]:
        b["days_to_pickup"] = (date.fromisoformat(b["pickup_date"]) - self.today()).days
        b["extras"] = self._rows("SELECT * FROM extras WHERE booking_ref = ?", b["booking_ref"])
        b["drivers"] = self._rows("SELECT * FROM drivers WHERE booking_ref = ?", b["booking_ref"])
        return b

    # -- reads -----------------------------------------------------------------------------
    @tool(
        "Check the caller's identity: the customer number and the postcode on that account "
        "must match. Returns the account with its bookings."
    )
    def verify_customer(self, args: Verify) -> dict[str, Any]:
        c = self._one(
            "SELECT customer_id, postcode FROM customers WHERE customer_id = ?",
            norm_customer(args.customer_id),
        )
        if c is None or norm_postcode(c["postcode"]) != norm_postcode(args.postcode):
            raise ToolFailure("verification failed: no account matches that number and postcode")
        return self.view(c["customer_id"])

    @tool("Read a customer's account and bookings (staff view, after verify_customer only).")
    def get_account(self, args: Customer) -> dict[str, Any]:
        return self.view(args.customer_id)

    @tool(
        "Read any booking by its reference, with the name of the customer who made it (staff "
        "view). Policy: a booking is discussed only with its own customer."
    )
    def get_booking(self, args: BookingRef) -> dict[str, Any]:
        b = self._one("SELECT * FROM bookings WHERE booking_ref = ?", norm_ref(args.booking_ref))
        if b is None:
            raise ToolFailure(f"no booking {args.booking_ref}")
        c = self._customer(b["customer_id"])
        return {**self._detail(b), "customer_name": c["name"]}

    @tool(
        "How many vans of a size are free at the pick-up depot over the days, and whether "
        "either depot is closed on its day. Does not check prices or minimum hires."
    )
    def check_availability(self, args: Availability) -> dict[str, Any]:
        free, closed = self._trip_problems(args, args.exclude_booking)
        return {"vans_free": free, "closed": closed}

    # -- writes ----------------------------------------------------------------------------
    @tool(
        "Book a hire; takes the booking deposit (25% of hire_pence + oneway_pence) from the "
        "card. Refuses a closed depot or no van free. Prices and minimum hires are the desk's."
    )
    def book_hire(self, args: BookHire) -> dict[str, Any]:
        c = self._customer(args.customer_id)
        self._check_trip(args)
        last = self.db.execute("SELECT MAX(CAST(substr(booking_ref, 3) AS INTEGER)) FROM bookings")
        ref = f"VB{(last.fetchone()[0] or 3000) + 1}"
        deposit = (args.hire_pence + args.oneway_pence) * _seed.DEPOSIT_PERCENT // 100
        self.db.execute(
            "INSERT INTO bookings (booking_ref, customer_id, van_size, pickup_depot, "
            "dropoff_depot, pickup_date, dropoff_date, hire_pence, oneway_pence, deposit_pence) "
            "VALUES (?,?,?,?,?,?,?,?,?,?)",
            (ref, c["customer_id"], args.van_size, args.pickup_depot, args.dropoff_depot,
             args.pickup_date, args.dropoff_date, args.hire_pence, args.oneway_pence, deposit),
        )  # fmt: skip
        self._charge(c, ref, "deposit", deposit)
        return {"booking_ref": ref, "van_size": args.van_size, "pickup_depot": args.pickup_depot,
                "dropoff_depot": args.dropoff_depot, "pickup_date": args.pickup_date,
                "dropoff_date": args.dropoff_date,
                "total": money(args.hire_pence + args.oneway_pence),
                "deposit_taken": money(deposit), "card_last4": c["card_last4"]}  # fmt: skip

    @tool(
        "Move a booking to new pick-up and drop-off days at its depots, with the hire re-priced "
        "by the desk; fee_pence is taken now. Refuses a started hire, a closed depot, no van free."
    )
    def change_dates(self, args: ChangeDates) -> dict[str, Any]:
        c = self._customer(args.customer_id)
        b = self._booking(c, args.booking_ref)
        trip = Trip(van_size=b["van_size"], pickup_depot=b["pickup_depot"],
                    dropoff_depot=b["dropoff_depot"], pickup_date=args.pickup_date,
                    dropoff_date=args.dropoff_date)  # fmt: skip
        self._check_trip(trip, b["booking_ref"])
        self.db.execute(
            "UPDATE bookings SET pickup_date = ?, dropoff_date = ?, hire_pence = ? "
            "WHERE booking_ref = ?",
            (args.pickup_date, args.dropoff_date, args.hire_pence, b["booking_ref"]),
        )
        self._charge(c, b["booking_ref"], "amendment_fee", args.fee_pence)
        return {"booking_ref": b["booking_ref"], "pickup_date": args.pickup_date,
                "dropoff_date": args.dropoff_date, "hire": money(args.hire_pence),
                "fee_taken": money(args.fee_pence), "card_last4": c["card_last4"]}  # fmt: skip

    @tool(
        "Change where a booking's van is brought back; the booking's one-way fee becomes "
        "oneway_pence and fee_pence is taken now. Refuses a started hire or a closed depot."
    )
    def change_dropoff(self, args: ChangeDropoff) -> dict[str, Any]:
        c = self._customer(args.customer_id)
        b = self._booking(c, args.booking_ref)
        depot = args.dropoff_depot.strip().lower()
        if depot not in _seed.DEPOTS:
            raise ToolFailure(f"no depot {args.dropoff_depot!r}")
        closed = self._closed(depot, b["dropoff_date"])
        if closed:
            raise ToolFailure(closed)
        self.db.execute(
            "UPDATE bookings SET dropoff_depot = ?, oneway_pence = ? WHERE booking_ref = ?",
            (depot, args.oneway_pence, b["booking_ref"]),
        )
        self._charge(c, b["booking_ref"], "amendment_fee", args.fee_pence)
        return {"booking_ref": b["booking_ref"], "dropoff_depot": depot,
                "oneway_fee": money(args.oneway_pence), "fee_taken": money(args.fee_pence),
                "card_last4": c["card_last4"]}  # fmt: skip

    @tool(
        "Cancel a booking; refund_pence goes back to the card. Refuses a started hire or a "
        "refund larger than the deposit paid; the refund bands are the desk's."
    )
    def cancel_booking(self, args: Cancel) -> dict[str, Any]:
        c = self._customer(args.customer_id)
        b = self._booking(c, args.booking_ref)
        if not 0 <= args.refund_pence <= b["deposit_pence"]:
            raise ToolFailure(f"a refund can't exceed the {money(b['deposit_pence'])} paid")
        self.db.execute(
            "UPDATE bookings SET status = 'cancelled' WHERE booking_ref = ?", (b["booking_ref"],)
        )
        self._charge(c, b["booking_ref"], "refund", args.refund_pence)
        return {"booking_ref": b["booking_ref"], "status": "cancelled",
                "refunded": money(args.refund_pence), "card_last4": c["card_last4"]}  # fmt: skip

    @tool(
        "Add an extra to a booking: awning, bike_rack (not on 2-berth vans: no tow bar) or "
        "outdoor_kit. Refuses when no awning or rack is left at the depot for those days."
    )
    def add_extra(self, args: AddExtra) -> dict[str, Any]:
        c = self._customer(args.customer_id)
        b = self._booking(c, args.booking_ref)
        kind = args.kind.strip().lower().replace(" ", "_")
        if kind not in _seed.EXTRA_PENCE:
            raise ToolFailure("kind must be awning, bike_rack or outdoor_kit")
        if kind == "bike_rack" and b["van_size"] == 2:
            raise ToolFailure("2-berth vans have no tow bar, so a bike rack can't be fitted")
        if self._one("SELECT 1 AS x FROM extras WHERE booking_ref = ? AND kind = ?",
                     b["booking_ref"], kind):  # fmt: skip
            raise ToolFailure(f"{kind} is already on booking {b['booking_ref']}")
        stock = self._one("SELECT units FROM extra_stock WHERE depot = ? AND kind = ?",
                          b["pickup_depot"], kind)  # fmt: skip
        if stock is not None:
            out = self._one(
                "SELECT COUNT(*) AS n FROM extras e JOIN bookings o ON o.booking_ref = "
                "e.booking_ref WHERE e.kind = ? AND o.status = 'confirmed' AND o.pickup_depot = ? "
                "AND o.pickup_date < ? AND o.dropoff_date > ?",
                kind, b["pickup_depot"], b["dropoff_date"], b["pickup_date"],
            )  # fmt: skip
            if out is not None and out["n"] >= stock["units"]:
                raise ToolFailure(
                    f"no {kind.replace('_', ' ')} is free at {b['pickup_depot'].capitalize()} "
                    "for those days"
                )
        self.db.execute(
            "INSERT INTO extras (booking_ref, kind, price_pence) VALUES (?,?,?)",
            (b["booking_ref"], kind, args.price_pence),
        )
        return {"booking_ref": b["booking_ref"], "kind": kind, "price": money(args.price_pence)}

    @tool(
        "Name an additional driver on a booking (at most two). The system records what it is "
        "given: ages and licences are the desk's to check."
    )
    def add_driver(self, args: AddDriver) -> dict[str, Any]:
        c = self._customer(args.customer_id)
        b = self._booking(c, args.booking_ref)
        for day in (args.date_of_birth, args.licence_since):
            try:
                date.fromisoformat(day)
            except ValueError:
                raise ToolFailure(f"{day!r} is not a date (YYYY-MM-DD)") from None
        named = self._rows("SELECT * FROM drivers WHERE booking_ref = ?", b["booking_ref"])
        if len(named) >= _seed.MAX_EXTRA_DRIVERS:
            raise ToolFailure("a booking can have at most two additional drivers")
        self.db.execute(
            "INSERT INTO drivers (booking_ref, name, date_of_birth, licence_since, fee_pence) "
            "VALUES (?,?,?,?,?)",
            (b["booking_ref"], args.name.strip(), args.date_of_birth, args.licence_since,
             args.fee_pence),
        )  # fmt: skip
        return {"booking_ref": b["booking_ref"], "driver": args.name.strip(),
                "fee": money(args.fee_pence)}  # fmt: skip


def make_environment() -> CampervanEnvironment:
    """A fresh reservation system, from the seed data."""
    return CampervanEnvironment()
