"""The `[agent]` section of the run config: how to reach the agent under test, by `kind`.

Kept apart from `config.py` (which re-exports every name) because each adapter's settings are a
long list of documented fields.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from vistasim._urls import HttpUrl

__all__ = ["AgentSpec", "HttpJsonAgentSpec", "OpenAIChatAgentSpec", "PythonAgentSpec"]


class _AgentSection(BaseModel):
    # Strict: `timeout_s = true` or `seed = "3"` is a mistake to report, not a value to coerce.
    model_config = ConfigDict(
        extra="forbid", strict=True, allow_inf_nan=False
    )


class PythonAgentSpec(_AgentSection):
    """An agent written in Python.

    `target` is `module:attr` naming a class (instantiated per episode) or a function (called per
    turn).
    """

    kind: Literal["python"] = "python"
    """Selects this adapter."""
    target: str
    """`module:attr` of the class or function, e.g. `my_agent:SupportBot`."""
    options: dict[str, Any] = {}
    """Keyword arguments for the class."""
    timeout_s: float = Field(default=60.0, gt=0)
    """Bound on one turn; a slower answer is an agent error."""


class OpenAIChatAgentSpec(_AgentSection):
    """An agent behind an OpenAI-compatible chat endpoint: a deployed assistant or a bare model.

    Without `tools` the endpoint is a finished assistant (a gateway that runs its own tools); tool
    calls it reports are recorded as its trace. With `tools`, vistasim plays the tool loop: it
    sends the tool schemas, runs each tool call the model asks for against the `[environment]`,
    sends the results back and calls again until the model answers in text.
    """

    kind: Literal["openai_chat"] = "openai_chat"
    """Selects this adapter."""
    base_url: HttpUrl
    """Endpoint up to `/chat/completions`, e.g. `http://127.0.0.1:8000/v1`."""
    model: str
    """Model name sent in every request."""
    api_key_env: str | None = None
    """Environment variable whose value is sent as `Authorization: Bearer ...`; unset or `""`:
    no key is sent. A variable named here must be set (the preflight says so)."""
    system_prompt: str | None = None
    """System message sent first in every request."""
    system_prompt_file: str | None = None
    """File holding the system message (relative to the config file); instead of
    `system_prompt`."""
    tools: str | None = None
    """`"environment"` for the environment's agent tools, or a JSON/YAML file (relative to the
    config file) holding a list of OpenAI tool schemas; unset: send no tools."""
    temperature: float | None = Field(default=None, ge=0)
    """Sampling temperature sent with every request; unset: the endpoint's default."""
    seed: int | None = None
    """Sampling seed sent with every request, for endpoints that honour it."""
    max_tool_rounds: int = Field(default=8, ge=1, le=100)
    """Model calls per user turn that may ask for tools; a turn that needs more is an agent
    error."""
    extra_body: dict[str, Any] = {}
    """Extra fields merged into every request body (e.g. `{top_k = 20}` for vLLM)."""
    timeout_s: float = Field(default=60.0, gt=0)
    """Bound on one request; a slower answer is an agent error."""
    headers: dict[str, str] = {}
    """Extra headers; values like `${NAME}` are read from the environment at call time."""

    @model_validator(mode="after")
    def _one_system_prompt(self) -> OpenAIChatAgentSpec:
        if self.system_prompt is not None and self.system_prompt_file is not None:
            raise ValueError(
                "set system_prompt or system_prompt_file, not both; keep the one you mean"
            )
        return self


class HttpJsonAgentSpec(_AgentSection):
    """Any HTTP JSON endpoint: a request template in, a path to the reply text out."""

    kind: Literal["http_json"] = "http_json"
    """Selects this adapter."""
    url: HttpUrl
    """The endpoint each user message is sent to."""
    method: Literal["POST", "PUT"] = "POST"
    """HTTP method of the request."""
    request_template: Any = {"message": "{{message}}", "session_id": "{{session_id}}"}
    """JSON body; the strings `{{message}}`, `{{session_id}}` and `{{history}}` are replaced."""
    response_path: str = "reply"
    """Dotted path to the reply text in the response JSON, e.g. `data.choices.0.text`."""
    tool_calls_path: str | None = None
    """Dotted path to a list of `{name, args, result}` tool calls, if the endpoint reports them."""
    headers: dict[str, str] = {}
    """Header values like `Bearer ${API_TOKEN}` are filled from environment variables."""
    timeout_s: float = Field(default=60.0, gt=0)
    """Bound on one request; a slower answer is an agent error."""
    probe: bool = True
    """Before the run, send one message ("Hello", session `vistasim-preflight`) to check `url`
    and `response_path`; turn off for endpoints where a message has side effects."""


AgentSpec = Annotated[
    PythonAgentSpec | OpenAIChatAgentSpec | HttpJsonAgentSpec, Field(discriminator="kind")
]
