"""A tournament's output folder: the manifest, the game journal and the files built from it.

`records.jsonl` is the journal: one finished game per line, appended and flushed as soon as the
game ends, so a killed run loses only the games being played. `manifest.json` says which
tournament the folder holds; `--resume` reads both, drops a line the kill cut short and plays
only the games still missing. When the run ends the journal is rewritten in game order (so the
files are the same whatever the number of workers) and `results.csv` and `report.html` are
built from it.

A run on changed data (a designer's folder) keeps that data's files once, in `data/` beside the
manifest, and its record lines name the data by hash alone: a line replays from the folder
(`parlour replay records.jsonl --line N`), a resumed run checks the data has not changed since.
"""

from __future__ import annotations

import csv
import io
import json
import os
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import IO, Any

from parlour.arena.match import Played
from parlour.arena.tournament import FORMAT, ArenaError, Tournament
from parlour.engine import data
from parlour.engine.errors import DataError
from parlour.engine.records import KEPT_DATA

MANIFEST = "manifest.json"
RECORDS = "records.jsonl"
RESULTS = "results.csv"
REPORT = "report.html"


def _atomic_write(path: Path, text: str) -> None:
    temporary = path.with_name(path.name + ".tmp")
    temporary.write_text(text, encoding="utf-8")
    os.replace(temporary, path)


def _differences(held: Mapping[str, Any], wanted: Mapping[str, Any]) -> list[str]:
    return [
        f"{name} {_show(held.get(name))} (asked: {_show(wanted[name])})"
        for name in wanted
        if held.get(name) != wanted[name]
    ]


def _show(value: Any) -> str:
    if isinstance(value, list):
        return ",".join(str(v) for v in value)
    if isinstance(value, dict):
        return " ".join(f"{k}={v}" for k, v in value.items())
    return str(value)


class Store:
    """The output folder of one tournament, opened for a new run or to resume one."""

    def __init__(self, folder: Path, tournament: Tournament, done: dict[int, Played]) -> None:
        self.folder = folder
        self.tournament = tournament
        self.done = done
        self.data = changed_data(tournament)
        self._journal: IO[str] | None = None

    @classmethod
    def open(cls, folder: str | Path, tournament: Tournament, resume: bool) -> Store:
        """Check the folder against the tournament; raises ArenaError before anything is written."""
        folder = Path(folder)
        if folder.exists() and not folder.is_dir():
            raise ArenaError(f"{folder} is a file, not a folder for the tournament's results")
        manifest_path = folder / MANIFEST
        if manifest_path.exists():
            held = cls._read_manifest(manifest_path)
            if not resume:
                raise ArenaError(
                    f"{folder} already holds a tournament ({_show(held.get('agents'))} at {held.get('game')},"
                    f" seed {held.get('seed')}); add --resume to continue it, or choose another folder"
                )
            differences = _differences(held, tournament.identity())
            if differences:
                raise ArenaError(f"{folder} holds another tournament: its " + "; ".join(differences))
            done = cls._read_journal(folder / RECORDS, tournament)
            _check_kept_data(folder, tournament)
        elif folder.exists() and any(folder.iterdir()):
            raise ArenaError(f"{folder} is not empty and holds no parlour tournament; choose a new or empty folder")
        else:
            done = {}
        beyond = [index for index in done if index >= tournament.games]
        if beyond:
            raise ArenaError(
                f"{folder} already holds {len(done)} games, up to game {max(beyond) + 1};"
                f" --games must be at least {max(beyond) + 1} to resume it"
            )
        return cls(folder, tournament, done)

    @staticmethod
    def _read_manifest(path: Path) -> dict[str, Any]:
        try:
            held = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
            raise ArenaError(f"{path} is not a readable tournament manifest ({error})") from None
        written = str(held.get("format", "")) if isinstance(held, dict) else ""
        if written.startswith("parlour-tournament/") and written != FORMAT:
            # An older parlour seated its games otherwise: they cannot be continued with these.
            raise ArenaError(
                f"{path} was written by another parlour ({written}, this one writes {FORMAT});"
                " its games were seated otherwise, so start a new folder"
            )
        if not isinstance(held, dict) or held.get("format") != FORMAT:
            raise ArenaError(f"{path} is not a parlour tournament manifest")
        return held

    @staticmethod
    def _read_journal(path: Path, tournament: Tournament) -> dict[int, Played]:
        """The games a journal holds by index; a last line cut short by a kill is dropped from the file."""
        if not path.exists():
            return {}
        raw = path.read_bytes()
        lines = raw.split(b"\n")
        done: dict[int, Played] = {}
        kept = 0  # bytes of complete, valid lines
        for number, line in enumerate(lines, 1):
            last = number == len(lines)
            if not line.strip():
                kept += len(line) + (0 if last else 1)
                continue
            try:
                record = json.loads(line)
                index = int(record["arena"]["index"])
            except (ValueError, KeyError, TypeError):
                if last:
                    break  # the line the kill interrupted
                raise ArenaError(f"{path} line {number} is not a game record; the journal is damaged") from None
            if last:
                break  # written without its newline: the write was cut short
            if record.get("game") != tournament.game or record.get("seed") != tournament.game_seed(index):
                raise ArenaError(f"{path} line {number} is a game of another tournament")
            done.setdefault(index, Played(index, record=record))
            kept += len(line) + 1
        if kept != len(raw):
            with path.open("r+b") as journal:
                journal.truncate(kept)
        return done

    # --- writing ----------------------------------------------------------------------------

    def start(self) -> None:
        """Create the folder, write the manifest and open the journal for appending."""
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise ArenaError(f"cannot create the folder {self.folder}: {error.strerror or error}") from None
        manifest = self.tournament.manifest()
        if self.data is not None:
            self._keep_data(self.data)
            manifest["data"] = {"hash": self.data.digest, "files": KEPT_DATA}
        _atomic_write(self.folder / MANIFEST, json.dumps(manifest, indent=1) + "\n")
        self._journal = (self.folder / RECORDS).open("a", encoding="utf-8")

    def _keep_data(self, kept: data.DataSet) -> None:
        """Write the data's files once into data/ (a resumed run's are checked already and left alone)."""
        folder = self.folder / KEPT_DATA
        if folder.is_dir():
            return
        try:
            folder.mkdir()
            for name, text in kept.files.items():
                (folder / name).write_text(text, encoding="utf-8", newline="")
        except OSError as error:
            raise ArenaError(f"cannot keep the data files in {folder}: {error.strerror or error}") from None

    def append(self, played: Played) -> None:
        assert self._journal is not None, "start() opens the journal"
        self._journal.write(played.line + "\n")
        self._journal.flush()
        self.done[played.index] = played

    def close(self) -> None:
        if self._journal is not None:
            self._journal.close()
            self._journal = None

    def finish(self, report_html: str | None) -> None:
        """Rewrite the journal in game order and build results.csv (and the report) from it."""
        self.close()
        games = [self.done[index] for index in sorted(self.done)]
        _atomic_write(self.folder / RECORDS, "".join(played.line + "\n" for played in games))
        _atomic_write(self.folder / RESULTS, results_csv(played.digest for played in games))
        if report_html is not None:
            _atomic_write(self.folder / REPORT, report_html)


