"""The arguments of the records system's tools, one pydantic model per tool."""

from __future__ import annotations

from pydantic import BaseModel, Field


class Account(BaseModel):
    account_ref: str = Field(description="The account reference, e.g. LA2001")


class Verify(Account):
    child_dob: str = Field(description="A child's date of birth, YYYY-MM-DD")


class BookSession(Account):
    child_id: str = Field(description="e.g. C301")
    day: str = Field(description="YYYY-MM-DD, a weekday")
    kind: str = Field(description="morning, afternoon or full")
    price_pence: int = Field(description="The price the desk quoted (sibling discount applied)")


class SessionRef(Account):
    session_id: str = Field(description="e.g. S7005")


class SwapSession(SessionRef):
    new_day: str = Field(description="YYYY-MM-DD; same kind of session")
    fee_pence: int = Field(description="The swap fee the desk quoted (0 with 14+ days' notice)")


class CancelSession(SessionRef):
    credit_pence: int = Field(description="What comes off the next invoice (0 if still charged)")


class Funding(Account):
    child_id: str = Field(description="The one child the code is for")
    code: str = Field(description="The 11-digit government eligibility code")


class AddCollector(Account):
    name: str = Field(description="The collector's full name")
    relationship: str = Field(description="e.g. grandmother")
    password: str = Field(description="The password they will give at the door")
    requested_by: str = Field(description="The name of the parent asking")


class RemoveCollector(Account):
    collector_id: str = Field(description="e.g. K102")


class LateCollection(Account):
    child_id: str
    day: str = Field(description="YYYY-MM-DD")
    collect_time: str = Field(description="HH:MM, after 18:00")
    fee_pence: int = Field(description="The late-collection fee the desk quoted")


class MedicalNote(Account):
    child_id: str
    kind: str = Field(description="allergy or medical")
    detail: str = Field(description="What the parent said, in their words")


class Dispute(Account):
    invoice_id: str = Field(description="e.g. INV-4018")
    line_no: int = Field(description="The invoice line disputed")
    reason: str


class Contact(Account):
    phone: str | None = Field(default=None, description="New phone number")
    email: str | None = Field(default=None, description="New email address")
