"""Argument models of Willow Pharmacy's tools (their JSON schemas are what an agent sees)."""

from __future__ import annotations

from pydantic import BaseModel, Field

_ISO = r"^\d{4}-\d{2}-\d{2}$"
_HHMM = r"^\d{2}:\d{2}$"


class NoArgs(BaseModel):
    """No arguments."""


class VerifyArgs(BaseModel):
    """Identity check."""

    last_name: str = Field(min_length=1, description="The patient's last name")
    date_of_birth: str = Field(pattern=_ISO, description="Date of birth, YYYY-MM-DD")


class RxArgs(BaseModel):
    """One prescription."""

    rx_id: str = Field(description="Prescription number, e.g. RX30412")


class RefillArgs(BaseModel):
    """A refill request."""

    rx_id: str = Field(description="Prescription number, e.g. RX30412")
    override_early: bool = Field(
        default=False,
        description="Pharmacist override of the early-refill rule (pharmacist use only; "
        "never for controlled substances)",
    )


class SlotQuery(BaseModel):
    """Open pick-up times at a branch on one day."""

    branch: str = Field(description="Branch name or code: Elm Street, Riverside, Harbor Point")
    pickup_date: str = Field(pattern=_ISO, description="YYYY-MM-DD")


class BookArgs(BaseModel):
    """A pick-up booking for a refill order."""

    order_id: str = Field(description="Refill order number, e.g. RF7002")
    branch: str = Field(description="Branch name or code")
    pickup_date: str = Field(pattern=_ISO, description="YYYY-MM-DD")
    pickup_time: str = Field(pattern=_HHMM, description="HH:MM, 24-hour, on a 15-minute slot")


class DeliveryArgs(BaseModel):
    """Switch a refill order to home delivery."""

    order_id: str = Field(description="Refill order number")
    waive_fee: bool = Field(default=False, description="Waive the delivery fee (manager only)")


class TransferArgs(BaseModel):
    """Move a prescription to another branch."""

    rx_id: str = Field(description="Prescription number")
    to_branch: str = Field(description="Branch name or code")


class OrderArgs(BaseModel):
    """One refill order."""

    order_id: str = Field(description="Refill order number, e.g. RF7002")


class PhoneArgs(BaseModel):
    """A new phone number for pick-up notices."""

    phone: str = Field(description="10-digit phone number")


class StatusArgs(BaseModel):
    """The patient app's refill status view."""

    order_id: str
    last_name: str
