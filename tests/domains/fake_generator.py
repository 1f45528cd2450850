"""A deterministic stand-in for a generator model: reads the slots from the prompt, writes items.

Items are grounded in the slot's records (a pending order to cancel, an enrollment to drop), as a
good model would write them; tests then break copies of them to exercise the checks.
"""

import json
import re

_SLOTS = re.compile(r"<slots>\s*(.*?)\s*</slots>", re.DOTALL)


def slots_of(prompt: str) -> list[dict]:
    return json.loads(_SLOTS.search(prompt).group(1))["slots"]


def prompt_of(request) -> str:
    """The generation prompt of a ChatRequest or of an OpenAI request body."""
    messages = request.messages if hasattr(request, "messages") else request["messages"]
    first = messages[0]
    return first.content if hasattr(first, "content") else first["content"]


def good_item(slot: dict) -> dict:
    entity = slot["entity"]
    item = _shop_item(entity) if "customers" in entity else _school_item(entity)
    persona = {"name": entity.get("customers", entity.get("students"))[0]["name"]}
    persona |= {"profile": slot["profile"], "style": slot["style"]}
    return {"slot": slot["slot"], "persona": persona, **item}


def batch(items: list) -> str:
    return json.dumps({"scenarios": items})


def good_batch(request) -> str:
    return batch([good_item(slot) for slot in slots_of(prompt_of(request))])


def _shop_item(entity: dict) -> dict:
    customer = entity["customers"][0]
    known = {"email": customer["email"]}
    open_orders = [o for o in entity.get("orders", []) if o["status"] in ("pending", "processing")]
    if not open_orders:
        return {
            "goal": f"Which blenders do you sell? My account is {customer['email']}.",
            "knowledge": known,
            "agenda": [{"intent": "find_product", "slots": {"query": "blender"}}],
            "criteria": {"actions": [{"tool": "search_products", "args": {"query": "blender"}}]},
        }
    order_id = open_orders[0]["id"]
    return {
        "goal": f"Cancel my order {order_id}, I ordered it by mistake.",
        "knowledge": {"order_id": order_id, **known},
        "hidden": {"reason": "ordered by mistake"},
        "agenda": [{"intent": "cancel_order", "slots": {"order_id": order_id, **known}}],
        "criteria": {
            "state": [
                {"table": "orders", "where": {"id": order_id}, "expect": {"status": "cancelled"}}
            ],
            "actions": [{"tool": "cancel_order", "args": {"order_id": order_id}}],
            "statements": [{"contains_any": ["cancelled", "canceled"]}],
        },
        "tags": ["cancel"],
    }


def _school_item(entity: dict) -> dict:
    student = entity["students"][0]
    known = {"student_id": student["student_id"], "email": student["email"]}
    enrolled = [e for e in entity.get("enrollments", []) if e["status"] == "enrolled"]
    if not enrolled:
        return {
            "goal": f"How much do I still owe? I am {student['student_id']}.",
            "knowledge": known,
            "agenda": [{"intent": "fee_status", "slots": {}}],
            "criteria": {
                "actions": [
                    {"tool": "get_fee_status", "args": {"student_id": student["student_id"]}}
                ]
            },
        }
    section = enrolled[0]["section_id"]
    course = section.rsplit("-", 1)[0]
    where = {"student_id": student["student_id"], "section_id": section}
    return {
        "goal": f"This is {student['name']}: please drop me from {course} (section {section}).",
        "knowledge": known,
        "agenda": [{"intent": "drop", "slots": {"course": course}}],
        "criteria": {
            "state": [{"table": "enrollments", "where": where, "expect": {"status": "dropped"}}],
            "actions": [{"tool": "drop_course", "args": where}],
            "statements": [{"contains_any": ["dropped"]}],
        },
        "tags": ["drop"],
    }
