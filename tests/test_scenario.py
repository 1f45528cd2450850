import json

import pytest

from vistasim.errors import ConfigError
from vistasim.scenario import load_scenarios, scenario_schema

GOOD = """
- id: return-blender
  persona: {name: Dana, style: {verbosity: low, patience: 3}}
  goal: Return the blender.
  knowledge: {order_id: W1007}
  criteria:
    actions: [{tool: return_item, args: {order_id: W1007}}]
"""


def test_loads_yaml(tmp_path):
    path = tmp_path / "s.yaml"
    path.write_text(GOOD, encoding="utf-8")
    [scenario] = load_scenarios(path)
    assert scenario.knowledge == {"order_id": "W1007"}
    assert scenario.criteria.actions[0].match == "partial"


def test_loads_json_with_a_scenarios_key(tmp_path):
    path = tmp_path / "s.json"
    path.write_text(json.dumps({"scenarios": [{"id": "a", "persona": {"name": "A"}, "goal": "g"}]}),
                    encoding="utf-8")  # fmt: skip
    assert [s.id for s in load_scenarios(path)] == ["a"]


def test_error_names_file_scenario_and_field(tmp_path):
    path = tmp_path / "s.yaml"
    path.write_text(GOOD.replace("patience: 3", "patience: 99"), encoding="utf-8")
    with pytest.raises(ConfigError) as err:
        load_scenarios(path)
    assert str(path) in str(err.value)
    assert "return-blender.persona.style.patience" in str(err.value)
    assert "99" in str(err.value)


def test_missing_field_is_named(tmp_path):
    path = tmp_path / "s.yaml"
    path.write_text("- id: x\n  persona: {name: A}\n", encoding="utf-8")
    with pytest.raises(ConfigError, match="x.goal: required field is missing"):
        load_scenarios(path)


def test_unknown_field_is_rejected(tmp_path):
    path = tmp_path / "s.yaml"
    path.write_text(GOOD.replace("goal:", "gaol: x\n  goal:"), encoding="utf-8")
    with pytest.raises(ConfigError, match="return-blender.gaol"):
        load_scenarios(path)


def test_duplicate_ids_are_rejected(tmp_path):
    path = tmp_path / "s.yaml"
    path.write_text(GOOD + GOOD, encoding="utf-8")
    with pytest.raises(ConfigError, match="appears twice"):
        load_scenarios(path)


def test_not_a_list_is_rejected(tmp_path):
    path = tmp_path / "s.yaml"
    path.write_text("id: x\n", encoding="utf-8")
    with pytest.raises(ConfigError, match="expected a list"):
        load_scenarios(path)


def test_broken_yaml_is_a_config_error(tmp_path):
    path = tmp_path / "s.yaml"
    path.write_text("- id: [\n", encoding="utf-8")
    with pytest.raises(ConfigError, match="not valid"):
        load_scenarios(path)


def test_schema_describes_a_list_of_scenarios():
    schema = scenario_schema()
    assert schema["type"] == "array"
    assert "goal" in schema["items"]["properties"]
