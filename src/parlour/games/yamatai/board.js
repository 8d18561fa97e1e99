// Yamataï: the archipelago (hex islands with their culture tokens, mountains and buildings; the
// boat spots between them with the boats placed there), the fleet track, the building row, the
// specialist track and each player's mat (coins, harbour, culture tokens, buildings, specialists).
// Island and spot positions come from the game's board data file.
//
// Clicks: a fleet tile; a boat of your hand, then the spot for it; an island to collect from; a
// building tile of the row, then the island to build it on; a specialist to recruit; islands and
// spots for the fleet powers. Trading, paying and ending steps are buttons.

import { gameData } from "/js/api.js";
import { cap, h, plural, s, svg, target } from "/js/dom.js";

const UNIT = 46;
const BOAT = { bamboo: "#5aa832", wood: "#8b5a2b", stone: "#555", clay: "#c8553d", gold: "#e0b000" };
const CULTURE = { orange: "#f08c00", green: "#37b24d", violet: "#7048e8", blue: "#1c7ed6", beige: "#d8c3a5", pink: "#e64980" };
// Players' colours are deep tones of their names that no culture token or boat has.
const PLAYER = { blue: "#1b2f6b", orange: "#b34700", purple: "#4b1d5e", grey: "#2f3437" };
const SEAT_COLOURS = ["blue", "orange", "purple", "grey"]; // PLAYER_COLOURS of components.py, by seat
const RESOURCES = ["bamboo", "wood", "stone", "clay", "gold"];
let BOARD = null;

/** An island by its number ("island 14"), not by its key (I14). */
function islandName(id) {
  return `island ${Number(id.slice(1))}`;
}

/** A boat spot has no name of its own: it is called by the islands it touches ("the spot by
 * islands 7 and 14"), not by its key (S037). */
function spotName(id) {
  const spot = BOARD && BOARD.spots.find((entry) => entry.id === id);
  if (!spot) return "a boat spot";
  const numbers = spot.islands.map((island) => Number(island.slice(1)));
  const islands = numbers.length > 1 ? `islands ${numbers.slice(0, -1).join(", ")} and ${numbers[numbers.length - 1]}` : `island ${numbers[0]}`;
  return `the ${spot.entry ? "entry " : ""}spot by ${islands}`;
}
let TILES = {};
let FLEET = {};
let PRICES = {};
// The steps of a fleet power (the view's phase names): while one of them is on, the power is in use.
const POWER_STEPS = ["swap culture tokens", "place sacred ground", "move a boat", "reserve a building", "swap boats", "remove a boat", "preview buildings"];

/** A fleet tile's power in words, without the data file's pointer for maintainers ("see rules.md 9"). */
function powerText(fleet) {
  return (fleet.power_text || "").replace(/\s*\(see rules\.md[^)]*\)/, "");
}

/** What a building tile needs, in words ("2 wood + 1 stone"). */
function tileCost(tile) {
  return RESOURCES.filter((r) => Number(tile[r])).map((r) => `${tile[r]} ${r}`).join(" + ");
}

/** A building tile by what it is, never by its code (B04, P07): "the standard building (1 PP, 2 wood)". */
function tileName(id) {
  const tile = TILES[id];
  if (!tile) return "a building tile";
  return `the ${tile.type === "standard" ? "standard building" : tile.type} (${tile.pp} PP, ${tileCost(tile)})`;
}

function hexPoints(cx, cy, r) {
  const points = [];
  for (let i = 0; i < 6; i++) {
    const angle = (Math.PI / 3) * i + Math.PI / 6;
    points.push(`${(cx + r * Math.cos(angle)).toFixed(1)},${(cy + r * Math.sin(angle)).toFixed(1)}`);
  }
  return points.join(" ");
}

function building(kind, cx, cy) {
  if (!kind) return null;
  return s("g", { "data-info": `piece:${kind}` }, buildingShape(kind, cx, cy));
}

