"""The simulated user: actions, observations and policies."""

from vistasim.user._types import Action, CallApi, Finish, Say, UserPolicy, UserView

__all__ = ["Action", "CallApi", "Finish", "Say", "UserPolicy", "UserView"]
