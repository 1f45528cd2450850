"""Arguments of Brightwave's tools (pydantic models) and the date parsing they share."""

from __future__ import annotations

from datetime import date, datetime

from pydantic import BaseModel, Field

from vistasim.env import ToolFailure

_PHONE = "The mobile number, e.g. 07700 900123"


class PhoneArgs(BaseModel):
    phone_number: str = Field(description=_PHONE)


class VerifyArgs(BaseModel):
    phone_number: str = Field(description="A mobile number on the caller's account")
    account_pin: str | None = Field(default=None, description="The 4-digit account PIN")
    date_of_birth: str | None = Field(
        default=None, description="The account holder's date of birth, YYYY-MM-DD"
    )


class BillArgs(BaseModel):
    phone_number: str = Field(description=_PHONE)
    period: str | None = Field(
        default=None, description="Billing month YYYY-MM (default: the latest bill)"
    )


class OffersArgs(BaseModel):
    phone_number: str | None = Field(
        default=None,
        description="Optional: a verified line, to see which plans it may move to and the "
        "prorated difference today",
    )


class ChangePlanArgs(BaseModel):
    phone_number: str = Field(description=_PHONE)
    plan_id: str = Field(description="Target plan id from list_offers, e.g. MAX100")


class AddonArgs(BaseModel):
    phone_number: str = Field(description=_PHONE)
    addon_id: str = Field(description="DATA5, DATA20, ROAM_EU, ROAM_NA or ROAM_WORLD")
    start_date: str | None = Field(default=None, description="Roaming passes: first day YYYY-MM-DD")
    end_date: str | None = Field(default=None, description="Roaming passes: last day YYYY-MM-DD")


class SimSwapArgs(BaseModel):
    phone_number: str = Field(description=_PHONE)
    accept_fee: bool = Field(
        default=False, description="True once the customer has accepted the £10 replacement fee"
    )


class CancelArgs(BaseModel):
    phone_number: str = Field(description=_PHONE)
    accept_early_termination_fee: bool = Field(
        default=False, description="True once the customer has accepted the early termination fee"
    )


class BillingArgs(BaseModel):
    phone_number: str = Field(description=_PHONE)
    address: str | None = Field(default=None, description="New billing address, without postcode")
    postcode: str | None = Field(default=None, description="UK postcode of the new address")
    bill_due_day: int | None = Field(default=None, description="Day of the month the bill is due")


class UsageArgs(BaseModel):
    phone_number: str = Field(description=_PHONE)
    account_pin: str = Field(description="The 4-digit account PIN (the app's login)")


def _parse_day(raw: str | None, what: str) -> date:
    if not raw:
        raise ToolFailure(f"{what} is required for a roaming pass (YYYY-MM-DD).")
    try:
        return date.fromisoformat(raw.strip())
    except ValueError:
        raise ToolFailure(f"{what} {raw!r} is not a date in the form YYYY-MM-DD.") from None


def _parse_dob(raw: str) -> str | None:
    text = raw.strip()
    for fmt in ("%Y-%m-%d", "%d/%m/%Y", "%d-%m-%Y", "%d %B %Y", "%d %b %Y"):
        try:
            return datetime.strptime(text, fmt).date().isoformat()  # noqa: DTZ007
        except ValueError:
            continue
    return None