function buildingShape(kind, cx, cy) {
  if (kind === "torii") return s("path", { d: `M${cx - 12} ${cy - 8} H${cx + 12} M${cx - 9} ${cy - 3} H${cx + 9} M${cx - 7} ${cy - 8} V${cy + 12} M${cx + 7} ${cy - 8} V${cy + 12}`, stroke: "#c92a2a", "stroke-width": 4, "stroke-linecap": "round" });
  if (kind === "palace") return s("path", { d: `M${cx - 14} ${cy + 10} V${cy - 2} L${cx} ${cy - 14} L${cx + 14} ${cy - 2} V${cy + 10}Z`, fill: "#fab005", stroke: "#5f3dc4", "stroke-width": 3 });
  if (kind === "sacred ground") return s("circle", { cx, cy, r: 12, fill: "#fff", stroke: "#c92a2a", "stroke-width": 4 });
  return s("path", { d: `M${cx - 11} ${cy + 10} V${cy - 3} L${cx} ${cy - 12} L${cx + 11} ${cy - 3} V${cy + 10}Z`, fill: PLAYER[kind] || "#999", stroke: "#222", "stroke-width": 2 });
}

function drawBoard(view) {
  const xs = [...BOARD.islands, ...BOARD.spots].map((p) => p.x);
  const ys = [...BOARD.islands, ...BOARD.spots].map((p) => p.y);
  const minX = Math.min(...xs) - 1.2;
  const minY = Math.min(...ys) - 1.2;
  const width = (Math.max(...xs) - minX + 1.2) * UNIT;
  const height = (Math.max(...ys) - minY + 1.2) * UNIT;
  const X = (x) => (x - minX) * UNIT;
  const Y = (y) => (y - minY) * UNIT;
  const parts = [s("rect", { x: 0, y: 0, width, height, rx: 14, fill: "#a5d8ff" })];
  const state = Object.fromEntries(view.islands.map((island) => [island.id, island]));
  for (const island of BOARD.islands) {
    const here = state[island.id] || {};
    const cx = X(island.x);
    const cy = Y(island.y);
    const piece = [s("polygon", { points: hexPoints(cx, cy, UNIT * 0.8), fill: here.mountain ? "#b5a58a" : "#d3e6b5", stroke: "#6b8e4e", "stroke-width": 2 })];
    if (here.mountain) piece.push(s("path", { d: `M${cx - 20} ${cy + 18} L${cx - 8} ${cy + 2} L${cx} ${cy + 12} L${cx + 8} ${cy} L${cx + 20} ${cy + 18}Z`, fill: "#8d7b68", opacity: 0.6 }));
    if (here.token) piece.push(s("circle", { cx, cy: cy - 6, r: 11, fill: CULTURE[here.token] || "#eee", stroke: here.mountain ? "#111" : "#fff", "stroke-width": 2.5 }));
    piece.push(building(here.building, cx, cy + (here.token ? 12 : 0)));
    piece.push(s("text", { x: cx, y: cy + UNIT * 0.62, "text-anchor": "middle", "font-size": 9, fill: "#3d5a2a", text: String(Number(island.id.slice(1))) }));
    piece.push(s("polygon", { class: "hit", points: hexPoints(cx, cy, UNIT * 0.74) }));
    const words = [islandName(island.id), here.mountain ? "mountain" : null, here.token ? `${here.token} culture token` : null, here.building ? (here.tile && TILES[here.tile] ? tileName(here.tile).replace(/^the /, "") : here.building) : null].filter(Boolean).join(", ");
    parts.push(target(`isl:${island.id}`, words, ...piece));
  }
  const entries = new Set(BOARD.meta.entry_spots);
  const placed = new Set(view.turn ? view.turn.placed : []);
  const lastPlaced = view.turn ? view.turn.last_placed : null;
  for (const spot of BOARD.spots) {
    const cx = X(spot.x);
    const cy = Y(spot.y);
    const boat = view.boats[spot.id];
    const piece = [s("circle", { cx, cy, r: 9, fill: entries.has(spot.id) ? "#fff3bf" : "#e7f5ff", stroke: "#4dabf7", "stroke-width": 1.5 })];
    // The boat placed last is the end of this turn's chain: the next boat goes next to it (R42).
    if (spot.id === lastPlaced) piece.push(s("circle", { cx, cy, r: 15, fill: "none", stroke: "#5f3dc4", "stroke-width": 2.5, "stroke-dasharray": "4 2" }));
    // A boat's colour is all it is: one that left a spot and showed at another slides there (a
    // fleet power's move or swap), found by comparing the drawings (web/js/motion.js).
    if (boat) piece.push(s("path", { "data-motion": `boat:${boat}`, d: `M${cx - 11} ${cy - 2} H${cx + 11} L${cx + 6} ${cy + 7} H${cx - 6}Z M${cx} ${cy - 2} V${cy - 12} L${cx + 7} ${cy - 4}Z`, fill: BOAT[boat], stroke: placed.has(spot.id) ? "#fff" : "#222", "stroke-width": placed.has(spot.id) ? 2.5 : 1 }));
    piece.push(s("circle", { class: "hit", cx, cy, r: 16 })); // 44 px and more on a phone (style.css)
    parts.push(target(`spot:${spot.id}`, `${cap(spotName(spot.id))}${boat ? `: ${boat} boat` : ""}${spot.id === lastPlaced ? ", placed last" : ""}`, ...piece));
  }
  const drawing = svg(width, height, "The archipelago", ...parts);
  drawing.classList.add("wide", "archipelago");
  return drawing;
}

