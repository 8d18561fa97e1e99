"""Yamataï's guided first game (the shape is parlour.engine.tutorial's): a whole turn of fleet tile,
trade, boats and a culture token, after the bot's own first turn."""

from parlour.engine.tutorial import Step, Tutorial

YOU, RIVAL = 0, 1

TUTORIAL = Tutorial(
    seed=7,
    players=2,
    welcome="You build a capital in Queen Himiko's archipelago. Each turn you take a fleet tile and "
    "its boats, may trade one boat, sail boats onto the sea as one chain, then collect culture "
    "tokens from the islands they touch or raise a building. Prestige points decide the winner.",
    steps=(
        Step(RIVAL, "take fleet tile 4", "The bot starts: it takes a fleet tile and the boats it shows."),
        Step(RIVAL, "sell a clay boat", "It sells a boat for coins: one trade per turn is allowed."),
        Step(RIVAL, "place wood boat at S078", "It sails a boat into the archipelago."),
        Step(RIVAL, "use the fleet power", "Each fleet tile has a power, usable once in that turn."),
        Step(RIVAL, "put sacred ground on I28", "This power puts sacred ground on an island."),
        Step(RIVAL, "collect the token on I29", "Its boat touches an island: it collects that island's culture token."),
        Step(
            YOU,
            "take fleet tile 6",
            "Take fleet tile 6.",
            "Every turn starts with a face-up fleet tile: you get the boats it shows, and its power for this turn.",
        ),
        Step(
            YOU,
            "sell a clay boat",
            "Sell your clay boat.",
            "Trading is optional: one boat bought or sold. Clay sells for 2 coins, and coins count "
            "for prestige at the end.",
            wrong="Trading is optional; in this lesson, sell the clay boat.",
        ),
        Step(
            YOU,
            "place bamboo boat at S063",
            "Place your bamboo boat on the highlighted entry spot.",
            "A turn's first boat goes on a free entry spot at the edge, or next to a boat of its own "
            "colour; the next ones continue the chain.",
            wrong="A first boat goes on an entry spot or next to a boat of its colour; in this "
            "lesson, use the spot highlighted for you.",
        ),
        Step(
            YOU,
            "collect the token on I22",
            "Collect the culture token of the island your boat touches.",
            "Each boat placed this turn may take one token from an island it touches. Tokens recruit "
            "specialists, who bring lasting powers and prestige.",
        ),
        Step(
            YOU,
            "end the turn",
            "End your turn.",
            "Boats you did not place wait in your harbour, which keeps one.",
        ),
    ),
    feel="A rich building game: sail chains of boats across an archipelago, raise buildings, and "
    "recruit specialists whose powers grow your plans.",
    minutes=(45, 90),
    goodbye="That was one whole turn. Building instead of collecting needs an empty island touched "
    "by a boat of this turn, with the boats its tile asks for around it. The game goes on against "
    "a gentle bot: good luck!",
)
