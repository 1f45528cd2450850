"""The ski-hire booking system the desk works through: `SkiHireEnvironment` and its tools."""

from __future__ import annotations

import re
from datetime import date, datetime, timedelta
from typing import Any, ClassVar

from pydantic import BaseModel, Field

from benchmarks.domains.skihire import _seed
from vistasim.env import SqliteEnvironment, ToolFailure, tool


def money(pence: int) -> str:
    return f"£{pence / 100:,.2f}"


def norm_ref(text: str) -> str:
    return "PP" + re.sub(r"\D", "", text)


def stock_line(kind: str, level: str) -> str:
    """Children's kit is one stock line, whatever the child's price band."""
    return "junior" if kind == "child" else level


def hire_days(start: str, days: int) -> list[str]:
    first = date.fromisoformat(start)
    return [(first + timedelta(days=i)).isoformat() for i in range(days)]


class Ref(BaseModel):
    booking_ref: str = Field(description="The booking reference, e.g. PP4101")


class Verify(Ref):
    surname: str = Field(description="The lead booker's surname")


class Day(BaseModel):
    day: str = Field(description="YYYY-MM-DD")


class AddSkier(Ref):
    name: str = Field(description="The new skier's full name")
    kind: str = Field(description="adult, or child (under 12 on the first day of the hire)")
    level: str = Field(description="bronze, silver or gold; junior for a child")
    date_of_birth: str | None = Field(default=None, description="YYYY-MM-DD (children)")
    helmet: bool = Field(default=False, description="A helmet (always with a child's package)")
    price_pence: int = Field(description="What the desk quoted for adding them")


class ChangePackage(Ref):
    skier_ids: list[str] = Field(description="The skiers whose package changes, e.g. ['S103']")
    level: str = Field(description="The new level: bronze, silver or gold")
    difference_pence: int = Field(
        description="The price difference the desk quoted: positive taken, negative refunded"
    )


class Extend(Ref):
    extra_days: int = Field(description="Days added to the end of the hire")
    price_pence: int = Field(description="What the desk quoted for the extra days")


class SkierExtra(Ref):
    skier_ids: list[str] = Field(description="The skiers, e.g. ['S101', 'S102']")
    price_pence: int = Field(description="What the desk quoted")


class Fitting(Ref):
    day: str = Field(description="YYYY-MM-DD")
    time: str = Field(description="HH:MM, a slot from 08:00 to 11:30 on the half hour")


class Cancel(Ref):
    refund_pence: int = Field(description="The refund the desk quoted, to the card on file")


