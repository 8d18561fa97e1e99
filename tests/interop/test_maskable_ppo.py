"""sb3-contrib's MaskablePPO trains on a Gymnasium environment of parlour and, reading the
environment's action masks, plays only legal moves (the optional `rl` extra: it brings PyTorch)."""

from __future__ import annotations

import warnings

import pytest

sb3_contrib = pytest.importorskip(
    "sb3_contrib", reason="sb3-contrib is not installed (pip install -e '.[rl]'; it brings PyTorch)"
)


def test_maskable_ppo_learns_and_plays_legal_moves() -> None:
    import gymnasium

    import parlour.interop.gymnasium  # noqa: F401 - registers parlour/<game>-v0

    env = gymnasium.make("parlour/hatflings-v0", seat=0, opponents="random")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # unbounded Box slots, a small batch: SB3's advice only
        model = sb3_contrib.MaskablePPO("MultiInputPolicy", env, n_steps=64, batch_size=32, n_epochs=1, seed=0)
        model.learn(total_timesteps=128)
    assert model.num_timesteps >= 128
    for seed in range(2):
        observation, _ = env.reset(seed=seed)
        done, reward = False, 0.0
        while not done:
            mask = env.unwrapped.action_masks()
            action, _ = model.predict(observation, action_masks=mask, deterministic=True)
            assert mask[int(action)], "the policy chose an action its mask rules out"
            observation, reward, terminated, truncated, info = env.step(int(action))
            assert "illegal_action" not in info
            done = terminated or truncated
        assert reward in (-1.0, 0.0, 1.0)
