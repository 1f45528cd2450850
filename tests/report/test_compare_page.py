from vistasim.metrics import Comparison, FailureChange, MetricDelta, ScenarioChange
from vistasim.report import format_comparison, render_comparison

HOSTILE = '[bold]x[/bold] </td><script>alert(1)</script>"><img src=x onerror=alert(1)>'


def _comparison() -> Comparison:
    return Comparison(
        before_run="a",
        after_run="b",
        metrics=[MetricDelta(key="success_rate", before=0.5, after=1.0, delta=0.5)],
        failures=[
            FailureChange(status="new", kind="judge", description=HOSTILE, before_id=None,
                          after_id="F1", before_episodes=[], after_episodes=["b:s:0"]),  # fmt: skip
        ],
        scenarios=[
            ScenarioChange(scenario_id="s", status="regressed", before={"passed": 1},
                           after={"failed": 1}),  # fmt: skip
        ],
    )


def test_the_comparison_page_shows_agent_text_as_text():
    page = render_comparison(_comparison(), generated_at="now")
    assert "<script" not in page and "<img" not in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    assert "The later run regressed." in page and "default-src 'none'" in page


def test_the_terminal_tables_do_not_interpret_markup():
    from rich.console import Console

    console = Console(record=True, width=200, markup=False)
    console.print(format_comparison(_comparison()))
    text = console.export_text()
    assert "success_rate" in text and "+0.500" in text and "regressed" in text
    assert "[bold]x[/bold]" in text and "<script>alert(1)</script>" in text
