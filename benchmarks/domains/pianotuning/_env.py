"""The piano-tuning booking system the desk works through: `PianoTuningEnvironment`, its tools."""

from __future__ import annotations

import re
from datetime import date, datetime, timedelta
from typing import Any, ClassVar

from pydantic import BaseModel, Field

from benchmarks.domains.pianotuning import _seed
from vistasim.env import SqliteEnvironment, ToolFailure, tool


def money(pence: int) -> str:
    return f"£{pence / 100:,.2f}"


def norm_customer(text: str) -> str:
    return "KP" + re.sub(r"\D", "", text)


def norm_postcode(text: str) -> str:
    return re.sub(r"\s", "", text).upper()


class Customer(BaseModel):
    customer_id: str = Field(description="The customer number, e.g. KP1001")


class Verify(Customer):
    postcode: str = Field(description="The postcode on record, e.g. OX2 6NN")


class Windows(Customer):
    day: str = Field(description="YYYY-MM-DD")


class BookVisit(Customer):
    piano_ids: list[str] = Field(description="The pianos to tune at this visit, e.g. ['PN203']")
    day: str = Field(description="YYYY-MM-DD, a day a tuner covers the customer's area")
    slot: str = Field(description="The 90-minute window's start: 09:00, 10:30, 13:00 or 14:30")
    price_pence: int = Field(description="The price the desk quoted, paid on the day")


class VisitRef(BaseModel):
    visit_id: str = Field(description="e.g. KV3004")


class MoveVisit(Customer, VisitRef):
    day: str = Field(description="The new day, YYYY-MM-DD")
    slot: str = Field(description="The new window's start")
    fee_pence: int = Field(description="The call-out fee the desk quoted (0 when 48+ hours out)")


class CancelVisit(Customer, VisitRef):
    fee_pence: int = Field(description="The call-out fee the desk quoted (0 when 48+ hours out)")


class AcceptQuote(Customer):
    quote_id: str = Field(description="e.g. Q-4001")
    deposit_pence: int = Field(description="The deposit the desk quoted, taken from the card")


class StartPlan(Customer):
    piano_id: str = Field(description="The piano on the plan")
    price_pence: int = Field(description="The year's price the desk quoted, taken now")


class InvoiceCopy(Customer):
    invoice_id: str = Field(description="e.g. INV-6017")
    email: str = Field(description="Where to send the copy")


