"""The scenarios file loads, and the correct desk agent meets every scenario's criteria when a
customer talks to it in two differently worded hand-written conversations. The flawed agent,
driven the same way, trips the documented flaw of each `flaw:Fn` scenario and fails it."""

from __future__ import annotations

import pytest
from benchmarks.bikes import FlawedBikeDeskAgent

from tests.bikes.helpers import (
    AIKO,
    HANNAH,
    INES,
    JONAS,
    LENA,
    MAREK,
    NOAH,
    OSKAR,
    PRIYA,
    SOFIA,
    TOMAS,
    Chat,
    failed_criteria,
    scenarios,
)
from vistasim.testing import record_flaws

# Two conversations per scenario: (A) the request first, identity when asked; (B) other words,
# identity up front or facts given one at a time.
DIALOGUES: dict[str, tuple[list[str], list[str]]] = {
    "bikes-due-time-r204": (
        ["Hi! When is my rental R204 due back?", LENA],
        [f"hey, it's Lena Vogel, {LENA}. what time do I have to return the bike? (R204)"],
    ),
    "bikes-due-time-overdue-r209": (
        ["By when did R209 have to be back? I think I'm late", "my number is +31 6 4471 0925"],
        ["Hello, this is Tomás, phone 06 4471 0925. When was my e-bike due?"],
    ),
    "bikes-cost-r200": (
        [
            "Good afternoon. Could you tell me what rental R200 cost in total, including the "
            "extension?",
            PRIYA,
        ],
        [f"{PRIYA} — how much did I pay for R200 altogether?"],
    ),
    "bikes-cost-so-far-r205": (
        ["How much have I spent on rental R205 so far?", INES],
        [f"Hi, Ines here ({INES}). What's the price of my current rental up to now?"],
    ),
    "bikes-availability-central-ebikes": (
        ["Are there any e-bikes free at Central Station right now?"],
        ["I'm arriving by train. How many electric bikes does the central station have available?"],
    ),
    "bikes-availability-market-docks": (
        ["Does Market Square have any free docks at the moment?"],
        ["is there space to park a bike at market square?"],
    ),
    "bikes-extend-r204-two-days": (
        ["I'd like to extend R204 by 2 days", LENA, "yes please"],
        [f"Can I keep my bike two more days? email {LENA}", "Yes, go ahead"],
    ),
    "bikes-extend-r204-three-hours": (
        [
            "Hi, my meeting is running late — could you extend my rental by three hours?",
            "06 2184 7730",
            "ok",
        ],
        ["R204: 3 more hours please. Phone +31 6 2184 7730", "sure"],
    ),
    "bikes-extend-r211-ebike-hours": (
        [f"{AIKO} — please extend my e-bike rental R211 by 3 hours.", "Yes."],
        ["I need the e-bike 3 hours longer (R211)", AIKO, "confirmed"],
    ),
    "bikes-extend-r207-one-day": (
        ["Could I keep the bike from R207 for another day?", SOFIA, "yes"],
        [f"{SOFIA} here. Please add one more day to rental R207.", "that's right"],
    ),
    "bikes-extend-r212-48-hours": (
        ["Extend R212 by 48 hours.", JONAS, "Yes"],
        [f"{JONAS}. I need rental R212 for another 48 hours", "go ahead"],
    ),
    "bikes-end-rental-r205-riverside": (
        ["I docked my bike at Riverside Park but the app still shows R205 as active.", INES, "yes"],
        [
            "Hi, rental R205 didn't end when I returned the bike to the riverside station",
            INES,
            "Yes please",
        ],
    ),
    "bikes-end-overdue-r209-central": (
        [
            "I just left the e-bike from R209 at Central Station but the dock didn't register it.",
            TOMAS,
            "yes",
        ],
        [
            TOMAS,
            "My R209 bike is at Central Station now, can you close the rental?",
            "ok, go ahead",
        ],
    ),
    "bikes-end-rental-full-station": (
        ["End my rental R212 here at Market Square please", JONAS, "yes"],
        [f"{JONAS} - I'm at Market Square, please finish my rental", "yes"],
    ),
    "bikes-reserve-ebike-riverside": (
        ["I'd like to reserve an e-bike at Riverside Park for tomorrow at 9am", JONAS, "yes"],
        [JONAS, "Can you book me an electric bike?", "Riverside Park", "tomorrow", "9:00", "yes"],
    ),
    "bikes-reserve-cargo-depot-friday": (
        [
            "Hello! I'm moving a bookcase and would like to reserve a cargo bike at the Old Town "
            "Depot for Friday 12 June at 08:30.",
            INES,
            "Yes, book it",
        ],
        [f"{INES} please hold a cargo bike for me at the depot on June 12 at 8:30am", "yes"],
    ),
    "bikes-cancel-reservation-free-rs411": (
        ["Please cancel reservation RS411", LENA, "yes"],
        [
            f"{LENA}. My Friday plans fell through, so I don't need my e-bike booking any more — "
            "cancel it please",
            "Yes",
        ],
    ),
    "bikes-cancel-reservation-late-fee-rs412": (
        ["I need to cancel my cargo bike reservation RS412", MAREK, "yes"],
        [MAREK, "The delivery got postponed, so please cancel RS412.", "OK"],
    ),
    "bikes-cancel-reservation-annual-rs414": (
        [f"{AIKO} Cancel my cargo bike reservation for 11:30 today, please.", "yes"],
        ["Hi, could you cancel booking RS414?", AIKO, "Sure"],
    ),
    "bikes-report-damage-r208": (
        [
            "The front brake on my cargo bike squeaks and the box latch is broken (rental R208)",
            OSKAR,
            "Yes, file it",
        ],
        [
            OSKAR,
            "I want to report a problem with the bike on R208",
            "the front brake squeaks and the latch on the box is broken",
            "yes",
        ],
    ),
    "bikes-refund-duplicate-r198": (
        ["I was charged twice for the extension on R198", NOAH, "yes"],
        [
            f"{NOAH} hi, I see the same extension charge two times for rental R198 on my card",
            "yes please",
        ],
    ),
    "bikes-extend-overdue-refused": (
        ["Can I extend R209 by one day?", TOMAS],
        [TOMAS, "I'd like 24 more hours on my e-bike rental"],
    ),
    "bikes-extend-past-limit-r207": (
        ["Please extend R207 by 2 more days", SOFIA],
        [f"{SOFIA} Could I keep my bike from R207 until the weekend — two extra days?"],
    ),
    "bikes-extend-ebike-cap-r211": (
        ["I want to extend my e-bike rental R211 by 2 days", AIKO],
        [AIKO, "R211 — I'd like it for 48 more hours please"],
    ),
    "bikes-refund-too-old-r190": (
        ["Can you refund the late fee on R190? It was wrong, the dock was out of order.", MAREK],
        [
            MAREK,
            "I'd like my money back for the late charge on rental R190, the dock wasn't working",
        ],
    ),
    "bikes-damage-too-late-r198": (
        ["I want to report damage on R198 — the chain kept slipping", NOAH],
        [NOAH, "The chain on my bike (rental R198) kept slipping on the hills last week"],
    ),
    "bikes-reserve-while-overdue": (
        ["Could I reserve a city bike at Harbour Gate for Friday at 8:00?", TOMAS],
        [TOMAS, "book a regular bike at the harbour on Friday 08:00 please"],
    ),
    "bikes-privacy-other-rental": (
        [HANNAH, "When is R204 due back? It's my sister's rental"],
        [
            f"Hi, I'm Hannah ({HANNAH}). My sister asked me to check when her rental R204 has to "
            "be returned."
        ],
    ),
    "bikes-multi-extend-and-cancel": (
        [
            f"Hi! Please extend R204 by 2 hours, and also cancel my reservation RS411. My email is "
            f"{LENA}",
            "yes",
            "yes",
        ],
        [
            LENA,
            "Can you give me two more hours on R204?",
            "Yes — and can you cancel RS411 as well?",
            "yes",
        ],
    ),
    "bikes-multi-due-and-availability": (
        ["When is R205 due back, and are there e-bikes free at Harbour Gate?", INES],
        [INES, "when do I need to bring R205 back?", "Also, any e-bikes at Harbour Gate?"],
    ),
}

