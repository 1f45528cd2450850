"""The letting agent's tenancy system the desk works through: `LettingsEnvironment` and tools."""

from __future__ import annotations

import re
from datetime import date, datetime, timedelta
from typing import Any, ClassVar

from pydantic import BaseModel, Field

from benchmarks.domains.lettings import _seed
from vistasim.env import SqliteEnvironment, ToolFailure, tool


def money(pence: int) -> str:
    return f"£{pence / 100:,.2f}"


def norm_ref(text: str) -> str:
    return "HRL-" + re.sub(r"\D", "", text)


def norm_postcode(text: str) -> str:
    squashed = re.sub(r"\s+", "", text).upper()
    return f"{squashed[:-3]} {squashed[-3:]}" if len(squashed) > 3 else squashed


def add_working_days(start: date, count: int, *, holidays: bool = True) -> date:
    """The day `count` working days after `start` (weekends and, if asked, bank holidays off)."""
    day = start
    while count > 0:
        day += timedelta(days=1)
        if day.weekday() < 5 and not (holidays and day in _seed.BANK_HOLIDAYS):
            count -= 1
    return day


class Tenancy(BaseModel):
    tenancy_ref: str = Field(description="The tenancy reference, e.g. HRL-1001")


class Verify(Tenancy):
    postcode: str = Field(description="The postcode of the rented property, e.g. BS1 4DQ")


class ReportRepair(Tenancy):
    issue: str = Field(description="What is wrong, in the tenant's words")
    category: str = Field(description="e.g. heating, water, leak, lock, hot water, tap")
    priority: str = Field(description="emergency, urgent or routine")
    attend_by: str = Field(
        description="When the contractor attends by: 'YYYY-MM-DD HH:MM' for an emergency, "
        "YYYY-MM-DD otherwise"
    )


class RentDay(Tenancy):
    new_day: int = Field(description="The new day of the month, 1-28")
    first_payment: str = Field(description="YYYY-MM-DD: the first payment on the new day")


class Notice(Tenancy):
    end_date: str = Field(description="YYYY-MM-DD: the last day of the tenancy")


class RequestPet(Tenancy):
    kind: str = Field(description="cat, dog, rabbit, ...")
    pet_rent_pence: int = Field(description="The monthly pet rent quoted, if the landlord agrees")


class AddOccupier(Tenancy):
    name: str = Field(description="The permitted occupier's full name")
    fee_pence: int = Field(description="The tenancy variation fee quoted")


class Contacts(Tenancy):
    tenant_id: str = Field(description="The tenant whose details change, e.g. T101")
    phone: str | None = Field(default=None, description="New mobile number")
    email: str | None = Field(default=None, description="New email address")


