"""The sweeps' booking system the desk works through: `ChimneyEnvironment` and its tools."""

from __future__ import annotations

import re
from datetime import date, datetime, timedelta
from typing import Any, ClassVar

from pydantic import BaseModel, Field

from benchmarks.domains.chimney import _seed
from vistasim.env import SqliteEnvironment, ToolFailure, tool

EMAIL_RE = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")


def money(pence: int) -> str:
    return f"£{pence / 100:,.2f}"


def norm_customer(text: str) -> str:
    return "SA" + re.sub(r"\D", "", text)


def norm_postcode(text: str) -> str:
    raw = re.sub(r"\s", "", text).upper()
    return f"{raw[:-3]} {raw[-3:]}" if len(raw) > 3 else raw


class Customer(BaseModel):
    customer_id: str = Field(description="The customer number, e.g. SA3001")


class Verify(Customer):
    postcode: str = Field(description="The postcode of the property on record, e.g. YO31 7QT")


class FindSlots(Customer):
    day: str = Field(description="The first day to look at, YYYY-MM-DD")
    days: int = Field(default=1, ge=1, le=14, description="How many days from `day` (1-14)")


class BookingRef(BaseModel):
    booking_id: str = Field(description="e.g. BK7006")


class Addon(BaseModel):
    flue_id: str = Field(description="The flue, e.g. F103")
    kind: str = Field(description="cctv, bird_guard or cowl")
    price_pence: int = Field(description="The price the desk quoted")


class BookSweep(Customer):
    day: str = Field(description="YYYY-MM-DD")
    slot: str = Field(description="morning (08:00-12:00) or afternoon (13:00-17:00)")
    flue_ids: list[str] = Field(description="The flues to sweep, e.g. ['F117', 'F118']")
    sweep_pence: int = Field(description="The sweeping price the desk quoted, all flues")
    travel_pence: int = Field(description="The travel charge the desk quoted (0 in the core)")
    addons: list[Addon] = Field(default_factory=list, description="Add-ons at the same visit")


class VisitRef(Customer):
    booking_id: str = Field(description="e.g. BK7006")


class MoveVisit(VisitRef):
    day: str = Field(description="The new day, YYYY-MM-DD")
    slot: str = Field(description="morning or afternoon")
    fee_pence: int = Field(description="The call-out fee the desk quoted (0 when 24h+ ahead)")


class CancelVisit(VisitRef):
    fee_pence: int = Field(description="The call-out fee the desk quoted (0 when 24h+ ahead)")


class AddAddon(VisitRef):
    flue_id: str = Field(description="The flue, e.g. F106")
    kind: str = Field(description="cctv, bird_guard or cowl")
    price_pence: int = Field(description="The price the desk quoted")


class Reminders(Customer):
    enabled: bool = Field(description="True to join the annual reminder plan, False to leave")


class CertificateCopy(Customer):
    certificate_id: str = Field(description="e.g. CERT-5112")
    email: str = Field(description="Where to send the copy")


