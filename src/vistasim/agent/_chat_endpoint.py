"""A chat model over plain HTTP, for an agent under test served as an OpenAI-compatible model.

The simulated user's and the judge's models retry: a provider hiccup there is infrastructure. The
agent under test is different: a failing endpoint is the finding, so it gets no retries and every
failure is an `AgentError` with the status and a redacted body excerpt. Otherwise it is the same
client: the same transport on the run's pooled connections (`llm._http`, through `JsonEndpoint`),
the same chat-completions wire format (`llm._wire`) and the same `ChatModel` protocol, so the
tool loop of `ModelAgent` and the metering of `RoleModel` apply to it unchanged.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import httpx2

from vistasim.agent._http import MAX_BODY_BYTES, JsonEndpoint
from vistasim.config import OpenAIChatAgentSpec
from vistasim.llm import (
    ChatRequest,
    ChatResponse,
    HttpClients,
    WireError,
    chat_body,
    read_completion,
)

__all__ = ["EndpointChatModel"]


class EndpointChatModel:
    """`POST {base_url}/chat/completions` of an `openai_chat` agent, as a `ChatModel`.

    Request fields left `None` fall back to the spec's `temperature` and `seed`; the spec's
    `extra_body` is merged into every body.

    Args:
        spec: The `[agent]` section.
        environ: Where `${NAME}` header values and `api_key_env` are read (default: `os.environ`).
        transport: An httpx2 transport (tests), when `clients` is not given.
        clients: The run's shared HTTP clients.
        max_body_bytes: The most of an answer's body that is read (`body_cap`).
    """

    def __init__(
        self,
        spec: OpenAIChatAgentSpec,
        *,
        environ: Mapping[str, str] | None = None,
        transport: httpx2.AsyncBaseTransport | None = None,
        clients: HttpClients | None = None,
        max_body_bytes: int = MAX_BODY_BYTES,
    ) -> None:
        self.spec = spec
        self.name = spec.model
        self._endpoint = JsonEndpoint(
            spec.base_url.rstrip("/") + "/chat/completions",
            headers=spec.headers,
            auth_env=spec.api_key_env,
            timeout_s=spec.timeout_s,
            environ=environ,
            transport=transport,
            clients=clients,
            max_body_bytes=max_body_bytes,
        )

    async def complete(self, request: ChatRequest) -> ChatResponse:
        """Send one request and read the first choice.

        Raises:
            AgentError: the endpoint failed, or its answer has no usable first choice.
        """
        return await self.complete_body(self.request_body(request))

    async def complete_body(self, body: Mapping[str, Any]) -> ChatResponse:
        """Send a body built by `request_body` and read the first choice.

        The body may hold fields `ChatRequest` has no name for (the preflight's `tool_choice`).

        Raises:
            AgentError: the endpoint failed, or its answer has no usable first choice.
        """
        answer = await self._endpoint.send(body)
        try:
            return read_completion(answer.data)
        except WireError as exc:
            raise self._endpoint.fail(str(exc), answer) from None

    def request_body(self, request: ChatRequest) -> dict[str, Any]:
        """Build the JSON body of one request (what is sent, minus headers)."""
        body: dict[str, Any] = dict(
            chat_body(
                self.spec.model, request, temperature=self.spec.temperature, seed=self.spec.seed
            )
        )
        body.update(self.spec.extra_body)
        return body

    async def aclose(self) -> None:
        """Close the HTTP client, unless it is the run's shared one."""
        await self._endpoint.aclose()
