"""The firm's job system the desk works through: `BoilerEnvironment` and its tools."""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import date, datetime
from typing import Any, ClassVar, TypeVar

from pydantic import BaseModel, Field

from benchmarks.domains.boilerservice import _seed
from vistasim.env import SqliteEnvironment, ToolFailure  # type: ignore[import-untyped, unused-ignore]
from vistasim.env import tool as _tool  # type: ignore[import-untyped, unused-ignore]

F = TypeVar("F", bound=Callable[..., Any])


def tool(description: str) -> Callable[[F], F]:
    """`vistasim.env.tool`, typed for mypy."""
    marker: Callable[[F], F] = _tool(description)
    return marker


def money(pence: int) -> str:
    return f"£{pence / 100:,.2f}"


def norm_customer(text: str) -> str:
    return "HW" + re.sub(r"\D", "", text)


def norm_postcode(text: str) -> str:
    code = re.sub(r"\s+", "", text).upper()
    return f"{code[:-3]} {code[-3:]}" if len(code) > 3 else code


def starts(day: str, window: str) -> datetime:
    """When a visit window opens, on the desk's clock."""
    hour, minute = (int(x) for x in _seed.WINDOWS[window][0].split(":"))
    return datetime.combine(date.fromisoformat(day), datetime.min.time(), _seed.UK).replace(
        hour=hour, minute=minute
    )


class Customer(BaseModel):
    customer_id: str = Field(description="The customer number, e.g. HW20101")


class Verify(Customer):
    postcode: str = Field(description="The postcode of a property on the account")


class FindSlots(BaseModel):
    postcode: str = Field(
        description="The property's postcode (its district decides who covers it)"
    )
    from_day: str = Field(description="YYYY-MM-DD: the first day to look at")
    window: str | None = Field(default=None, description="am or pm; any when not given")


class JobRef(BaseModel):
    job_id: str = Field(description="e.g. JOB-6108")


class BookVisit(Customer):
    property_id: str = Field(description="The property, e.g. PR101")
    kind: str = Field(description="service, gas_safety or breakdown")
    day: str = Field(description="YYYY-MM-DD")
    window: str = Field(description="am (08:00-12:00) or pm (12:00-16:00)")
    price_pence: int = Field(description="The price the desk quoted; a call-out fee is taken now")


class MoveVisit(Customer):
    job_id: str = Field(description="e.g. JOB-6108")
    day: str = Field(description="The new day, YYYY-MM-DD")
    window: str = Field(description="The new window: am or pm")
    fee_pence: int = Field(description="The rebooking fee the desk quoted (0 when free)")


class CancelVisit(Customer):
    job_id: str = Field(description="e.g. JOB-6108")
    fee_pence: int = Field(description="The late-cancellation fee the desk quoted (0 if none)")
    refund_pence: int = Field(description="The call-out fee refund the desk quoted (0 if none)")


class ApprovePart(Customer):
    quote_id: str = Field(description="e.g. PQ-313")
    customer_pays_pence: int = Field(description="What the customer pays, as the desk quoted")


class ChangePlan(Customer):
    property_id: str = Field(description="The property, e.g. PR101")
    plan: str = Field(description="cover or cover_plus (or none)")
    monthly_pence: int = Field(description="The monthly price the desk quoted")


class Tenant(Customer):
    property_id: str = Field(description="The let property, e.g. PR120")
    tenant_name: str | None = Field(default=None, description="The tenant's name")
    tenant_phone: str | None = Field(default=None, description="The tenant's phone number")


