"""The built-in e-commerce shop domain: state, tools, policy, agents, web site and scenarios.

>>> DOMAIN.name
'shop'
"""

from vistasim.domains._types import Domain
from vistasim.domains.shop._env import ShopEnvironment
from vistasim.domains.shop._llm_agent import LLMShopAgent
from vistasim.domains.shop._rule_agent import RuleShopAgent
from vistasim.domains.shop._seed import TODAY

__all__ = ["DOMAIN", "LLMShopAgent", "RuleShopAgent", "ShopEnvironment", "TODAY"]


def _web_app(*args: object, **kwargs: object) -> object:
    # FastAPI and Jinja2 are the `web` extra: import them only when the site is served.
    from vistasim.domains.shop._web import create_app

    return create_app(*args, **kwargs)  # type: ignore[arg-type]


DOMAIN = Domain(
    name="shop",
    description="An online shop: catalog, orders, cancellations, returns, exchanges, coupons.",
    make_environment=ShopEnvironment,
    rule_agent=RuleShopAgent,
    make_llm_agent=LLMShopAgent,
    package="vistasim.domains.shop",
    make_web_app=_web_app,
)
"""The shop, as `vistasim.domains.get_domain("shop")` returns it."""
