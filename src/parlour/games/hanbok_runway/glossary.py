"""What every Hanbok Runway component does, in words, with the numbers of the game's configuration
(config.toml, vp_tokens.csv); the browser's tooltips and detail panel show these."""

from __future__ import annotations

from itertools import combinations

from parlour.engine.data import read_csv, read_toml

PACKAGE = "parlour.games.hanbok_runway.data"
TIEBREAK = "On equal trophies the player with fewer sets wins; if still equal, both share the win."


def _styles(config: dict[str, object]) -> dict[str, str]:
    return {
        "oval": "Oval style: after taking the token, look secretly at one face-down token still in that "
        "colour's queue, or turn one of your opponent's face-down tokens of that colour face up.",
        "triangle": f"Triangle style: the token it earns counts {config['triangle_bonus']} more at scoring.",
        "bell": "Bell style: if the token it earns is negative, it counts as positive at scoring (−3 becomes +3).",
        "trapezoid": f"Trapezoid style: the token it earns counts ×{config['trapezoid_factor']} at scoring "
        "(−3 becomes −6, 4 becomes 8).",
        "mannequin": "Mannequin style: one more VP token from the supply goes next to that colour's VP token, "
        "so whoever wins the colour takes it too.",
    }


def _fabrics(colours: list[str]) -> dict[str, str]:
    texts = {}
    for a, b in combinations(colours, 2):
        text = (
            f"Fabric card {a}/{b}: with a style card it makes a set; you then take the lowest-numbered "
            f"token left in the {a} queue or in the {b} queue."
        )
        texts[f"{a}/{b}"] = texts[f"{b}/{a}"] = text
    return texts


def _queues(config: dict[str, object]) -> dict[str, str]:
    trophies = {row["colour"]: row["trophies"] for row in read_csv(PACKAGE, "vp_tokens.csv")}
    influences = ", ".join(str(n) for n in config["token_influences"])  # type: ignore[attr-defined]
    return {
        colour: f"The {colour} queue: tokens of influence {influences}, taken lowest number first. At the end, "
        f"whoever has strictly more {colour} influence (at least 1) takes its VP token, worth "
        f"{trophies.get(colour, '?')} {'trophy' if trophies.get(colour) == '1' else 'trophies'}, and every extra VP "
        "token beside it."
        for colour in config["colours"]  # type: ignore[attr-defined]
    }


def glossary() -> dict[str, object]:
    config = read_toml(PACKAGE, "config.toml")
    return {
        "kinds": {"style": _styles(config), "fabric": _fabrics(list(config["colours"])), "queue": _queues(config)},
        "names": {"style": "style card", "fabric": "fabric card", "queue": "token queue"},
        "tiebreak": TIEBREAK,
    }
