"""Arguments of Greenfield Energy's desk tools (pydantic models: the tools' JSON schemas)."""

from __future__ import annotations

from pydantic import BaseModel, Field

from benchmarks.domains.energy import _calc as calc


class VerifyArgs(BaseModel):
    account_number: str | None = Field(None, description="Account number, e.g. GE-1001")
    postcode: str | None = Field(None, description="Postcode of the supply address")
    email: str | None = Field(None, description="Email address on the account")
    date_of_birth: str | None = Field(
        None, description="Account holder's date of birth, YYYY-MM-DD"
    )


class AccountArgs(BaseModel):
    account_number: str = Field(description="Account number, e.g. GE-1001")


class BillArgs(AccountArgs):
    period: str | None = Field(None, description="Billing month, YYYY-MM; the latest if omitted")


class ReadingsArgs(AccountArgs):
    meter_id: str | None = Field(None, description="One meter (e.g. EM1001); all if omitted")


class NoArgs(BaseModel):
    pass


class ReadingArgs(BaseModel):
    account_number: str = Field(description="Account number, e.g. GE-1001")
    meter_id: str = Field(description="Meter id from get_account, e.g. EM1001 or GM1001")
    reading: int = Field(description="The meter reading, digits left to right (04512 -> 4512)")
    date: str | None = Field(
        None, description="Date the meter was read, YYYY-MM-DD; today if omitted"
    )


class TariffArgs(BaseModel):
    account_number: str = Field(description="Account number, e.g. GE-1001")
    tariff_id: str = Field(description="Tariff id from list_tariffs, e.g. FIX12")


class DirectDebitArgs(BaseModel):
    account_number: str = Field(description="Account number, e.g. GE-1001")
    amount: float | None = Field(None, description="New monthly amount in GBP")
    day_of_month: int | None = Field(None, description="New collection day, 1-28")


class PlanArgs(BaseModel):
    account_number: str = Field(description="Account number, e.g. GE-1001")
    months: int = Field(description="Number of monthly instalments, 1-12")


class MoveArgs(BaseModel):
    account_number: str = Field(description="Account number, e.g. GE-1001")
    move_out_date: str = Field(description="Last day at the property, YYYY-MM-DD")
    new_address: str = Field(description="Forwarding address for the final bill")
    final_reading: int | None = Field(
        None, description="Final meter reading, if the customer has one"
    )
    meter_id: str | None = Field(
        None, description="Which meter the final reading is for (two meters)"
    )


class ContactArgs(BaseModel):
    account_number: str = Field(description="Account number, e.g. GE-1001")
    email: str | None = Field(None, description="New email address")
    phone: str | None = Field(None, description="New phone number (UK)")


class PriorityArgs(BaseModel):
    account_number: str = Field(description="Account number, e.g. GE-1001")
    need: str = Field(description="One need: " + ", ".join(calc.NEEDS))


