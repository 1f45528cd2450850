"""The `school` domain: a university's student services, to test support agents against.

Students enroll in and drop courses, check and reschedule exams and deal with fees; a support
agent (rule-based or LLM) helps them through chat, and a small web site shows the same records.

>>> DOMAIN.name
'school'
"""

from vistasim.domains._types import Domain
from vistasim.domains.school._env import SchoolEnvironment
from vistasim.domains.school._llm_agent import LLMSchoolAgent
from vistasim.domains.school._rule_agent import RuleSchoolAgent


def _web_app(*args: object, **kwargs: object) -> object:
    from vistasim.domains.school._web import create_app

    return create_app(*args, **kwargs)  # type: ignore[arg-type]


DOMAIN = Domain(
    name="school",
    description="University student services: enrollment, exam rescheduling, fees and waivers.",
    make_environment=SchoolEnvironment,
    rule_agent=RuleSchoolAgent,
    make_llm_agent=LLMSchoolAgent,
    package=__name__,
    make_web_app=_web_app,
)
"""The school as a built-in domain."""

__all__ = ["DOMAIN", "LLMSchoolAgent", "RuleSchoolAgent", "SchoolEnvironment"]
