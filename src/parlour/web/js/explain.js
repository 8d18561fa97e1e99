// A table that explains itself: every component's words from the server (the game package's
// glossary, /api/games/<game>/components) as tooltips and in the action bar's detail line, rule
// numbers in the game's reasons turned into links to the rules, and seats called by their names.

import { call } from "./api.js";
import { botName } from "./bots.js";
import { h, s } from "./dom.js";
import { openRules } from "./rules.js";

const glossaries = new Map();

/** The game's component texts: {kinds: {kind: {key: text}}, names, tiebreak} (fetched once per page). */
export function glossary(game) {
  if (!glossaries.has(game)) glossaries.set(game, call(`/api/games/${game}/components`));
  return glossaries.get(game);
}

/** The text of a board key ("motif:3-for-2") or of a data-info key, or null. */
export function helpOf(words, key) {
  if (!words || !key) return null;
  const at = key.indexOf(":");
  const kinds = words.kinds || {};
  const texts = kinds[key.slice(0, at)];
  return (texts && texts[key.slice(at + 1)]) || null;
}

/** Give every component of a drawing that the glossary knows its full text: as its tooltip (an SVG
 * <title>, or a title attribute on HTML) and as data-help, which the detail line shows. */
export function annotate(root, words) {
  const nodes = [...root.querySelectorAll("[data-info], [data-key]")];
  for (const node of nodes) {
    const help = helpOf(words, node.dataset.info) || helpOf(words, node.dataset.key);
    if (help) node.dataset.help = help;
  }
  // A place (a square, an island) says what lies on it: the texts of the pieces it holds.
  for (const node of nodes) {
    if (node.dataset.help) continue;
    const held = [...new Set([...node.querySelectorAll("[data-help]")].map((piece) => piece.dataset.help))];
    if (held.length) node.dataset.help = held.join("\n");
  }
  for (const node of nodes) {
    const help = node.dataset.help;
    if (!help) continue;
    if (node instanceof SVGElement) {
      let title = [...node.children].find((child) => child.tagName === "title");
      if (!title) node.prepend((title = s("title")));
      const label = node.getAttribute("aria-label");
      title.textContent = label && !help.startsWith(label) ? `${label}\n${help}` : help;
    } else {
      node.title = help;
    }
  }
}

/** Names for the seats, never their numbers: a person's name, else the bot's name ("Random bot"),
 * with a count only when two seats would read alike. */
export function seatNames(seats) {
  const base = (seats || []).map((seat) => (seat.kind === "bot" ? botName(seat.agent) : seat.name || "free seat"));
  return base.map((name, i) => {
    const same = base.filter((other) => other === name).length;
    return same > 1 ? `${name} ${base.slice(0, i + 1).filter((other) => other === name).length}` : name;
  });
}

/** A game's sentence as nodes. The engine cites the specification's rulings ("(R8)", "R12"), which
 * the rules for players do not number: each citation becomes a link that opens the rules. */
export function withRuleLinks(game, text) {
  const parts = [];
  let last = 0;
  for (const match of text.matchAll(/\s*\(\s*R\d{1,3}(?:\s*[,–-]\s*R?\d{1,3})*\s*\)|\bR\d{1,3}\b/g)) {
    parts.push(text.slice(last, match.index), " (");
    parts.push(h("a", { href: "#rules", class: "rule-link", onclick: (event) => { event.preventDefault(); openRules(game); } }, "see the rules"));
    parts.push(")");
    last = match.index + match[0].length;
  }
  parts.push(text.slice(last));
  return parts;
}

/** The engine's words name seats by number ("seat 1 (orange) buys…"); a player reads their names. */
export function nameSeats(text, names) {
  return text.replace(/\b[Ss]eat (\d+)/g, (words, n) => names[Number(n)] || words);
}