function costDots(tile, x, y) {
  const dots = [];
  let i = 0;
  for (const resource of RESOURCES) for (let k = 0; k < Number(tile[resource] || 0); k++) dots.push(s("circle", { cx: x + 8 + (i++) * 13, cy: y, r: 5.5, fill: BOAT[resource], stroke: "#0006" }));
  return dots;
}

function tileCard(id, x, y, key) {
  const tile = TILES[id] || {};
  const parts = [s("rect", { x, y, width: 86, height: 62, rx: 7, fill: tile.type === "standard" ? "#fff" : "#fff4e6", stroke: "#8a7f72" }),
    s("text", { x: x + 6, y: y + 15, "font-size": 11, "font-weight": 700, text: `${tile.pp ?? "?"} PP` }),
    s("text", { x: x + 6, y: y + 30, "font-size": 10, fill: "#6f655b", text: tile.type || "" }),
    ...costDots(tile, x, y + 46), s("rect", { class: "hit", x: x - 2, y: y - 2, width: 90, height: 66, rx: 8 })];
  const words = `${cap(tileName(id).replace(/^the /, ""))}: needs ${tileCost(tile)}`;
  // A building tile slides from the row (or the reserve) to where it is built, and turns over in the row.
  return moving(key ? target(key, words, ...parts) : s("g", {}, s("title", { text: words }), ...parts), `bldg:${id}`, id);
}

/** A component the table animates when another seat's move changes it (web/js/motion.js). */
function moving(node, id, face) {
  node.dataset.motion = id;
  if (face !== undefined) node.dataset.face = face;
  return node;
}

