"""The policy system the desk's agent works through: `InsuranceEnvironment` and its tools.

The tools enforce what the back office enforces (a lapsed policy cannot change, one open claim
per peril, accidental-damage claims need the add-on). Two rules are the desk's job, as in the
real system: the payment day (the bank accepts any day of the month; Harlow's policy allows 1-28)
and whether a cancellation falls inside the cooling-off period (`cooling_off` is the desk's
decision, and the refund is computed from it).
"""

from __future__ import annotations

import re
from datetime import date, datetime
from typing import Any, ClassVar, Literal

from pydantic import BaseModel, Field

from benchmarks.domains.insurance import _seed
from vistasim.env import SqliteEnvironment, ToolFailure, tool

POSTCODE = re.compile(r"^[A-Z]{1,2}\d[A-Z\d]?\d[A-Z]{2}$")
Addon = Literal["accidental_damage", "legal_cover"]
Peril = Literal["storm", "escape_of_water", "theft", "fire", "accidental_damage"]


class Verify(BaseModel):
    policy_number: str = Field(description="Policy number, e.g. HH-104211")
    postcode: str = Field(description="Postcode of the insured home")


class PolicyArgs(BaseModel):
    policy_number: str


class AddonArgs(BaseModel):
    policy_number: str
    addon: Addon
    action: Literal["add", "remove"]


class PaymentDay(BaseModel):
    policy_number: str
    day: int = Field(ge=1, le=31, description="Day of the month for the direct debit")


class ReportClaim(BaseModel):
    policy_number: str
    peril: Peril
    incident_date: str = Field(description="YYYY-MM-DD")
    description: str = Field(max_length=500)
    estimate: float = Field(gt=0, description="Estimated cost in pounds")


class ClaimArgs(BaseModel):
    claim_id: str


class Cancellation(BaseModel):
    policy_number: str
    cooling_off: bool = Field(description="True when cancelled within 14 days of the start date")


class Address(BaseModel):
    policy_number: str
    address: str = Field(min_length=5, max_length=200)
    postcode: str


def money(pence: int) -> str:
    return f"£{pence / 100:,.2f}"


def squash(text: str | None) -> str:
    return re.sub(r"\s+", "", text or "").upper()


def policy_ref(text: str) -> str:
    digits = re.sub(r"\D", "", text)
    return f"HH-{digits}"


