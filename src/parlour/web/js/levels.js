// The bots' named levels and their calibrated ratings (GET /api/levels), shown where people pick an
// opponent (the lobby's seats, quick play) and beside people's ratings on the ratings page.

import { call } from "./api.js";

let asked = null;

/** The levels and every calibrated game's ratings (fetched once per page). */
export function levelRatings() {
  if (!asked) asked = call("/api/levels");
  return asked;
}

/** A level's (or an anchor's: "random", "greedy") rating in a game, or null where it is not rated. */
export function levelRating(levels, game, spec) {
  const calibrated = levels && levels.games[game];
  const rated = calibrated ? calibrated.ratings[spec] : null;
  return rated ? rated.rating : null;
}

/** "rating 17.4" for a bot spec in a game, or "" where it has none. */
export function ratingWords(levels, game, spec) {
  const rating = levelRating(levels, game, spec);
  return rating === null ? "" : `rating ${rating.toFixed(1)}`;
}

/** Every level with its rating in a game, in words: "Novice −3.0 · Casual 10.5 · …", or why not. */
export function levelsLine(levels, game) {
  if (!levels) return "";
  if (!levels.games[game]) return "The bot levels are not rated in this game yet.";
  const each = levels.levels.map((level) => `${level.name.charAt(0).toUpperCase()}${level.name.slice(1)} ${levelRating(levels, game, level.spec).toFixed(1)}`);
  return `Bot levels' ratings (two players): ${each.join(" · ")}.`;
}