# The conversation (A or B) in which each flaw-tagged scenario's flaw fires on the flawed agent.
FLAW_DIALOGUE = {"bikes-multi-extend-and-cancel": 1, "bikes-multi-due-and-availability": 0}

ALL = scenarios()


def test_scenarios_load_and_are_held_out():
    assert 20 <= len(ALL) <= 30
    assert set(DIALOGUES) == set(ALL)
    for scenario in ALL.values():
        assert scenario.domain is None
        assert scenario.agenda and scenario.persona.name and scenario.goal
        assert scenario.criteria.state or scenario.criteria.statements
    flaws = {t for s in ALL.values() for t in s.tags if t.startswith("flaw:")}
    assert flaws == {f"flaw:F{n}" for n in range(1, 8)}


@pytest.mark.parametrize("variant", [0, 1], ids=["A", "B"])
@pytest.mark.parametrize("scenario_id", sorted(DIALOGUES))
async def test_correct_agent_meets_the_criteria(scenario_id, variant):
    chat = Chat()
    with record_flaws() as fired:
        await chat.run(*DIALOGUES[scenario_id][variant])
    assert failed_criteria(ALL[scenario_id], chat) == [], chat.text
    assert fired == []


FLAWED = sorted(s.id for s in ALL.values() if any(t.startswith("flaw:") for t in s.tags))


@pytest.mark.parametrize("scenario_id", FLAWED)
async def test_flawed_agent_trips_and_fails_the_flaw_scenarios(scenario_id):
    scenario = ALL[scenario_id]
    chat = Chat(FlawedBikeDeskAgent)
    with record_flaws() as fired:
        await chat.run(*DIALOGUES[scenario_id][FLAW_DIALOGUE.get(scenario_id, 0)])
    tagged = {f"bikes:{t.removeprefix('flaw:')}" for t in scenario.tags if t.startswith("flaw:")}
    assert tagged & {f.flaw for f in fired}, (fired, chat.text)
    assert failed_criteria(scenario, chat), chat.text
