"""`claimed-in-full`: a change reported in full that its call made in part."""

import dataclasses

from vistasim.events import StateChange, ToolCall
from vistasim.metrics import find_all

from ._builders import agent, criteria, episode, make_run, stop, user

PARAMS = {"update_contact": ["account_number", "email", "phone"]}


def labels(*events):
    view = episode("e1", "desk-1", [*events, criteria(True), stop()])
    run = make_run([view], agent_tools=["update_contact"])
    run = dataclasses.replace(run, metadata={"agent_tool_params": PARAMS})
    return {f.label for f in find_all(run).failures}


def update(result, **args):
    changed = [StateChange(table="customers", key="C1", fields=sorted(args))]
    return ToolCall(name="update_contact", args=args, result=result, changes=changed)


def test_a_phone_said_updated_that_the_call_never_sent_is_found():
    call = update({"email": "new@x.com", "phone": "07700 900100"}, email="new@x.com")
    found = labels(user("New email new@x.com and phone 07700 900456, please."), call,
                   agent("Done: your email and phone number are updated."))  # fmt: skip
    assert "claimed-in-full" in found


def test_both_sent_or_the_unchanged_phone_read_back_is_no_finding():
    both = update({"email": "new@x.com", "phone": "07700 900456"}, email="new@x.com",
                  phone="07700 900456")  # fmt: skip
    assert "claimed-in-full" not in labels(user("Update both."), both,
                                           agent("Done: your email and phone are updated."))
    one = update({"email": "new@x.com", "phone": "07700 900105"}, email="new@x.com")
    read_back = agent("Your contact details are updated: email new@x.com, phone 07700 900105.")
    assert "claimed-in-full" not in labels(user("New email please."), one, read_back)
