"""Learning baselines for every game, run by hand (not in CI): MaskablePPO from sb3-contrib on the
CPU against random opponents, and a self-play variant against a frozen copy of the learner, each
then evaluated through PettingZoo's AEC loop against random and greedy opponents.

It needs the optional `rl` extra with a CPU build of PyTorch (see docs/interop.md, "Baselines"):

    nice -n 10 .venv/bin/python benchmarks/rl_baselines.py --games hatflings --steps 4096 --games-per-side 20

For each game it prints, per training recipe, the learner's win rate against each evaluation
opponent with a 95% Wilson interval (the learner alternates seats, opponents' seeds follow the
game), the number of games, the training and evaluation time on this machine, and the same for an
untrained (uniform random) learner as the reference. Returns +1 count as wins; shared wins (0) and
losses do not.
"""

from __future__ import annotations

import argparse
import sys
import time
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np

from parlour.agents import make_agent
from parlour.arena.stats import wilson
from parlour.interop.gymnasium import frozen_copy, model_policy

Policy = Callable[[Any], int]
OPTIONS: dict[str, dict[str, Any]] = {
    "hatflings": {},
    "hanbok_runway": {},
    "yamatai": {"players": 2},
    "hatairo": {"players": 2},
}


def uniform(seed: int) -> Policy:
    rng = np.random.default_rng(seed)
    return lambda observation: int(rng.choice(np.flatnonzero(observation["action_mask"])))


def evaluate(game: str, policy: Policy, opponent: str, games: int) -> tuple[int, int]:
    """Wins of `policy` in `games` PettingZoo games against `opponent` agents, alternating seats."""
    from parlour.interop.pettingzoo import env as aec_env

    wins = 0
    for index in range(games):
        aec = aec_env(game, **OPTIONS[game])
        aec.reset(seed=10_000 + index)
        learner = f"player_{index % aec.num_agents}"
        agents = {name: make_agent(opponent, 10_000 + index * 7 + seat) for seat, name in enumerate(aec.agents)}
        final = 0.0
        for name in aec.agent_iter():
            observation, reward, termination, truncation, _ = aec.last()
            if termination or truncation:
                if name == learner:
                    final = reward
                aec.step(None)
            elif name == learner:
                aec.step(policy(observation))
            else:
                state = aec.engine_state
                aec.step(agents[name].act(state).id)
        wins += final == 1.0
    return wins, games


def train(game: str, steps: int, seed: int, self_play: bool, refresh: int) -> tuple[Any, float]:
    """MaskablePPO on `parlour/<game>-v0` with the learner's seat drawn each episode: against
    random opponents, or (self-play) against a frozen copy of itself, refreshed every `refresh` steps."""
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.callbacks import BaseCallback
    from stable_baselines3.common.env_util import make_vec_env

    frozen: dict[str, Policy] = {}

    def opponent(observation: Any) -> int:
        return frozen["policy"](observation)

    env_kwargs: dict[str, Any] = {"seat": "random", "opponents": opponent if self_play else "random"}
    env_kwargs.update(OPTIONS[game])
    start = time.perf_counter()
    env = make_vec_env(f"parlour/{game}-v0", n_envs=2, seed=seed, env_kwargs=env_kwargs)
    model = MaskablePPO("MultiInputPolicy", env, n_steps=256, batch_size=128, n_epochs=4, seed=seed, device="cpu")
    if self_play:  # loading a copy draws PyTorch's generator, so only when it is used
        frozen["policy"] = frozen_copy(model)

    class Refresh(BaseCallback):  # type: ignore[misc]
        def _on_step(self) -> bool:
            if self.num_timesteps % refresh < env.num_envs:
                frozen["policy"] = frozen_copy(model)
            return True

    model.learn(total_timesteps=steps, callback=Refresh() if self_play else None)
    return model, time.perf_counter() - start


def train_a2c(game: str, episodes: int, seed: int) -> tuple[list[Any], float]:
    """OpenSpiel's PyTorch advantage actor-critic (`policy_gradient`), one agent per seat learning
    against the others, on the information-state tensor through OpenSpiel's RL environment."""
    import torch
    from open_spiel.python import rl_environment
    from open_spiel.python.pytorch import policy_gradient

    from parlour.interop import openspiel

    start = time.perf_counter()
    torch.manual_seed(seed)
    env = rl_environment.Environment(openspiel.load(game, seed=seed, **OPTIONS[game]), seed=seed)
    size, actions = env.observation_spec()["info_state"][0], env.action_spec()["num_actions"]
    agents = [
        policy_gradient.PolicyGradient(seat, size, actions, loss_str="a2c", hidden_layers_sizes=(128,))
        for seat in range(env.num_players)
    ]
    for _ in range(episodes):
        time_step = env.reset()
        while not time_step.last():
            seat = time_step.observations["current_player"]
            time_step = env.step([agents[seat].step(time_step).action])
        for agent in agents:
            agent.step(time_step)
    return agents, time.perf_counter() - start


