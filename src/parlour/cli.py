"""The `parlour` command. Each command is a thin shell over a module that does the work."""

from __future__ import annotations

import json
import sys
from dataclasses import fields
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table as RichTable
from typer._click import exceptions as click_errors  # Typer's own copy of click raises these

from parlour.agents import split_specs
from parlour.engine.errors import ParlourError, RecordError
from parlour.engine.game import Game
from parlour.engine.package import RULES_FILE, rules_page
from parlour.engine.registry import broken_games, game_class, game_classes

if TYPE_CHECKING:
    from parlour.arena import commands

app = typer.Typer(
    help="parlour: Hatairo, Hatflings!, Hanbok Runway and Yamataï — play, simulate, analyse.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
console = Console()
GAME_OPTIONS = {"allow_extra_args": True, "ignore_unknown_options": True}
MAX_SEED = 2**53 - 1
"""Seeds stay below 2**53 so that a record's seed survives any JSON reader (a browser's included)."""


def fail(message: str, code: int = 2) -> typer.Exit:
    """Print an error the way every command does and return the exit to raise."""
    Console(stderr=True, soft_wrap=True).print(f"[bold red]error:[/] {escape(message)}", highlight=False)
    return typer.Exit(code)


def load_with_options(name: str, extra: list[str], pairs: list[str], players: int | None) -> Game:
    """The game named on the command line with its `--option value` words; raises ParlourError."""
    from parlour.game_options import parse_game_options

    cls = game_class(name)
    options = parse_game_options(cls, [*extra, *([f"--players={players}"] if players is not None else [])], pairs)
    return cls(**options)


@app.command()
def games() -> None:
    """List the games with their player counts and options."""
    table = RichTable(title="parlour games")
    for column in ("game", "title", "players", "options"):
        table.add_column(column)
    for name, cls in game_classes().items():
        counts = cls.player_counts()
        players = f"{min(counts)}-{max(counts)}" if len(counts) > 1 else str(counts[0])
        options = "\n".join(option.describe() for option in cls.options_spec if option.name != "players")
        table.add_row(name, cls.title, players, options)
    console.print(table)
    broken = broken_games()
    for problem in broken.values():
        fail(problem)
    if broken:
        raise typer.Exit(1)


PlayersOpt = Annotated[int | None, typer.Option("--players", "-p", help="number of players")]
OptionPairs = Annotated[list[str], typer.Option("--option", "-o", help="a game option as key=value (repeatable)")]


@app.command(context_settings=GAME_OPTIONS)
def play(
    ctx: typer.Context,
    game: Annotated[str, typer.Argument(help="the game to play, e.g. hatflings")],
    seats: Annotated[str, typer.Option(help="who sits at each seat: human or an agent spec, comma-separated")] = "",
    seed: Annotated[
        int | None, typer.Option(min=0, max=MAX_SEED, help="seed of the game (random if not given)")
    ] = None,
    players: PlayersOpt = None,
    option: OptionPairs = [],  # noqa: B006 - Typer reads the default
    record: Annotated[Path | None, typer.Option(help="save the game's record to this file when it ends")] = None,
) -> None:
    """Play in the terminal against bots or hot-seat. Game options go after the game: --beginner, --variant motif."""
    import random

    from parlour.agents.levels import level_words
    from parlour.engine.records import check_writable
    from parlour.play import TerminalSession, seat_table

    try:
        if record is not None:
            check_writable(record)  # before the game starts, so that it is not lost at the end
        loaded = load_with_options(game, ctx.args, option, players)
        seat_list = split_specs(seats) if seats else ["human"] + ["random"] * (loaded.num_players - 1)
        table = seat_table(loaded, seat_list, random.SystemRandom().randrange(2**31) if seed is None else seed)
    except ParlourError as error:
        raise fail(str(error)) from None
    session = TerminalSession(table, record_path=record)
    seated = ", ".join(session.names.full(seat) for seat in range(loaded.num_players))
    session.show(f"{loaded.title}, seed {table.state.seed}. At the table: {seated}. Type help for help.")
    for seat, spec in enumerate(seat_list):
        level = level_words(spec, loaded.name, loaded.num_players)
        if level is not None:
            session.show(f"{session.names.full(seat)} is a bot of level {level}.")
    raise typer.Exit(session.run())


@app.command()
def learn(game: Annotated[str, typer.Argument(help="the game to learn, e.g. hatairo")]) -> None:
    """A guided first game: each step says what to do and why, then the game goes on against a gentle bot."""
    from parlour.learn import LearnSession, tutorial_table

    try:
        tutorial, table = tutorial_table(game_class(game))
    except ParlourError as error:
        raise fail(str(error)) from None
    session = LearnSession(tutorial, table)
    session.show(f"Learn {table.game.title}. {tutorial.welcome} Type help for help, quit to leave.")
    raise typer.Exit(session.run())


@app.command()
def replay(
    file: Annotated[Path, typer.Argument(help="a record saved by parlour")],
    line: Annotated[
        int | None, typer.Option(help="the record on this line (from 1) of a file of one a line (records.jsonl)")
    ] = None,
    show: Annotated[bool, typer.Option(help="print every move and the final board")] = False,
    as_json: Annotated[bool, typer.Option("--json", help="print the result as one JSON object")] = False,
) -> None:
    """Rebuild a saved game from its record and verify it; a corrupt record exits non-zero at the first divergence."""
    from parlour.engine.records import kept_data_beside, load, load_line, verify

    try:
        record = load(file) if line is None else load_line(file, line)
    except RecordError as error:
        raise fail(str(error), 1) from None
    try:
        state = verify(record, kept_data_beside(file))
    except RecordError as error:
        raise fail(f"{file}: {error}", 1) from None
    if as_json:
        scores = [score.to_json() for score in state.scores()] if state.is_terminal() else None
        print(json.dumps({"ok": True, "game": state.game.name, "steps": len(state.history), "scores": scores}))
        return
    if show:
        for step, action_id in enumerate(state.history, 1):
            console.print(f"{step:>4}. {state.game.actions[action_id].label}", highlight=False)
        console.print(state.render(None), highlight=False)
    status = "finished" if state.is_terminal() else "in progress"
    console.print(f"{file}: {state.game.title}, {len(state.history)} actions, {status} — verified.", highlight=False)
    if state.is_terminal():
        from parlour.play import format_result

        console.print(format_result(state), highlight=False)


@app.command()
def review(
    file: Annotated[Path, typer.Argument(help="the record of a finished game")],
    line: Annotated[int | None, typer.Option(help="the record on this line (from 1) of a records.jsonl")] = None,
    iterations: Annotated[int, typer.Option(min=1, help="search iterations per decision")] = 400,
    max_seconds: Annotated[float, typer.Option(min=0.1, help="the most the whole review may take")] = 120.0,
    top: Annotated[int, typer.Option(min=0, help="how many of the costliest moves to list")] = 5,
    cache: Annotated[bool, typer.Option(help="reuse and keep reviews in ~/.cache/parlour/reviews")] = True,
    as_json: Annotated[bool, typer.Option("--json", help="print the review as one JSON object")] = False,
) -> None:
    """Review a finished game: each seat's chances after every move and the moves that cost most."""
    from parlour.agents import review as reviewing
    from parlour.engine.records import load, load_line

    try:
        record = load(file) if line is None else load_line(file, line)
        settings = reviewing.Settings(iterations, max_seconds, top)
        shown = [-1]

        def progress(done: int, total: int) -> None:
            if not as_json and (done * 10 // total) != shown[0]:
                shown[0] = done * 10 // total
                Console(stderr=True).print(f"reviewing: move {done} of {total}", highlight=False)

        found, from_cache = reviewing.cached_review(
            record, settings, reviewing.default_cache() if cache else None, progress
        )
    except ParlourError as error:
        raise fail(f"{file}: {error}", 1) from None
    if as_json:
        print(json.dumps({**found.to_json(), "chances": found.chances(), "cached": from_cache}))
        return
    console.print(reviewing.render(found, from_cache), highlight=False)


@app.command(context_settings=GAME_OPTIONS)
def bench(
    ctx: typer.Context,
    game: Annotated[str, typer.Argument(help="the game to measure")],
    seconds: Annotated[float, typer.Option(min=0.1, max=86400, help="how long to run")] = 10.0,
    seed: Annotated[int, typer.Option(min=0, max=MAX_SEED, help="seed of the first game")] = 0,
    players: PlayersOpt = None,
    option: OptionPairs = [],  # noqa: B006
    as_json: Annotated[bool, typer.Option("--json", help="print one JSON object")] = False,
) -> None:
    """Random-playout speed of a game's engine on one core: games/s and steps/s."""
    from parlour.bench import random_playouts

    try:
        loaded = load_with_options(game, ctx.args, option, players)
    except ParlourError as error:
        raise fail(str(error)) from None
    result: dict[str, Any] = random_playouts(loaded, seconds, seed)
    if as_json:
        print(json.dumps(result))
        return
    r = result
    console.print(
        f"{loaded.title}, {loaded.num_players} players{_changed_options(loaded)}:"
        f" {r['games']} games, {r['steps']} steps in {r['seconds']} s"
        f" = {r['games_per_s']} games/s, {r['steps_per_s']:,.0f} steps/s"
        f" ({r['steps_per_cpu_s']:,.0f} steps per CPU-second; mean {r['mean_length']} steps/game)",
        highlight=False,
    )


AgentsOpt = Annotated[str, typer.Option(help="an agent per seat, comma-separated: random,mcts:iterations=500")]
LineUpsOpt = Annotated[
    str,
    typer.Option(
        "--agents",
        help="an agent per seat, comma-separated: random,mcts:iterations=500; several line-ups (skill levels)"
        " separated by ';', each played in turn: 'random,random;greedy,greedy;level:club,level:club'",
    ),
]
GamesOpt = Annotated[int, typer.Option(help="how many games")]
WorkersOpt = Annotated[int | None, typer.Option(help="processes (local) or concurrent tasks (ray); default: all cores")]
OutOpt = Annotated[Path | None, typer.Option(help="folder for records.jsonl, results.csv and report.html")]
ResumeOpt = Annotated[bool, typer.Option(help="continue the tournament the --out folder holds")]
BackendOpt = Annotated[str, typer.Option(help="local (process pool) or ray")]
AddressOpt = Annotated[str | None, typer.Option(help="address of a running Ray cluster (with --backend ray)")]


def _arena_settings(
    workers: int | None, backend: str, address: str | None, out: Path | None, resume: bool, as_json: bool
) -> commands.Settings:
    """How `simulate` and `compare` run their tournaments; --resume needs the folder it resumes."""
    from parlour.arena import commands

    if resume and out is None:
        raise fail("--resume continues the tournament an --out folder holds; give that --out folder")
    return commands.Settings(workers, backend, address, out, resume, as_json)


@app.command(context_settings=GAME_OPTIONS)
def simulate(
    ctx: typer.Context,
    game: Annotated[str, typer.Argument(help="the game to play, e.g. hatflings")],
    agents: LineUpsOpt = "random,random",
    games: GamesOpt = 100,
    seed: Annotated[int, typer.Option(help="tournament seed; every game's seed derives from it")] = 0,
    players: PlayersOpt = None,
    option: OptionPairs = [],  # noqa: B006
    workers: WorkersOpt = None,
    out: OutOpt = None,
    resume: ResumeOpt = False,
    backend: BackendOpt = "local",
    address: AddressOpt = None,
    as_json: Annotated[bool, typer.Option("--json", help="print one JSON object")] = False,
) -> None:
    """Bots against bots, seats rotated: wins, seats, scores, and with --out a full report."""
    from parlour.arena import commands

    settings = _arena_settings(workers, backend, address, out, resume, as_json)
    try:
        code = commands.simulate(game, agents, games, seed, players, ctx.args, option, settings)
    except ParlourError as error:
        raise fail(str(error)) from None
    raise typer.Exit(code)


@app.command()
def compare(
    game: Annotated[str, typer.Argument(help="the game to play")],
    variant: Annotated[
        list[str], typer.Option(help="a side: a rule variant or options (beginner, motif, key=value,...)")
    ] = [],  # noqa: B006
    data: Annotated[list[str], typer.Option(help="a side: a data folder (parlour data export) or builtin")] = [],  # noqa: B006
    agents: LineUpsOpt = "random,random",
    games: GamesOpt = 100,
    seed: Annotated[int, typer.Option(help="tournament seed, the same for every variant")] = 0,
    players: PlayersOpt = None,
    workers: WorkersOpt = None,
    out: OutOpt = None,
    resume: ResumeOpt = False,
    backend: BackendOpt = "local",
    address: AddressOpt = None,
    as_json: Annotated[bool, typer.Option("--json", help="print one JSON object")] = False,
) -> None:
    """The same tournament (seeds, seats) on two or more sides (--variant, --data), reported side by side."""
    from parlour.arena import commands

    settings = _arena_settings(workers, backend, address, out, resume, as_json)
    try:
        code = commands.compare(game, agents, variant, games, seed, players, settings, data)
    except ParlourError as error:
        raise fail(str(error)) from None
    raise typer.Exit(code)


@app.command(context_settings=GAME_OPTIONS)
def tune(
    ctx: typer.Context,
    game: Annotated[str, typer.Argument(help="the game whose designed values to tune")],
    space: Annotated[Path, typer.Option(help="TOML file naming the values to tune and their bounds")],
    objective: Annotated[
        list[str], typer.Option(help="fair, takers<=0.6, length=40..60 (each may end in :WEIGHT); repeatable")
    ],
    out: Annotated[Path, typer.Option(help="folder for the study, the best data folder and report.html")],
    trials: Annotated[int | None, typer.Option(help="the study's total number of trials")] = None,
    minutes: Annotated[float | None, typer.Option(help="stop starting trials after this many minutes")] = None,
    resume: Annotated[bool, typer.Option(help="continue the study the --out folder holds")] = False,
    data: Annotated[str | None, typer.Option(help="the base data folder (default: the built-in data)")] = None,
    agents: AgentsOpt = "greedy,greedy",
    games: Annotated[int, typer.Option(help="bot games per trial (the same seeds every trial)")] = 100,
    steps: Annotated[int, typer.Option(help="parts a trial's games are played in; the pruner may stop after each")] = 4,
    check_games: Annotated[
        int | None, typer.Option(help="games of the check on fresh seeds (default: --games)")
    ] = None,
    repeats: Annotated[int, typer.Option(help="evaluations of the best point, each on other seeds")] = 2,
    seed: Annotated[int, typer.Option(help="seed of the games and of the sampler")] = 0,
    players: PlayersOpt = None,
    option: OptionPairs = [],  # noqa: B006
    sampler: Annotated[str, typer.Option(help="tpe or random")] = "tpe",
    pruner: Annotated[str, typer.Option(help="median, hyperband or none")] = "median",
    workers: WorkersOpt = None,
    backend: BackendOpt = "local",
) -> None:
    """Search designed values (data cells, numeric options) with Optuna toward balance objectives."""
    from parlour.arena.tune import Budget, Running
    from parlour.arena.tune_command import Request, tune_command

    request = Request(game, space, objective, out, agents, games, seed, players, data, ctx.args, option, steps)
    request.check_games, request.repeats = check_games, repeats
    try:
        code = tune_command(request, Budget(trials, minutes), Running(workers, backend, sampler, pruner), resume)
    except ParlourError as error:
        raise fail(str(error)) from None
    raise typer.Exit(code)


def serve(
    host: Annotated[str, typer.Option(help="address to listen on")] = "127.0.0.1",
    port: Annotated[int, typer.Option(min=0, max=65535, help="port to listen on")] = 8000,
    log_level: Annotated[
        str | None, typer.Option(help="debug, info, warning or error (default: warning in text, info in JSON)")
    ] = None,
    log_format: Annotated[
        str, typer.Option(help="auto (short text lines on a terminal, JSON lines elsewhere), json or text")
    ] = "auto",
    log_file: Annotated[
        Path | None, typer.Option(help="write the log to this file as JSON lines instead of to the terminal")
    ] = None,
    workers: Annotated[
        int, typer.Option(min=1, max=64, help="server processes sharing the port (more than 1: PostgreSQL only)")
    ] = 1,
    setting: Annotated[
        list[str] | None,
        typer.Option(
            "--set",
            help="any other setting as NAME=VALUE, e.g. --set password_hashings=2 (docs/server.md lists them)",
        ),
    ] = None,
    **chosen: Any,
) -> None:
    """Run the game server: lobby, tables, live play in the browser; games survive restarts.

    The limits on requests are described in docs/server.md ("Limits on requests and messages"),
    those on tables, bots and memory in its section of that name. Several processes, on one
    machine (--workers) or several, share one PostgreSQL database: docs/server.md, "Several
    server processes".
    """
    if log_format not in LOG_FORMATS:
        raise fail(f"--log-format must be one of {', '.join(LOG_FORMATS)}, got {log_format!r}")
    picked = chosen_format(log_format, None if log_file is None else str(log_file), sys.stderr.isatty())
    log_level = default_level(picked) if log_level is None else log_level
    if log_level.lower() not in LOG_LEVELS:
        raise fail(f"--log-level must be one of {', '.join(LOG_LEVELS)}, got {log_level!r}")
    if log_file is not None:
        _check_log_file(log_file)
    _check_listening_address(host, port)
    try:
        from parlour.server import Settings, run
        from parlour.server.settings import database_url, named_settings
        from parlour.server.workers import sqlite_refusal
    except ImportError as error:
        raise fail(f"the server needs the server extra (pip install 'parlour[server]'): {error}", 1) from None
    db = str(chosen["db"])
    refused = sqlite_refusal(database_url(db), workers)
    if refused is not None:
        raise fail(refused)
    shown = f"[{host}]" if ":" in host else host
    kept = db if "://" not in db else "the " + db.split("://")[0] + " database"  # never print a password
    Console(stderr=True, soft_wrap=True).print(
        f"parlour: open http://{shown}:{port}/ in a browser (games are kept in {kept}); Ctrl-C stops the server.",
        highlight=False,
        markup=False,
    )
    try:
        named = named_settings(setting or [], set(chosen))
        settings = Settings(**chosen, **named)
    except ValueError as error:
        raise fail(str(error)) from None
    log_to = None if log_file is None else str(log_file)
    level = log_level.lower()
    run(settings, host=host, port=port, workers=workers, log_level=level, log_format=picked, log_file=log_to)


def _with_setting_options(command: Any) -> Any:
    """Give `command` one option per setting that declares one (`parlour.server.settings.option`),
    after its own parameters: the settings are the one place those options are written."""
    from inspect import Parameter, signature

    from parlour.server.settings import SAME, Settings, serve_options

    kinds: dict[str, Any] = {"int": int, "float": float, "str": str, "bool": bool, "bool | None": bool | None}
    types = {item.name: str(item.type) for item in fields(Settings)}
    own = [p for p in signature(command, eval_str=True).parameters.values() if p.kind is not Parameter.VAR_KEYWORD]
    added = []
    for name, declared in serve_options().items():
        info = typer.Option(*declared.flags(name), help=declared.help, min=declared.low)
        default = declared.serve_default
        if default is SAME:
            default = next(item for item in fields(Settings) if item.name == name).default
        annotation = Annotated[kinds[types[name]], info]  # type: ignore[valid-type]
        added.append(Parameter(name, Parameter.KEYWORD_ONLY, default=default, annotation=annotation))
    command.__signature__ = signature(command, eval_str=True).replace(parameters=[*own, *added])
    return command


app.command()(_with_setting_options(serve))


LOG_LEVELS = ("debug", "info", "warning", "error")
LOG_FORMATS = ("auto", "json", "text")


def chosen_format(log_format: str, log_file: str | None, terminal: bool) -> str:
    """`auto` is short text lines on a terminal and JSON lines elsewhere (a journal, a pipe, a file)."""
    if log_file is not None or log_format == "json":
        return "json"
    return "text" if log_format == "text" or terminal else "json"


def default_level(log_format: str) -> str:
    """A person at a terminal sees warnings and errors only; a deployment's log has every event."""
    return "warning" if log_format == "text" else "info"


def _check_log_file(path: Path) -> None:
    """Refuse a log file that cannot be written before anything starts."""
    try:
        with path.open("a", encoding="utf-8"):
            pass
    except OSError as error:
        raise fail(f"--log-file {path}: cannot write there ({error.strerror or error})") from None


def _check_listening_address(host: str, port: int) -> None:
    """Refuse an address the server could not listen on before anything starts (the server would only log it)."""
    import socket

    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except (socket.gaierror, UnicodeError) as error:
        raise fail(f"--host {host}: no such address on this machine ({error})") from None
    family, kind, proto, _, address = infos[0]
    with socket.socket(family, kind, proto) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind(address)
        except OSError as error:
            raise fail(f"cannot listen on {host}:{port}: {error.strerror or error}") from None


def _changed_options(game: Game) -> str:
    """The options that differ from their defaults, as `, name=value` (players excepted)."""
    changed = [
        f"{option.name}={game.options[option.name]}"
        for option in game.options_spec
        if option.name != "players" and game.options[option.name] != option.default
    ]
    return "".join(f", {text}" for text in changed)


@app.command("verify-deal")
def verify_deal(
    table: Annotated[
        str | None, typer.Argument(help="a finished table's address: its invite link, page or /api/tables/ID")
    ] = None,
    commitment: Annotated[
        str | None, typer.Option(help="the commitment you noted while the game was on (64 hex digits)")
    ] = None,
    seed: Annotated[int | None, typer.Option(min=0, help="a revealed seed, to check without a server")] = None,
    salt: Annotated[str | None, typer.Option(help="the revealed salt (64 hex digits), with --seed")] = None,
) -> None:
    """Check that a finished table's deal is the one it committed to at creation, and that its game replays from it."""
    from parlour import deal

    if table is None:
        if seed is None or salt is None or commitment is None:
            raise fail("give a finished table's address, or --seed, --salt and --commitment")
        try:
            deal.check(seed, salt, commitment)
        except deal.DealError as error:
            raise fail(str(error), 1) from None
        typer.echo(f"deal verified: sha256(salt:seed) = {commitment.strip().lower()}")
        return
    if seed is not None or salt is not None:
        raise fail("--seed and --salt are read from the table itself; give them only without an address")
    try:
        checked = deal.verify_table(table, commitment)
    except deal.DealError as error:
        raise fail(str(error), 1) from None
    chosen = "a fixed deal, chosen by the table's creator" if checked.fixed else "drawn by the server"
    # Plain lines, never wrapped: the seed, salt and commitment are copied from here.
    typer.echo(f"deal verified: table {checked.table}, seed {checked.seed} ({chosen})")
    typer.echo(f"salt {checked.salt}")
    typer.echo(f"sha256(salt:seed) = {checked.commitment}, the commitment published at creation")
    typer.echo(f"the game's {checked.actions} moves replay from this seed to the published result")


@app.command()
def rules(game: Annotated[str, typer.Argument(help="the game whose rules to show")]) -> None:
    """Show a game's rules, in parlour's own words."""
    try:
        name = game_class(game).name
    except ParlourError as error:
        raise fail(str(error)) from None
    page = rules_page(game_class(name))
    if page is None:
        raise fail(f"the rules of {name} are not installed (its package has no {RULES_FILE})", 1)
    from rich.markdown import Markdown

    console.print(Markdown(page))


@app.command()
def train(
    game: Annotated[str, typer.Argument(help="the game to train an evaluator for, e.g. hatflings")],
    out: Annotated[Path, typer.Option(help="folder for the games, evaluator_<N>p.npz and its card")],
    players: PlayersOpt = None,
    minutes: Annotated[float, typer.Option(help="the whole run's time: games, fitting and a strength check")] = 10.0,
    workers: Annotated[int, typer.Option(min=1, help="processes (local) or concurrent tasks (ray)")] = 1,
    backend: BackendOpt = "local",
    agents: Annotated[
        list[str], typer.Option(help="a line-up of bots playing the games (repeatable; the last seat fills the table)")
    ] = ["greedy", "greedy,random"],  # noqa: B006
    seed: Annotated[int, typer.Option(min=0, help="seed of the games (line-up k uses seed+k) and of the fit")] = 0,
    round_games: Annotated[int, typer.Option(help="games added to each line-up per round")] = 20,
    max_games: Annotated[int | None, typer.Option(help="stop playing after this many games in all")] = None,
    keep: Annotated[float, typer.Option(help="share of each game's positions kept for training")] = 0.3,
    memory_mb: Annotated[int, typer.Option(help="most memory the positions may take")] = 256,
    hidden: Annotated[str, typer.Option(help="widths of the hidden layers, comma-separated")] = "128,64",
    steps: Annotated[int, typer.Option(min=1, help="most fitting steps")] = 50_000,
    check_games: Annotated[int, typer.Option(min=0, help="games against greedy seats to check the result")] = 20,
    lam: Annotated[
        float, typer.Option(help="value targets: 1 the final return, below 1 mixing in the heuristic (lambda-return)")
    ] = 1.0,
) -> None:
    """Train a learned evaluator: games from the arena, a small network fitted with JAX (the train extra)."""
    try:
        from parlour.train import command
    except ImportError as error:
        raise fail(f"training needs the train extra (pip install 'parlour[train]'): {error}", 1) from None
    try:
        widths = tuple(int(width) for width in hidden.split(","))
    except ValueError:
        raise fail(f"--hidden takes whole numbers separated by commas, got {hidden!r}") from None
    request = command.Request(
        game,
        out,
        players,
        minutes,
        workers,
        backend,
        tuple(agents),
        seed,
        round_games,
        max_games,
        keep,
        memory_mb,
        widths,
        steps,
        check_games,
        lam=lam,
    )
    try:
        command.train(request, say=lambda text: console.print(text, highlight=False))
    except ParlourError as error:
        raise fail(str(error)) from None


data_app = typer.Typer(
    help="A game's component data as your own folder: export it, edit it, play with --data FOLDER.",
    no_args_is_help=True,
)
app.add_typer(data_app, name="data")


def _data_package(game: str) -> tuple[str, str]:
    """The game's name and its data package; a game without data files is refused by name."""
    cls = game_class(game)
    package = getattr(cls, "data_package", None)
    if not isinstance(package, str):
        raise fail(f"{cls.name} has no data files to export")
    return cls.name, package


@data_app.command("export")
def data_export(
    game: Annotated[str, typer.Argument(help="the game whose data to export, e.g. yamatai")],
    folder: Annotated[Path, typer.Argument(help="the folder to write (made if missing; must be empty)")],
    force: Annotated[
        bool, typer.Option(help="write into a folder that is not empty, replacing its data files")
    ] = False,
) -> None:
    """Write a game's data files (CSV and TOML, with their sourced/designed tags) to a folder you can edit."""
    from parlour.engine import data

    try:
        name, package = _data_package(game)
        written = data.export(package, folder, force)
    except ParlourError as error:
        raise fail(str(error)) from None
    console.print(f"wrote {len(written)} data files of {name} to {folder}:", highlight=False)
    for path in written:
        console.print(f"  {path.name}", highlight=False)
    console.print(
        f"use them with: parlour play {name} --data {folder} (or simulate, compare, bench ...)", highlight=False
    )


@data_app.command("check")
def data_check(
    game: Annotated[str, typer.Argument(help="the game the folder's data is for")],
    folder: Annotated[Path, typer.Argument(help="a folder written by parlour data export")],
) -> None:
    """Load a data folder as a game would, and say what is wrong with it or that it is ready (with its hash)."""
    try:
        name, _ = _data_package(game)
        loaded = game_class(name)(data=str(folder))
    except ParlourError as error:
        raise fail(str(error), 1) from None
    played_on = loaded.data  # type: ignore[attr-defined]
    same = "the same as the built-in data" if not played_on.changed else "changed from the built-in data"
    console.print(f"{folder}: {name} data ready, {same} ({played_on.digest})", highlight=False)


def _add_community_commands() -> None:
    # Imported here: the module builds on `fail` above.
    from parlour.community_cli import admin_app, db_app

    app.add_typer(admin_app, name="admin")
    app.add_typer(db_app, name="db")


_add_community_commands()


def main(args: list[str] | None = None) -> None:
    """The `parlour` command: every refusal is one `error:` line on standard error and a non-zero exit."""
    try:
        code = app(args=args, prog_name="parlour", standalone_mode=False)
    except click_errors.NoArgsIsHelpError as error:
        error.show()
        sys.exit(error.exit_code)
    except click_errors.UsageError as error:
        where = f" (see '{error.ctx.command_path} --help')" if error.ctx is not None else ""
        sys.exit(fail(error.format_message().rstrip(".") + where, error.exit_code).exit_code)
    except click_errors.ClickException as error:
        sys.exit(fail(error.format_message(), error.exit_code).exit_code)
    except typer.Abort:
        sys.exit(130)
    except ParlourError as error:
        sys.exit(fail(str(error)).exit_code)
    except OSError as error:  # a file or folder the system refuses, wherever a command meets it
        where = f"{error.filename}: " if error.filename else ""
        sys.exit(fail(f"{where}{error.strerror or error}", 1).exit_code)
    sys.exit(code or 0)


if __name__ == "__main__":
    main()
