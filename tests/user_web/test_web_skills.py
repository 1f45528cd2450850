import re
from importlib import resources

import pytest
from pydantic import ValidationError

from vistasim.browser import Click, ElementView, Navigate, PageView, SelectOption
from vistasim.domains import DOMAINS, get_domain
from vistasim.errors import ConfigError
from vistasim.scenario import Persona, Scenario
from vistasim.user import AgendaPolicy, Say, UserView, WebSkill, WebSkillStep, load_web_skills

SAMPLE = "X1"
BLANK = PageView(url="http://127.0.0.1:9/")


def template_ids(package: str) -> list[re.Pattern[str]]:
    """Every data-semantic-id of the domain's templates, Jinja parts as wildcards."""
    patterns = []
    for path in (resources.files(package) / "templates").iterdir():
        for raw in re.findall(r'data-semantic-id="([^"]+)"', path.read_text(encoding="utf-8")):
            parts = re.split(r"\{\{.*?\}\}", raw)
            patterns.append(re.compile(".+".join(re.escape(p) for p in parts) + "$"))
    return patterns


@pytest.mark.parametrize("name", sorted(DOMAINS))
def test_domain_web_skills_load(name):
    skills = load_web_skills(get_domain(name).package)
    assert skills and all(isinstance(s, WebSkill) for s in skills.values())
    assert all(intent == skill.intent for intent, skill in skills.items())


@pytest.mark.parametrize("name", sorted(DOMAINS))
def test_every_skill_target_names_an_element_of_the_domain_templates(name):
    package = get_domain(name).package
    ids = template_ids(package)
    for skill in load_web_skills(package).values():
        for step in skill.steps:
            for target in step.target:
                sample = re.sub(r"\{[^}]+\}", SAMPLE, target).replace("*", SAMPLE)
                assert any(p.match(sample) for p in ids), (skill.intent, target)


@pytest.mark.parametrize("name", sorted(DOMAINS))
async def test_each_skill_is_usable_by_some_scenario_of_its_domain(name):
    domain = get_domain(name)
    skills = load_web_skills(domain.package)
    policy = AgendaPolicy(web_skills=skills)
    usable = set()
    for scenario in domain.scenarios():
        view = UserView(scenario=scenario, transcript=(), turn=0, max_turns=9, page=BLANK)
        action, _ = await policy.next_action(view, policy.initial_state(scenario, seed=0))
        if isinstance(action, Navigate):
            usable.add(scenario.agenda[0].intent)
    assert usable == set(skills)


