"""Measure how far vistasim's verdicts can be trusted, against agents whose flaws are known.

Run: .venv/bin/python benchmarks/validity.py [--rollouts N] [--modes chat,hybrid] [--only NAME]

Ground truth comes from a channel no detector reads: each flawed agent calls
`vistasim.testing.note_flaw` when one of its documented flaws changes what it does. Agents:
the built-in rule agents (shop, school), held-out flawed agents written after the detectors from
the policy and the tool list only (`benchmarks/heldout/`), and a third small domain that is
neither shop nor school (`benchmarks/bikes/`) with a correct and a flawed agent.

Per agent and mode it prints:
- precision: reported agent failures (`failed` episodes) in which a documented flaw fired, or
  that the agent's author lists as a known gap of the agent;
- recall: episodes in which a flaw fired that are reported `failed`;
- the invalid and not_applicable shares, and `failed` episodes whose agent got no message;
- on the third domain, the share of criteria-passing episodes that end `goal_met`.
Targets (issue "verdicts users can trust"): precision >= 0.95, recall >= 0.90 in chat and
hybrid, 0 failed episodes without an agent turn, >= 90 % goal_met on the third domain.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import anyio

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from vistasim.config import RunConfig  # noqa: E402
from vistasim.events import Judgment, StopReason, UserMessage  # noqa: E402
from vistasim.explore import run  # noqa: E402
from vistasim.metrics import CAUSE_KINDS, compute_metrics, find_all, rules_for_run  # noqa: E402
from vistasim.scenario import load_scenarios  # noqa: E402
from vistasim.store import open_store, read_run_view  # noqa: E402
from vistasim.testing import record_flaws  # noqa: E402

BIKES = ROOT / "benchmarks" / "bikes" / "scenarios.yaml"
DOMAINS = ROOT / "benchmarks" / "domains"
BLIND = (
    ("bank", "Bank"),
    ("rail", "Rail"),
    ("pharmacy", "Pharmacy"),
    ("mobile", "Mobile"),
    ("hotel", "Hotel"),
    ("energy", "Energy"),
    ("gym", "Gym"),
    ("library", "Library"),
    ("vet", "Vet"),
    ("grocery", "Grocery"),
    ("parking", "Parking"),
    ("insurance", "Insurance"),
    ("carhire", "Carhire"),
    ("dental", "Dental"),
    ("boxoffice", "Boxoffice"),
    ("storage", "Storage"),
    ("ferry", "Ferry"),
    ("cowork", "Cowork"),
    ("driving", "Driving"),
    ("removals", "Removals"),
    ("garage", "Garage"),
    ("laundry", "Laundry"),
    ("kennels", "Kennels"),
    ("waste", "Waste"),
    ("nursery", "Nursery"),
    ("venue", "Venue"),
    ("optician", "Optician"),
    ("marina", "Marina"),
    ("tutoring", "Tutoring"),
    ("allotment", "Allotment"),
    ("campsite", "Campsite"),
    ("repairs", "Repairs"),
    ("transfers", "Transfers"),
    ("tours", "Tours"),
    ("printshop", "Printshop"),
    ("partyhire", "Partyhire"),
    ("lettings", "Lettings"),
    ("furniture", "Furniture"),
    ("museum", "Museum"),
    ("examboard", "Examboard"),
    ("evcharging", "Evcharging"),
    ("broadband", "Broadband"),
    ("coachtours", "Coachtours"),
    ("swimschool", "Swimschool"),
    ("counciltax", "Counciltax"),
    ("catering", "Catering"),
    ("pestcontrol", "Pestcontrol"),
    ("translation", "Translation"),
    ("tennisclub", "Tennisclub"),
    ("watersupply", "Watersupply"),
    ("photostudio", "Photostudio"),
    ("lounge", "Lounge"),
    ("windowclean", "Windowclean"),
    ("toolhire", "ToolHire"),
    ("chimney", "Chimney"),
    ("florist", "Florist"),
    ("escaperoom", "EscapeRoom"),
    ("valeting", "Valeting"),
    ("pianotuning", "PianoTuning"),
    ("tattoo", "Tattoo"),
    ("skihire", "SkiHire"),
    ("solarsurvey", "SolarSurvey"),
    ("golfclub", "GolfClub"),
    ("bakery", "Bakery"),
    ("boilerservice", "Boiler"),
    ("campervan", "Campervan"),
)
"""The generalisation benchmark: domains written blind, from the README and the public API only
(`benchmarks/domains/*/README.md` say by whom and how), each with a correct and a flawed agent."""


@dataclass(frozen=True, kw_only=True)
class Subject:
    """One agent under test, with where its scenarios and environment come from."""

    name: str
    agent: str
    environment: str
    scenarios: Path | None = None
    """Scenario file; `None`: the built-in domain's own."""
    web: bool = True
    """Whether the domain has a web site (hybrid mode)."""
    known_gaps: tuple[str, ...] = ()
    """Scenario ids where the agent's author documents a real gap that no flaw id marks."""
    inert: tuple[tuple[str, str], ...] = ()
    """(scenario id, flaw id) where the flaw's log fires but, as the transcript shows, nothing
    the customer asked for was lost: the episode is not counted as flawed."""