def changed_data(tournament: Tournament) -> data.DataSet | None:
    """The data set a tournament plays on when it differs from the game's built-in data, else None."""
    held = getattr(tournament.load(), "data", None)
    return held if isinstance(held, data.DataSet) and held.changed else None


def _check_kept_data(folder: Path, tournament: Tournament) -> None:
    """Refuse to resume a run whose data changed since it began: its kept files must be the data asked for."""
    kept_in = folder / KEPT_DATA
    if not kept_in.is_dir():
        return
    wanted = getattr(tournament.load(), "data", None)
    if not isinstance(wanted, data.DataSet):
        raise ArenaError(f"{kept_in} keeps data files, but {tournament.game} has none; the folder is damaged")
    try:
        kept = data.from_folder(wanted.package, kept_in)
    except DataError as error:
        raise ArenaError(f"{folder}: the data kept for its games cannot be read: {error}") from None
    if kept.digest != wanted.digest:
        raise ArenaError(
            f"{folder} was played on data with hash {kept.digest} (kept in {kept_in}), but the data asked for now has"
            f" hash {wanted.digest}: the data changed since the run began; start a new folder"
        )


def results_csv(records: Iterable[Mapping[str, Any]]) -> str:
    """One row per game and seat: agent, seat, score and its breakdown, rank, whether it won alone, length."""
    records = list(records)
    parts: list[str] = []
    for record in records:
        for score in record["arena"]["scores"]:
            parts.extend(name for name in score["breakdown"] if name not in parts)
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["game", "seed", "agent", "seat", "score", *parts, "rank", "won", "length"])
    for record in records:
        arena = record["arena"]
        for seat, score in enumerate(arena["scores"]):
            breakdown = [score["breakdown"].get(name, "") for name in parts]
            won = int(record.get("winners") == [seat])  # a shared win shows as rank 1 with won 0
            row = [arena["index"], record["seed"], arena["agents"][seat], seat, score["total"], *breakdown]
            writer.writerow([*row, arena["ranks"][seat], won, arena["length"]])
    return out.getvalue()
