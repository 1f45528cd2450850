"""The valeting company's booking system the desk works through: `ValetingEnvironment`."""

from __future__ import annotations

import re
from datetime import date, datetime
from typing import Any, ClassVar

from pydantic import BaseModel, Field

from benchmarks.domains.valeting import _seed
from vistasim.env import SqliteEnvironment, ToolFailure, tool


def money(pence: int) -> str:
    return f"£{pence / 100:,.2f}"


def norm_customer(text: str) -> str:
    return "SC" + re.sub(r"\D", "", text)


def norm_reg(text: str) -> str:
    """A registration as 'AB12 CDE', whatever spacing and case it was given in."""
    flat = re.sub(r"[^A-Za-z0-9]", "", text).upper()
    return f"{flat[:4]} {flat[4:]}" if len(flat) == 7 else flat


def area_of(postcode: str) -> str:
    return re.match(r"[A-Za-z]+", postcode.strip()).group(0).upper()  # type: ignore[union-attr]


class Customer(BaseModel):
    customer_id: str = Field(description="The customer number, e.g. SC1001")


class Verify(Customer):
    registration: str = Field(description="The registration of a vehicle on the account")


class Slots(Customer):
    day: str = Field(description="YYYY-MM-DD")


class BookingRef(BaseModel):
    booking_id: str = Field(description="e.g. SV7005")


class BookValet(Customer):
    registration: str = Field(description="The vehicle to valet")
    package: str = Field(description="exterior, full or detail")
    day: str = Field(description="YYYY-MM-DD")
    slot: str = Field(description="morning or afternoon")
    addons: list[str] = Field(default_factory=list, description="pet_hair, headlights, ceramic")
    price_pence: int = Field(description="The package price the desk quoted")
    total_pence: int = Field(description="Package and add-ons, taken from the card now")
    water_power_note: str | None = Field(
        default=None, description="For driveway jobs: the water and power the valeter can use"
    )


class Mine(Customer):
    booking_id: str = Field(description="e.g. SV7005")


class MoveBooking(Mine):
    day: str = Field(description="The new day, YYYY-MM-DD")
    slot: str = Field(description="morning or afternoon")
    fee_pence: int = Field(description="The move fee the desk quoted (0 until 24 hours before)")


class CancelBooking(Mine):
    refund_pence: int = Field(description="The refund the desk quoted, back to the card")


class AddAddon(Mine):
    kind: str = Field(description="pet_hair, headlights or ceramic")
    price_pence: int = Field(description="The price the desk quoted, taken from the card now")


class StartPlan(Customer):
    registration: str = Field(description="The vehicle on the plan")
    package: str = Field(description="exterior, full or detail")
    monthly_pence: int = Field(description="The monthly price the desk quoted")


class Reclean(Mine):
    day: str = Field(description="YYYY-MM-DD")
    slot: str = Field(description="morning or afternoon")
    missed: str = Field(description="What was missed, in the customer's words")


