"""`render_prompt` fills a prompt exactly as `string.Template.substitute` does."""

from string import Template

import pytest

import vistasim.user._prompts as prompts
from vistasim.user._prompts import _prompt_dir, load_prompt, render_prompt


def _names() -> list[str]:
    return sorted(p.name[:-3] for p in _prompt_dir().iterdir() if p.name.endswith(".md"))


@pytest.mark.parametrize("name", _names())
def test_every_prompt_renders_as_template_substitute_does(name):
    template = load_prompt(name)
    values = {
        (m.group("named") or m.group("braced")): f"<{i} $x ${{y}} $$ \\1>"
        for i, m in enumerate(template.pattern.finditer(template.template))
        if m.group("named") or m.group("braced")
    }
    assert render_prompt(name, **values) == template.substitute(values).strip()
    if values:  # a missing placeholder: the same error
        first = next(iter(values))
        with pytest.raises(KeyError) as ours:
            render_prompt(name, **{k: v for k, v in values.items() if k != first})
        with pytest.raises(KeyError) as theirs:
            template.substitute({k: v for k, v in values.items() if k != first})
        assert ours.value.args == theirs.value.args


@pytest.mark.parametrize(
    "text",
    ["$a and ${b}c $$d $a", "$$", "no placeholder", "$a$b", " $a \n", "end $", "bad $1 here", ""],
)
def test_odd_templates_render_or_fail_as_template_does(monkeypatch, text):
    monkeypatch.setattr(prompts, "load_prompt", lambda name: Template(text))
    prompts._pieces.cache_clear()
    try:
        try:
            expected: object = Template(text).substitute(a="1", b=" 2 ").strip()
        except ValueError as exc:
            expected = ("ValueError", str(exc))
        try:
            got: object = render_prompt("x", a="1", b=" 2 ")
        except ValueError as exc:
            got = ("ValueError", str(exc))
        assert got == expected
    finally:
        prompts._pieces.cache_clear()