BIKE_GAPS = (
    "bikes-availability-central-ebikes",
    "bikes-multi-due-and-availability",
    "bikes-report-damage-r208",
)
"""Gaps of the bike desk its author reported before any vistasim run was read
(benchmarks/bikes/README.md); the flawed desk subclasses the correct one and shares them."""

SHOP_HELDOUT_GAPS = ("shop-return-late-defective-loafers",)
"""H5 of the held-out shop agent (benchmarks/heldout/README.md lists this scenario): it refuses a
defective item at 47 days of a 90-day window. Its flaw log misses it, because the agent reads the
reason from the first clause only ("The sole came off") and never sees "they are defective"."""

BIKES_INERT = (
    ("bikes-multi-extend-and-cancel", "F5"),
    ("bikes-cancel-reservation-annual-rs414", "F5"),
    ("bikes-refund-too-old-r190", "F5"),
)
"""F5 logs of the flawed bike desk that drop nothing the customer asked for: the agent queued
"my reservation number is RS411" / "the reservation number is RS414" / "my email is ..." (facts
said with the request) as requests of their own and F5 dropped those; every request the customer
made was carried out or refused with its reason (transcripts of 2026-12-04)."""

INERT = {
    "rail": (("rail-change-thursday-next-week", "F5"),),
    "mobile": (("mobile-plan-upgrade-max", "F5"),),
}
"""Flaws whose log fired without effect. Rail: the agent misread "first-class trip" as a second
request (an upgrade) and F5 dropped only that. Mobile: F5 dropped "how much the switch adds to
this month's bill" after the proposal and the done report had both stated the £4.29."""

SUBJECTS = (
    Subject(name="shop/rule", agent="vistasim.domains.shop:RuleShopAgent", environment="shop"),
    Subject(
        name="shop/held-out",
        agent="benchmarks.heldout.shop_agent:HeldoutShopAgent",
        environment="shop",
        known_gaps=SHOP_HELDOUT_GAPS,
    ),
    Subject(
        name="school/rule", agent="vistasim.domains.school:RuleSchoolAgent", environment="school"
    ),
    Subject(
        name="school/held-out",
        agent="benchmarks.heldout.school_agent:HeldoutSchoolAgent",
        environment="school",
    ),
    Subject(
        name="bikes/correct",
        agent="benchmarks.bikes:BikeDeskAgent",
        environment="benchmarks.bikes:make_environment",
        scenarios=BIKES,
        web=False,
        known_gaps=BIKE_GAPS,
    ),
    Subject(
        name="bikes/flawed",
        agent="benchmarks.bikes:FlawedBikeDeskAgent",
        environment="benchmarks.bikes:make_environment",
        scenarios=BIKES,
        web=False,
        known_gaps=BIKE_GAPS,
        inert=BIKES_INERT,
    ),
    *(
        Subject(
            name=f"{name}/{kind.lower()}",
            agent=f"benchmarks.domains.{name}:{kind}{cls}Agent",
            environment=f"benchmarks.domains.{name}:make_environment",
            scenarios=DOMAINS / name / "scenarios.yaml",
            web=False,
            inert=INERT.get(name, ()) if kind == "Flawed" else (),
        )
        for name, cls in BLIND
        for kind in ("Correct", "Flawed")
    ),
)


