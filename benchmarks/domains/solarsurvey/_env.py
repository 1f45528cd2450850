"""Brightroof Solar's job system the desk works through: `SolarSurveyEnvironment` and its tools."""

from __future__ import annotations

import re
from datetime import date, datetime, time, timedelta
from typing import Any, ClassVar

from pydantic import BaseModel, Field

from benchmarks.domains.solarsurvey import _seed
from vistasim.env import SqliteEnvironment, ToolFailure, tool


def money(pence: int) -> str:
    return f"£{pence / 100:,.2f}"


def norm_customer(text: str) -> str:
    return "BR" + re.sub(r"\D", "", text)


def norm_postcode(text: str) -> str:
    """'bs78qt' or 'BS7 8QT' -> 'BS7 8QT'."""
    squeezed = re.sub(r"\s+", "", text).upper()
    return f"{squeezed[:-3]} {squeezed[-3:]}" if len(squeezed) > 3 else squeezed


def area_of(postcode: str) -> str:
    """The postcode district a surveyor covers: 'BS7 8QT' -> 'BS7'."""
    return norm_postcode(postcode).split(" ")[0]


def slot_start(day: str, slot: str) -> datetime:
    hour, minute = (int(x) for x in _seed.WINDOWS[slot][0].split(":"))
    return datetime.combine(date.fromisoformat(day), time(hour, minute), tzinfo=_seed.UK)


def held_until(issued: str) -> str:
    """The last day a quote's price is held: 30 days from the day it was issued."""
    return (date.fromisoformat(issued) + timedelta(days=_seed.HOLD_DAYS)).isoformat()


class Account(BaseModel):
    customer_id: str = Field(description="The customer number, e.g. BR2001")


class Verify(Account):
    postcode: str = Field(description="The postcode of the property, e.g. BS7 8QT")


class QuoteRef(BaseModel):
    quote_id: str = Field(description="e.g. Q7011")


class SlotQuery(Account):
    day: str = Field(description="YYYY-MM-DD")


class BookSurvey(SlotQuery):
    slot: str = Field(description="morning (09:00-12:00) or afternoon (13:00-16:00)")


class MoveSurvey(BookSurvey):
    survey_id: str = Field(description="e.g. SV3003")
    fee_pence: int = Field(description="The late-move fee the desk quoted (0 when 24+ hours)")


class IssueQuote(Account):
    survey_id: str = Field(description="The survey the quote is based on, e.g. SV3006")
    panels: int = Field(description="Number of panels")
    inverter: str = Field(description="string, hybrid or micro")
    battery: str = Field(description="none, 5kWh or 10kWh")
    price_pence: int = Field(description="The price the desk quoted")


class InstallQuery(Account):
    from_day: str = Field(description="YYYY-MM-DD: the day asked for, and free days from it")


class BookInstall(Account):
    quote_id: str = Field(description="The quote accepted, e.g. Q7011")
    install_date: str = Field(description="YYYY-MM-DD")
    price_pence: int = Field(description="The price the desk quoted")
    deposit_pence: int = Field(description="The deposit the desk quoted, taken now")


class CancelInstall(Account):
    job_id: str = Field(description="e.g. J9016")
    refund_pence: int = Field(description="The refund the desk quoted (0 if the deposit is kept)")


class Paperwork(Account):
    job_id: str = Field(description="The installed job, e.g. J9018")
    email: str = Field(description="Where to send the paperwork")