def make_package(tmp_path, monkeypatch, name, yaml_text):
    package = tmp_path / name
    package.mkdir()
    (package / "__init__.py").write_text("", encoding="utf-8")
    if yaml_text is not None:
        (package / "web_skills.yaml").write_text(yaml_text, encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    return name


def test_package_without_a_skill_file_has_no_skills(tmp_path, monkeypatch):
    assert load_web_skills(make_package(tmp_path, monkeypatch, "noskills_pkg", None)) == {}


def test_routine_steps_are_spliced_into_skills(tmp_path, monkeypatch):
    text = """
routines:
  login: [{action: navigate, url: /login}]
skills:
  pay: {steps: [{use: login}, {action: click, target: pay}]}
"""
    skills = load_web_skills(make_package(tmp_path, monkeypatch, "routine_pkg", text))
    assert [s.action for s in skills["pay"].steps] == ["navigate", "click"]


def test_unknown_routine_is_a_config_error_listing_the_known_ones(tmp_path, monkeypatch):
    text = "routines: {login: [{action: back}]}\nskills: {pay: {steps: [{use: signin}]}}\n"
    with pytest.raises(ConfigError, match=r"unknown routine 'signin'.*\['login'\]"):
        load_web_skills(make_package(tmp_path, monkeypatch, "badroutine_pkg", text))


def test_unknown_key_in_the_skill_file_is_a_config_error_with_its_location(tmp_path, monkeypatch):
    text = "skills: {pay: {steps: [{action: back}], done: [paid]}}\n"
    with pytest.raises(ConfigError, match="skills.pay.done") as info:
        load_web_skills(make_package(tmp_path, monkeypatch, "extra_pkg", text))
    assert info.value.path.endswith("web_skills.yaml")


def test_invalid_yaml_is_a_config_error(tmp_path, monkeypatch):
    with pytest.raises(ConfigError, match="not valid YAML"):
        load_web_skills(make_package(tmp_path, monkeypatch, "badyaml_pkg", "skills: [\n"))


@pytest.mark.parametrize(
    ("step", "error"),
    [
        ({"action": "type", "target": "q"}, "need 'text'"),
        ({"action": "click"}, "need 'target'"),
        ({"action": "navigate"}, "need 'url'"),
        ({"action": "click", "target": "a", "url": "/x"}, "remove \\['url'\\]"),
    ],
)
def test_step_templates_are_checked_against_their_action(step, error):
    with pytest.raises(ValidationError, match=error):
        WebSkillStep.model_validate(step)


async def actions_of(steps, slots, page, count=1):
    """Run a one-intent skill through the agenda policy and return its first web actions."""
    policy = AgendaPolicy(web_skills={"go": WebSkill(intent="go", steps=steps)})
    scenario = Scenario(
        id="s", persona=Persona(name="Ann"), goal="Go.", agenda=[{"intent": "go", "slots": slots}]
    )
    state = policy.initial_state(scenario, seed=0)
    taken = []
    for turn in range(count):
        view = UserView(scenario=scenario, transcript=(), turn=turn, max_turns=9, page=page)
        action, state = await policy.next_action(view, state)
        taken.append(action)
    return taken


async def test_slot_values_are_not_wildcards_in_targets():
    page = PageView(url="http://h/", elements=(ElementView(id="drop-A1", role="button"),))
    step = WebSkillStep(action="click", target="drop-{course}")
    assert isinstance((await actions_of([step], {"course": "A*"}, page))[0], Say)
    assert await actions_of([step], {"course": "A1"}, page) == [Click(target="drop-A1")]


async def test_first_matching_target_pattern_wins_and_disabled_elements_are_skipped():
    page = PageView(
        url="http://h/courses",
        elements=(
            ElementView(id="enroll-CS201-A", role="button", enabled=False),
            ElementView(id="enroll-CS201-B", role="button"),
            ElementView(id="enroll-CS201-C", role="button"),
        ),
    )
    step = WebSkillStep(action="click", target=["enroll-{section_id}", "enroll-{course}-*"])
    assert await actions_of([step], {"course": "CS201"}, page) == [Click(target="enroll-CS201-B")]
    chosen = await actions_of([step], {"course": "CS201", "section_id": "CS201-C"}, page)
    assert chosen == [Click(target="enroll-CS201-C")]


async def test_navigate_paths_resolve_against_the_current_page():
    page = PageView(url="http://127.0.0.1:9/orders")
    step = WebSkillStep(action="navigate", url="/orders/{order_id}")
    taken = await actions_of([step], {"order_id": "W1"}, page)
    assert taken == [Navigate(url="http://127.0.0.1:9/orders/W1")]


async def test_select_takes_the_closest_option_and_never_a_poor_fit():
    page = PageView(
        url="http://h/",
        elements=(ElementView(id="reason", role="combobox", options=("Personal", "Medical")),),
    )
    step = WebSkillStep(action="select", target="reason", value="{reason}")
    taken = await actions_of([step], {"reason": "the flu, medical"}, page)
    assert taken == [SelectOption(target="reason", value="Medical")]
    assert isinstance((await actions_of([step], {"reason": "weather"}, page))[0], Say)


async def test_bind_remembers_the_element_a_select_used_for_later_steps():
    page = PageView(
        url="http://h/exams",
        elements=(
            ElementView(id="session-EX-MID", role="combobox", options=("2026-10-29 14:00",)),
            ElementView(id="session-EX-FIN", role="combobox", options=("2026-12-18 09:00",)),
            ElementView(id="submit-EX-MID", role="button"),
            ElementView(id="submit-EX-FIN", role="button"),
        ),
    )
    steps = [
        WebSkillStep(action="select", target="session-*", value="{date}", bind="exam"),
        WebSkillStep(action="click", target="submit-{exam}"),
    ]
    taken = await actions_of(steps, {"date": "2026-12-18"}, page, count=2)
    assert taken == [
        SelectOption(target="session-EX-FIN", value="2026-12-18 09:00"),
        Click(target="submit-EX-FIN"),
    ]