async def measure(subject: Subject, mode: str, rollouts: int, store_dir: Path) -> dict:
    """Play every scenario of a subject and compare the verdicts with the ground truth."""
    config = RunConfig.model_validate(
        {
            "run": {"name": subject.name, "rollouts": rollouts, "mode": mode, "concurrency": 8},
            "user": {"policy": "agenda"},
            "agent": {"kind": "python", "target": subject.agent},
            "environment": {"target": subject.environment},
            "cache": {"mode": "off"},
        }
    )
    scenarios = load_scenarios(subject.scenarios) if subject.scenarios else None
    if scenarios is None:
        from vistasim.domains import get_domain

        scenarios = get_domain(subject.environment).scenarios()
    store = open_store(store_dir / f"{subject.name.replace('/', '-')}-{mode}.db")
    started = time.perf_counter()
    try:
        with record_flaws() as fired:
            result = await run(config, scenarios=scenarios, store=store)
        view = read_run_view(store, result.run_id)
    finally:
        store.close()
    report = await compute_metrics(view)
    return _figures(subject, view, report, fired, time.perf_counter() - started)


def _detected(view) -> dict[str, set[str]]:  # noqa: ANN001
    """Per episode, the labels of the detectors (not the criteria) that named a cause in it."""
    rules = rules_for_run(view)
    findings = find_all(
        view, rules=rules.rules, behaviour=rules.behaviour, disclosure=rules.disclosure
    )
    found: dict[str, set[str]] = {}
    for failure in findings.failures:
        if failure.kind in CAUSE_KINDS or failure.kind == "agent_error":
            found.setdefault(failure.episode_id, set()).add(failure.label)
    return found


def _figures(subject: Subject, view, report, fired, wall_s: float) -> dict:  # noqa: ANN001
    outcomes = report.success.episodes
    by_scenario = {e.episode_id: e.scenario_id for e in view.episodes}
    flawed = {
        f.episode_id
        for f in fired
        if (by_scenario.get(f.episode_id, ""), f.flaw.split(":")[-1]) not in subject.inert
    }
    failed = {e for e, o in outcomes.items() if o == "failed"}
    detected = {e for e in _detected(view) if e in failed}
    real = {e for e in failed if e in flawed or by_scenario[e] in subject.known_gaps}
    no_turn = sum(
        1
        for e in view.episodes
        if outcomes[e.episode_id] == "failed"
        and not any(isinstance(s.event, UserMessage) for s in e.events)
    )
    passing = [e for e in view.episodes if _criteria(e) is True]
    goal_met = sum(1 for e in passing if e.stop_reason is StopReason.GOAL_MET)
    total = len(view.episodes)
    return {
        "agent": subject.name,
        "mode": view.episodes[0].mode if view.episodes else "",
        "episodes": total,
        "flawed": len(flawed),
        "failed": len(failed),
        "precision": len(real) / len(failed) if failed else None,
        "recall": len(flawed & failed) / len(flawed) if flawed else None,
        "recall_detectors": len(flawed & detected) / len(flawed) if flawed else None,
        "failed_share": len(failed) / total if total else 0.0,
        "invalid": report.success.outcomes["invalid"] / total if total else 0.0,
        "not_applicable": report.success.outcomes["not_applicable"] / total if total else 0.0,
        "errored": report.success.outcomes["errored"],
        "failed_without_agent_turn": no_turn,
        "goal_met_of_passing": goal_met / len(passing) if passing else None,
        "false_positives": sorted(by_scenario[e] for e in failed - real),
        "missed": sorted({by_scenario[e] for e in flawed - failed}),
        "missed_flaws": sorted({f.flaw for f in fired if f.episode_id in flawed - failed}),
        "criteria_only_flaws": sorted(
            {
                f"{f.flaw} ({by_scenario[f.episode_id]})"
                for f in fired
                if f.episode_id in (flawed & failed) - detected
            }
        ),
        "wall_s": round(wall_s, 1),
    }


