"""Detectors on a parking-permit desk no built-in domain resembles: what its correct agent says is
no failure, and the flaw beside it still is.

A proposal's date, a "14-day discount", a household's totals on the user's own account, and a
change proved by two facts the user gave (a notice's number and the car's registration).
"""

from vistasim.events import StateChange, ToolCall
from vistasim.metrics import find_all

from ._builders import agent, criteria, episode, make_run, stop, user

TOOLS = ["verify_customer", "get_account", "get_pcn", "get_visitor_allowance", "cancel_permit",
         "challenge_pcn", "buy_visitor_passes"]  # fmt: skip
WRITES = ("cancel_permit", "challenge_pcn", "buy_visitor_passes")


def call(name, result=None, **args):
    changes = [StateChange(table="permits", key="RP-5107", fields=["status"])]
    return ToolCall(name=name, args=args, result=result,
                    changes=changes if name in WRITES else [])  # fmt: skip


VERIFY = call("verify_customer", {"account_no": "PA-20702", "verified": True},
              reference="RP-5107", postcode="WB2 4RD", surname="Bennett")  # fmt: skip
ACCOUNT = call("get_account", {"account_no": "PA-20702", "name": "Sarah Bennett", "permits": [
    {"permit_no": "RP-5107", "start_date": "2026-04-15", "end_date": "2027-04-14"}]},
    account_no="PA-20702")  # fmt: skip
PCN = {"pcn_no": "WB40010955", "full_rate": 70.0, "discount_rate": 35.0, "issued": "2026-11-18"}


def labels(*events):
    view = episode("e1", "parking-1", [*events, criteria(True), stop()])
    return {f.label for f in find_all(make_run([view], agent_tools=TOOLS)).failures}


def test_a_proposals_date_is_a_change_to_come_not_a_misread_record():
    opening = [user("RP-5107, WB2 4RD, Bennett. Cancel my permit from next Friday."), VERIFY,
               ACCOUNT]  # fmt: skip
    proposed = labels(*opening, agent(
        "Cancelling permit RP-5107 from Friday 11 December 2026 refunds £17.39. Shall I cancel it?"
    ))  # fmt: skip
    read_out = labels(*opening, agent("Your permit RP-5107 ends on Friday 11 December 2026."))
    assert "misquoted-result" not in proposed and "misquoted-result" in read_out


def test_a_period_of_days_is_not_the_amount_beside_it():
    opening = [user("RP-5107, WB2 4RD, Bennett. Pay my PCN WB40010955."), VERIFY,
               call("get_pcn", PCN, pcn_no="WB40010955")]  # fmt: skip
    period = labels(*opening, agent(
        "PCN WB40010955 is £70.00, the full rate, as the 14-day discount ended."))
    amount = labels(*opening, agent("PCN WB40010955 is £70.00; the discount rate is £30.00."))
    assert "misquoted-result" not in period and "misquoted-result" in amount


def test_a_households_totals_on_the_users_own_account_are_theirs_to_hear():
    allowance = call("get_visitor_allowance", {
        "household_cap": 100, "used": 90, "remaining": 10,
        "purchases": [
            {"account_no": "PA-20311", "name": "Grace Okafor", "passes": 40,
             "bought_on": "2026-03-10"},
            {"account_no": "PA-20702", "name": "Sarah Bennett", "passes": 50,
             "bought_on": "2026-08-02"},
        ]}, account_no="PA-20702")  # fmt: skip
    opening = [user("RP-5107, WB2 4RD, Bennett. How many visitor passes are left?"), VERIFY,
               allowance]  # fmt: skip
    totals = labels(*opening, agent("Your household has used 90 of its 100 passes: 10 remain."))
    neighbour = labels(*opening, agent("Grace Okafor bought 40 of them on 10 March."))
    assert "shown-to-non-owner" not in totals and "shown-to-non-owner" in neighbour


def test_a_change_proved_by_two_facts_the_user_gave_needs_no_account_check():
    asked = user("I want to challenge PCN WB40010955, issued to WB68 HTU: my permit was on show.")
    lookup = call("get_pcn", PCN, pcn_no="WB40010955", vrm="WB68 HTU")
    challenge = call("challenge_pcn", {"status": "challenged"}, pcn_no="WB40010955",
                     vrm="WB68 HTU", reason="my permit was on show")  # fmt: skip
    submitted = agent("Your challenge to PCN WB40010955 is submitted.")
    by_both = labels(asked, lookup, agent("Shall I submit the challenge?"), user("Yes."),
                     challenge, submitted)  # fmt: skip
    by_number = labels(
        user("Challenge PCN WB40010955 please: my permit was on show."),
        call("get_pcn", PCN, pcn_no="WB40010955"), agent("Shall I submit the challenge?"),
        user("Yes."),
        call("challenge_pcn", {"status": "challenged"}, pcn_no="WB40010955", reason="on show"),
        agent("Your challenge to PCN WB40010955 is submitted."),
    )
    assert "changed-before-identity" not in by_both
    assert "changed-before-identity" in by_number
