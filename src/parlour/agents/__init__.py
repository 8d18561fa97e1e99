"""Agents: anything that picks an action for the seat to move, speaking only the engine protocol.

Agents are made from spec strings such as `random`, `greedy` or `mcts:iterations=1000`; the same
strings work in `parlour play --seats`, `parlour simulate --agents` and the server.
"""

from parlour.agents.base import Agent, AgentSpecError, agent_kinds, make_agent, parse_spec, register_agent

__all__ = ["Agent", "AgentSpecError", "agent_kinds", "make_agent", "parse_spec", "register_agent"]