def _criteria(episode) -> bool | None:  # noqa: ANN001
    for stored in reversed(episode.events):
        if isinstance(stored.event, Judgment) and stored.event.judge == "criteria":
            return stored.event.passed
    return None


def _fmt(value: float | None) -> str:
    return "n/a" if value is None else f"{value:.2f}"


def _print(rows: list[dict]) -> None:
    head = ("agent", "mode", "eps", "flawed", "failed", "prec", "recall", "by detectors",
            "invalid", "n/a", "no-turn", "goal_met", "wall s")  # fmt: skip
    print(" | ".join(head))
    for r in rows:
        print(
            " | ".join(
                [
                    r["agent"],
                    r["mode"],
                    str(r["episodes"]),
                    str(r["flawed"]),
                    str(r["failed"]),
                    _fmt(r["precision"]),
                    _fmt(r["recall"]),
                    _fmt(r["recall_detectors"]),
                    f"{r['invalid']:.0%}",
                    f"{r['not_applicable']:.0%}",
                    str(r["failed_without_agent_turn"]),
                    _fmt(r["goal_met_of_passing"]),
                    str(r["wall_s"]),
                ]  # fmt: skip
            )
        )
    for r in rows:
        if r.get("criteria_only_flaws"):
            only = r["criteria_only_flaws"]
            print(f"\n{r['agent']} ({r['mode']}): found by criteria only: {only}")
    for r in rows:
        if r["false_positives"] or r["missed"]:
            print(f"\n{r['agent']} ({r['mode']}):")
            print(f"  reported, no flaw fired: {r['false_positives']}")
            print(f"  flaw fired, not reported: {r['missed']} (flaws {r['missed_flaws']})")


async def main() -> None:
    """Measure every subject in every asked mode and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rollouts", type=int, default=1)
    parser.add_argument("--modes", default="chat,hybrid")
    parser.add_argument("--only", default="", help="run only agents whose name contains this")
    parser.add_argument(
        "--out",
        default=str(Path(tempfile.gettempdir()) / "vistasim-benchmarks"),
        help="directory for validity.json (default: outside the repository)",
    )
    parser.add_argument(
        "--keep-stores",
        default="",
        help="keep each subject's store here (read them with `vistasim show RUN --store FILE`)",
    )
    args = parser.parse_args()
    os.environ.setdefault("VISTASIM_HOME", tempfile.mkdtemp(prefix="vistasim-validity-"))
    rows = []
    with tempfile.TemporaryDirectory() as scratch:
        tmp = args.keep_stores or scratch
        Path(tmp).mkdir(parents=True, exist_ok=True)
        for subject in SUBJECTS:
            if args.only and args.only not in subject.name:
                continue
            for mode in args.modes.split(","):
                if mode == "hybrid" and not subject.web:
                    continue  # the third domain has no web site: chat only
                rows.append(await measure(subject, mode, args.rollouts, Path(tmp)))
                print(f"... {subject.name} {mode}: done", file=sys.stderr)
    _print(rows)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    (out / "validity.json").write_text(json.dumps(rows, indent=2), encoding="utf-8")
    print(f"\nfigures written to {out / 'validity.json'}", file=sys.stderr)


if __name__ == "__main__":
    anyio.run(main)
