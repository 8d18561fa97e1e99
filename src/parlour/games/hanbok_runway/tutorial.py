"""Hanbok Runway's guided first game (the shape is parlour.engine.tutorial's): the first draws, a set
made with an oval style, and the peek it allows."""

from parlour.engine.tutorial import Step, Tutorial

YOU, RIVAL = 0, 1

TUTORIAL = Tutorial(
    seed=7,
    players=2,
    welcome="You are a designer competing over six fabric colours. Pairing a style card with a fabric "
    "card makes a set, and each set earns you a token of one of the fabric's colours. At the end, "
    "each colour's victory point token goes to whoever holds the most in that colour.",
    steps=(
        Step(RIVAL, "draw 2 style + 1 fabric", "The bot starts: it draws its first three cards."),
        Step(
            YOU,
            "draw 1 style + 2 fabric",
            "Draw your first three cards: one style card and two fabric cards.",
            "A set needs one style card and one fabric card. Two fabric cards give you a choice of "
            "colours; every card you draw lies face-up in front of you.",
        ),
        Step(RIVAL, "draw 1 style + 1 fabric", "A turn begins with two cards drawn; the bot took one of each."),
        Step(
            RIVAL,
            "set bell + green/blue, earn green",
            "The bot made a set and took a green token. A bell turns a negative token positive at the end.",
        ),
        Step(
            RIVAL,
            "set mannequin + green/black, earn green",
            "A second set: up to two sets per turn. The mannequin adds a victory point token to "
            "green, so green is worth more to everybody now.",
        ),
        Step(RIVAL, "pass", "The bot ends its turn."),
        Step(
            YOU,
            "draw 1 style + 1 fabric",
            "Draw two cards, one of each kind.",
            "One of each keeps your hand able to make sets; choose the split before you draw.",
        ),
        Step(
            YOU,
            "set oval + orange/pink, earn orange",
            "Make a set of your oval style and the orange/pink fabric, and take an orange token.",
            "Orange's victory point token is worth 3, and the bot has no orange yet. You take the "
            "lowest-numbered token left in the colour's row.",
        ),
        Step(
            YOU,
            "peek at orange 2",
            "The oval lets you look at a face-down orange token: look at orange 2.",
            "Orange 2 is the next token anyone will take in orange: knowing whether it is good or "
            "bad tells you whether to go on collecting orange.",
            wrong="An oval shows you one face-down token of the set's colour; in this lesson, look "
            "at orange 2, the next one to be taken.",
        ),
        Step(
            YOU,
            "pass",
            "End your turn (pass).",
            "You could make a second set, but keeping cards in hand leaves you choices next turn; "
            "more than five cards in hand at the end of a turn must be discarded.",
        ),
    ),
    feel="A light card game of timing and bluff: collect colours, peek at hidden tokens, and judge "
    "which colours are worth the race.",
    minutes=(20, 30),
    goodbye="That is a turn: draw two, make up to two sets, pass. The game ends once two colours are "
    "used up or someone owns ten sets. The game goes on against a gentle bot: good luck!",
)