class LettingsEnvironment(SqliteEnvironment):
    """Harbour Row Lettings: tenancies, tenants, deposits, pets, occupiers, repairs, notices."""

    SCHEMA_SQL: ClassVar[str] = _seed.SCHEMA_SQL
    LEXICON: ClassVar[dict[str, list[str]]] = {
        "tenancy_ref": ["tenancy reference"],
        "postcode": ["postcode"],
        "tenant_name": ["your full name", "which of the tenants"],
        "phone": ["new number", "mobile number"],
        "email": ["new email", "email address"],
        "new_day": ["which day of the month"],
        "occupier_name": ["full name of the person"],
        "issue": ["what's the problem", "what is wrong"],
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

    def _tenancy(self, ref: str) -> dict[str, Any]:
        found = self._one("SELECT * FROM tenancies WHERE tenancy_ref = ?", norm_ref(ref))
        if found is None:
            raise ToolFailure(f"no tenancy {ref}")
        return found

    def _stamp(self) -> str:
        return self.now().strftime(_seed.STAMP)

    def view(self, ref: str) -> dict[str, Any]:
        """The tenancy as staff see it (the deposit is not in it: see get_deposit)."""
        t = self._tenancy(ref)
        r = t["tenancy_ref"]
        return {
            **{k: v for k, v in t.items() if k != "occupier_consent"},
            "tenants": self._rows(
                "SELECT * FROM tenants WHERE tenancy_ref = ? ORDER BY lead DESC, tenant_id", r
            ),
            "pets": self._rows("SELECT * FROM pets WHERE tenancy_ref = ?", r),
            "occupiers": self._rows("SELECT * FROM occupiers WHERE tenancy_ref = ?", r),
            "repairs": self._rows(
                "SELECT * FROM repairs WHERE tenancy_ref = ? AND status = "
                "'open' ORDER BY repair_id",
                r,
            ),
            "notices": self._rows("SELECT * FROM notices WHERE tenancy_ref = ?", r),
        }

    # -- reads -----------------------------------------------------------------------------
    @tool(
        "Check the caller's identity: the tenancy reference and the rented property's postcode "
        "must match. Returns the tenancy (its tenants, pets, occupiers, open repairs, notices)."
    )
    def verify_tenant(self, args: Verify) -> dict[str, Any]:
        t = self._one(
            "SELECT tenancy_ref, postcode FROM tenancies WHERE tenancy_ref = ?",
            norm_ref(args.tenancy_ref),
        )
        if t is None or t["postcode"] != norm_postcode(args.postcode):
            raise ToolFailure("verification failed: no tenancy matches that reference and postcode")
        return self.view(t["tenancy_ref"])

    @tool("Read a tenancy (staff view, after verify_tenant only).")
    def get_tenancy(self, args: Tenancy) -> dict[str, Any]:
        return self.view(args.tenancy_ref)

    @tool(
        "Read the tenancy deposit: the protecting scheme, its reference and the amount. Policy: "
        "for the lead tenant only; the system does not know who is asking."
    )
    def get_deposit(self, args: Tenancy) -> dict[str, Any]:
        t = self._tenancy(args.tenancy_ref)
        d = self._one("SELECT * FROM deposits WHERE tenancy_ref = ?", t["tenancy_ref"])
        if d is None:
            raise ToolFailure("no deposit is recorded for this tenancy")
        return {**d, "amount": money(d["amount_pence"])}

    # -- writes ----------------------------------------------------------------------------
    @tool(
        "Log a repair with its priority and the attend-by time the desk quoted. The system "
        "does not classify the repair: the desk must."
    )
    def report_repair(self, args: ReportRepair) -> dict[str, Any]:
        t = self._tenancy(args.tenancy_ref)
        priority = args.priority.strip().lower()
        if priority not in {"emergency", "urgent", "routine"}:
            raise ToolFailure("priority must be emergency, urgent or routine")
        if not re.fullmatch(r"\d{4}-\d\d-\d\d(?: \d\d:\d\d)?", args.attend_by.strip()):
            raise ToolFailure("attend_by must be YYYY-MM-DD or 'YYYY-MM-DD HH:MM'")
        if args.attend_by.strip()[:10] < self.now().date().isoformat():
            raise ToolFailure("attend_by is in the past")
        last = self.db.execute("SELECT MAX(CAST(substr(repair_id, 2) AS INTEGER)) FROM repairs")
        repair_id = f"R{(last.fetchone()[0] or 7000) + 1}"
        self.db.execute(
            "INSERT INTO repairs (repair_id, tenancy_ref, issue, category, priority, attend_by, "
            "reported_at) VALUES (?,?,?,?,?,?,?)",
            (
                repair_id,
                t["tenancy_ref"],
                args.issue.strip(),
                args.category.strip().lower(),
                priority,
                args.attend_by.strip(),
                self._stamp(),
            ),
        )
        return {"repair_id": repair_id, "priority": priority, "attend_by": args.attend_by.strip()}

    @tool(
        "Change the day of the month rent is collected (1-28); the first payment on the new day "
        "must be at least 10 days away. The system does not check the once-in-12-months rule: "
        "the desk must."
    )
    def change_rent_day(self, args: RentDay) -> dict[str, Any]:
        t = self._tenancy(args.tenancy_ref)
        if not _seed.RENT_DAY_FIRST <= args.new_day <= _seed.RENT_DAY_LAST:
            raise ToolFailure("rent can only be collected on a day from 1 to 28")
        first = date.fromisoformat(args.first_payment)
        if first.day != args.new_day:
            raise ToolFailure("the first payment must fall on the new day")
        if (first - self.now().date()).days < _seed.RENT_DAY_LEAD_DAYS:
            raise ToolFailure("the first payment on a new day must be at least 10 days away")
        self.db.execute(
            "UPDATE tenancies SET rent_day = ?, rent_day_changed_on = ?, first_payment_on = ? "
            "WHERE tenancy_ref = ?",
            (args.new_day, self.now().date().isoformat(), args.first_payment, t["tenancy_ref"]),
        )
        return {
            "tenancy_ref": t["tenancy_ref"],
            "rent_day": args.new_day,
            "first_payment": args.first_payment,
            "rent": money(t["rent_pence"]),
        }

    @tool(
        "Record the tenant's notice to end a periodic tenancy on end_date. Refuses a fixed-term "
        "tenancy and a second notice. The system does not check the notice period or that the "
        "end falls on the last day of a rental period: the desk must."
    )
    def give_notice(self, args: Notice) -> dict[str, Any]:
        t = self._tenancy(args.tenancy_ref)
        if t["kind"] != "periodic":
            raise ToolFailure(
                f"a fixed-term tenancy (until {t['fixed_end']}) can't be ended by notice"
            )
        if t["status"] == "notice_given":
            raise ToolFailure("notice has already been given on this tenancy")
        if date.fromisoformat(args.end_date) <= self.now().date():
            raise ToolFailure("the end date must be in the future")
        self.db.execute(
            "INSERT INTO notices (tenancy_ref, end_date, given_on) VALUES (?,?,?)",
            (t["tenancy_ref"], args.end_date, self.now().date().isoformat()),
        )
        self.db.execute(
            "UPDATE tenancies SET status = 'notice_given' WHERE tenancy_ref = ?",
            (t["tenancy_ref"],),
        )
        return {
            "tenancy_ref": t["tenancy_ref"],
            "end_date": args.end_date,
            "status": "notice_given",
        }

    @tool(
        "Send the landlord a request for written consent to keep a pet; pet rent (quoted by the "
        "desk) starts only if they agree. The system does not check the two-pet limit: the "
        "desk must."
    )
    def request_pet(self, args: RequestPet) -> dict[str, Any]:
        t = self._tenancy(args.tenancy_ref)
        kind = args.kind.strip().lower()
        if not kind:
            raise ToolFailure("say what kind of pet")
        self.db.execute(
            "INSERT INTO pets (tenancy_ref, kind, status, pet_rent_pence, requested_on) "
            "VALUES (?,?,?,?,?)",
            (
                t["tenancy_ref"],
                kind,
                "awaiting_consent",
                args.pet_rent_pence,
                self.now().date().isoformat(),
            ),
        )
        return {
            "tenancy_ref": t["tenancy_ref"],
            "kind": kind,
            "status": "awaiting_consent",
            "pet_rent_if_agreed": money(args.pet_rent_pence),
        }

    @tool(
        "Add a permitted occupier to the tenancy and charge the variation fee quoted. Refused "
        "unless the landlord's written consent to another occupier is on file."
    )
    def add_occupier(self, args: AddOccupier) -> dict[str, Any]:
        t = self._tenancy(args.tenancy_ref)
        if not t["occupier_consent"]:
            raise ToolFailure("the landlord's consent to another occupier is not on file")
        if args.fee_pence > _seed.OCCUPIER_FEE_PENCE:
            raise ToolFailure("a tenancy variation fee can't be more than £50.00")
        name = " ".join(args.name.split())
        if len(name.split()) < 2:
            raise ToolFailure("the occupier's full name is needed")
        self.db.execute(
            "INSERT INTO occupiers (tenancy_ref, name, added_on) VALUES (?,?,?)",
            (t["tenancy_ref"], name, self.now().date().isoformat()),
        )
        if args.fee_pence:
            self.db.execute(
                "INSERT INTO charges (tenancy_ref, kind, amount_pence, created_at) "
                "VALUES (?,?,?,?)",
                (t["tenancy_ref"], "variation_fee", args.fee_pence, self._stamp()),
            )
        return {"tenancy_ref": t["tenancy_ref"], "occupier": name, "fee": money(args.fee_pence)}

    @tool("Change a tenant's mobile number and/or email address.")
    def update_contact_details(self, args: Contacts) -> dict[str, Any]:
        t = self._tenancy(args.tenancy_ref)
        who = self._one(
            "SELECT * FROM tenants WHERE tenant_id = ? AND tenancy_ref = ?",
            args.tenant_id.strip().upper(),
            t["tenancy_ref"],
        )
        if who is None:
            raise ToolFailure(f"no tenant {args.tenant_id} on this tenancy")
        if args.phone is not None:
            if len(re.sub(r"\D", "", args.phone)) != 11:
                raise ToolFailure(f"{args.phone!r} is not a UK phone number")
            self.db.execute(
                "UPDATE tenants SET phone = ? WHERE tenant_id = ?",
                (args.phone.strip(), who["tenant_id"]),
            )
        if args.email is not None:
            if not re.fullmatch(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+", args.email.strip()):
                raise ToolFailure(f"{args.email!r} is not an email address")
            self.db.execute(
                "UPDATE tenants SET email = ? WHERE tenant_id = ?",
                (args.email.strip(), who["tenant_id"]),
            )
        now = self._one("SELECT * FROM tenants WHERE tenant_id = ?", who["tenant_id"]) or {}
        return {"tenant": now["name"], "phone": now["phone"], "email": now["email"]}


def make_environment() -> LettingsEnvironment:
    """A fresh tenancy system, from the seed data."""
    return LettingsEnvironment()