function drawTracks(view) {
  const parts = [];
  const width = 10 * 60 + 20;
  parts.push(s("text", { x: 8, y: 16, "font-size": 12, "font-weight": 700, text: `Fleet track (round ${view.round})` }));
  view.fleet_track.forEach((slot, i) => {
    const x = 8 + i * 60;
    const taken = view.fleet_tiles_taken.includes(slot.tile);
    const fleet = FLEET[slot.tile] || {};
    const piece = [s("rect", { x, y: 24, width: 54, height: 54, rx: 6, fill: slot.tile === null && !slot.face_up ? "#dee2e6" : taken || slot.tile === null ? "#f8f9fa" : "#fff", stroke: "#495057", "stroke-dasharray": slot.tile === null && slot.face_up ? "4 3" : "" }),
      // A face-up slot without a tile was taken this round; a face-down one is still hidden.
      s("text", { x: x + 27, y: 50, "text-anchor": "middle", "font-size": slot.tile === null && slot.face_up ? 11 : 18, "font-weight": 700, fill: taken || slot.face_up === true && slot.tile === null ? "#868e96" : "#212529", text: slot.tile ?? (slot.face_up ? "taken" : "?") }),
      ...(slot.tile !== null ? costDots(fleet, x - 2, 68) : []),
      s("rect", { class: "hit", x: x - 2, y: 22, width: 58, height: 58, rx: 7 })];
    const words = slot.tile === null ? `fleet position ${slot.position}: ${slot.face_up ? "its tile was taken this round" : "face down"}` : `fleet tile ${slot.tile}: ${powerText(fleet)}`;
    // A fleet position turns over when its tile is revealed or taken.
    const drawn = slot.tile === null ? s("g", {}, s("title", { text: words }), ...piece) : target(`fleet:${slot.tile}`, words, ...piece);
    parts.push(moving(drawn, `fleet:${slot.position}`, slot.tile === null ? (slot.face_up ? "taken" : "down") : `${slot.tile}${taken ? " taken" : ""}`));
  });
  parts.push(s("text", { x: 8, y: 102, "font-size": 12, "font-weight": 700, text: `Building row (deck ${view.building_deck})` }));
  view.building_row.forEach((id, i) => id && parts.push(tileCard(id, 8 + i * 94, 110, `bldg:${id}`)));
  parts.push(s("text", { x: 8, y: 196, "font-size": 12, "font-weight": 700, text: `Specialists (deck ${view.specialist_deck})` }));
  view.specialist_track.forEach((entry, i) => {
    const x = 8 + i * 120;
    if (!entry.specialist) {
      parts.push(s("rect", { x, y: 204, width: 114, height: 44, rx: 7, fill: "#f8f9fa", stroke: "#ced4da", "stroke-dasharray": "4 3" }));
      return;
    }
    // A specialist turns over where it is dealt and travels to the mat of the player who recruits it.
    parts.push(moving(target(`spec:${entry.specialist}`, `${entry.specialist} (${plural(entry.coins, "coin")} on it)`,
      s("rect", { x, y: 204, width: 114, height: 44, rx: 7, fill: "#f3f0ff", stroke: "#7048e8" }),
      s("text", { x: x + 57, y: 222, "text-anchor": "middle", "font-size": 11, "font-weight": 700, text: entry.specialist }),
      s("text", { x: x + 57, y: 239, "text-anchor": "middle", "font-size": 10, fill: "#6f655b", text: plural(entry.coins, "coin") }),
      s("rect", { class: "hit", x: x - 2, y: 202, width: 118, height: 48, rx: 8 })), `spec:${entry.specialist}`, entry.specialist));
  });
  const drawing = svg(Math.max(width, 5 * 120 + 16), 256, "Fleet track, building row and specialists", ...parts);
  drawing.classList.add("wide");
  return drawing;
}

function drawHand(view) {
  const hand = view.turn && view.turn.hand ? view.turn.hand : {};
  const parts = [];
  let x = 8;
  for (const resource of RESOURCES) {
    const count = hand[resource] || 0;
    if (!count) continue;
    parts.push(target(`boat:${resource}`, `${count} ${resource} boat${count > 1 ? "s" : ""} to place`,
      s("rect", { x, y: 4, width: 80, height: 40, rx: 8, fill: "#fff", stroke: BOAT[resource], "stroke-width": 2 }),
      s("path", { d: `M${x + 10} 20 H${x + 40} L${x + 34} 32 H${x + 16}Z`, fill: BOAT[resource] }),
      s("text", { x: x + 46, y: 29, "font-size": 12, "font-weight": 700, text: `×${count}` }),
      s("rect", { class: "hit", x: x - 2, y: 2, width: 84, height: 44, rx: 9 })));
    x += 88;
  }
  if (x === 8) return null;
  return svg(x + 4, 48, "Boats in your hand", ...parts);
}

function drawMat(mat, seat, context) {
  const culture = Object.entries(mat.culture).filter(([, n]) => n).map(([c, n]) => h("span", { class: "chip", style: `border-color:${CULTURE[c]}` }, `${c} ×${n}`));
  const harbour = Object.entries(mat.harbour).filter(([, n]) => n).map(([r, n]) => h("span", { class: "chip", style: `border-color:${BOAT[r]}` }, `${r} ×${n}`));
  const tiles = (ids, title, clickable) => {
    const drawing = svg(ids.length * 94 + 6, 70, title, ...ids.map((id, i) => tileCard(id, 4 + i * 94, 4, clickable ? `bldg:${id}` : null)));
    drawing.classList.add("tiles");
    return drawing;
  };
  return h("div", { class: "mat" },
    h("h3", { class: "seat-title", style: `--seat:${PLAYER[mat.colour]}` }, `${context.names[seat]} — ${mat.colour}${seat === context.seat ? " — you" : ""}`),
    h("p", {}, `${plural(mat.coins, "coin")} · ${plural(mat.pp_tokens, "PP token")} · ${plural(mat.buildings_left, "building")} left · ${plural(mat.discarded, "boat")} discarded`),
    h("p", {}, "Culture: ", ...(culture.length ? culture : ["none"]), " · Harbour: ", ...(harbour.length ? harbour : ["empty"])),
    h("p", {}, "Specialists: ", ...(mat.specialists.length ? mat.specialists.map((name, i) => h("span", { "data-info": `spec:${name}`, "data-motion": `spec:${name}`, class: "named" }, i ? `, ${name}` : name)) : ["none"])),
    mat.built.length ? h("div", { class: "strip" }, h("small", {}, "Built:"), tiles(mat.built, "Built buildings", false)) : null,
    mat.reserved.length ? h("div", { class: "strip" }, h("small", {}, "Reserved (may be built later):"), tiles(mat.reserved, "Reserved buildings", true)) : null);
}

