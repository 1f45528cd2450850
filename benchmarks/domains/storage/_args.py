"""Arguments of the desk's tools (pydantic models: the tool schemas the agent sees)."""

from __future__ import annotations

from pydantic import BaseModel, Field


class VerifyCustomer(BaseModel):
    account_no: str = Field(description="The customer's account number, e.g. KS-4102")
    postcode: str = Field(description="The postcode on the account, e.g. M14 5RT")


class CustomerArgs(BaseModel):
    customer_id: str


class UnitArgs(BaseModel):
    unit_id: str = Field(description="A unit number, e.g. B05")


class FindUnits(BaseModel):
    size_sqft: int = Field(description="15, 25, 50, 75, 100 or 150 square feet")


class RentUnit(BaseModel):
    customer_id: str
    unit_id: str = Field(description="A vacant unit")
    move_in_date: str = Field(description="YYYY-MM-DD, tomorrow to 30 days ahead")


class ChangeUnit(BaseModel):
    rental_id: str
    new_unit_id: str = Field(description="A vacant unit of another size")


class SetGatePin(BaseModel):
    customer_id: str
    pin: str = Field(description="Exactly 6 digits")


class FindVanSlots(BaseModel):
    day: str = Field(description="YYYY-MM-DD")


class BookVan(BaseModel):
    customer_id: str
    rental_id: str
    day: str = Field(description="YYYY-MM-DD")
    slot: str = Field(description="09:00, 11:00, 13:00 or 15:00")
    move_in: bool = Field(description="The free move-in van (the desk checks eligibility)")


class FeeArgs(BaseModel):
    fee_id: str = Field(description="e.g. LF-7001")


class DisputeFee(BaseModel):
    fee_id: str
    reason: str = Field(min_length=3, max_length=300)


class GiveNotice(BaseModel):
    rental_id: str
    move_out_date: str = Field(description="YYYY-MM-DD, at least 14 days from today")


class AddAuthorisedUser(BaseModel):
    rental_id: str
    name: str = Field(min_length=3, max_length=80, description="The person's full name")