class SkiHireEnvironment(SqliteEnvironment):
    """Piste Perfect Ski Hire: bookings, skiers, fittings, stock and charges."""

    SCHEMA_SQL: ClassVar[str] = _seed.SCHEMA_SQL
    LEXICON: ClassVar[dict[str, list[str]]] = {
        "booking_ref": ["booking reference"],
        "surname": ["surname"],
        "date_of_birth": ["date of birth"],
        "level": ["which package"],
        "name": ["their name", "full name"],
        "extra_days": ["how many days"],
        "fitting_time": ["what time", "which time"],
        "who": ["who is it for", "whose package"],
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

    def _booking(self, ref: str, *, live: bool = True) -> dict[str, Any]:
        b = self._one("SELECT * FROM bookings WHERE booking_ref = ?", norm_ref(ref))
        if b is None:
            raise ToolFailure(f"no booking {ref}")
        if live and b["status"] != "confirmed":
            raise ToolFailure(f"booking {b['booking_ref']} is {b['status']}")
        return b

    def _not_ended(self, b: dict[str, Any]) -> None:
        if hire_days(b["start_day"], b["days"])[-1] < self.now().date().isoformat():
            raise ToolFailure(f"the hire on {b['booking_ref']} has ended")

    def _skiers(self, b: dict[str, Any], ids: list[str]) -> list[dict[str, Any]]:
        if not ids:
            raise ToolFailure("no skiers named")
        out = []
        for sid in ids:
            s = self._one("SELECT * FROM skiers WHERE skier_id = ? AND booking_ref = ?",
                          sid.strip().upper(), b["booking_ref"])  # fmt: skip
            if s is None:
                raise ToolFailure(f"no skier {sid} on booking {b['booking_ref']}")
            out.append(s)
        return out

    def _charge(self, b: dict[str, Any], reason: str, pence: int) -> None:
        """Take a payment (pence > 0) or make a refund (pence < 0) on the card on file."""
        if not pence:
            return
        kind = "payment" if pence > 0 else "refund"
        self.db.execute(
            "INSERT INTO charges (booking_ref, kind, reason, amount_pence, created_at) "
            "VALUES (?,?,?,?,?)",
            (b["booking_ref"], kind, reason, abs(pence), self.now().strftime(_seed.STAMP)),
        )
        self.db.execute("UPDATE bookings SET paid_pence = paid_pence + ? WHERE booking_ref = ?",
                        (pence, b["booking_ref"]))  # fmt: skip

    def free_sets(self, line: str, day: str) -> int:
        """Sets of a stock line not out on a confirmed hire that day."""
        units = self._one("SELECT units FROM stock WHERE level = ? AND day = ?", line, day)
        have = units["units"] if units else _seed.CAPACITY[line]
        used = 0
        for s in self._rows(
            "SELECT s.kind, s.level, b.start_day, b.days FROM skiers s JOIN bookings b "
            "ON s.booking_ref = b.booking_ref WHERE b.status = 'confirmed'"
        ):
            if stock_line(s["kind"], s["level"]) == line and day in hire_days(
                s["start_day"], s["days"]
            ):
                used += 1
        return int(have) - used

    def _need_stock(self, line: str, days: list[str], count: int) -> None:
        for day in days:
            if self.free_sets(line, day) < count:
                raise ToolFailure(
                    f"no stock: not enough {line} sets free on {day} (the shop has "
                    f"{max(self.free_sets(line, day), 0)} left that day)"
                )

    def view(self, ref: str) -> dict[str, Any]:
        """A booking as staff see it: skiers, fitting, dates and what has been paid."""
        b = self._booking(ref, live=False)
        days = hire_days(b["start_day"], b["days"])
        today = self.now().date().isoformat()
        return {
            **b,
            "last_day": days[-1],
            "days_to_start": (date.fromisoformat(b["start_day"]) - self.now().date()).days,
            "started": b["start_day"] <= today,
            "ended": days[-1] < today,
            "skiers": self._rows("SELECT * FROM skiers WHERE booking_ref = ? ORDER BY skier_id",
                                 b["booking_ref"]),  # fmt: skip
            "fitting": self._one("SELECT day, time FROM fittings WHERE booking_ref = ?",
                                 b["booking_ref"]),  # fmt: skip
        }

    # -- reads -----------------------------------------------------------------------------
    @tool(
        "Check the caller is the lead booker: the booking reference and the lead booker's "
        "surname must match. Returns the booking."
    )
    def verify_booker(self, args: Verify) -> dict[str, Any]:
        b = self._one(
            "SELECT booking_ref FROM bookings WHERE booking_ref = ? AND lower(surname) = ?",
            norm_ref(args.booking_ref),
            args.surname.strip().lower(),
        )
        if b is None:
            raise ToolFailure("verification failed: no booking matches that reference and name")
        return self.view(b["booking_ref"])

    @tool(
        "Read any booking (staff view). Policy: a booking's details go only to its verified "
        "lead booker; the system does not check who is asking."
    )
    def get_booking(self, args: Ref) -> dict[str, Any]:
        return self.view(args.booking_ref)

    @tool("Free places in each fitting slot on a day (08:00 to 11:30, two bookings a slot).")
    def fitting_slots(self, args: Day) -> dict[str, Any]:
        day = args.day.strip()
        if day in _seed.CLOSED_DAYS:
            raise ToolFailure(f"the shop is closed on {day}")
        if day < self.now().date().isoformat():
            raise ToolFailure(f"{day} is in the past")
        rows = self._rows(
            "SELECT time, COUNT(*) AS n FROM fittings WHERE day = ? GROUP BY time", day
        )
        taken = {r["time"]: r["n"] for r in rows}
        return {"day": day, "slots": [
            {"time": t, "free": _seed.FITTING_PLACES - taken.get(t, 0)}
            for t in _seed.FITTING_TIMES
        ]}  # fmt: skip

    # -- writes ----------------------------------------------------------------------------
    @tool(
        "Add a skier to a booking for the whole hire; price_pence (quoted by the desk) is "
        "taken from the card. Refuses when there's no stock, and children under 3 (no kit). "
        "The system does not check prices or the group discount: the desk must."
    )
    def add_skier(self, args: AddSkier) -> dict[str, Any]:
        b = self._booking(args.booking_ref)
        self._not_ended(b)
        kind, level = args.kind.strip().lower(), args.level.strip().lower()
        if kind not in {"adult", "child"}:
            raise ToolFailure("kind must be adult or child")
        if kind == "adult" and level not in _seed.ADULT_LEVELS:
            raise ToolFailure("an adult's level must be bronze, silver or gold")
        if kind == "child":
            if level != "junior" or not args.date_of_birth:
                raise ToolFailure("a child takes the junior package and needs a date of birth")
            born = date.fromisoformat(args.date_of_birth)
            if _seed.age_on(born, date.fromisoformat(b["start_day"])) < _seed.YOUNGEST:
                raise ToolFailure("we have no kit for children under 3")
        if not args.name.strip():
            raise ToolFailure("the skier needs a name")
        self._need_stock(stock_line(kind, level), hire_days(b["start_day"], b["days"]), 1)
        last = self.db.execute("SELECT MAX(CAST(substr(skier_id, 2) AS INTEGER)) FROM skiers")
        sid = f"S{(last.fetchone()[0] or 100) + 1}"
        helmet = 1 if kind == "child" else int(args.helmet)
        self.db.execute(
            "INSERT INTO skiers (skier_id, booking_ref, name, kind, level, date_of_birth, "
            "helmet) VALUES (?,?,?,?,?,?,?)",
            (sid, b["booking_ref"], args.name.strip(), kind, level, args.date_of_birth, helmet),
        )
        self._charge(b, "skier", args.price_pence)
        return {"booking_ref": b["booking_ref"], "skier_id": sid, "name": args.name.strip(),
                "level": level, "helmet": bool(helmet), "charged": money(args.price_pence),
                "card_last4": b["card_last4"]}  # fmt: skip

    @tool(
        "Change skiers' package level; difference_pence (quoted by the desk) is taken, or "
        "refunded when negative. Refuses when the new level has no stock. The system does "
        "not check whether the hire has started: the desk must."
    )
    def change_package(self, args: ChangePackage) -> dict[str, Any]:
        b = self._booking(args.booking_ref)
        self._not_ended(b)
        level = args.level.strip().lower()
        if level not in _seed.ADULT_LEVELS:
            raise ToolFailure("level must be bronze, silver or gold")
        skiers = self._skiers(b, args.skier_ids)
        for s in skiers:
            if s["kind"] == "child":
                raise ToolFailure(f"{s['name']} is on a children's package, which has one level")
            if s["level"] == level:
                raise ToolFailure(f"{s['name']} is already on {level}")
        days = [d for d in hire_days(b["start_day"], b["days"])
                if d >= self.now().date().isoformat()]  # fmt: skip
        self._need_stock(level, days, len(skiers))
        for s in skiers:
            self.db.execute("UPDATE skiers SET level = ? WHERE skier_id = ?",
                            (level, s["skier_id"]))  # fmt: skip
        self._charge(b, "package_change", args.difference_pence)
        paid = ({"charged": money(args.difference_pence)} if args.difference_pence >= 0
                else {"refunded": money(-args.difference_pence)})  # fmt: skip
        return {"booking_ref": b["booking_ref"], "skiers": [s["name"] for s in skiers],
                "level": level, **paid, "card_last4": b["card_last4"]}  # fmt: skip

    @tool(
        "Add days to the end of a hire, for everyone on the booking; price_pence (quoted by "
        "the desk) is taken. Refuses when the shop has no stock for the extra days."
    )
    def extend_hire(self, args: Extend) -> dict[str, Any]:
        b = self._booking(args.booking_ref)
        self._not_ended(b)
        if args.extra_days < 1 or b["days"] + args.extra_days > _seed.MAX_DAYS:
            raise ToolFailure(f"a hire is 1 to {_seed.MAX_DAYS} days")
        new_days = hire_days(b["start_day"], b["days"] + args.extra_days)[b["days"]:]
        if any(d in _seed.CLOSED_DAYS for d in new_days):
            raise ToolFailure("the shop is closed on one of those days")
        lines: dict[str, int] = {}
        for s in self._rows("SELECT * FROM skiers WHERE booking_ref = ?", b["booking_ref"]):
            line = stock_line(s["kind"], s["level"])
            lines[line] = lines.get(line, 0) + 1
        for line, count in lines.items():
            self._need_stock(line, new_days, count)
        self.db.execute("UPDATE bookings SET days = ? WHERE booking_ref = ?",
                        (b["days"] + args.extra_days, b["booking_ref"]))  # fmt: skip
        self._charge(b, "extension", args.price_pence)
        return {"booking_ref": b["booking_ref"], "days": b["days"] + args.extra_days,
                "last_day": new_days[-1], "charged": money(args.price_pence),
                "card_last4": b["card_last4"]}  # fmt: skip

    @tool("Add helmets for skiers on a booking; price_pence (quoted by the desk) is taken.")
    def add_helmets(self, args: SkierExtra) -> dict[str, Any]:
        b = self._booking(args.booking_ref)
        self._not_ended(b)
        skiers = self._skiers(b, args.skier_ids)
        for s in skiers:
            if s["helmet"]:
                raise ToolFailure(f"{s['name']} already has a helmet")
        for s in skiers:
            self.db.execute("UPDATE skiers SET helmet = 1 WHERE skier_id = ?", (s["skier_id"],))
        self._charge(b, "helmets", args.price_pence)
        return {"booking_ref": b["booking_ref"], "skiers": [s["name"] for s in skiers],
                "charged": money(args.price_pence), "card_last4": b["card_last4"]}  # fmt: skip

    @tool(
        "Add breakage and theft insurance for skiers; price_pence (quoted by the desk) is "
        "taken. Policy: only at booking or before the hire starts; the system does not check."
    )
    def add_insurance(self, args: SkierExtra) -> dict[str, Any]:
        b = self._booking(args.booking_ref)
        self._not_ended(b)
        skiers = self._skiers(b, args.skier_ids)
        for s in skiers:
            if s["insured"]:
                raise ToolFailure(f"{s['name']} is already insured")
        for s in skiers:
            self.db.execute("UPDATE skiers SET insured = 1 WHERE skier_id = ?", (s["skier_id"],))
        self._charge(b, "insurance", args.price_pence)
        return {"booking_ref": b["booking_ref"], "skiers": [s["name"] for s in skiers],
                "charged": money(args.price_pence), "card_last4": b["card_last4"]}  # fmt: skip

    @tool(
        "Book (or move) a booking's boot fitting into a slot. Refuses a full slot, a time "
        "that isn't a slot, a closed or past day. Policy: the first morning of the hire; the "
        "system does not check the day."
    )
    def book_fitting(self, args: Fitting) -> dict[str, Any]:
        b = self._booking(args.booking_ref)
        slots = self.fitting_slots(Day(day=args.day))["slots"]
        slot = next((s for s in slots if s["time"] == args.time.strip()), None)
        if slot is None:
            raise ToolFailure("fittings are from 08:00 to 11:30, on the hour and half hour")
        before = self._one("SELECT day, time FROM fittings WHERE booking_ref = ?",
                           b["booking_ref"])  # fmt: skip
        if before == {"day": args.day, "time": slot["time"]}:
            raise ToolFailure(f"the fitting is already at {slot['time']} on {args.day}")
        if slot["free"] < 1:
            raise ToolFailure(f"the {slot['time']} fitting slot on {args.day} is full")
        self.db.execute("DELETE FROM fittings WHERE booking_ref = ?", (b["booking_ref"],))
        self.db.execute("INSERT INTO fittings VALUES (?,?,?)",
                        (b["booking_ref"], args.day, slot["time"]))  # fmt: skip
        return {"booking_ref": b["booking_ref"], "day": args.day, "time": slot["time"],
                "was": before}  # fmt: skip

    @tool(
        "Cancel a booking; refund_pence (quoted by the desk) goes back to the card. The "
        "system does not check the refund rules: the desk must."
    )
    def cancel_booking(self, args: Cancel) -> dict[str, Any]:
        b = self._booking(args.booking_ref)
        self._not_ended(b)
        self.db.execute("UPDATE bookings SET status = 'cancelled' WHERE booking_ref = ?",
                        (b["booking_ref"],))  # fmt: skip
        self.db.execute("DELETE FROM fittings WHERE booking_ref = ?", (b["booking_ref"],))
        self._charge(b, "cancellation", -args.refund_pence)
        return {"booking_ref": b["booking_ref"], "status": "cancelled",
                "refunded": money(args.refund_pence), "card_last4": b["card_last4"]}  # fmt: skip


def make_environment() -> SkiHireEnvironment:
    """A fresh booking system, from the seed data."""
    return SkiHireEnvironment()