/** The building tiles the preview power let this seat look at, drawn as tiles to click: one, then
 * the row tile it replaces (or, once the row is settled, the next one to put back on the deck). */
function drawPreview(view) {
  const seen = view.turn && Array.isArray(view.turn.preview) ? view.turn.preview : [];
  if (!seen.length) return null;
  const drawing = svg(seen.length * 94 + 6, 70, "Building tiles you looked at", ...seen.map((id, i) => tileCard(id, 4 + i * 94, 4, `peek:${id}`)));
  drawing.classList.add("tiles");
  return h("div", { class: "strip", id: "preview" }, h("strong", {}, "Building tiles you looked at (from the top of the deck):"), drawing);
}

/** What the seat knows of the building deck's hidden top: tiles another player's preview put back
 * within its top N (`deck_known_within`), and the top tiles it saw itself (`known_deck_top`). */
function deckNote(view) {
  const near = view.deck_known_within || [];
  const top = view.known_deck_top || [];
  if (!near.length && !top.length) return null;
  const name = tileName;
  const parts = [];
  if (top.length) parts.push(`you saw the top of the building deck: ${top.map(name).join(", ")} (top first)`);
  for (const fact of near) parts.push(`${name(fact.tile)} lies within the building deck's top ${fact.within}`);
  return h("p", { class: "note", id: "deck-known" }, `Known of the building deck: ${parts.join("; ")}.`);
}

/** This turn's fleet tile and its power, for the player whose turn it is. */
function powerNote(view, context) {
  const turn = view.turn || {};
  if (!turn.fleet_tile || turn.seat === null || turn.seat === undefined) return null;
  const fleet = FLEET[turn.fleet_tile] || {};
  const who = turn.seat === context.seat ? "Your" : `${context.names[turn.seat]}'s`;
  const using = POWER_STEPS.some((step) => String(turn.phase || "").startsWith(step));
  const state = using ? "in use now" : turn.power_available ? "not used yet" : "used or no longer available";
  return h("p", { class: "note", id: "fleet-power" }, `${who} fleet tile ${turn.fleet_tile}: ${powerText(fleet) || "no power"} (${state})`);
}

/** The lobby's picture of the game, drawn with the table's own pieces: islands, tokens, boats, a building. */
function picture() {
  const islands = [[60, 50, "orange"], [130, 90, "green"], [200, 50, null], [270, 90, "violet"]];
  const parts = [s("rect", { x: 0, y: 0, width: 330, height: 140, rx: 12, fill: "#a5d8ff" })];
  for (const [cx, cy, culture] of islands) {
    parts.push(s("polygon", { points: hexPoints(cx, cy, 38), fill: "#d3e6b5", stroke: "#6b8e4e", "stroke-width": 2 }));
    if (culture) parts.push(s("circle", { cx, cy, r: 12, fill: CULTURE[culture], stroke: "#222" }));
  }
  parts.push(buildingShape("blue", 200, 50), buildingShape("torii", 270, 122));
  ["bamboo", "wood", "stone", "clay"].forEach((boat, i) =>
    parts.push(s("ellipse", { cx: 95 + i * 50, cy: 122 - (i % 2) * 52, rx: 13, ry: 6, fill: BOAT[boat], stroke: "#222" })));
  return svg(330, 140, "Yamataï: islands with culture tokens, boats on the sea between them, a building and a torii", ...parts);
}

