"""Hatflings' guided first game (the shape is parlour.engine.tutorial's): the default scene, a few
placements that bring the two teams together, a hat won, lost and won back."""

from parlour.engine.tutorial import Step, Tutorial

YOU, RIVAL = 0, 1

TUTORIAL = Tutorial(
    seed=7,
    players=2,
    welcome="You lead the yellow team, the bot leads purple. The team with more hats of its colour "
    "on the floor when the dance stops wins. Every halfling that lands turns the rival hats around "
    "it to its own colour.",
    steps=(
        Step(
            YOU,
            "place normal at c1",
            "Bring a normal halfling onto c1, in your home row (the bottom row).",
            "On your first turn a halfling may go on any free square of your home row; later ones "
            "must land next to a halfling wearing your colour.",
        ),
        Step(RIVAL, "place normal at d6", "Purple starts in its own home row, the top one."),
        Step(
            YOU,
            "place normal at c2",
            "Bring another normal halfling onto c2, just above your first.",
            "From now on a new halfling must land next to one of your colour: your team grows as a "
            "chain towards the middle of the floor.",
        ),
        Step(RIVAL, "place normal at d5", "Purple grows towards the middle too."),
        Step(
            YOU,
            "place normal at d3",
            "Land a halfling on d3, next to your halfling on c2.",
            "d3 touches c2 by a corner, which counts as next to. It also stands next to the pig, "
            "so you will move the pig next.",
        ),
        Step(
            YOU,
            "pig to f2",
            "Move the pig to f2, out of the way.",
            "Whoever lands next to the pig moves it to an empty square around it. On f2 it no longer "
            "blocks the squares around your halflings.",
            wrong="Any empty square around the pig is allowed; in this lesson, send it to f2.",
        ),
        Step(
            RIVAL,
            "place normal at e4",
            "Purple landed on e4, next to your halfling on d3, and turned its hat purple: a hat can "
            "change hands many times.",
        ),
        Step(
            YOU,
            "place normal at d2",
            "Land a halfling on d2 to win d3 back.",
            "d2 is next to your halflings on c1 and c2, so you may land there, and next to d3, whose "
            "hat turns yellow again as you land.",
        ),
        Step(RIVAL, "place normal at e5", "Purple strengthens its group at the top."),
    ),
    feel="A quick, tense duel on a small floor: every piece you land can turn the hats around it, and a "
    "lead can flip in one move.",
    minutes=(10, 20),
    goodbye="That is the whole dance: land next to your own colour, turn the rival hats around you, "
    "or jump a halfling of yours over an adjacent rival. Your specials (in the list of moves) bend "
    "these rules. The game goes on against a gentle bot: good luck!",
)