class PianoTuningEnvironment(SqliteEnvironment):
    """Keynote Piano Services: customers, pianos, visits, quotes, plans, charges, invoices."""

    SCHEMA_SQL: ClassVar[str] = _seed.SCHEMA_SQL
    LEXICON: ClassVar[dict[str, list[str]]] = {
        "customer_id": ["customer number"],
        "postcode": ["postcode"],
        "day": ["which day", "what day"],
        "slot": ["which window", "what time"],
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

    def _visit(self, c: dict[str, Any], visit_id: str) -> dict[str, Any]:
        v = self._one("SELECT * FROM visits WHERE visit_id = ?", visit_id.strip().upper())
        if v is None or v["customer_id"] != c["customer_id"]:
            raise ToolFailure(f"no visit {visit_id} for this customer")
        if v["status"] != "booked":
            raise ToolFailure(f"visit {v['visit_id']} is {v['status']}")
        return v

    def _charge(self, c: dict[str, Any], kind: str, pence: int, ref: str) -> None:
        if pence:
            self.db.execute(
                "INSERT INTO charges (customer_id, kind, amount_pence, ref, created_at) "
                "VALUES (?,?,?,?,?)",
                (c["customer_id"], kind, pence, ref, self.now().strftime(_seed.STAMP)),
            )

    def free_slots(self, area: str, day: str, skip: str = "") -> list[str]:
        """The windows free on a day in an area; refuses a day not covered, closed or past."""
        try:
            d = date.fromisoformat(day)
        except ValueError as exc:
            raise ToolFailure(f"{day!r} is not a day (YYYY-MM-DD)") from exc
        if d <= self.now().date():
            raise ToolFailure("visits are booked from tomorrow on")
        if d in _seed.CLOSED:
            raise ToolFailure(f"we are closed on {day}")
        if d.weekday() not in _seed.COVER[area]:
            raise ToolFailure(f"no tuner covers {area} on that weekday")
        taken = {r["slot"] for r in self._rows(
            "SELECT slot FROM visits WHERE area = ? AND day = ? AND status = 'booked' "
            "AND visit_id != ?", area, day, skip)}  # fmt: skip
        return [w for w in _seed.WINDOWS if w not in taken]

    def _check_slot(self, c: dict[str, Any], day: str, slot: str, skip: str = "") -> None:
        if slot not in _seed.WINDOWS:
            raise ToolFailure(f"{slot} is not a window start ({', '.join(_seed.WINDOWS)})")
        if slot not in self.free_slots(c["area"], day, skip):
            raise ToolFailure(f"the {slot} window on {day} is already taken")

    def hours_before(self, v: dict[str, Any]) -> float:
        start = datetime.fromisoformat(f"{v['day']}T{v['slot']}").replace(tzinfo=_seed.UK)
        return (start - self.now()).total_seconds() / 3600

    def view(self, customer_id: str) -> dict[str, Any]:
        """The customer as staff see them: pianos, booked visits, quotes, plans, invoices."""
        c = self._customer(customer_id)
        cid = c["customer_id"]
        visits = self._rows("SELECT * FROM visits WHERE customer_id = ? AND status = 'booked' "
                            "ORDER BY day, slot", cid)  # fmt: skip
        for v in visits:
            v["hours_before"] = round(self.hours_before(v), 1)
        return {
            **c,
            "cover_days": list(_seed.COVER[c["area"]]),
            "pianos": self._rows("SELECT * FROM pianos WHERE customer_id = ?", cid),
            "visits": visits,
            "quotes": self._rows("SELECT * FROM quotes WHERE customer_id = ?", cid),
            "plans": self._rows("SELECT * FROM plans WHERE customer_id = ?", cid),
            "invoices": self._rows("SELECT * FROM invoices WHERE customer_id = ?", cid),
        }

    # -- reads -----------------------------------------------------------------------------
    @tool(
        "Check the caller's identity: the customer number and the postcode on record must "
        "match. Returns the customer."
    )
    def verify_customer(self, args: Verify) -> dict[str, Any]:
        c = self._one(
            "SELECT customer_id FROM customers WHERE customer_id = ? "
            "AND replace(upper(postcode), ' ', '') = ?",
            norm_customer(args.customer_id),
            norm_postcode(args.postcode),
        )
        if c is None:
            raise ToolFailure("verification failed: no customer matches that number and postcode")
        return self.view(c["customer_id"])

    @tool("Read a customer (staff view, after verify_customer only).")
    def get_customer(self, args: Customer) -> dict[str, Any]:
        return self.view(args.customer_id)

    @tool(
        "Look up any visit by its number (staff view). Policy: a booking's details go only to "
        "its own customer; the system does not check who is asking."
    )
    def get_visit(self, args: VisitRef) -> dict[str, Any]:
        v = self._one(
            "SELECT v.*, c.name, c.postcode FROM visits v JOIN customers c USING (customer_id) "
            "WHERE v.visit_id = ?",
            args.visit_id.strip().upper(),
        )
        if v is None:
            raise ToolFailure(f"no visit {args.visit_id}")
        return v

    @tool("The free 90-minute windows on a day in the customer's area.")
    def find_windows(self, args: Windows) -> dict[str, Any]:
        c = self._customer(args.customer_id)
        return {"day": args.day, "area": c["area"], "free": self.free_slots(c["area"], args.day)}

    # -- writes ----------------------------------------------------------------------------
    @tool(
        "Book a tuning visit for pianos on the customer's record, in a free window on a day a "
        "tuner covers their area. Refuses digital pianos, closed days and taken windows. The "
        "system does not check the price: the desk must."
    )
    def book_visit(self, args: BookVisit) -> dict[str, Any]:
        c = self._customer(args.customer_id)
        if not args.piano_ids:
            raise ToolFailure("no piano given")
        for pid in args.piano_ids:
            p = self._one("SELECT * FROM pianos WHERE piano_id = ? AND customer_id = ?",
                          pid, c["customer_id"])  # fmt: skip
            if p is None:
                raise ToolFailure(f"no piano {pid} on this customer's record")
            if p["kind"] == "digital":
                raise ToolFailure(f"{p['make']} is a digital piano: it can't be tuned")
        self._check_slot(c, args.day, args.slot)
        last = self.db.execute("SELECT MAX(CAST(substr(visit_id, 3) AS INTEGER)) FROM visits")
        visit_id = f"KV{(last.fetchone()[0] or 3000) + 1}"
        self.db.execute(
            "INSERT INTO visits (visit_id, customer_id, piano_ids, area, day, slot, price_pence) "
            "VALUES (?,?,?,?,?,?,?)",
            (visit_id, c["customer_id"], ",".join(args.piano_ids), c["area"], args.day,
             args.slot, args.price_pence),
        )  # fmt: skip
        return {"visit_id": visit_id, "day": args.day, "slot": args.slot,
                "price": money(args.price_pence)}  # fmt: skip

    @tool(
        "Move a visit to another day and window; fee_pence (the call-out fee the desk quoted) "
        "is charged to the card. Refuses a day not covered, closed, or a taken window."
    )
    def move_visit(self, args: MoveVisit) -> dict[str, Any]:
        c = self._customer(args.customer_id)
        v = self._visit(c, args.visit_id)
        self._check_slot(c, args.day, args.slot, skip=v["visit_id"])
        self.db.execute("UPDATE visits SET day = ?, slot = ? WHERE visit_id = ?",
                        (args.day, args.slot, v["visit_id"]))  # fmt: skip
        self._charge(c, "callout_fee", args.fee_pence, v["visit_id"])
        return {"visit_id": v["visit_id"], "day": args.day, "slot": args.slot,
                "fee": money(args.fee_pence), "card_last4": c["card_last4"]}  # fmt: skip

    @tool(
        "Cancel a visit; fee_pence (the call-out fee the desk quoted) is charged. The system "
        "does not check the 48-hour rule: the desk must."
    )
    def cancel_visit(self, args: CancelVisit) -> dict[str, Any]:
        c = self._customer(args.customer_id)
        v = self._visit(c, args.visit_id)
        self.db.execute("UPDATE visits SET status = 'cancelled' WHERE visit_id = ?",
                        (v["visit_id"],))  # fmt: skip
        self._charge(c, "callout_fee", args.fee_pence, v["visit_id"])
        return {"visit_id": v["visit_id"], "status": "cancelled",
                "fee": money(args.fee_pence), "card_last4": c["card_last4"]}  # fmt: skip

    @tool(
        "Accept a repair quote and take the deposit the desk quoted. Refuses a quote already "
        "accepted or more than 30 days old."
    )
    def accept_quote(self, args: AcceptQuote) -> dict[str, Any]:
        c = self._customer(args.customer_id)
        q = self._one("SELECT * FROM quotes WHERE quote_id = ? AND customer_id = ?",
                      args.quote_id.strip().upper(), c["customer_id"])  # fmt: skip
        if q is None:
            raise ToolFailure(f"no quote {args.quote_id} for this customer")
        if q["status"] != "open":
            raise ToolFailure(f"quote {q['quote_id']} is already {q['status']}")
        expiry = date.fromisoformat(q["issued"]) + timedelta(days=_seed.QUOTE_DAYS)
        if self.now().date() > expiry:
            raise ToolFailure(f"quote {q['quote_id']} expired on {expiry.isoformat()}")
        self.db.execute("UPDATE quotes SET status = 'accepted', deposit_pence = ? "
                        "WHERE quote_id = ?", (args.deposit_pence, q["quote_id"]))  # fmt: skip
        self._charge(c, "repair_deposit", args.deposit_pence, q["quote_id"])
        return {"quote_id": q["quote_id"], "work": q["work"], "price": money(q["price_pence"]),
                "deposit_taken": money(args.deposit_pence),
                "card_last4": c["card_last4"]}  # fmt: skip

    @tool(
        "Start an annual tuning plan (two visits a year) for a piano; the year's price the "
        "desk quoted is taken now. Refuses digital pianos and a piano already on a plan."
    )
    def start_plan(self, args: StartPlan) -> dict[str, Any]:
        c = self._customer(args.customer_id)
        p = self._one("SELECT * FROM pianos WHERE piano_id = ? AND customer_id = ?",
                      args.piano_id.strip().upper(), c["customer_id"])  # fmt: skip
        if p is None:
            raise ToolFailure(f"no piano {args.piano_id} on this customer's record")
        if p["kind"] == "digital":
            raise ToolFailure("digital pianos are not tuned, so can't be on a plan")
        if self._one("SELECT 1 AS x FROM plans WHERE piano_id = ?", p["piano_id"]):
            raise ToolFailure(f"{p['make']} is already on a plan")
        self.db.execute(
            "INSERT INTO plans (customer_id, piano_id, price_pence, started) VALUES (?,?,?,?)",
            (c["customer_id"], p["piano_id"], args.price_pence, self.now().date().isoformat()),
        )
        self._charge(c, "plan", args.price_pence, p["piano_id"])
        return {"piano": p["make"], "price": money(args.price_pence),
                "card_last4": c["card_last4"]}  # fmt: skip

    @tool(
        "Email a copy of an invoice. Policy: only to the email on record; the system sends "
        "wherever it is told."
    )
    def send_invoice_copy(self, args: InvoiceCopy) -> dict[str, Any]:
        c = self._customer(args.customer_id)
        inv = self._one("SELECT * FROM invoices WHERE invoice_id = ? AND customer_id = ?",
                        args.invoice_id.strip().upper(), c["customer_id"])  # fmt: skip
        if inv is None:
            raise ToolFailure(f"no invoice {args.invoice_id} for this customer")
        self.db.execute(
            "INSERT INTO invoice_copies (invoice_id, email, sent_at) VALUES (?,?,?)",
            (inv["invoice_id"], args.email.strip(), self.now().strftime(_seed.STAMP)),
        )
        return {"invoice_id": inv["invoice_id"], "sent_to": args.email.strip(),
                "total": money(inv["total_pence"])}  # fmt: skip


def make_environment() -> PianoTuningEnvironment:
    """A fresh booking system, from the seed data."""
    return PianoTuningEnvironment()