class ChimneyEnvironment(SqliteEnvironment):
    """Sootaway Chimney Sweeps: customers, flues, sweeps' diaries, visits and certificates."""

    SCHEMA_SQL: ClassVar[str] = _seed.SCHEMA_SQL
    LEXICON: ClassVar[dict[str, list[str]]] = {
        "customer_id": ["customer number"],
        "postcode": ["postcode"],
        "day": ["which day", "what day"],
        "slot": ["morning or afternoon"],
        "new_day": ["which day", "instead"],
        "flues": ["which flue", "which chimney"],
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
        found = self._one("SELECT * FROM customers WHERE customer_id = ?",
                          norm_customer(customer_id))  # fmt: skip
        if found is None:
            raise ToolFailure(f"no customer {customer_id}")
        return found

    def _visit(self, c: dict[str, Any], booking_id: str) -> dict[str, Any]:
        v = self._one("SELECT * FROM visits WHERE booking_id = ?", booking_id.strip().upper())
        if v is None or v["customer_id"] != c["customer_id"]:
            raise ToolFailure(f"no booking {booking_id} for this customer")
        if v["status"] != "confirmed":
            raise ToolFailure(f"booking {v['booking_id']} is {v['status']}")
        if _seed.slot_start(v["day"], v["slot"]) <= self.now():
            raise ToolFailure(f"the visit {v['booking_id']} has already started")
        return v

    def _charge(self, c: dict[str, Any], pence: int, ref: str) -> None:
        if pence:
            self.db.execute(
                "INSERT INTO charges (customer_id, kind, amount_pence, ref, created_at) "
                "VALUES (?,?,?,?,?)",
                (c["customer_id"], "call_out", pence, ref, self.now().strftime(_seed.STAMP)),
            )

    def hours_to(self, day: str, slot: str) -> float:
        return (_seed.slot_start(day, slot) - self.now()).total_seconds() / 3600

    def free_sweeps(self, area: str, day: str, slot: str, skip: str = "") -> list[str]:
        """The area's sweeps working that day with no visit in that slot."""
        if _seed.closed_why(day):
            return []
        busy = {r["sweep_id"] for r in self._rows(
            "SELECT sweep_id FROM visits WHERE day = ? AND slot = ? AND status = 'confirmed' "
            "AND booking_id != ?", day, slot, skip)}  # fmt: skip
        off = {r["sweep_id"] for r in self._rows("SELECT sweep_id FROM days_off WHERE day = ?",
                                                 day)}  # fmt: skip
        return [s["sweep_id"] for s in self._rows(
            "SELECT sweep_id FROM sweeps WHERE area = ? ORDER BY sweep_id", area)
            if s["sweep_id"] not in busy | off]  # fmt: skip

    def camera_out(self, day: str, skip: str = "") -> bool:
        """The company's one CCTV camera goes to one visit a day."""
        return bool(self._one(
            "SELECT 1 AS x FROM addons a JOIN visits v ON v.booking_id = a.booking_id "
            "WHERE a.kind = 'cctv' AND v.day = ? AND v.status = 'confirmed' AND v.booking_id != ?",
            day, skip))  # fmt: skip

    def _check_day(self, day: str, slot: str) -> date:
        try:
            d = date.fromisoformat(day)
        except ValueError:
            raise ToolFailure(f"{day!r} is not a day (YYYY-MM-DD)") from None
        if d <= self.now().date():
            raise ToolFailure("visits can be booked from tomorrow onwards")
        why = _seed.closed_why(day)
        if why:
            raise ToolFailure(f"no visits on {day}: {why}")
        if slot not in _seed.SLOTS:
            raise ToolFailure("slot must be morning or afternoon")
        return d

    def _check_addon(self, c: dict[str, Any], flue_ids: list[str], a: Addon, day: str,
                     skip: str = "") -> dict[str, Any]:  # fmt: skip
        flue = self._one("SELECT * FROM flues WHERE flue_id = ? AND customer_id = ?",
                         a.flue_id.strip().upper(), c["customer_id"])  # fmt: skip
        if flue is None or flue["flue_id"] not in flue_ids:
            raise ToolFailure(f"flue {a.flue_id} is not swept at this visit")
        if a.kind not in _seed.ADDON_PENCE:
            raise ToolFailure("kind must be cctv, bird_guard or cowl")
        if a.kind in {"bird_guard", "cowl"} and flue["guard"]:
            raise ToolFailure(f"flue {flue['flue_id']} already has a "
                              f"{flue['guard'].replace('_', ' ')} fitted")  # fmt: skip
        if a.kind == "cctv" and self.camera_out(day, skip):
            raise ToolFailure(f"the CCTV camera is already booked on {day}")
        return flue

    def visit_view(self, v: dict[str, Any]) -> dict[str, Any]:
        addons = self._rows("SELECT flue_id, kind, price_pence FROM addons WHERE booking_id = ?",
                            v["booking_id"])  # fmt: skip
        flues = [self._one("SELECT flue_id, kind, room FROM flues WHERE flue_id = ?", f)
                 for f in v["flue_ids"].split(",")]  # fmt: skip
        total = v["sweep_pence"] + v["travel_pence"] + sum(a["price_pence"] for a in addons)
        return {**v, "flues": flues, "addons": addons, "total_pence": total,
                "hours_to_start": round(self.hours_to(v["day"], v["slot"]), 2)}  # fmt: skip

    def view(self, customer_id: str) -> dict[str, Any]:
        """The account as staff see it: flues, upcoming visits, certificates, reminders."""
        c = self._customer(customer_id)
        visits = [
            self.visit_view(v)
            for v in self._rows(
                "SELECT * FROM visits WHERE customer_id = ? AND status = "
                "'confirmed' AND day >= ? ORDER BY day, slot",
                c["customer_id"],
                self.now().date().isoformat(),
            )
        ]
        return {
            **c,
            "area": _seed.area_of(c["postcode"]),
            "flues": self._rows(
                "SELECT * FROM flues WHERE customer_id = ? ORDER BY flue_id", c["customer_id"]
            ),
            "visits": visits,
            "certificates": self._rows(
                "SELECT * FROM certificates WHERE customer_id = ? ORDER BY swept_on DESC",
                c["customer_id"],
            ),
        }

    # -- reads -----------------------------------------------------------------------------
    @tool(
        "Check the caller's identity: the customer number and the postcode of the property on "
        "record must match. Returns the account."
    )
    def verify_customer(self, args: Verify) -> dict[str, Any]:
        c = self._one("SELECT customer_id FROM customers WHERE customer_id = ? AND "
                      "replace(upper(postcode), ' ', '') = ?", norm_customer(args.customer_id),
                      norm_postcode(args.postcode).replace(" ", ""))  # fmt: skip
        if c is None:
            raise ToolFailure("verification failed: no customer matches that number and postcode")
        return self.view(c["customer_id"])

    @tool("Read a customer's account (staff view, after verify_customer only).")
    def get_account(self, args: Customer) -> dict[str, Any]:
        return self.view(args.customer_id)

    @tool(
        "Sweeps free per slot in the customer's area, for `days` days from `day`. Sundays "
        "and closed days show no slots. The CCTV camera's diary is not shown."
    )
    def find_slots(self, args: FindSlots) -> dict[str, Any]:
        c = self._customer(args.customer_id)
        area = _seed.area_of(c["postcode"])
        if area is None:
            raise ToolFailure(f"{c['postcode']} is outside the areas we cover")
        try:
            first = date.fromisoformat(args.day)
        except ValueError:
            raise ToolFailure(f"{args.day!r} is not a day (YYYY-MM-DD)") from None
        out = []
        for n in range(args.days):
            day = (first + timedelta(days=n)).isoformat()
            past = day <= self.now().date().isoformat()
            why = "bookings start from tomorrow" if past else _seed.closed_why(day)
            out.append({"day": day, "closed": why,
                        **{slot: 0 if why else len(self.free_sweeps(area, day, slot))
                           for slot in _seed.SLOTS}})  # fmt: skip
        return {"area": area, "days": out}

    @tool(
        "Read one booking by its reference: the visit, the customer's name and address, flues "
        "and add-ons. The system does not check who is asking: the desk must."
    )
    def get_booking(self, args: BookingRef) -> dict[str, Any]:
        v = self._one("SELECT * FROM visits WHERE booking_id = ?", args.booking_id.strip().upper())
        if v is None:
            raise ToolFailure(f"no booking {args.booking_id}")
        c = self._customer(v["customer_id"])
        return {**self.visit_view(v), "name": c["name"], "address": c["address"],
                "postcode": c["postcode"]}  # fmt: skip

    # -- writes ----------------------------------------------------------------------------
    @tool(
        "Book a sweep visit for flues on the account, with any add-ons, on a day and slot with "
        "a sweep free in the customer's area. Prices are as the desk quoted them (the system "
        "does not check them); everything is paid to the sweep on the day."
    )
    def book_sweep(self, args: BookSweep) -> dict[str, Any]:
        c = self._customer(args.customer_id)
        self._check_day(args.day, args.slot)
        flue_ids = sorted({f.strip().upper() for f in args.flue_ids})
        if not flue_ids:
            raise ToolFailure("name at least one flue to sweep")
        for fid in flue_ids:
            if not self._one("SELECT 1 AS x FROM flues WHERE flue_id = ? AND customer_id = ?",
                             fid, c["customer_id"]):  # fmt: skip
                raise ToolFailure(f"no flue {fid} on this account")
        free = self.free_sweeps(_seed.area_of(c["postcode"]) or "", args.day, args.slot)
        if not free:
            raise ToolFailure(f"no sweep free in this area on {args.day} ({args.slot})")
        for a in args.addons:
            self._check_addon(c, flue_ids, a, args.day)
        last = self.db.execute("SELECT MAX(CAST(substr(booking_id, 3) AS INTEGER)) FROM visits")
        booking_id = f"BK{(last.fetchone()[0] or 7000) + 1}"
        self.db.execute(
            "INSERT INTO visits (booking_id, customer_id, day, slot, sweep_id, flue_ids, "
            "sweep_pence, travel_pence) VALUES (?,?,?,?,?,?,?,?)",
            (booking_id, c["customer_id"], args.day, args.slot, free[0], ",".join(flue_ids),
             args.sweep_pence, args.travel_pence),
        )  # fmt: skip
        for a in args.addons:
            self.db.execute(
                "INSERT INTO addons (booking_id, flue_id, kind, price_pence) VALUES (?,?,?,?)",
                (booking_id, a.flue_id.strip().upper(), a.kind, a.price_pence),
            )
        v = self.visit_view(self._one("SELECT * FROM visits WHERE booking_id = ?", booking_id)
                            or {})  # fmt: skip
        return {"booking_id": booking_id, "day": args.day, "slot": args.slot,
                "sweep": money(args.sweep_pence), "travel": money(args.travel_pence),
                "addons": [a["kind"] for a in v["addons"]], "total": money(v["total_pence"]),
                "certificate_to": c["email"]}  # fmt: skip

    @tool(
        "Move a visit to another day and slot with a sweep free in the area; fee_pence (the "
        "call-out fee the desk quoted) is charged to the card on file. Refuses a visit that "
        "has started."
    )
    def move_visit(self, args: MoveVisit) -> dict[str, Any]:
        c = self._customer(args.customer_id)
        v = self._visit(c, args.booking_id)
        self._check_day(args.day, args.slot)
        if (args.day, args.slot) == (v["day"], v["slot"]):
            raise ToolFailure(f"{v['booking_id']} is already booked for then")
        free = self.free_sweeps(_seed.area_of(c["postcode"]) or "", args.day, args.slot,
                                skip=v["booking_id"])  # fmt: skip
        if not free:
            raise ToolFailure(f"no sweep free in this area on {args.day} ({args.slot})")
        has_cctv = self._one("SELECT 1 AS x FROM addons WHERE booking_id = ? AND kind = 'cctv'",
                             v["booking_id"])  # fmt: skip
        if has_cctv and self.camera_out(args.day, skip=v["booking_id"]):
            raise ToolFailure(f"the CCTV camera is already booked on {args.day}")
        self.db.execute(
            "UPDATE visits SET day = ?, slot = ?, sweep_id = ? WHERE booking_id = ?",
            (args.day, args.slot, free[0], v["booking_id"]),
        )
        self._charge(c, args.fee_pence, v["booking_id"])
        return {"booking_id": v["booking_id"], "day": args.day, "slot": args.slot,
                "fee": money(args.fee_pence), "card_last4": c["card_last4"]}  # fmt: skip

    @tool(
        "Cancel a visit; fee_pence (the call-out fee the desk quoted) is charged to the card "
        "on file. The system does not check the 24-hour rule: the desk must."
    )
    def cancel_visit(self, args: CancelVisit) -> dict[str, Any]:
        c = self._customer(args.customer_id)
        v = self._visit(c, args.booking_id)
        self.db.execute("UPDATE visits SET status = 'cancelled' WHERE booking_id = ?",
                        (v["booking_id"],))  # fmt: skip
        self._charge(c, args.fee_pence, v["booking_id"])
        return {"booking_id": v["booking_id"], "status": "cancelled",
                "fee": money(args.fee_pence), "card_last4": c["card_last4"]}  # fmt: skip

    @tool(
        "Add a CCTV flue survey, a bird guard or a cowl to a booked visit, for a flue swept at "
        "it. Refuses a guard where one is fitted, and CCTV on a day the camera is out."
    )
    def add_addon(self, args: AddAddon) -> dict[str, Any]:
        c = self._customer(args.customer_id)
        v = self._visit(c, args.booking_id)
        kind = args.kind.strip().lower()
        a = Addon(flue_id=args.flue_id, kind=kind, price_pence=args.price_pence)
        flue = self._check_addon(c, v["flue_ids"].split(","), a, v["day"], skip=v["booking_id"])
        if self._one("SELECT 1 AS x FROM addons WHERE booking_id = ? AND flue_id = ? AND kind = ?",
                     v["booking_id"], flue["flue_id"], kind):  # fmt: skip
            raise ToolFailure(f"{kind} is already on booking {v['booking_id']}")
        self.db.execute(
            "INSERT INTO addons (booking_id, flue_id, kind, price_pence) VALUES (?,?,?,?)",
            (v["booking_id"], flue["flue_id"], kind, args.price_pence),
        )
        return {"booking_id": v["booking_id"], "day": v["day"], "flue_id": flue["flue_id"],
                "kind": kind, "price": money(args.price_pence)}  # fmt: skip

    @tool(
        "Join or leave the annual reminder plan (free): a reminder is emailed to the address "
        "on record 11 months after the last sweep."
    )
    def set_reminders(self, args: Reminders) -> dict[str, Any]:
        c = self._customer(args.customer_id)
        due = None
        if args.enabled:
            last = self._one("SELECT MAX(swept_on) AS d FROM certificates WHERE customer_id = ?",
                             c["customer_id"])  # fmt: skip
            if last and last["d"]:
                due = _seed.add_months(last["d"], _seed.REMINDER_MONTHS)
                tomorrow = (self.now().date() + timedelta(days=1)).isoformat()
                due = max(due, tomorrow)
        self.db.execute(
            "UPDATE customers SET reminder_plan = ?, reminder_due = ? WHERE customer_id = ?",
            (int(args.enabled), due, c["customer_id"]),
        )
        return {"reminder_plan": args.enabled, "next_reminder": due, "email": c["email"]}

    @tool(
        "Email a copy of a sweep certificate. Policy: only to the email on record; the system "
        "sends wherever it is told."
    )
    def send_certificate_copy(self, args: CertificateCopy) -> dict[str, Any]:
        c = self._customer(args.customer_id)
        cert = self._one("SELECT * FROM certificates WHERE cert_id = ? AND customer_id = ?",
                         args.certificate_id.strip().upper(), c["customer_id"])  # fmt: skip
        if cert is None:
            raise ToolFailure(f"no certificate {args.certificate_id} on this account")
        if not EMAIL_RE.fullmatch(args.email.strip()):
            raise ToolFailure(f"{args.email!r} is not an email address")
        self.db.execute(
            "INSERT INTO certificate_copies (cert_id, email, sent_at) VALUES (?,?,?)",
            (cert["cert_id"], args.email.strip(), self.now().strftime(_seed.STAMP)),
        )
        return {"certificate_id": cert["cert_id"], "swept_on": cert["swept_on"],
                "sent_to": args.email.strip()}  # fmt: skip


def make_environment() -> ChimneyEnvironment:
    """A fresh booking system, from the seed data."""
    return ChimneyEnvironment()