export default {
  picture,
  /** The colours of the players and of the components, kept apart (tests/web/test_table_explains.py). */
  palette: { players: Object.values(PLAYER), components: [...Object.values(CULTURE), ...Object.values(BOAT)] },

  async prepare(summary) {
    const [board, tiles, fleet, prices] = await Promise.all([gameData(summary.game, "board.toml"), gameData(summary.game, "building_tiles.csv"), gameData(summary.game, "fleet_tiles.csv"), gameData(summary.game, "trade_prices.csv")]);
    PRICES = Object.fromEntries(prices.map((row) => [row.resource, row]));
    BOARD = board;
    TILES = Object.fromEntries(tiles.map((t) => [t.id, t]));
    FLEET = Object.fromEntries(fleet.map((t) => [Number(t.number), t]));
  },

  /** The players' panel: coins, PP tokens, buildings still to build and specialists. */
  panel(view, seat) {
    const mat = view.mats[seat];
    return { items: [plural(mat.coins, "coin"), plural(mat.pp_tokens, "PP token"), `${plural(mat.buildings_left, "building")} left`, plural(mat.specialists.length, "specialist")] };
  },

  colour(view, seat) {
    return PLAYER[view.mats[seat].colour];
  },

  /** The engine's words with names for its codes: a building tile by its kind and PP, an island and a
   * spot called so, a fleet power by what it does (not its key, as in "fleet tile 6: move_boat"). */
  phrase(text, names) {
    return text
      // "turn order: blue, purple" names the players: seat n plays the n-th colour (components.py).
      .replace(/turn order: ([a-z]+(?:, [a-z]+)*)/, (words, colours) => (names ? `turn order: ${colours.split(", ").map((c) => names[SEAT_COLOURS.indexOf(c)] || c).join(", ")}` : words))
      .replace(/(fleet tile (\d+)): [a-z]+(?:_[a-z]+)+/g, (words, head, n) => (FLEET[Number(n)] ? `${head} (${powerText(FLEET[Number(n)])})` : words))
      // A tile's code, and the kind and PP the engine may give after it, become the tile's name.
      .replace(/\b(?:the )?([BP]\d\d)\b(?: \([a-z ]+, \d+ PP\))?/g, (words, code) => (TILES[code] ? tileName(code) : words))
      .replace(/(?:\bisland )?\b(I\d\d)\b/g, (_, id) => islandName(id))
      .replace(/(?:\bspot )?\b(S\d\d\d)\b/g, (_, id) => spotName(id));
  },

  /** The glossary entry a move button stands for: a trade, whose text gives both prices. */
  info(action) {
    return action.kind === "buy" || action.kind === "sell" ? `trade:${action.resource}` : null;
  },

  /** A move button's words: a trade says its price (the mat's prices, trade_prices.csv). */
  label(action) {
    const price = PRICES[action.resource];
    if (action.kind === "buy" && price) return `Buy ${action.resource} · ${plural(price.buy_price, "coin")}`;
    if (action.kind === "sell" && price) return `Sell ${action.resource} · +${plural(price.sell_price, "coin")}`;
    return this.phrase(action.label);
  },

  draw(view, context) {
    const turn = view.turn || {};
    // The turn order by the players' names (their colours are the mats' and boats' business).
    const names = Object.fromEntries(view.mats.map((mat, seat) => [mat.colour, (context.names || [])[seat] || mat.colour]));
    const order = view.turn_order.map((c, i) => (i === view.turn_index ? `[${names[c] || c}]` : names[c] || c)).join(" → ");
    const hand = drawHand(view);
    return h("div", { class: "yamatai" },
      h("p", { class: "muted" }, `Round ${view.round} · turn order ${order} · phase: ${turn.phase || "–"}${turn.fleet_tile ? ` · fleet tile ${turn.fleet_tile}` : ""} · reserve ${RESOURCES.map((r) => `${r} ${view.reserve[r]}`).join(", ")} · sacred ground ${view.sacred_ground_left}${view.end_reason ? ` · ended: ${view.end_reason}` : ""}`),
      powerNote(view, context),
      deckNote(view),
      drawPreview(view),
      hand ? h("div", { class: "strip" }, h("strong", {}, { "place boats": "Boats to place:", trade: "Boats in hand (placed after trading):" }[turn.phase] || "Boats left in hand:"), hand) : null,
      drawBoard(view), drawTracks(view),
      // One's own mat first (the one played from), then the others in seat order.
      h("div", { class: "mats" }, ...view.mats.map((mat, seat) => [mat, seat]).sort(([, a], [, b]) => (b === context.seat) - (a === context.seat)).map(([mat, seat]) => drawMat(mat, seat, context))));
  },

  keys(action) {
    switch (action.kind) {
      case "fleet": return [`fleet:${action.tile}`];
      case "place": return [`boat:${action.resource}`, `spot:${action.spot}`];
      case "collect": case "swap_token_from": case "swap_token_to": case "sacred_ground": return [`isl:${action.island}`];
      case "build": return [`bldg:${action.tile}`, `isl:${action.island}`];
      case "reserve": return [`bldg:${action.tile}`];
      case "recruit": return [`spec:${action.specialist}`];
      case "preview_swap": return [`peek:${action.tile}`, `bldg:${action.row_tile}`];
      case "preview_return": return [`peek:${action.tile}`];
      case "move_from": case "move_to": case "swap_boat_from": case "swap_boat_to": case "remove_boat": return [`spot:${action.spot}`];
      default: return [];
    }
  },

  /** The islands, spots and tiles an event touched, marked until the next move. */
  touched(event) {
    const keys = [];
    if (event.island) keys.push(`isl:${event.island}`);
    if (event.spot) keys.push(`spot:${event.spot}`);
    if (typeof event.tile === "number") keys.push(`fleet:${event.tile}`);
    return keys;
  },

  describe(key) {
    const [kind, value] = key.split(":");
    if (kind === "isl") return islandName(value);
    if (kind === "spot") return spotName(value);
    if (kind === "bldg" || kind === "peek") return tileName(value);
    const words = { fleet: "fleet tile", boat: "a boat:", spec: "the specialist" };
    return `${words[kind] || kind} ${value}`;
  },

  prompt(view, legal) {
    const kinds = new Set(legal.map((a) => a.kind));
    const goOn = ["stop_placing", "stop_collecting", "skip_collect_build", "no_recruit", "end_trade"];
    // A step with nothing to do waits here only because the fleet power could open it (R41).
    if (kinds.has("use_power") && legal.every((a) => a.kind === "use_power" || goOn.includes(a.kind))) return "nothing to do at this step unless your fleet tile's power opens it: use the power, or go on (the buttons).";
    const power = kinds.has("use_power") ? " You may also use your fleet tile's power (its button)." : "";
    return this.step(kinds) + power;
  },

  step(kinds) {
    if (kinds.has("fleet")) return "take a fleet tile.";
    if (kinds.has("buy") || kinds.has("sell")) return "trade a boat with the reserve, or end trading.";
    if (kinds.has("place")) return "click a boat of your hand, then the spot for it.";
    if (kinds.has("collect") || kinds.has("build")) return "collect a culture token from an island, or click a building, then the island to build on.";
    if (kinds.has("recruit")) return "recruit a specialist, or none.";
    if (kinds.has("keep")) return "choose the boats to keep in your harbour.";
    if (kinds.has("pay")) return "choose how to pay for the specialist.";
    if (kinds.has("swap_token_from") || kinds.has("swap_token_to")) return "fleet power: click the islands whose culture tokens swap.";
    if (kinds.has("sacred_ground")) return "fleet power: click the island for the sacred ground.";
    if (kinds.has("move_from")) return "fleet power: click the boat to move.";
    if (kinds.has("move_to")) return "fleet power: click the spot it moves to.";
    if (kinds.has("swap_boat_from") || kinds.has("swap_boat_to")) return "fleet power: click the boats to swap.";
    if (kinds.has("remove_boat")) return "fleet power: click the boat to remove.";
    if (kinds.has("preview_swap") || kinds.has("preview_keep")) return "fleet power: click a building tile you looked at, then the tile of the row it replaces, or leave the row as it is.";
    if (kinds.has("preview_return")) return "fleet power: click the building tile to put back on top of the deck next (the last one put back is the top).";
    if (kinds.has("end_turn")) return "end your turn.";
    return "choose a move.";
  },

  guess(key, picker) {
    const [first] = picker.selection;
    if (key.startsWith("isl:") && first && first.startsWith("bldg:")) return `build ${first.slice(5)} on ${key.slice(4)}`;
    if (key.startsWith("isl:") && !first) return `collect the token on ${key.slice(4)}`;
    if (key.startsWith("spot:") && first && first.startsWith("boat:")) return `place ${first.slice(5)} boat at ${key.slice(5)}`;
    if (key.startsWith("fleet:")) return `take fleet tile ${key.slice(6)}`;
    return null;
  },
};