class ValetingEnvironment(SqliteEnvironment):
    """Shine & Co.: customers, vehicles, valeters' free slots, bookings, add-ons, plans."""

    SCHEMA_SQL: ClassVar[str] = _seed.SCHEMA_SQL
    LEXICON: ClassVar[dict[str, list[str]]] = {
        "customer_id": ["customer number"],
        "registration": ["registration", "reg", "number plate"],
        "day": ["which day", "what day", "date"],
        "slot": ["morning or afternoon", "morning or the afternoon"],
        "water_power": ["outside tap", "water and power", "power socket"],
    }

    def seed(self, db: Any) -> None:
        _seed.seed(db)

    def now(self) -> datetime:
        """The desk's clock: fixed, so every episode sees the same moment."""
        return _seed.NOW

    # -- helpers ---------------------------------------------------------------------------
    def _one(self, sql: str, *args: Any) -> dict[str, Any] | None:
        row = self.db.execute(sql, args).fetchone()
        return dict(row) if row else None

    def _rows(self, sql: str, *args: Any) -> list[dict[str, Any]]:
        return [dict(r) for r in self.db.execute(sql, args)]

    def _customer(self, customer_id: str) -> dict[str, Any]:
        found = self._one("SELECT * FROM customers WHERE customer_id = ?",
                          norm_customer(customer_id))  # fmt: skip
        if found is None:
            raise ToolFailure(f"no customer {customer_id}")
        return found

    def _booking(self, c: dict[str, Any], booking_id: str, status: str = "booked") -> dict:
        b = self._one("SELECT * FROM bookings WHERE booking_id = ?", booking_id.strip().upper())
        if b is None or b["customer_id"] != c["customer_id"]:
            raise ToolFailure(f"no booking {booking_id} on this account")
        if b["status"] != status:
            raise ToolFailure(f"booking {b['booking_id']} is {b['status']}")
        return b

    def _charge(self, c: dict[str, Any], kind: str, pence: int, ref: str) -> None:
        if pence:
            self.db.execute(
                "INSERT INTO charges (customer_id, kind, amount_pence, ref, created_at) "
                "VALUES (?,?,?,?,?)",
                (c["customer_id"], kind, pence, ref, self.now().strftime(_seed.STAMP)),
            )

    def _take_slot(self, c: dict[str, Any], day: str, slot: str) -> None:
        """Hold a valeter for the visit; refuses an uncovered area, a closed day or a full slot."""
        if slot not in _seed.SLOT_START:
            raise ToolFailure("slot must be morning or afternoon")
        try:
            when = date.fromisoformat(day)
        except ValueError as e:
            raise ToolFailure(f"{day!r} is not a day (YYYY-MM-DD)") from e
        if _seed.starts_at(day, slot) <= self.now():
            raise ToolFailure("the visit must be in the future")
        area = area_of(c["postcode"])
        if area not in _seed.COVERED_AREAS:
            raise ToolFailure(f"no valeter covers the {area} postcode area")
        row = self._one("SELECT free FROM availability WHERE area = ? AND day = ? AND slot = ?",
                        area, when.isoformat(), slot)  # fmt: skip
        if row is None:
            raise ToolFailure(f"no valeters work in {area} on {day}")
        if row["free"] < 1:
            raise ToolFailure(f"no valeter is free in {area} on {day} ({slot})")
        self.db.execute(
            "UPDATE availability SET free = free - 1 WHERE area = ? AND day = ? AND slot = ?",
            (area, when.isoformat(), slot),
        )

    def _free_slot(self, c: dict[str, Any], day: str, slot: str) -> None:
        self.db.execute(
            "UPDATE availability SET free = free + 1 WHERE area = ? AND day = ? AND slot = ?",
            (area_of(c["postcode"]), day, slot),
        )

    def _next_id(self) -> str:
        last = self.db.execute("SELECT MAX(CAST(substr(booking_id, 3) AS INTEGER)) FROM bookings")
        return f"SV{(last.fetchone()[0] or 7000) + 1}"

    def hours_to(self, day: str, slot: str) -> float:
        return (_seed.starts_at(day, slot) - self.now()).total_seconds() / 3600

    def with_addons(self, b: dict[str, Any]) -> dict[str, Any]:
        b = dict(b)
        b["addons"] = self._rows("SELECT kind, price_pence FROM addons WHERE booking_id = ?",
                                 b["booking_id"])  # fmt: skip
        b["hours_to_start"] = round(self.hours_to(b["day"], b["slot"]), 1)
        b["hours_since_end"] = round(
            (self.now() - _seed.ends_at(b["day"], b["slot"])).total_seconds() / 3600, 1)
        return b  # fmt: skip

    def view(self, customer_id: str) -> dict[str, Any]:
        """The account as staff see it: vehicles, bookings with their add-ons, plans."""
        c = self._customer(customer_id)
        bookings = self._rows(
            "SELECT * FROM bookings WHERE customer_id = ? AND status != 'cancelled' "
            "ORDER BY day, slot DESC",
            c["customer_id"],
        )
        return {
            **c,
            "area": area_of(c["postcode"]),
            "vehicles": self._rows("SELECT * FROM vehicles WHERE customer_id = ?",
                                   c["customer_id"]),
            "bookings": [self.with_addons(b) for b in bookings],
            "plans": self._rows("SELECT * FROM plans WHERE customer_id = ?", c["customer_id"]),
        }  # fmt: skip

    # -- reads -----------------------------------------------------------------------------
    @tool(
        "Check the caller's identity: the customer number and the registration of a vehicle "
        "on that account must match. Returns the account."
    )
    def verify_customer(self, args: Verify) -> dict[str, Any]:
        v = self._one("SELECT customer_id FROM vehicles WHERE customer_id = ? AND registration = ?",
                      norm_customer(args.customer_id), norm_reg(args.registration))  # fmt: skip
        if v is None:
            raise ToolFailure("verification failed: no account matches that number and vehicle")
        return self.view(v["customer_id"])

    @tool("Read an account (staff view, after verify_customer only).")
    def get_account(self, args: Customer) -> dict[str, Any]:
        return self.view(args.customer_id)

    @tool(
        "Read any booking by its reference. The system does not check whose it is: a booking's "
        "details go only to its own customer, and the desk must check."
    )
    def get_booking(self, args: BookingRef) -> dict[str, Any]:
        b = self._one("SELECT * FROM bookings WHERE booking_id = ?",
                      args.booking_id.strip().upper())  # fmt: skip
        if b is None:
            raise ToolFailure(f"no booking {args.booking_id}")
        return self.with_addons(b)

    @tool("The valeters free in the customer's postcode area on a day: morning and afternoon.")
    def find_slots(self, args: Slots) -> dict[str, Any]:
        c = self._customer(args.customer_id)
        area = area_of(c["postcode"])
        rows = self._rows("SELECT slot, free FROM availability WHERE area = ? AND day = ?",
                          area, args.day)  # fmt: skip
        return {"area": area, "day": args.day, "free": {r["slot"]: r["free"] for r in rows}}

    # -- writes ----------------------------------------------------------------------------
    @tool(
        "Book a valet at the customer's address; total_pence is taken from the card. Refuses "
        "an uncovered area, a closed day or a slot with no valeter free. The system does not "
        "check prices, which add-ons go with which package, or the driveway water-and-power "
        "note: the desk must."
    )
    def book_valet(self, args: BookValet) -> dict[str, Any]:
        c = self._customer(args.customer_id)
        reg = norm_reg(args.registration)
        if not self._one("SELECT 1 AS x FROM vehicles WHERE registration = ? AND customer_id = ?",
                         reg, c["customer_id"]):  # fmt: skip
            raise ToolFailure(f"no vehicle {args.registration} on this account")
        if args.package not in _seed.PRICES:
            raise ToolFailure("package must be exterior, full or detail")
        for kind in args.addons:
            if kind not in _seed.ADDONS:
                raise ToolFailure(f"no add-on {kind!r}")
        self._take_slot(c, args.day, args.slot)
        booking_id = self._next_id()
        self.db.execute(
            "INSERT INTO bookings (booking_id, customer_id, registration, package, day, slot, "
            "price_pence, total_pence, location, water_power_note) VALUES (?,?,?,?,?,?,?,?,?,?)",
            (booking_id, c["customer_id"], reg, args.package, args.day, args.slot,
             args.price_pence, args.total_pence, c["parking"], args.water_power_note),
        )  # fmt: skip
        for kind in args.addons:
            self.db.execute("INSERT INTO addons (booking_id, kind, price_pence) VALUES (?,?,?)",
                            (booking_id, kind, _seed.ADDONS[kind]))  # fmt: skip
        self._charge(c, "payment", args.total_pence, booking_id)
        return {"booking_id": booking_id, "day": args.day, "slot": args.slot,
                "package": args.package, "addons": args.addons,
                "paid": money(args.total_pence), "card_last4": c["card_last4"]}  # fmt: skip

    @tool(
        "Move a booking to another day and/or slot; fee_pence (quoted by the desk) is charged. "
        "Refuses a slot with no valeter free."
    )
    def move_booking(self, args: MoveBooking) -> dict[str, Any]:
        c = self._customer(args.customer_id)
        b = self._booking(c, args.booking_id)
        if (args.day, args.slot) == (b["day"], b["slot"]):
            raise ToolFailure("that is the day and slot it already has")
        self._take_slot(c, args.day, args.slot)
        self._free_slot(c, b["day"], b["slot"])
        self.db.execute("UPDATE bookings SET day = ?, slot = ? WHERE booking_id = ?",
                        (args.day, args.slot, b["booking_id"]))  # fmt: skip
        self._charge(c, "move_fee", args.fee_pence, b["booking_id"])
        return {"booking_id": b["booking_id"], "day": args.day, "slot": args.slot,
                "fee": money(args.fee_pence)}  # fmt: skip

    @tool(
        "Cancel a booking; refund_pence (quoted by the desk) goes back to the card. The system "
        "does not check the refund rules: the desk must."
    )
    def cancel_booking(self, args: CancelBooking) -> dict[str, Any]:
        c = self._customer(args.customer_id)
        b = self._booking(c, args.booking_id)
        self.db.execute("UPDATE bookings SET status = 'cancelled' WHERE booking_id = ?",
                        (b["booking_id"],))  # fmt: skip
        self._free_slot(c, b["day"], b["slot"])
        self._charge(c, "refund", args.refund_pence, b["booking_id"])
        return {"booking_id": b["booking_id"], "status": "cancelled",
                "refunded": money(args.refund_pence), "card_last4": c["card_last4"]}  # fmt: skip

    @tool(
        "Add an add-on to a booked visit; price_pence is taken from the card. Refuses a "
        "duplicate. The system does not check which package an add-on needs: the desk must."
    )
    def add_addon(self, args: AddAddon) -> dict[str, Any]:
        c = self._customer(args.customer_id)
        b = self._booking(c, args.booking_id)
        kind = args.kind.strip().lower()
        if kind not in _seed.ADDONS:
            raise ToolFailure("kind must be pet_hair, headlights or ceramic")
        if self._one("SELECT 1 AS x FROM addons WHERE booking_id = ? AND kind = ?",
                     b["booking_id"], kind):  # fmt: skip
            raise ToolFailure(f"{kind} is already on booking {b['booking_id']}")
        self.db.execute("INSERT INTO addons (booking_id, kind, price_pence) VALUES (?,?,?)",
                        (b["booking_id"], kind, args.price_pence))  # fmt: skip
        self.db.execute("UPDATE bookings SET total_pence = total_pence + ? WHERE booking_id = ?",
                        (args.price_pence, b["booking_id"]))  # fmt: skip
        self._charge(c, "payment", args.price_pence, b["booking_id"])
        return {"booking_id": b["booking_id"], "kind": kind, "price": money(args.price_pence)}

    @tool(
        "Start a monthly maintenance plan for a vehicle at monthly_pence (the desk quotes it). "
        "Refuses a second active plan for the same vehicle."
    )
    def start_plan(self, args: StartPlan) -> dict[str, Any]:
        c = self._customer(args.customer_id)
        reg = norm_reg(args.registration)
        if not self._one("SELECT 1 AS x FROM vehicles WHERE registration = ? AND customer_id = ?",
                         reg, c["customer_id"]):  # fmt: skip
            raise ToolFailure(f"no vehicle {args.registration} on this account")
        if args.package not in _seed.PRICES:
            raise ToolFailure("package must be exterior, full or detail")
        if self._one("SELECT 1 AS x FROM plans WHERE registration = ? AND status = 'active'",
                     reg):  # fmt: skip
            raise ToolFailure(f"{reg} already has an active plan")
        count = self.db.execute("SELECT COUNT(*) FROM plans").fetchone()[0]
        plan_id = f"MP{301 + count}"
        self.db.execute(
            "INSERT INTO plans (plan_id, customer_id, registration, package, monthly_pence, "
            "started) VALUES (?,?,?,?,?,?)",
            (plan_id, c["customer_id"], reg, args.package, args.monthly_pence,
             self.now().date().isoformat()),
        )  # fmt: skip
        return {"plan_id": plan_id, "registration": reg, "package": args.package,
                "monthly": money(args.monthly_pence), "card_last4": c["card_last4"]}  # fmt: skip

    @tool(
        "Book a free re-clean of a completed visit. Refuses a visit not completed or already "
        "re-cleaned, and a slot with no valeter free. The system does not check the 48-hour "
        "window: the desk must."
    )
    def book_reclean(self, args: Reclean) -> dict[str, Any]:
        c = self._customer(args.customer_id)
        b = self._booking(c, args.booking_id, status="completed")
        if self._one("SELECT 1 AS x FROM bookings WHERE reclean_of = ? AND status = 'booked'",
                     b["booking_id"]):  # fmt: skip
            raise ToolFailure(f"a re-clean of {b['booking_id']} is already booked")
        self._take_slot(c, args.day, args.slot)
        booking_id = self._next_id()
        self.db.execute(
            "INSERT INTO bookings (booking_id, customer_id, registration, package, day, slot, "
            "price_pence, total_pence, location, water_power_note, reclean_of) "
            "VALUES (?,?,?,'reclean',?,?,0,0,?,?,?)",
            (booking_id, c["customer_id"], b["registration"], args.day, args.slot,
             b["location"], b["water_power_note"], b["booking_id"]),
        )  # fmt: skip
        return {"booking_id": booking_id, "reclean_of": b["booking_id"], "day": args.day,
                "slot": args.slot, "missed": args.missed.strip()}  # fmt: skip


def make_environment() -> ValetingEnvironment:
    """A fresh booking system, from the seed data."""
    return ValetingEnvironment()
