"""Arguments of the desk's tools (pydantic models: the tool schemas the agent sees)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field


class VerifyCustomer(BaseModel):
    order_id: str = Field(description="One of the customer's order numbers, e.g. LH-48213")
    postcode: str = Field(description="The postcode on the customer's account, e.g. LS6 2QT")


class CustomerArgs(BaseModel):
    customer_id: str


class OrderArgs(BaseModel):
    order_id: str = Field(description="Order number, e.g. LH-48213")


class FindPerformances(BaseModel):
    show: str = Field(description="The show's name or part of it, e.g. Winter's Tale")


class FindSeats(BaseModel):
    performance_id: str = Field(description="e.g. PF-102")
    band: Literal["A", "B", "C", "W", "V"] = Field(
        description="A Stalls, B front Circle, C rear Circle, W wheelchair space, V companion")


class ExchangeTickets(BaseModel):
    order_id: str
    performance_id: str = Field(description="Another performance of the same show")
    seats: list[str] = Field(description="As many free seats as the order has tickets")


class UpgradeSeats(BaseModel):
    order_id: str
    seats: list[str] = Field(description="Free seats in a dearer band, same performance")


class SetInsurance(BaseModel):
    order_id: str
    insured: bool = Field(description="true adds ticket insurance, false removes it")


class ChangeDelivery(BaseModel):
    order_id: str
    method: Literal["e-ticket", "post"]


class ChangeHolderName(BaseModel):
    order_id: str
    holder_name: str = Field(min_length=3, max_length=80)


class BookAccess(BaseModel):
    customer_id: str
    performance_id: str
    companion: bool = Field(description="Also book the companion seat beside the space")
    free_companion: bool = Field(description="Companion ticket free (only with proof on file)")


class AddCompanion(BaseModel):
    order_id: str = Field(description="An order with a wheelchair space and no companion seat")
    free_companion: bool = Field(description="Companion ticket free (only with proof on file)")


class UpdateEmail(BaseModel):
    customer_id: str
    email: str
