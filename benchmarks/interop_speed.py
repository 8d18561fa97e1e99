"""Speed of the research adapters beside the engine's own steps, in one run.

    .venv/bin/python benchmarks/interop_speed.py [--seconds 2] [--rounds 3] [--games hatflings:2,yamatai:4]

For each game (and player count) it plays random games for about `--seconds` each way and prints
steps per second of: the engine itself (`legal_actions`, a random pick, `apply_legal`), the OpenSpiel
adapter (`legal_actions`, `apply_action`, chance outcomes drawn as OpenSpiel's own simulations do),
PettingZoo's AEC loop (`last`, `step`) and Gymnasium (`step` against random opponents); and
observation tensors per second (OpenSpiel's `observation_tensor` for the seat to move). When pyspiel
ships it, OpenSpiel's C++ othello goes through the same Python loop as a yardstick. Ratios are to
the native step rate. Every loop picks its random moves with parlour's own generator, as the native
loop does (numpy's `Generator.choice` would cost about a native step by itself). Last, OpenSpiel's
Python MCTS: simulations per second from the position after the deal (one random rollout each),
and a Python game with no rules: the floor of any Python game.

    valgrind --tool=callgrind .venv/bin/python benchmarks/interop_speed.py --games hanbok_runway:2 --fixed-work tensor

counts the instructions of a fixed amount of work instead (`--fixed-work none|native|tensor`):
the difference to `none`, divided by the count printed, is the cost of one tensor or one native
step, whatever else the machine is doing.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from typing import Any

import numpy as np

import parlour
from parlour.engine import Rng


def _rate(run: Callable[[float], int], seconds: float) -> float:
    start = time.perf_counter()
    steps = run(start + seconds)
    return steps / (time.perf_counter() - start)


def native(name: str, players: int) -> Callable[[float], int]:
    game = parlour.load_game(name, players=players)

    def run(deadline: float) -> int:
        steps, seed = 0, 0
        while time.perf_counter() < deadline:
            state, rng = game.new_state(seed=seed), Rng(seed)
            while not state.is_terminal():
                state.apply_legal(rng.choice(state.legal_actions()))
                steps += 1
            seed += 1
        return steps

    return run


def spiel_loop(game: object, observe: bool = False) -> Callable[[float], int]:
    """Random play through pyspiel's Python API: decisions counted as steps; with `observe`,
    counts observation tensors of the seat to move instead, built at every decision."""

    def run(deadline: float) -> int:
        rng = Rng(0)  # the generator the native loop uses, so both loops pay the same for picks
        steps = 0
        while time.perf_counter() < deadline:
            state = game.new_initial_state()  # type: ignore[attr-defined]
            while not state.is_terminal():
                if state.is_chance_node():
                    state.apply_action(_chance_outcome(state.chance_outcomes(), rng))
                    continue
                if observe:
                    state.observation_tensor(state.current_player())
                state.apply_action(rng.choice(state.legal_actions()))
                steps += 1
        return steps

    return run


def _chance_outcome(outcomes: list[tuple[int, float]], rng: Rng) -> int:
    """An outcome drawn with its probability."""
    point = rng.random()
    for outcome, probability in outcomes:
        point -= probability
        if point < 0:
            return outcome
    return outcomes[-1][0]


def observations(name: str, players: int) -> Callable[[float], int]:
    """Observation tensors per second over positions of random games (OpenSpiel's call)."""
    from parlour.interop import openspiel

    game = openspiel.load(name, players=players)
    rng = np.random.RandomState(1)
    positions = []
    for _ in range(3):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(int(rng.randint(game.max_chance_outcomes())))
                continue
            positions.append(state.clone())
            state.apply_action(int(rng.choice(state.legal_actions())))

    def run(deadline: float) -> int:
        count = 0
        while time.perf_counter() < deadline:
            for state in positions[::7]:
                state.observation_tensor(state.current_player())
                count += 1
        return count

    return run


def legal_ids(mask: Any) -> Any:
    """The legal ids of an int8 action mask: read as booleans, numpy's `nonzero` takes its fast
    path (0.8 us for Yamatai's 2,920 entries against 5.6 us for the int8 array itself, more than a
    compiled native step), as a researcher's loop can read it too."""
    return mask.view(np.bool_).nonzero()[0]


def pettingzoo_loop(name: str, players: int) -> Callable[[float], int]:
    from parlour.interop.pettingzoo import env

    aec = env(name, players=players)

    def run(deadline: float) -> int:
        steps, seed = 0, 0
        rng = Rng(0)  # as in the native loop: numpy's Generator.choice alone costs about a native step
        while time.perf_counter() < deadline:
            aec.reset(seed=seed)
            for _agent in aec.agent_iter():
                observation, _, termination, truncation, _ = aec.last()
                if termination or truncation:
                    aec.step(None)
                    continue
                aec.step(int(rng.choice(legal_ids(observation["action_mask"]))))
                steps += 1
            seed += 1
        return steps

    return run


def gymnasium_loop(name: str, players: int) -> Callable[[float], int]:
    from parlour.interop.gymnasium import ParlourEnv

    environment = ParlourEnv(name, players=players, opponents="random")

    def run(deadline: float) -> int:
        steps, seed = 0, 0
        rng = Rng(0)  # as in the native loop
        while time.perf_counter() < deadline:
            observation, _ = environment.reset(seed=seed)
            done = False
            while not done:
                action = int(rng.choice(legal_ids(observation["action_mask"])))
                observation, _, terminated, truncated, _ = environment.step(action)
                done = terminated or truncated
                # The opponents' moves are steps of the game too.
            steps += len(environment.state.history)
            seed += 1
        return steps

    return run


def mcts_simulations(name: str, players: int, seconds: float) -> float:
    """OpenSpiel's Python MCTS (one random rollout per simulation): simulations per second from
    the position after the deal."""
    from open_spiel.python.algorithms import mcts

    from parlour.interop import openspiel

    game = openspiel.load(name, players=players)
    rng = np.random.RandomState(0)
    state = game.new_initial_state()
    while state.is_chance_node():  # the deal
        state.apply_action(0)
    simulations = 10
    bot = mcts.MCTSBot(game, 2.0, simulations, mcts.RandomRolloutEvaluator(1, rng), random_state=rng)
    start, searches = time.perf_counter(), 0
    while time.perf_counter() - start < seconds:
        bot.mcts_search(state)
        searches += 1
    return searches * simulations / (time.perf_counter() - start)


def trivial_python_game() -> object:
    """A Python game with no rules (three actions, 100 moves): what any Python game pays per step
    in OpenSpiel's loop, the floor under every adapter step."""
    import pyspiel

    name = "interop_speed_trivial"
    game_type = pyspiel.GameType(
        short_name=name,
        long_name=name,
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.DETERMINISTIC,
        information=pyspiel.GameType.Information.PERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=2,
        min_num_players=2,
        provides_information_state_string=False,
        provides_information_state_tensor=False,
        provides_observation_string=False,
        provides_observation_tensor=False,
        parameter_specification={},
    )

    class TrivialState(pyspiel.State):  # type: ignore[misc]
        def __init__(self, game: pyspiel.Game) -> None:
            super().__init__(game)
            self.moves = 0

        def current_player(self) -> int:
            return int(pyspiel.PlayerId.TERMINAL) if self.moves >= 100 else self.moves % 2

        def _legal_actions(self, player: int) -> list[int]:
            return [0, 1, 2]

        def _apply_action(self, action: int) -> None:
            self.moves += 1

        def _action_to_string(self, player: int, action: int) -> str:
            return str(action)

        def is_terminal(self) -> bool:
            return self.moves >= 100

        def returns(self) -> list[float]:
            return [0.0, 0.0]

        def __str__(self) -> str:
            return str(self.moves)

    class TrivialGame(pyspiel.Game):  # type: ignore[misc]
        def __init__(self, params: object = None) -> None:
            info = pyspiel.GameInfo(
                num_distinct_actions=3,
                max_chance_outcomes=0,
                num_players=2,
                min_utility=-1.0,
                max_utility=1.0,
                utility_sum=0.0,
                max_game_length=100,
            )
            super().__init__(game_type, info, params or {})

        def new_initial_state(self) -> TrivialState:
            return TrivialState(self)

    if name not in pyspiel.registered_names():
        pyspiel.register_game(game_type, TrivialGame)
    return pyspiel.load_game(name)


def fixed_work(name: str, players: int, work: str, repeat: int) -> int:
    """A fixed amount of work, for an instruction counter (valgrind --tool=callgrind), which the
    machine's load does not move as it moves timings: `tensor` builds the tensor of the seat to
    move at 40 positions of one random game, `repeat` times; `native` plays random games until as
    many steps are taken; `none` only sets up, the part to subtract. Returns the tensors or steps."""
    from parlour.interop.encoding import state_tensor

    game = parlour.load_game(name, players=players)
    state, rng = game.new_state(seed=1), Rng(1)
    positions = []
    while not state.is_terminal():
        positions.append(state.clone())
        state.apply_legal(rng.choice(state.legal_actions()))
    positions = positions[:: max(1, len(positions) // 40)][:40]
    state_tensor(positions[0], 0)  # the encoder's per-game tables, built outside the count
    done = 0
    if work == "tensor":
        for _ in range(repeat):
            for position in positions:
                state_tensor(position, position.current_player())
            done += len(positions)
    elif work == "native":
        seed = 100
        while done < repeat * len(positions):
            state, rng = game.new_state(seed=seed), Rng(seed)
            while not state.is_terminal():
                state.apply_legal(rng.choice(state.legal_actions()))
                done += 1
            seed += 1
    return done


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument(
        "--fixed-work",
        choices=("none", "native", "tensor"),
        help="instead of timing, do a fixed amount of work on the first of --games (see fixed_work) and print it",
    )
    parser.add_argument("--repeat", type=int, default=10, help="with --fixed-work: rounds of 40 tensors or steps")
    parser.add_argument("--seconds", type=float, default=2.0, help="time per loop and game, over all rounds")
    parser.add_argument("--rounds", type=int, default=3, help="alternating rounds; each loop's best counts")
    parser.add_argument(
        "--games",
        default="hatflings:2,hanbok_runway:2,hatairo:2,hatairo:4,yamatai:2,yamatai:4",
        help="comma-separated game:players",
    )
    args = parser.parse_args()
    if args.fixed_work:
        name, _, players_text = args.games.split(",")[0].partition(":")
        print(f"{args.fixed_work}: {fixed_work(name, int(players_text or 2), args.fixed_work, args.repeat)}")
        return
    import pyspiel

    from parlour.interop import openspiel

    print(f"{'game':18} {'native':>8} {'openspiel':>16} {'pettingzoo':>16} {'gymnasium':>16} {'obs tensor':>16}")
    for entry in args.games.split(","):
        name, _, players_text = entry.partition(":")
        players = int(players_text or 2)
        loops = [
            native(name, players),
            spiel_loop(openspiel.load(name, players=players)),
            pettingzoo_loop(name, players),
            gymnasium_loop(name, players),
            observations(name, players),
        ]
        # The machine is shared: measure in alternating rounds and keep each loop's best round.
        best = [0.0] * len(loops)
        for _ in range(args.rounds):
            for index, loop in enumerate(loops):
                best[index] = max(best[index], _rate(loop, args.seconds / args.rounds))
        base, figures = best[0], best[1:]
        cells = " ".join(f"{value:8.0f} ({value / base:4.2f}x)" for value in figures)
        print(f"{name + f'-{players}p':18} {base:8.0f} {cells}", flush=True)
    print(
        "OpenSpiel MCTS, simulations/s: "
        + ", ".join(
            f"{entry} {mcts_simulations(entry.partition(':')[0], int(entry.partition(':')[2] or 2), args.seconds):.1f}"
            for entry in args.games.split(",")
        ),
        flush=True,
    )
    if "othello" in pyspiel.registered_names():
        othello = pyspiel.load_game("othello")
        step = max(_rate(spiel_loop(othello), args.seconds / args.rounds) for _ in range(args.rounds))
        observed = max(_rate(spiel_loop(othello, observe=True), args.seconds / args.rounds) for _ in range(args.rounds))
        print(
            f"{'othello (C++)':18} {'':8} {step:8.0f} steps/s through the same loop; {observed:.0f} with a tensor each"
        )
    floor = max(_rate(spiel_loop(trivial_python_game()), args.seconds / args.rounds) for _ in range(args.rounds))
    print(f"{'no-rules Python':18} {'':8} {floor:8.0f} steps/s through the same loop (any Python game's floor)")


if __name__ == "__main__":
    main()
