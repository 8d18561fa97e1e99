"""A smoke run (not a test) of sb3-contrib's MaskablePPO on a parlour Gymnasium environment: it
trains briefly on Hatflings! and checks that the masked policy plays only legal moves. It needs the
optional `rl` extra, which brings PyTorch and so stays out of `make install`:

    .venv/bin/pip install torch==2.13.0        # a CPU build first (docs/interop.md, "Baselines")
    .venv/bin/pip install -e '.[rl]' && .venv/bin/python benchmarks/maskable_ppo_smoke.py
"""

from __future__ import annotations

import sys
import time
import warnings


def main() -> int:
    try:
        import sb3_contrib
    except ImportError:
        print("sb3-contrib is not installed: .venv/bin/pip install -e '.[rl]' (it brings PyTorch)", file=sys.stderr)
        return 2
    import gymnasium

    import parlour.interop.gymnasium  # noqa: F401 - registers parlour/<game>-v0

    env = gymnasium.make("parlour/hatflings-v0", seat=0, opponents="random")
    start = time.perf_counter()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # unbounded Box slots, a small batch: SB3's advice only
        model = sb3_contrib.MaskablePPO("MultiInputPolicy", env, n_steps=128, batch_size=64, n_epochs=2, seed=0)
        model.learn(total_timesteps=512)
    print(f"trained {model.num_timesteps} steps in {time.perf_counter() - start:.1f} s")
    for seed in range(2):
        observation, _ = env.reset(seed=seed)
        done, reward = False, 0.0
        while not done:
            mask = env.unwrapped.action_masks()
            action, _ = model.predict(observation, action_masks=mask, deterministic=True)
            if not mask[int(action)]:
                print("the policy chose an action its mask rules out", file=sys.stderr)
                return 1
            observation, reward, terminated, truncated, _info = env.step(int(action))
            done = terminated or truncated
        print(f"game {seed}: legal moves only, return {reward}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
