"""`vistasim serve shop|school`: a built-in domain's web site on loopback, with its chat agent."""

from __future__ import annotations

import click


@click.command("serve")
@click.argument("domain_name", metavar="DOMAIN")
@click.option("--host", default="127.0.0.1", show_default=True, help="Interface to bind.")
@click.option(
    "--port", type=click.IntRange(1, 65535), default=8000, show_default=True, help="TCP port."
)
def command(domain_name: str, host: str, port: int) -> None:
    """Serve a built-in domain's web site (shop, school) with its rule-based chat agent."""
    from vistasim.domains import get_domain
    from vistasim.errors import MissingExtraError

    domain = get_domain(domain_name)
    try:
        import uvicorn
    except ImportError:
        raise MissingExtraError("uvicorn", "web") from None
    if domain.make_web_app is None:
        raise click.ClickException(f"domain {domain_name!r} has no web site")
    env = domain.make_environment()
    app = domain.make_web_app(env, lambda: domain.rule_agent(env=env))
    click.echo(f"serving {domain_name} on http://{host}:{port}/ (Ctrl-C to stop)")
    uvicorn.run(app, host=host, port=port, log_level="warning")
