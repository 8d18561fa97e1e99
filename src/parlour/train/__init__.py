"""Training learned evaluators (`parlour train`): games from the arena, fitting with JAX and optax.

Needs the `train` extra (JAX, optax) for fitting; the evaluators it writes run with numpy alone
(`parlour.agents.learned`).
"""
