"""Agents: anything that picks an action for the seat to move, speaking only the engine protocol.

Agents are made from spec strings such as `random`, `greedy` or `mcts:iterations=1000`; the same
strings work in `parlour play --seats`, `parlour simulate --agents` and the server. `hint` tells a
person what the strongest bot would play.
"""

from parlour.agents.base import (
    Agent,
    AgentSpecError,
    Budget,
    Thought,
    agent_kinds,
    make_agent,
    parse_spec,
    register_agent,
    split_specs,
)
from parlour.agents.hint import explain, hint

__all__ = [
    "Agent",
    "AgentSpecError",
    "Budget",
    "Thought",
    "agent_kinds",
    "explain",
    "hint",
    "make_agent",
    "parse_spec",
    "register_agent",
    "split_specs",
]
