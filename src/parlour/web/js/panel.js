// The players' panel: for each seat its mark and name, who is to move, its score as it stands (the
// breakdown on hover, or on a tap of the score) and the resources the game counts (coins, PP,
// pigments, cards…). The game's board module says what a seat has (`panel(view, seat)`); the score
// comes from the view (`scores_now` while the game runs, `scores` at the end), which a game gives
// only when everything the score counts is public.

import { h } from "./dom.js";

function fmt(value) {
  return Number.isInteger(value) ? String(value) : Number(value).toFixed(1);
}

/** What the panel shows of `seat`: the module's own words, or the score alone. */
function standing(module, view, seat) {
  const own = module.panel ? module.panel(view, seat) : null;
  const scores = view.scores || view.scores_now;
  const score = own && own.score !== undefined ? own : scores && scores[seat] ? { score: scores[seat].total, breakdown: scores[seat].breakdown } : {};
  return { score: score.score ?? null, breakdown: score.breakdown || null, items: (own && own.items) || [] };
}

/** One seat's score: a button whose title is the breakdown (hover) and that opens it (tap). */
function scoreButton(seat, { score, breakdown }, open) {
  const lines = Object.entries(breakdown || {}).map(([part, value]) => `${part}: ${fmt(value)}`);
  const detail = h("ul", { class: "breakdown", id: `breakdown-${seat}`, hidden: !open.has(seat) }, ...lines.map((line) => h("li", {}, line)));
  const button = h("button", {
    type: "button", class: "score", "aria-expanded": String(open.has(seat)), "aria-controls": detail.id,
    title: lines.length ? `Score as it stands — ${lines.join(", ")}` : "Score as it stands",
    onclick: () => {
      const shown = detail.hidden;
      detail.hidden = !shown;
      button.setAttribute("aria-expanded", String(shown));
      if (shown) open.add(seat);
      else open.delete(seat);
    },
  }, `${fmt(score)} ${Math.abs(Number(score)) === 1 ? "point" : "points"}`);
  return [button, lines.length ? detail : null];
}

/** The panel's list: `context` gives names, colours, the seat to move, this page's seat and
 * `expel(seat)`, a control beside a seat that may be expelled (or null); `open` is the set of seats
 * whose breakdown stays open across redraws. */
export function playerPanel(module, view, context, open) {
  return h("ul", {}, ...context.seats.map((_, seat) => {
    const shown = standing(module, view, seat);
    const [button, detail] = shown.score === null ? [null, null] : scoreButton(seat, shown, open);
    return h("li", { class: `player${seat === context.toMove ? " to-move" : ""}`, "data-seat": seat },
      h("div", { class: "player-head" },
        h("span", { class: `swatch shape-${seat % 4}`, style: `background:${context.colour(seat)}` }),
        h("span", { class: "player-name" }, context.names[seat], context.rating(seat), seat === context.seat ? " — you" : ""),
        button, context.expel ? context.expel(seat) : null),
      shown.items.length ? h("p", { class: "resources" }, shown.items.join(" · ")) : null,
      detail);
  }));
}
