"""Hatairo's guided first game (the shape is parlour.engine.tutorial's): the set-up choices, a
pigment gained from the Market and a first flag painted into the gallery."""

from parlour.engine.tutorial import Step, Tutorial

YOU, RIVAL = 0, 1

TUTORIAL = Tutorial(
    seed=7,
    players=2,
    welcome="You paint flags into your gallery, a grid of twelve spaces. Each flag needs pigments of "
    "its colours; a finished flag earns its points, and the game ends when a painter fills her "
    "gallery. First you keep three of the nine cards you were dealt.",
    steps=(
        Step(
            YOU,
            "keep Austria in palette",
            "Keep Austria in your palette.",
            "A card kept in the palette counts as one pigment of its bonus colour: Austria gives you "
            "Red, which most of your cards need.",
        ),
        Step(
            YOU,
            "keep Iran in atelier",
            "Keep Iran in your atelier.",
            "The atelier holds sketches, flags you mean to paint later. Iran needs only Green and "
            "Red and is worth 3 points.",
        ),
        Step(
            YOU,
            "keep Bahrain in palette",
            "Keep Bahrain in your palette too.",
            "Another Red pigment: with two pigments of one colour you may pay for one pigment of any colour.",
        ),
        Step(
            YOU,
            "topography Landlocked under column 1",
            "Lay your Landlocked tile under column 1.",
            "Each topography tile scores for the flags of its column that match it: the more "
            "matching flags, the more points.",
        ),
        Step(
            YOU,
            "topography Coastal under column 2",
            "Lay your Coastal tile under column 2.",
            "Iran is a coastal country: painted in column 2, it will count for this tile.",
        ),
        Step(
            YOU,
            "topography Island under column 3",
            "Lay your Island tile under column 3; the fourth tile goes under the last column.",
            "Where the tiles lie is for you to plan; any order is allowed.",
        ),
        Step(
            RIVAL, "keep Turkmenistan in palette", "Yellow keeps its cards too, hidden from you until both have chosen."
        ),
        Step(RIVAL, "keep Macau in palette", "Yellow keeps a second card."),
        Step(RIVAL, "keep Haiti in palette", "Yellow keeps a third card."),
        Step(RIVAL, "topography Coastal under column 1", "Yellow lays its topography tiles."),
        Step(RIVAL, "topography Island under column 2", "Yellow lays a second tile."),
        Step(RIVAL, "topography Landlocked under column 3", "Yellow lays its last tile; now both choices are shown."),
        Step(
            YOU,
            "gain Bulgaria as Green pigment",
            "Take Bulgaria, at the right end of the bottom Market row, as a Green pigment.",
            "Only the rightmost card of a row can be taken. With Green in your palette you can pay "
            "for Iran next turn: it needs Green and Red.",
        ),
        Step(RIVAL, "gain Saint Kitts and Nevis as Black pigment", "Yellow gains a Black pigment from the Market."),
        Step(
            YOU,
            "complete Iran",
            "Complete Iran, the sketch in your atelier.",
            "Completing pays the flag's pigments (Green and Red) and paints it into your gallery.",
        ),
        Step(
            YOU,
            "place at row 1 column 2",
            "Paint Iran in row 1, column 2.",
            "Column 2 has your Coastal tile, and Iran is coastal: the tile scores for it. Flags "
            "painted next to Iran later will pay you a pigment of Iran's bonus colour.",
            wrong="Any empty space is allowed; in this lesson, use row 1, column 2, above your Coastal tile.",
        ),
    ),
    feel="A calm puzzle of collecting and planning: gather pigments, paint flags into a grid, and "
    "arrange them so that rows and columns score.",
    minutes=(30, 60),
    goodbye="That is the heart of Hatairo: reserve sketches, gain pigments, complete flags. Motifs "
    "placed when a Market row runs out reward the flags of a column or a row. The game goes on "
    "against a gentle bot: good luck!",
)
