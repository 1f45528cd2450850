"""The hire system the desk's agent works through: `CarHireEnvironment` and its tools."""

from __future__ import annotations

import re
from datetime import date, datetime, timedelta
from typing import Any, ClassVar

from benchmarks.domains.carhire import _seed
from benchmarks.domains.carhire._args import (
    AddDriver,
    AddExtra,
    BookingArgs,
    ChangeDates,
    CheckAvailability,
    ReportDamage,
    SwitchClass,
    UpdateEmail,
    VerifyCustomer,
)
from vistasim.env import SqliteEnvironment, ToolFailure, tool

STAMP = _seed.STAMP


def money(pence: int) -> str:
    return f"£{pence / 100:.2f}"


def hire_days(pickup_at: str, return_at: str) -> int:
    """Days charged: every started 24 hours from the pick-up time."""
    span = _seed.at(return_at) - _seed.at(pickup_at)
    return max(1, -(-int(span.total_seconds()) // 86400))


def _ref(text: str) -> str:
    digits = re.sub(r"\D", "", text)
    return f"CLH-{digits}"


class CarHireEnvironment(SqliteEnvironment):
    """Cityline Car Hire: customers, bookings, extras, drivers, charges and damage reports."""

    SCHEMA_SQL: ClassVar[str] = _seed.SCHEMA_SQL
    LEXICON: ClassVar[dict[str, list[str]]] = {
        "booking_ref": ["booking reference", "reference number"],
        "licence_last4": ["last four digits", "last 4 digits", "driving licence"],
        "pickup_date": ["pick-up date", "pick up date", "collect the car"],
        "return_date": ["return date", "bring the car back", "return the car"],
        "driver_name": ["driver's full name", "name of the driver", "driver's name"],
        "driver_date_of_birth": ["driver's date of birth", "date of birth"],
        "car_class": ["which car class", "which class", "what size of car"],
        "quantity": ["how many"],
        "description": ["what happened", "describe the damage"],
        "email": ["new email", "email address"],
    }

    def seed(self, db: Any) -> None:
        _seed.seed(db)
        for row in db.execute("SELECT booking_ref FROM bookings").fetchall():
            total = self._price(db, row[0])
            db.execute("UPDATE bookings SET total_pence = ? WHERE booking_ref = ?", (total, row[0]))
            db.execute("INSERT INTO charges (booking_ref, kind, amount_pence, created_at) "
                       "VALUES (?, 'hire', ?, '2026-10-01 12:00')", (row[0], total))
        for ref, excess, when in db.execute(
                "SELECT booking_ref, excess_pence, reported_at FROM damage_reports").fetchall():
            db.execute("INSERT INTO charges (booking_ref, kind, amount_pence, created_at) "
                       "VALUES (?, 'excess', ?, ?)", (ref, excess, when))

    def now(self) -> datetime:
        """The desk's clock: fixed, so every episode sees the same day."""
        return _seed.NOW

    # -- helpers ---------------------------------------------------------------------------
    def _one(self, sql: str, *args: Any) -> dict[str, Any] | None:
        row = self.db.execute(sql, args).fetchone()
        return dict(row) if row else None

    def _price(self, db: Any, ref: str, *, car_class: str | None = None,
               pickup_at: str | None = None, return_at: str | None = None) -> int:
        """The whole hire's price in pence, optionally for other dates or another class."""
        # The seed's connection has no row factory: read plain tuples.
        own_class, own_pickup, own_return = db.execute(
            "SELECT car_class, pickup_at, return_at FROM bookings WHERE booking_ref = ?",
            (ref,)).fetchone()
        rate = _seed.RATES[car_class or own_class]
        drivers = db.execute("SELECT COUNT(*) FROM drivers WHERE booking_ref = ? AND main = 0",
                             (ref,)).fetchone()[0]
        extras = sum(_seed.EXTRA_PENCE[e] * q for e, q in db.execute(
            "SELECT extra, quantity FROM extras WHERE booking_ref = ?", (ref,)).fetchall())
        days = hire_days(pickup_at or own_pickup, return_at or own_return)
        return days * (rate + drivers * _seed.DRIVER_PENCE + extras)

    def _booking(self, ref: str, *, status: str | None = "booked") -> dict[str, Any]:
        booking = self._one("SELECT * FROM bookings WHERE booking_ref = ?", _ref(ref))
        if booking is None:
            raise ToolFailure(f"no booking with reference {ref}")
        if status and booking["status"] != status:
            raise ToolFailure(f"booking {booking['booking_ref']} is {booking['status']}")
        return booking

    def _stamp(self) -> str:
        return self.now().strftime(STAMP)

    def _charge(self, ref: str, kind: str, pence: int) -> None:
        if pence:
            self.db.execute("INSERT INTO charges (booking_ref, kind, amount_pence, created_at) "
                            "VALUES (?,?,?,?)", (ref, kind, pence, self._stamp()))

    def _starts_in(self, booking: dict[str, Any]) -> timedelta:
        return _seed.at(booking["pickup_at"]) - self.now()

    def _free_cars(self, branch: str, car_class: str, pickup_at: str, return_at: str,
                   ignore: str = "") -> int:
        fleet = self._one("SELECT cars FROM fleet WHERE branch = ? AND car_class = ?",
                          branch, car_class)
        if fleet is None:
            raise ToolFailure(f"no branch called {branch!r}: we have {', '.join(_seed.BRANCHES)}")
        busy = self.db.execute(
            "SELECT COUNT(*) FROM bookings WHERE branch = ? AND car_class = ? AND status = "
            "'booked' AND booking_ref != ? AND pickup_at < ? AND return_at > ?",
            (branch, car_class, ignore, return_at, pickup_at)).fetchone()[0]
        return max(0, fleet["cars"] - busy)

    def _details(self, booking: dict[str, Any]) -> dict[str, Any]:
        ref = booking["booking_ref"]
        customer = self._one("SELECT * FROM customers WHERE customer_id = ?",
                             booking["customer_id"]) or {}
        drivers = [dict(r) for r in self.db.execute(
            "SELECT name, date_of_birth FROM drivers WHERE booking_ref = ? AND main = 0", (ref,))]
        extras = {r["extra"]: r["quantity"] for r in self.db.execute(
            "SELECT extra, quantity FROM extras WHERE booking_ref = ?", (ref,))}
        reports = [dict(r) for r in self.db.execute(
            "SELECT report_id, description, excess_pence, status FROM damage_reports "
            "WHERE booking_ref = ?", (ref,))]
        return {
            "booking_ref": ref, "customer_id": booking["customer_id"],
            "hirer": customer.get("name"), "email": customer.get("email"),
            "branch": booking["branch"], "car_class": booking["car_class"],
            "daily_rate": money(_seed.RATES[booking["car_class"]]),
            "pickup_at": booking["pickup_at"], "return_at": booking["return_at"],
            "days": hire_days(booking["pickup_at"], booking["return_at"]),
            "cover": booking["cover"], "status": booking["status"],
            "total": money(booking["total_pence"]), "additional_drivers": drivers,
            "extras": extras, "damage_reports": reports,
        }

    def _retotal(self, ref: str, kind: str) -> tuple[int, int]:
        old = self._booking(ref)["total_pence"]
        new = self._price(self.db, ref)
        self.db.execute("UPDATE bookings SET total_pence = ? WHERE booking_ref = ?", (new, ref))
        self._charge(ref, kind, new - old)
        return old, new

    # -- identity and lookups --------------------------------------------------------------
    @tool("Check who the customer is: a booking reference and the last four digits of the "
          "hirer's driving licence. Returns the customer id, name and their bookings.")
    def verify_customer(self, args: VerifyCustomer) -> dict[str, Any]:
        booking = self._one("SELECT * FROM bookings WHERE booking_ref = ?", _ref(args.booking_ref))
        customer = booking and self._one("SELECT * FROM customers WHERE customer_id = ?",
                                         booking["customer_id"])
        if not customer or customer["licence_last4"] != re.sub(r"\D", "", args.licence_last4):
            raise ToolFailure("verification failed: those details do not match a booking")
        refs = [r[0] for r in self.db.execute(
            "SELECT booking_ref FROM bookings WHERE customer_id = ? ORDER BY pickup_at",
            (customer["customer_id"],))]
        return {"verified": True, "customer_id": customer["customer_id"],
                "name": customer["name"], "email": customer["email"], "bookings": refs}

    @tool("One booking: hirer, branch, class, dates, cover, extras, drivers, total, damage "
          "reports. No ownership check: the desk must only read out the verified customer's.")
    def get_booking(self, args: BookingArgs) -> dict[str, Any]:
        return self._details(self._booking(args.booking_ref, status=None))

    @tool("How many cars of a class are free at a branch between two dates.")
    def check_availability(self, args: CheckAvailability) -> dict[str, Any]:
        free = self._free_cars(args.branch, args.car_class, f"{args.pickup_date} 00:00",
                               f"{args.return_date} 23:59")
        return {"branch": args.branch, "car_class": args.car_class, "free": free}

    # -- changes ---------------------------------------------------------------------------
    @tool("Change a booking's pick-up and return dates (times stay). The price is recomputed "
          "per day; the difference is charged or refunded. Not within 24 hours of pick-up.")
    def change_dates(self, args: ChangeDates) -> dict[str, Any]:
        booking = self._booking(args.booking_ref)
        if self._starts_in(booking) < timedelta(hours=24):
            raise ToolFailure("dates cannot be changed within 24 hours of pick-up")
        try:
            pickup = f"{date.fromisoformat(args.pickup_date.strip())} {booking['pickup_at'][11:]}"
            ret = f"{date.fromisoformat(args.return_date.strip())} {booking['return_at'][11:]}"
        except ValueError:
            raise ToolFailure("dates must be YYYY-MM-DD") from None
        if pickup <= self._stamp():
            raise ToolFailure("the new pick-up is in the past")
        if ret <= pickup:
            raise ToolFailure("the return must be after the pick-up")
        ref = booking["booking_ref"]
        if not self._free_cars(booking["branch"], booking["car_class"], pickup, ret, ignore=ref):
            raise ToolFailure(f"no {booking['car_class']} cars free at {booking['branch']} "
                              "on those dates")
        self.db.execute("UPDATE bookings SET pickup_at = ?, return_at = ? WHERE booking_ref = ?",
                        (pickup, ret, ref))
        old, new = self._retotal(ref, "dates")
        return {"booking_ref": ref, "pickup_at": pickup, "return_at": ret,
                "days": hire_days(pickup, ret), "old_total": money(old),
                "new_total": money(new), "difference": money(new - old),
                "charged_or_refunded": "charged" if new >= old else "refunded"}

    @tool("Add an additional driver (£12.00 per day). The system does not check the driver's "
          "age: the desk must (21 or over at pick-up).")
    def add_driver(self, args: AddDriver) -> dict[str, Any]:
        booking = self._booking(args.booking_ref)
        ref = booking["booking_ref"]
        try:
            born = date.fromisoformat(args.date_of_birth.strip())
        except ValueError:
            raise ToolFailure("date_of_birth must be YYYY-MM-DD") from None
        count = self.db.execute("SELECT COUNT(*) FROM drivers WHERE booking_ref = ?",
                                (ref,)).fetchone()[0]
        self.db.execute("INSERT INTO drivers VALUES (?,?,?,?,0)",
                        (f"D-{ref[4:]}-{count + 1}", ref, args.name.strip(), born.isoformat()))
        old, new = self._retotal(ref, "driver")
        return {"booking_ref": ref, "driver": args.name.strip(), "per_day": money(1200),
                "days": hire_days(booking["pickup_at"], booking["return_at"]),
                "charged": money(new - old), "new_total": money(new)}

    @tool("Add a child seat (£8.00 per day, at most 2 per booking) or a GPS (£6.00 per day).")
    def add_extra(self, args: AddExtra) -> dict[str, Any]:
        booking = self._booking(args.booking_ref)
        ref = booking["booking_ref"]
        have = self._one("SELECT quantity FROM extras WHERE booking_ref = ? AND extra = ?",
                         ref, args.extra)
        quantity = (have["quantity"] if have else 0) + args.quantity
        if quantity > _seed.EXTRA_MAX[args.extra]:
            word = args.extra.replace("_", " ")
            raise ToolFailure(f"at most {_seed.EXTRA_MAX[args.extra]} {word}(s) per booking; "
                              f"this booking has {quantity - args.quantity}")
        self.db.execute("INSERT OR REPLACE INTO extras VALUES (?,?,?)",
                        (ref, args.extra, quantity))
        old, new = self._retotal(ref, "extra")
        return {"booking_ref": ref, "extra": args.extra, "quantity_now": quantity,
                "charged": money(new - old), "new_total": money(new)}

    @tool("Switch the booking to another car class, if one is free at the branch on its dates; "
          "the price difference is charged or refunded.")
    def switch_class(self, args: SwitchClass) -> dict[str, Any]:
        booking = self._booking(args.booking_ref)
        ref = booking["booking_ref"]
        if args.car_class == booking["car_class"]:
            raise ToolFailure(f"the booking is already {args.car_class}")
        if not self._free_cars(booking["branch"], args.car_class, booking["pickup_at"],
                               booking["return_at"], ignore=ref):
            raise ToolFailure(f"no {args.car_class} cars free at {booking['branch']} on those "
                              "dates")
        self.db.execute("UPDATE bookings SET car_class = ? WHERE booking_ref = ?",
                        (args.car_class, ref))
        old, new = self._retotal(ref, "class")
        return {"booking_ref": ref, "car_class": args.car_class, "old_total": money(old),
                "new_total": money(new), "difference": money(new - old),
                "charged_or_refunded": "charged" if new >= old else "refunded"}

    @tool("Cancel a booking: free until 48 hours before pick-up (full refund); after that one "
          "day's hire is kept and the rest refunded.")
    def cancel_booking(self, args: BookingArgs) -> dict[str, Any]:
        booking = self._booking(args.booking_ref)
        ref = booking["booking_ref"]
        days = hire_days(booking["pickup_at"], booking["return_at"])
        kept = booking["total_pence"] // days if self._starts_in(booking) < timedelta(hours=48) \
            else 0
        refund = booking["total_pence"] - kept
        self.db.execute("UPDATE bookings SET status = 'cancelled', refund_pence = ?, "
                        "kept_pence = ?, cancelled_at = ? WHERE booking_ref = ?",
                        (refund, kept, self._stamp(), ref))
        self._charge(ref, "refund", -refund)
        return {"booking_ref": ref, "status": "cancelled", "refund": money(refund),
                "kept": money(kept)}

    @tool("Report damage on a finished hire. charge_excess charges the £300.00 excess, at most "
          "once per hire; the system does not check the cover (the desk must: full cover "
          "waives it).")
    def report_damage(self, args: ReportDamage) -> dict[str, Any]:
        booking = self._booking(args.booking_ref, status=None)
        if booking["status"] != "completed":
            raise ToolFailure("damage can only be reported on a finished hire")
        ref = booking["booking_ref"]
        before = self.db.execute("SELECT COALESCE(SUM(excess_pence), 0) FROM damage_reports "
                                 "WHERE booking_ref = ?", (ref,)).fetchone()[0]
        excess = _seed.EXCESS_PENCE if args.charge_excess and not before else 0
        number = self.db.execute("SELECT COUNT(*) FROM damage_reports").fetchone()[0] + 3001
        report_id = f"DR-{number}"
        self.db.execute("INSERT INTO damage_reports VALUES (?,?,?,?,?,'open')",
                        (report_id, ref, args.description.strip(), self._stamp(), excess))
        self._charge(ref, "excess", excess)
        note = "excess already charged on this hire" if args.charge_excess and before else ""
        return {"report_id": report_id, "booking_ref": ref, "excess_charged": money(excess),
                "note": note}

    @tool("Change the customer's contact email.")
    def update_email(self, args: UpdateEmail) -> dict[str, Any]:
        email = args.email.strip().lower()
        if not re.fullmatch(r"[^@\s]+@[^@\s]+\.[a-z]{2,}", email):
            raise ToolFailure(f"{args.email!r} is not an email address")
        if self._one("SELECT 1 FROM customers WHERE customer_id = ?", args.customer_id) is None:
            raise ToolFailure(f"no customer {args.customer_id}")
        self.db.execute("UPDATE customers SET email = ? WHERE customer_id = ?",
                        (email, args.customer_id))
        return {"customer_id": args.customer_id, "email": email}


def make_environment() -> CarHireEnvironment:
    """A fresh desk, from the seed data."""
    return CarHireEnvironment()