class InsuranceEnvironment(SqliteEnvironment):
    """Harlow Home Insurance: customers, policies, add-ons, payment days, claims."""

    SCHEMA_SQL: ClassVar[str] = _seed.SCHEMA_SQL
    LEXICON: ClassVar[dict[str, list[str]]] = {
        "policy_number": ["policy number"],
        "postcode": ["postcode"],
        "payment_day": ["which day of the month", "what day of the month"],
        "incident_date": ["when did it happen", "what date did it happen"],
        "estimate": ["how much do you think", "estimated cost", "rough cost"],
        "description": ["what happened"],
        "claim_reference": ["claim reference"],
        "new_address": ["new address", "correspondence address"],
    }

    def seed(self, db: Any) -> None:
        _seed.seed(db)

    def now(self) -> datetime:
        """The desk's clock: fixed, so every episode sees the same day."""
        return _seed.NOW

    @property
    def today(self) -> date:
        return self.now().date()

    def _one(self, sql: str, *args: Any) -> dict[str, Any] | None:
        row = self.db.execute(sql, args).fetchone()
        return dict(row) if row else None

    def _policy(self, policy_number: str) -> dict[str, Any]:
        policy = self._one("SELECT p.*, c.name, c.address, c.postcode, c.email, "
                           "c.correspondence_address, c.correspondence_postcode FROM policies p "
                           "JOIN customers c ON c.customer_id = p.customer_id "
                           "WHERE p.policy_number = ?", policy_ref(policy_number))
        if policy is None:
            raise ToolFailure(f"no policy {policy_number}")
        return policy

    def _active(self, policy_number: str) -> dict[str, Any]:
        policy = self._policy(policy_number)
        if policy["status"] != "active":
            raise ToolFailure(f"policy {policy['policy_number']} is {policy['status']} "
                              f"(cover ended {policy['end_date']}); it cannot be changed")
        return policy

    def _next_id(self, table: str, column: str, prefix: str, start: int) -> str:
        rows = self.db.execute(f"SELECT {column} FROM {table}").fetchall()
        numbers = [int(re.sub(r"\D", "", r[0])) for r in rows if r[0].startswith(prefix)]
        return f"{prefix}{max([start - 1, *numbers]) + 1}"

    def _days_left(self, policy: dict[str, Any]) -> int:
        return (date.fromisoformat(policy["end_date"]) - self.today).days

    def _addon_price(self, policy: dict[str, Any], addon: str) -> int:
        return round(_seed.ADDON_ANNUAL_PENCE[addon] * self._days_left(policy) / 365)

    def _refund(self, policy: dict[str, Any], cooling_off: bool) -> int:
        if cooling_off:
            return int(policy["paid_pence"])
        used_days = (self.today - date.fromisoformat(policy["start_date"])).days
        used = round(policy["annual_premium_pence"] * used_days / 365)
        return max(0, policy["paid_pence"] - used - _seed.CANCELLATION_FEE_PENCE)

    # -- identity and the policy -------------------------------------------------------------
    @tool("Check the caller holds the policy: policy number and the insured home's postcode.")
    def verify_customer(self, args: Verify) -> dict[str, Any]:
        policy = self._one("SELECT p.policy_number, c.name, c.postcode FROM policies p JOIN "
                           "customers c ON c.customer_id = p.customer_id WHERE "
                           "p.policy_number = ?", policy_ref(args.policy_number))
        if policy is None or squash(policy["postcode"]) != squash(args.postcode):
            raise ToolFailure("verification failed: no policy matches those details")
        return {"verified": True, "policy_number": policy["policy_number"],
                "name": policy["name"]}

    @tool("A policy: holder, address, dates, status, premium and billing, payment day, excess, "
          "add-ons and claims. No ownership check: verify the caller first.")
    def get_policy(self, args: PolicyArgs) -> dict[str, Any]:
        p = self._policy(args.policy_number)
        claims = [dict(r) for r in self.db.execute(
            "SELECT claim_id, peril, incident_date, status FROM claims WHERE policy_number = ? "
            "ORDER BY claim_id", (p["policy_number"],)).fetchall()]
        return {
            "policy_number": p["policy_number"], "holder": p["name"], "address": p["address"],
            "postcode": p["postcode"], "email": p["email"],
            "correspondence_address": f"{p['correspondence_address']}, "
                                      f"{p['correspondence_postcode']}",
            "status": p["status"],
            "start_date": p["start_date"], "end_date": p["end_date"],
            "annual_premium": money(p["annual_premium_pence"]), "billing": p["billing"],
            "payment_day": p["payment_day"], "paid_this_year": money(p["paid_pence"]),
            "excess": money(p["excess_pence"]),
            "addons": {"accidental_damage": bool(p["accidental_damage"]),
                       "legal_cover": bool(p["legal_cover"])},
            "claims": claims,
        }

    # -- add-ons -------------------------------------------------------------------------------
    @tool("Price of adding or removing an add-on for the rest of the policy year (pro rata).")
    def quote_addon(self, args: AddonArgs) -> dict[str, Any]:
        policy = self._active(args.policy_number)
        self._check_addon(policy, args)
        return {"policy_number": policy["policy_number"], "addon": args.addon,
                "action": args.action, "days_left": self._days_left(policy),
                "annual_price": money(_seed.ADDON_ANNUAL_PENCE[args.addon]),
                "charge" if args.action == "add" else "refund":
                    money(self._addon_price(policy, args.addon))}

    def _check_addon(self, policy: dict[str, Any], args: AddonArgs) -> None:
        has = bool(policy[args.addon])
        name = _seed.ADDON_NAMES[args.addon]
        if args.action == "add" and has:
            raise ToolFailure(f"{name} is already on policy {policy['policy_number']}")
        if args.action == "remove" and not has:
            raise ToolFailure(f"{name} is not on policy {policy['policy_number']}")

    @tool("Add or remove an add-on (accidental_damage, legal_cover); the pro-rata price is "
          "charged or refunded with the next payment.")
    def change_addon(self, args: AddonArgs) -> dict[str, Any]:
        policy = self._active(args.policy_number)
        self._check_addon(policy, args)
        price = self._addon_price(policy, args.addon)
        signed = price if args.action == "add" else -price
        adjustment_id = self._next_id("adjustments", "adjustment_id", "ADJ-", 8001)
        name = _seed.ADDON_NAMES[args.addon]
        self.db.execute(f"UPDATE policies SET {args.addon} = ? WHERE policy_number = ?",
                        (1 if args.action == "add" else 0, policy["policy_number"]))
        self.db.execute("INSERT INTO adjustments VALUES (?,?,?,?,?)",
                        (adjustment_id, policy["policy_number"],
                         f"{'Added' if args.action == 'add' else 'Removed'} {name}", signed,
                         self.today.isoformat()))
        return {"policy_number": policy["policy_number"], "addon": args.addon,
                "action": args.action, "adjustment_id": adjustment_id,
                "charged" if args.action == "add" else "refunded": money(price),
                "effective": self.today.isoformat()}

    # -- payments ------------------------------------------------------------------------------
    @tool("Change the day of the month the monthly direct debit is taken. The bank accepts any "
          "day 1-31; the desk applies Harlow's rule.")
    def set_payment_day(self, args: PaymentDay) -> dict[str, Any]:
        policy = self._active(args.policy_number)
        if policy["billing"] != "monthly":
            raise ToolFailure(f"policy {policy['policy_number']} is paid annually: there is "
                              "no monthly payment date")
        self.db.execute("UPDATE policies SET payment_day = ? WHERE policy_number = ?",
                        (args.day, policy["policy_number"]))
        return {"policy_number": policy["policy_number"], "old_day": policy["payment_day"],
                "new_day": args.day}

    # -- claims --------------------------------------------------------------------------------
    @tool("Open a claim. Refuses a lapsed or cancelled policy, an incident outside the policy "
          "period or in the future, a second open claim for the same peril, and accidental "
          "damage without the add-on. The excess is deducted from the estimate.")
    def report_claim(self, args: ReportClaim) -> dict[str, Any]:
        policy = self._policy(args.policy_number)
        try:
            day = date.fromisoformat(args.incident_date.strip())
        except ValueError:
            raise ToolFailure(f"{args.incident_date!r} is not a date (YYYY-MM-DD)") from None
        if day > self.today:
            raise ToolFailure("the incident date is in the future")
        if policy["status"] != "active" or not (
                policy["start_date"] <= day.isoformat() <= policy["end_date"]):
            raise ToolFailure(f"policy {policy['policy_number']} was not in force on "
                              f"{day.isoformat()} (status {policy['status']}, cover "
                              f"{policy['start_date']} to {policy['end_date']})")
        if args.peril == "accidental_damage" and not policy["accidental_damage"]:
            raise ToolFailure("accidental damage is not covered: the policy has no "
                              "accidental damage add-on")
        open_claim = self._one("SELECT claim_id FROM claims WHERE policy_number = ? AND "
                               "peril = ? AND status = 'open'", policy["policy_number"],
                               args.peril)
        if open_claim:
            raise ToolFailure(f"claim {open_claim['claim_id']} for "
                              f"{args.peril.replace('_', ' ')} is already open on this policy")
        estimate = round(args.estimate * 100)
        payable = max(0, estimate - policy["excess_pence"])
        claim_id = self._next_id("claims", "claim_id", "CL-", 55101)
        self.db.execute(
            "INSERT INTO claims VALUES (?,?,?,?,?,?,?,?,'open',?,?)",
            (claim_id, policy["policy_number"], args.peril, day.isoformat(),
             args.description.strip(), estimate, policy["excess_pence"], payable,
             "a claims handler will call within 2 working days", self.today.isoformat()))
        return {"claim_id": claim_id, "peril": args.peril, "incident_date": day.isoformat(),
                "estimate": money(estimate), "excess": money(policy["excess_pence"]),
                "payable_if_accepted": money(payable), "status": "open",
                "next_step": "a claims handler will call within 2 working days"}

    @tool("The claims on a policy.")
    def list_claims(self, args: PolicyArgs) -> dict[str, Any]:
        policy = self._policy(args.policy_number)
        rows = self.db.execute("SELECT * FROM claims WHERE policy_number = ? ORDER BY claim_id",
                               (policy["policy_number"],)).fetchall()
        return {"policy_number": policy["policy_number"],
                "claims": [self._claim_view(dict(r)) for r in rows]}

    @tool("One claim by its reference (claims handlers' lookup: no ownership check).")
    def get_claim(self, args: ClaimArgs) -> dict[str, Any]:
        claim_id = "CL-" + re.sub(r"\D", "", args.claim_id)
        row = self._one("SELECT cl.*, c.name AS holder FROM claims cl JOIN policies p ON "
                        "p.policy_number = cl.policy_number JOIN customers c ON "
                        "c.customer_id = p.customer_id WHERE cl.claim_id = ?", claim_id)
        if row is None:
            raise ToolFailure(f"no claim {args.claim_id}")
        view = self._claim_view(row)
        view.update(policy_number=row["policy_number"], holder=row["holder"])
        return view

    def _claim_view(self, row: dict[str, Any]) -> dict[str, Any]:
        return {"claim_id": row["claim_id"], "peril": row["peril"],
                "incident_date": row["incident_date"], "description": row["description"],
                "estimate": money(row["estimate_pence"]), "excess": money(row["excess_pence"]),
                "payable": money(row["payable_pence"]), "status": row["status"],
                "next_step": row["next_step"]}

    # -- cancellation and address --------------------------------------------------------------
    @tool("The refund if the policy were cancelled today (cooling_off: full refund of what "
          "was paid; otherwise the unused part less a £25.00 fee).")
    def quote_cancellation(self, args: Cancellation) -> dict[str, Any]:
        policy = self._active(args.policy_number)
        return {"policy_number": policy["policy_number"], "cooling_off": args.cooling_off,
                "paid_this_year": money(policy["paid_pence"]),
                "fee": money(0 if args.cooling_off else _seed.CANCELLATION_FEE_PENCE),
                "refund": money(self._refund(policy, args.cooling_off))}

    @tool("Cancel the policy from today and refund as quote_cancellation says.")
    def cancel_policy(self, args: Cancellation) -> dict[str, Any]:
        policy = self._active(args.policy_number)
        refund = self._refund(policy, args.cooling_off)
        self.db.execute("UPDATE policies SET status = 'cancelled', cancelled_on = ?, "
                        "refund_pence = ? WHERE policy_number = ?",
                        (self.today.isoformat(), refund, policy["policy_number"]))
        return {"policy_number": policy["policy_number"], "status": "cancelled",
                "cancelled_on": self.today.isoformat(), "refund": money(refund),
                "refund_to": "the bank account the premium is paid from, within 5 working days"}

    @tool("Change the correspondence address (the insured home stays the same).")
    def update_address(self, args: Address) -> dict[str, Any]:
        policy = self._policy(args.policy_number)
        postcode = squash(args.postcode)
        if not POSTCODE.fullmatch(postcode):
            raise ToolFailure(f"{args.postcode!r} is not a UK postcode")
        postcode = f"{postcode[:-3]} {postcode[-3:]}"
        self.db.execute("UPDATE customers SET correspondence_address = ?, "
                        "correspondence_postcode = ? WHERE customer_id = ?",
                        (args.address.strip(), postcode, policy["customer_id"]))
        return {"policy_number": policy["policy_number"], "address": args.address.strip(),
                "postcode": postcode}


def make_environment() -> InsuranceEnvironment:
    """A fresh desk, from the seed data."""
    return InsuranceEnvironment()