class BoilerEnvironment(SqliteEnvironment):  # type: ignore[misc, unused-ignore]
    """Hearthwell Heating: customers, properties, engineers' windows, jobs, quotes, charges."""

    SCHEMA_SQL: ClassVar[str] = _seed.SCHEMA_SQL
    LEXICON: ClassVar[dict[str, list[str]]] = {
        "customer_id": ["customer number"],
        "postcode": ["postcode"],
        "property": ["which property", "address"],
        "day": ["which day", "what day"],
        "window": ["morning or afternoon"],
        "tenant_phone": ["tenant's new number", "new number"],
    }

    def seed(self, db: Any) -> None:
        _seed.seed(db)

    def now(self) -> datetime:
        """The desk's clock: fixed, so every episode sees the same morning."""
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

    def _property(self, c: dict[str, Any], property_id: str) -> dict[str, Any]:
        p = self._one("SELECT * FROM properties WHERE property_id = ? AND customer_id = ?",
                      property_id.strip().upper(), c["customer_id"])  # fmt: skip
        if p is None:
            raise ToolFailure(f"no property {property_id} on this account")
        return p

    def _job(self, c: dict[str, Any], job_id: str) -> dict[str, Any]:
        j = self._one("SELECT * FROM jobs WHERE job_id = ?", job_id.strip().upper())
        if j is None or j["customer_id"] != c["customer_id"]:
            raise ToolFailure(f"no job {job_id} on this account")
        if j["status"] != "booked":
            raise ToolFailure(f"job {j['job_id']} is {j['status']}")
        if starts(j["day"], j["window"]) <= self.now():
            raise ToolFailure(f"job {j['job_id']}'s window has started: the engineer is on the way")
        return j

    def _charge(self, c: dict[str, Any], kind: str, pence: int, ref: str) -> None:
        if pence:
            self.db.execute(
                "INSERT INTO charges (customer_id, kind, amount_pence, ref, created_at) "
                "VALUES (?,?,?,?,?)",
                (c["customer_id"], kind, pence, ref, self.now().strftime(_seed.STAMP)),
            )

    def _free_slot(self, district: str, day: str, window: str) -> dict[str, Any] | None:
        """The first free window of an engineer covering the district (engineers in order)."""
        return self._one(
            "SELECT s.*, e.name AS engineer FROM slots s JOIN engineers e USING (engineer_id) "
            "WHERE s.status = 'free' AND s.day = ? AND s.window = ? "
            "AND (',' || e.districts || ',') LIKE ? ORDER BY s.engineer_id",
            day, window, f"%,{district},%",
        )  # fmt: skip

    def _take(self, district: str, day: str, window: str, job_id: str) -> dict[str, Any]:
        if window not in _seed.WINDOWS:
            raise ToolFailure("window must be am or pm")
        if starts(day, window) <= self.now():
            raise ToolFailure("that window has already started or passed")
        slot = self._free_slot(district, day, window)
        if slot is None:
            raise ToolFailure(f"no engineer covering {district} is free on {day} ({window})")
        self.db.execute(
            "UPDATE slots SET status = 'booked', job_id = ? "
            "WHERE engineer_id = ? AND day = ? AND window = ?",
            (job_id, slot["engineer_id"], day, window),
        )
        return slot

    def _release(self, job: dict[str, Any]) -> None:
        self.db.execute(
            "UPDATE slots SET status = 'free', job_id = NULL WHERE job_id = ?", (job["job_id"],)
        )

    def view(self, customer_id: str) -> dict[str, Any]:
        """The account as staff see it: properties, booked visits, part quotes."""
        c = self._customer(customer_id)
        visits = self._rows(
            "SELECT j.*, e.name AS engineer, p.address, p.postcode FROM jobs j "
            "JOIN engineers e USING (engineer_id) JOIN properties p USING (property_id) "
            "WHERE j.customer_id = ? AND j.status = 'booked' ORDER BY j.day, j.window",
            c["customer_id"],
        )
        return {
            **c,
            "properties": self._rows("SELECT * FROM properties WHERE customer_id = ? "
                                     "ORDER BY property_id", c["customer_id"]),
            "visits": visits,
            "quotes": self._rows(
                "SELECT q.*, p.address FROM part_quotes q JOIN properties p USING (property_id) "
                "WHERE q.customer_id = ? ORDER BY q.quote_id", c["customer_id"]),
        }  # fmt: skip

    # -- reads -----------------------------------------------------------------------------
    @tool(
        "Check the caller's identity: the customer number and the postcode of a property on "
        "that account must match. Returns the account."
    )
    def verify_customer(self, args: Verify) -> dict[str, Any]:
        found = self._one(
            "SELECT customer_id FROM properties WHERE customer_id = ? AND postcode = ?",
            norm_customer(args.customer_id), norm_postcode(args.postcode),
        )  # fmt: skip
        if found is None:
            raise ToolFailure("verification failed: no account matches that number and postcode")
        return self.view(found["customer_id"])

    @tool("Read an account (staff view, after verify_customer only).")
    def get_account(self, args: Customer) -> dict[str, Any]:
        return self.view(args.customer_id)

    @tool(
        "Engineers' free windows for a postcode's district, from a day on (at most 10, "
        "soonest first). Saturdays are listed too: what may be booked on them is policy."
    )
    def find_slots(self, args: FindSlots) -> dict[str, Any]:
        area = _seed.district(norm_postcode(args.postcode))
        if not self._one("SELECT 1 AS x FROM engineers WHERE (',' || districts || ',') LIKE ?",
                         f"%,{area},%"):  # fmt: skip
            raise ToolFailure(f"we have no engineers covering {area}")
        rows = self._rows(
            "SELECT s.day, s.window, s.engineer_id, e.name AS engineer FROM slots s "
            "JOIN engineers e USING (engineer_id) WHERE s.status = 'free' AND s.day >= ? "
            "AND (',' || e.districts || ',') LIKE ? AND (? IS NULL OR s.window = ?) "
            "ORDER BY s.day, s.window, s.engineer_id",
            args.from_day, f"%,{area},%", args.window, args.window,
        )  # fmt: skip
        free = [r for r in rows if starts(r["day"], r["window"]) > self.now()]
        seen: set[tuple[str, str]] = set()
        slots = []
        for r in free:
            if (r["day"], r["window"]) not in seen:
                seen.add((r["day"], r["window"]))
                slots.append(r)
        return {"district": area, "slots": slots[:10]}

    @tool("Read any job by its number (staff view: whose it is, where, when).")
    def get_job(self, args: JobRef) -> dict[str, Any]:
        job = self._one(
            "SELECT j.*, c.name AS customer_name, p.address, p.postcode, e.name AS engineer "
            "FROM jobs j JOIN customers c USING (customer_id) JOIN properties p "
            "USING (property_id) JOIN engineers e USING (engineer_id) WHERE j.job_id = ?",
            args.job_id.strip().upper(),
        )
        if job is None:
            raise ToolFailure(f"no job {args.job_id}")
        return job

    # -- writes ----------------------------------------------------------------------------
    @tool(
        "Book a visit at a property on the account in a free window of an engineer covering "
        "its district; a breakdown's price (the call-out fee) is taken from the card now. "
        "Prices, plans and Saturday rules are the desk's to apply."
    )
    def book_visit(self, args: BookVisit) -> dict[str, Any]:
        c = self._customer(args.customer_id)
        p = self._property(c, args.property_id)
        kind = args.kind.strip().lower()
        if kind not in _seed.KINDS:
            raise ToolFailure("kind must be service, gas_safety or breakdown")
        last = self.db.execute("SELECT MAX(CAST(substr(job_id, 5) AS INTEGER)) FROM jobs")
        job_id = f"JOB-{(last.fetchone()[0] or 6100) + 1}"
        slot = self._take(p["district"], args.day, args.window, job_id)
        paid = args.price_pence if kind == "breakdown" else 0
        self.db.execute(
            "INSERT INTO jobs VALUES (?,?,?,?,?,?,?,?,?,?,?)",
            (job_id, c["customer_id"], p["property_id"], kind, args.day, args.window,
             slot["engineer_id"], args.price_pence, paid, "booked",
             self.now().strftime(_seed.STAMP)),
        )  # fmt: skip
        self._charge(c, "callout_fee", paid, job_id)
        return {"job_id": job_id, "kind": kind, "address": p["address"], "day": args.day,
                "window": args.window, "engineer": slot["engineer"],
                "price": money(args.price_pence), "taken_now": money(paid),
                "card_last4": c["card_last4"]}  # fmt: skip

    @tool(
        "Move a booked visit to another free window (an engineer covering the district); "
        "fee_pence, quoted by the desk, is taken from the card. Refused once its window has "
        "started."
    )
    def move_visit(self, args: MoveVisit) -> dict[str, Any]:
        c = self._customer(args.customer_id)
        j = self._job(c, args.job_id)
        p = self._property(c, j["property_id"])
        self._release(j)
        slot = self._take(p["district"], args.day, args.window, j["job_id"])
        self.db.execute(
            "UPDATE jobs SET day = ?, window = ?, engineer_id = ? WHERE job_id = ?",
            (args.day, args.window, slot["engineer_id"], j["job_id"]),
        )
        self._charge(c, "rebook_fee", args.fee_pence, j["job_id"])
        return {"job_id": j["job_id"], "day": args.day, "window": args.window,
                "engineer": slot["engineer"], "fee": money(args.fee_pence),
                "card_last4": c["card_last4"]}  # fmt: skip

    @tool(
        "Cancel a booked visit; fee_pence is taken and refund_pence (at most what was paid) "
        "goes back to the card, as the desk quoted. Refused once its window has started."
    )
    def cancel_visit(self, args: CancelVisit) -> dict[str, Any]:
        c = self._customer(args.customer_id)
        j = self._job(c, args.job_id)
        if args.refund_pence > j["paid_pence"]:
            raise ToolFailure(f"only {money(j['paid_pence'])} was paid for {j['job_id']}")
        self._release(j)
        self.db.execute("UPDATE jobs SET status = 'cancelled' WHERE job_id = ?", (j["job_id"],))
        self._charge(c, "cancel_fee", args.fee_pence, j["job_id"])
        self._charge(c, "refund", args.refund_pence, j["job_id"])
        return {"job_id": j["job_id"], "status": "cancelled", "fee": money(args.fee_pence),
                "refunded": money(args.refund_pence), "card_last4": c["card_last4"]}  # fmt: skip

    @tool(
        "Approve a part quote: the part is ordered from the supplier and customer_pays_pence "
        "taken from the card. Refused when the supplier no longer makes the part. The quote's "
        "age and plan cover are the desk's to check."
    )
    def approve_part(self, args: ApprovePart) -> dict[str, Any]:
        c = self._customer(args.customer_id)
        q = self._one("SELECT * FROM part_quotes WHERE quote_id = ? AND customer_id = ?",
                      args.quote_id.strip().upper(), c["customer_id"])  # fmt: skip
        if q is None:
            raise ToolFailure(f"no quote {args.quote_id} on this account")
        if q["status"] != "quoted":
            raise ToolFailure(f"quote {q['quote_id']} is already {q['status']}")
        stock = self._one("SELECT status FROM supplier_parts WHERE part_code = ?", q["part_code"])
        if stock is None or stock["status"] == "discontinued":
            raise ToolFailure(
                f"the supplier no longer makes {q['part']} {q['part_code']}: the engineer must "
                "quote an alternative"
            )
        today = self.now().date().isoformat()
        self.db.execute(
            "UPDATE part_quotes SET status = 'approved', customer_pays_pence = ?, "
            "approved_on = ? WHERE quote_id = ?",
            (args.customer_pays_pence, today, q["quote_id"]),
        )
        self._charge(c, "part", args.customer_pays_pence, q["quote_id"])
        return {"quote_id": q["quote_id"], "part": q["part"], "status": "ordered",
                "customer_pays": money(args.customer_pays_pence),
                "card_last4": c["card_last4"]}  # fmt: skip

    @tool(
        "Put a property on a service plan (or change or end it); monthly_pence is the direct "
        "debit the desk quoted. A plan taken from none starts today. Eligibility is the desk's "
        "to check."
    )
    def change_plan(self, args: ChangePlan) -> dict[str, Any]:
        c = self._customer(args.customer_id)
        p = self._property(c, args.property_id)
        plan = args.plan.strip().lower()
        if plan not in _seed.PLAN_NAMES:
            raise ToolFailure("plan must be cover, cover_plus or none")
        if plan == p["plan"]:
            raise ToolFailure(f"{p['address']} is already on {_seed.PLAN_NAMES[plan]}")
        start = p["plan_start"] if p["plan"] != "none" else self.now().date().isoformat()
        start = None if plan == "none" else start
        self.db.execute(
            "UPDATE properties SET plan = ?, plan_start = ?, monthly_pence = ? "
            "WHERE property_id = ?",
            (plan, start, args.monthly_pence if plan != "none" else 0, p["property_id"]),
        )
        return {"property": p["address"], "plan": _seed.PLAN_NAMES[plan], "plan_start": start,
                "monthly": money(args.monthly_pence)}  # fmt: skip

    @tool("Change the tenant's name and/or phone number on a let property.")
    def update_tenant(self, args: Tenant) -> dict[str, Any]:
        c = self._customer(args.customer_id)
        p = self._property(c, args.property_id)
        if not p["rented"]:
            raise ToolFailure(f"{p['address']} has no tenancy on record")
        if args.tenant_phone is not None:
            digits = re.sub(r"\D", "", args.tenant_phone)
            if len(digits) != 11 or not digits.startswith("0"):
                raise ToolFailure(f"{args.tenant_phone!r} is not a UK phone number")
            phone = f"{digits[:5]} {digits[5:]}"
            self.db.execute("UPDATE properties SET tenant_phone = ? WHERE property_id = ?",
                            (phone, p["property_id"]))  # fmt: skip
        if args.tenant_name:
            self.db.execute("UPDATE properties SET tenant_name = ? WHERE property_id = ?",
                            (args.tenant_name.strip(), p["property_id"]))  # fmt: skip
        now = self._property(c, p["property_id"])
        return {"property": now["address"], "tenant_name": now["tenant_name"],
                "tenant_phone": now["tenant_phone"]}  # fmt: skip


def make_environment() -> BoilerEnvironment:
    """A fresh job system, from the seed data."""
    return BoilerEnvironment()