def evaluate_openspiel(game: str, agents: list[Any], opponent: str, games: int) -> tuple[int, int]:
    """Wins of the trained agents (the one of the learner's seat) in OpenSpiel games against
    `opponent` agents, alternating seats; chance outcomes drawn uniformly."""
    from open_spiel.python import rl_environment

    from parlour.interop import openspiel

    wins = 0
    for index in range(games):
        os_game = openspiel.load(game, seed=10_000 + index, **OPTIONS[game])
        rng = np.random.default_rng(index)
        learner = index % os_game.num_players()
        rivals = {seat: make_agent(opponent, 10_000 + index * 7 + seat) for seat in range(os_game.num_players())}
        state = os_game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(int(rng.integers(os_game.max_chance_outcomes())))
            elif state.current_player() == learner:
                observations = {
                    "info_state": [state.information_state_tensor(seat) for seat in range(os_game.num_players())],
                    "legal_actions": [state.legal_actions(seat) for seat in range(os_game.num_players())],
                    "current_player": learner,
                }
                time_step = rl_environment.TimeStep(observations, None, None, rl_environment.StepType.MID)
                state.apply_action(agents[learner].step(time_step, is_evaluation=True).action)
            else:
                state.apply_action(rivals[state.current_player()].act(state.engine_state).id)
        wins += state.returns()[learner] == 1.0
    return wins, games


def interval(wins: int, games: int) -> str:
    low, high = wilson(wins, games)
    return f"{wins / games:.0%} [{low:.0%}, {high:.0%}]"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", default=",".join(OPTIONS), help="comma-separated game names")
    parser.add_argument("--steps", type=int, default=4096, help="training steps per recipe")
    parser.add_argument("--games-per-side", type=int, default=20, help="evaluation games per opponent")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--refresh", type=int, default=1024, help="self-play: steps between frozen copies")
    parser.add_argument("--recipes", default="ppo,selfplay", help="comma-separated: ppo, selfplay, a2c")
    parser.add_argument("--episodes", type=int, default=200, help="a2c: training episodes")
    parser.add_argument("--threads", type=int, default=1, help="PyTorch's CPU threads (a shared machine: 1)")
    args = parser.parse_args()
    try:
        import sb3_contrib  # noqa: F401
        import torch
    except ImportError:
        print("sb3-contrib is not installed: see docs/interop.md, 'Baselines'", file=sys.stderr)
        return 2
    torch.set_num_threads(args.threads)
    warnings.simplefilter("ignore")  # unbounded Box slots, small batches: SB3's advice only
    print("| game | learner | steps | seed | vs random | vs greedy | games per opponent | train s | eval s |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    for game in args.games.split(","):
        if game not in OPTIONS:
            print(f"unknown game {game!r} (games: {', '.join(OPTIONS)})", file=sys.stderr)
            return 2
        recipes = args.recipes.split(",")
        learners: list[tuple[str, str, Any, float]] = []
        if "ppo" in recipes or "selfplay" in recipes:
            learners.append(("untrained (uniform)", "0", uniform(args.seed), 0.0))
        for recipe in recipes:
            if recipe == "a2c":
                agents, seconds = train_a2c(game, args.episodes, args.seed)
                learners.append(("OpenSpiel A2C (PyTorch)", f"{args.episodes} episodes", agents, seconds))
                continue
            model, seconds = train(game, args.steps, args.seed, recipe == "selfplay", args.refresh)
            learners.append((f"MaskablePPO, {recipe}", str(args.steps), model_policy(model), seconds))
        for name, steps, learned, seconds in learners:
            start = time.perf_counter()
            judge = evaluate_openspiel if isinstance(learned, list) else evaluate
            results = [interval(*judge(game, learned, rival, args.games_per_side)) for rival in ("random", "greedy")]
            spent = time.perf_counter() - start
            print(
                f"| {game} | {name} | {steps} | {args.seed} | {results[0]} | {results[1]} | "
                f"{args.games_per_side} | {seconds:.0f} | {spent:.0f} |",
                flush=True,
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
