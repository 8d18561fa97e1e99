// What a bot is called at the table, in the lobby's lists and in the log: the one place that turns
// an agent spec ("mcts:iterations=200") into a player's words ("MCTS bot").

const KINDS = { random: "Random bot", greedy: "Greedy bot", mcts: "MCTS bot" };
const DEFAULT_ITERATIONS = "200";

/** A readable name for the bot an agent spec describes. */
export function botName(spec) {
  const [kind, ...settings] = String(spec || "").split(":");
  // A level (agents/levels.py) is named by its level: "level:club" is the "Club bot".
  if (kind === "level" && settings.length) return `${settings[0].charAt(0).toUpperCase()}${settings[0].slice(1)} bot`;
  const name = KINDS[kind] || `${kind.charAt(0).toUpperCase()}${kind.slice(1)} bot`;
  // A search bot that thinks longer than the usual one says so: two MCTS bots at a table differ.
  const iterations = /(?:^|,)iterations=(\d+)/.exec(settings.join(":"));
  return iterations && iterations[1] !== DEFAULT_ITERATIONS ? `${name} (${iterations[1]} simulations)` : name;
}