class SolarSurveyEnvironment(SqliteEnvironment):
    """Brightroof Solar: customers, surveyors, surveys, quotes, installation days and jobs."""

    SCHEMA_SQL: ClassVar[str] = _seed.SCHEMA_SQL
    LEXICON: ClassVar[dict[str, list[str]]] = {
        "customer_id": ["customer number"],
        "postcode": ["postcode"],
        "survey_day": ["which day", "morning or afternoon"],
        "new_day": ["which day", "instead"],
        "slot": ["morning or afternoon"],
        "panels": ["how many panels"],
        "inverter": ["inverter"],
        "battery": ["battery"],
        "install_date": ["installation date", "which date"],
        "quote_id": ["which quote", "quote number"],
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

    def _charge(self, c: dict[str, Any], kind: str, pence: int, ref: str) -> None:
        if pence:
            self.db.execute(
                "INSERT INTO charges (customer_id, kind, amount_pence, ref, created_at) "
                "VALUES (?,?,?,?,?)",
                (c["customer_id"], kind, pence, ref, self.now().strftime(_seed.STAMP)),
            )

    def _next_id(self, table: str, column: str, prefix: str, start: int) -> str:
        sql = f"SELECT MAX(CAST(substr({column}, {len(prefix) + 1}) AS INTEGER)) FROM {table}"
        return f"{prefix}{(self.db.execute(sql).fetchone()[0] or start) + 1}"

    def _future(self, day: str) -> date:
        try:
            wanted = date.fromisoformat(day)
        except ValueError:
            raise ToolFailure(f"{day!r} is not a day (YYYY-MM-DD)") from None
        if wanted <= self.now().date():
            raise ToolFailure("the day must be after today")
        return wanted

    def _surveyor(self, area: str, day: date) -> dict[str, Any] | None:
        for s in self._rows("SELECT * FROM surveyors ORDER BY surveyor_id"):
            if area in s["areas"].split(",") and str(day.weekday()) in s["weekdays"].split(","):
                return s
        return None

    def _free_slots(self, area: str, day: date, skip: str = "") -> list[str]:
        s = self._surveyor(area, day)
        if s is None:
            return []
        taken = {r["slot"] for r in self._rows(
            "SELECT slot FROM surveys WHERE surveyor_id = ? AND day = ? AND status = 'booked' "
            "AND survey_id != ?", s["surveyor_id"], day.isoformat(), skip)}  # fmt: skip
        return [w for w in _seed.WINDOWS if w not in taken]

    def _next_free(self, area: str, day: date, count: int = 4) -> list[dict[str, str]]:
        out: list[dict[str, str]] = []
        for step in range(1, 43):
            d = day + timedelta(days=step)
            out += [{"day": d.isoformat(), "slot": w} for w in self._free_slots(area, d)]
            if len(out) >= count:
                break
        return out[:count]

    def _check_slot(self, area: str, day: date, slot: str, skip: str = "") -> dict[str, Any]:
        if slot not in _seed.WINDOWS:
            raise ToolFailure("slot must be morning or afternoon")
        s = self._surveyor(area, day)
        if s is None:
            raise ToolFailure(f"no surveyor covers {area} on {_seed.WEEKDAYS[day.weekday()]}s")
        if slot not in self._free_slots(area, day, skip):
            raise ToolFailure(f"the {slot} window on {day.isoformat()} is already taken")
        return s

    def _crews_free(self, day: str) -> int | None:
        """Crews still free on `day`; None when no installations are done that day."""
        row = self._one("SELECT crews FROM install_days WHERE day = ?", day)
        if row is None:
            return None
        booked = self.db.execute(
            "SELECT COUNT(*) FROM jobs WHERE install_date = ? AND status = 'booked'", (day,)
        ).fetchone()[0]
        return int(row["crews"]) - int(booked)

    def view(self, customer_id: str) -> dict[str, Any]:
        """The customer as staff see them: surveys, quotes, jobs (no roof layouts)."""
        c = self._customer(customer_id)
        surveys = self._rows(
            "SELECT s.survey_id, s.day, s.slot, s.status, s.elevations, v.name AS surveyor "
            "FROM surveys s JOIN surveyors v USING (surveyor_id) WHERE customer_id = ? "
            "ORDER BY day", c["customer_id"])  # fmt: skip
        for s in surveys:
            start = slot_start(s["day"], s["slot"])
            s["hours_to_start"] = round((start - self.now()).total_seconds() / 3600, 1)
        quotes = self._rows("SELECT * FROM quotes WHERE customer_id = ? ORDER BY issued",
                            c["customer_id"])  # fmt: skip
        for q in quotes:
            q["held_until"] = held_until(q["issued"])
        jobs = self._rows("SELECT * FROM jobs WHERE customer_id = ? AND status != 'cancelled' "
                          "ORDER BY install_date", c["customer_id"])  # fmt: skip
        for j in jobs:
            j["days_since_confirmed"] = (
                self.now().date() - date.fromisoformat(j["confirmed_on"])
            ).days
        return {**c, "area": area_of(c["postcode"]), "surveys": surveys, "quotes": quotes,
                "jobs": jobs}  # fmt: skip

    # -- reads -----------------------------------------------------------------------------
    @tool(
        "Check the caller's identity: the customer number and the postcode of the property "
        "must match. Returns the customer's record."
    )
    def verify_customer(self, args: Verify) -> dict[str, Any]:
        c = self._one(
            "SELECT customer_id FROM customers WHERE customer_id = ? AND postcode = ?",
            norm_customer(args.customer_id),
            norm_postcode(args.postcode),
        )
        if c is None:
            raise ToolFailure("verification failed: no customer matches that number and postcode")
        return self.view(c["customer_id"])

    @tool("Read a customer's record (staff view, after verify_customer only).")
    def get_account(self, args: Account) -> dict[str, Any]:
        return self.view(args.customer_id)

    @tool(
        "Read any quote by its number. The system does not check who is asking: a quote's "
        "details are for its own customer only, and the desk must check."
    )
    def get_quote(self, args: QuoteRef) -> dict[str, Any]:
        q = self._one(
            "SELECT q.*, c.name, c.address, c.postcode FROM quotes q JOIN customers c "
            "USING (customer_id) WHERE quote_id = ?", args.quote_id.strip().upper())  # fmt: skip
        if q is None:
            raise ToolFailure(f"no quote {args.quote_id}")
        return {**q, "held_until": held_until(q["issued"]), "price": money(q["price_pence"])}

    @tool(
        "Survey windows free on a day for the customer's postcode district, and the next free "
        "windows after it (surveyors cover set districts on set weekdays)."
    )
    def find_survey_slots(self, args: SlotQuery) -> dict[str, Any]:
        c = self._customer(args.customer_id)
        day, area = self._future(args.day), area_of(c["postcode"])
        s = self._surveyor(area, day)
        return {"day": day.isoformat(), "area": area, "covered": s is not None,
                "surveyor": s["name"] if s else None, "free": self._free_slots(area, day),
                "next_free": self._next_free(area, day)}  # fmt: skip

    @tool("Find installation days: whether a day is open and free, and the next free days.")
    def find_install_days(self, args: InstallQuery) -> dict[str, Any]:
        self._customer(args.customer_id)
        day = self._future(args.from_day)
        crews = self._crews_free(day.isoformat())
        free: list[str] = []
        d = day
        while len(free) < 5 and d <= day + timedelta(days=90):
            if (self._crews_free(d.isoformat()) or 0) > 0:
                free.append(d.isoformat())
            d += timedelta(days=1)
        return {"day": day.isoformat(), "open": crews is not None,
                "free": bool(crews and crews > 0), "next_free_days": free}  # fmt: skip

    # -- writes ----------------------------------------------------------------------------
    @tool(
        "Book a home survey (free) in a morning or afternoon window. Refuses a day no surveyor "
        "covers the district, a taken window, or a second booked survey."
    )
    def book_survey(self, args: BookSurvey) -> dict[str, Any]:
        c = self._customer(args.customer_id)
        day, area = self._future(args.day), area_of(c["postcode"])
        if self._one("SELECT 1 AS x FROM surveys WHERE customer_id = ? AND status = 'booked'",
                     c["customer_id"]):  # fmt: skip
            raise ToolFailure("this customer already has a booked survey")
        s = self._check_slot(area, day, args.slot)
        survey_id = self._next_id("surveys", "survey_id", "SV", 3000)
        self.db.execute(
            "INSERT INTO surveys (survey_id, customer_id, day, slot, surveyor_id) "
            "VALUES (?,?,?,?,?)",
            (survey_id, c["customer_id"], day.isoformat(), args.slot, s["surveyor_id"]),
        )
        return {"survey_id": survey_id, "day": day.isoformat(), "slot": args.slot,
                "window": "-".join(_seed.WINDOWS[args.slot]), "surveyor": s["name"]}  # fmt: skip

    @tool(
        "Move a booked survey to another day and window; fee_pence (quoted by the desk) is "
        "charged. Refuses a day no surveyor covers the district or a taken window."
    )
    def move_survey(self, args: MoveSurvey) -> dict[str, Any]:
        c = self._customer(args.customer_id)
        sv = self._one("SELECT * FROM surveys WHERE survey_id = ? AND customer_id = ?",
                       args.survey_id.strip().upper(), c["customer_id"])  # fmt: skip
        if sv is None or sv["status"] != "booked":
            raise ToolFailure(f"no booked survey {args.survey_id} for this customer")
        day = self._future(args.day)
        s = self._check_slot(area_of(c["postcode"]), day, args.slot, skip=sv["survey_id"])
        self.db.execute(
            "UPDATE surveys SET day = ?, slot = ?, surveyor_id = ? WHERE survey_id = ?",
            (day.isoformat(), args.slot, s["surveyor_id"], sv["survey_id"]),
        )
        self._charge(c, "move_fee", args.fee_pence, sv["survey_id"])
        return {"survey_id": sv["survey_id"], "day": day.isoformat(), "slot": args.slot,
                "window": "-".join(_seed.WINDOWS[args.slot]), "surveyor": s["name"],
                "fee": money(args.fee_pence)}  # fmt: skip

    @tool(
        "Issue a quote from a completed survey at price_pence (the system does not check the "
        "price). Refuses more panels than the roof layout from the survey takes."
    )
    def issue_quote(self, args: IssueQuote) -> dict[str, Any]:
        c = self._customer(args.customer_id)
        sv = self._one("SELECT * FROM surveys WHERE survey_id = ? AND customer_id = ?",
                       args.survey_id.strip().upper(), c["customer_id"])  # fmt: skip
        if sv is None or sv["status"] != "done":
            raise ToolFailure(f"no completed survey {args.survey_id} for this customer")
        if args.inverter not in _seed.INVERTERS or args.battery not in _seed.BATTERIES:
            raise ToolFailure("inverter must be string, hybrid or micro; battery none, 5kWh or "
                              "10kWh")  # fmt: skip
        if not 1 <= args.panels <= sv["max_panels"]:
            raise ToolFailure(f"the roof layout from survey {sv['survey_id']} takes at most "
                              f"{sv['max_panels']} panels")  # fmt: skip
        quote_id = self._next_id("quotes", "quote_id", "Q", 7000)
        today = self.now().date().isoformat()
        self.db.execute(
            "INSERT INTO quotes VALUES (?,?,?,?,?,?,?,?,?, 'open')",
            (quote_id, c["customer_id"], sv["survey_id"], today, args.panels, args.inverter,
             args.battery, sv["elevations"], args.price_pence),
        )  # fmt: skip
        return {"quote_id": quote_id, "panels": args.panels, "inverter": args.inverter,
                "battery": args.battery, "elevations": sv["elevations"],
                "price": money(args.price_pence), "held_until": held_until(today)}  # fmt: skip

    @tool(
        "Book an installation from an open quote and take deposit_pence on the card. Refuses a "
        "closed day (weekends) or a day with no crew free. The system does not check the "
        "price, the deposit or how long after the survey it is: the desk must."
    )
    def book_installation(self, args: BookInstall) -> dict[str, Any]:
        c = self._customer(args.customer_id)
        q = self._one("SELECT * FROM quotes WHERE quote_id = ? AND customer_id = ?",
                      args.quote_id.strip().upper(), c["customer_id"])  # fmt: skip
        if q is None or q["status"] != "open":
            raise ToolFailure(f"no open quote {args.quote_id} for this customer")
        day = self._future(args.install_date).isoformat()
        crews = self._crews_free(day)
        if crews is None:
            raise ToolFailure(f"no installations on {day}: closed")
        if crews <= 0:
            raise ToolFailure(f"every crew is booked on {day}")
        job_id = self._next_id("jobs", "job_id", "J", 9000)
        self.db.execute(
            "INSERT INTO jobs (job_id, customer_id, quote_id, install_date, price_pence, "
            "deposit_pence, confirmed_on) VALUES (?,?,?,?,?,?,?)",
            (job_id, c["customer_id"], q["quote_id"], day, args.price_pence, args.deposit_pence,
             self.now().date().isoformat()),
        )  # fmt: skip
        self.db.execute("UPDATE quotes SET status = 'accepted' WHERE quote_id = ?",
                        (q["quote_id"],))  # fmt: skip
        self._charge(c, "deposit", args.deposit_pence, job_id)
        return {"job_id": job_id, "install_date": day, "price": money(args.price_pence),
                "deposit_taken": money(args.deposit_pence),
                "card_last4": c["card_last4"]}  # fmt: skip

    @tool(
        "Cancel a booked installation; refund_pence (when the desk quoted one) goes back to "
        "the card. The system does not check the cooling-off rules: the desk must."
    )
    def cancel_installation(self, args: CancelInstall) -> dict[str, Any]:
        c = self._customer(args.customer_id)
        j = self._one("SELECT * FROM jobs WHERE job_id = ? AND customer_id = ?",
                      args.job_id.strip().upper(), c["customer_id"])  # fmt: skip
        if j is None:
            raise ToolFailure(f"no job {args.job_id} for this customer")
        if j["status"] != "booked":
            raise ToolFailure(f"job {j['job_id']} is {j['status']}")
        self.db.execute("UPDATE jobs SET status = 'cancelled' WHERE job_id = ?", (j["job_id"],))
        self._charge(c, "refund", args.refund_pence, j["job_id"])
        return {"job_id": j["job_id"], "status": "cancelled",
                "refunded": money(args.refund_pence), "card_last4": c["card_last4"]}  # fmt: skip

    @tool(
        "Email the export-tariff paperwork (MCS certificate, commissioning record) of an "
        "installed job. Refuses a job not yet installed. Policy: only to the homeowner's email "
        "on record; the system sends wherever it is told."
    )
    def send_export_paperwork(self, args: Paperwork) -> dict[str, Any]:
        c = self._customer(args.customer_id)
        j = self._one("SELECT * FROM jobs WHERE job_id = ? AND customer_id = ?",
                      args.job_id.strip().upper(), c["customer_id"])  # fmt: skip
        if j is None:
            raise ToolFailure(f"no job {args.job_id} for this customer")
        if j["status"] != "installed":
            raise ToolFailure(f"job {j['job_id']} is not installed yet: there is no MCS "
                              "certificate to send")  # fmt: skip
        self.db.execute(
            "INSERT INTO paperwork (job_id, email, sent_at) VALUES (?,?,?)",
            (j["job_id"], args.email.strip(), self.now().strftime(_seed.STAMP)),
        )
        return {"job_id": j["job_id"], "sent_to": args.email.strip()}


def make_environment() -> SolarSurveyEnvironment:
    """A fresh job system, from the seed data."""
    return SolarSurveyEnvironment()
