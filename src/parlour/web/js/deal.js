// The deal's commitment (docs/server.md, "Fair deals"): shown while the game is on, checked by this
// page itself once the seed and salt are revealed: SHA-256 of the text "<salt>:<seed>" must be the
// commitment published when the table was created.

import { clear, h } from "./dom.js";

const HEX64 = /^[0-9a-f]{64}$/;
const DIGITS = /^(0|[1-9][0-9]*)$/;

function noteKey(tableId) {
  return `parlour.deal.${tableId}`;
}

function noted(tableId) {
  try {
    return JSON.parse(localStorage.getItem(noteKey(tableId)));
  } catch {
    return null;
  }
}

/** Keep the commitment the first time this browser sees a table, and whether the game was still on:
 * at the end the revealed deal is checked against what was noted, not only against what the server says then. */
export function noteDeal(tableId, deal) {
  if (!deal || !deal.commitment) return null;
  const kept = noted(tableId);
  if (kept && kept.commitment) return kept;
  const note = { commitment: deal.commitment, during: deal.seed === null };
  localStorage.setItem(noteKey(tableId), JSON.stringify(note));
  return note;
}

async function sha256Hex(text) {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((byte) => byte.toString(16).padStart(2, "0")).join("");
}

function howToVerify(tableId, deal) {
  return `parlour verify-deal ${location.origin}/invite/${tableId} --commitment ${deal.commitment}`;
}

/** What can be said of a table's deal now: {state, title, text}; state is one of
 * none, pending, verified, failed, unverifiable. */
export async function checkDeal(tableId, deal) {
  if (!deal || !deal.commitment) {
    return { state: "none", title: "Deal not committed", text: "This table was created before the server committed to its deals: there is nothing to verify." };
  }
  const note = noteDeal(tableId, deal);
  if (deal.seed === null || deal.salt === null) {
    return { state: "pending", title: deal.fixed ? "Fixed deal" : "Deal committed", text: "Seed and salt are revealed when the game is over, and this page then checks them against this commitment." };
  }
  if (note.commitment !== deal.commitment) {
    return { state: "failed", title: "DEAL NOT VERIFIED", text: `The commitment this browser saw during the game (${note.commitment}) is not the one the table shows now.` };
  }
  if (!HEX64.test(deal.salt) || !DIGITS.test(deal.seed)) {
    return { state: "failed", title: "DEAL NOT VERIFIED", text: "The revealed seed or salt is malformed." };
  }
  if (!(globalThis.crypto && crypto.subtle)) {
    return {
      state: "unverifiable",
      title: "Could not verify the deal here",
      text: `This browser computes SHA-256 only on https:// or localhost pages. Verify it with ${howToVerify(tableId, deal)}, or check that sha256("${deal.salt}:${deal.seed}") is the commitment.`,
    };
  }
  const computed = await sha256Hex(`${deal.salt}:${deal.seed}`);
  if (computed !== deal.commitment) {
    return { state: "failed", title: "DEAL NOT VERIFIED", text: `SHA-256 of the revealed salt and seed is ${computed}, not the commitment: the deal is not the one announced.` };
  }
  const when = note.during ? "published when the table was created, and seen by this browser during the game" : "the table published (this browser first saw it after the end: compare it with one noted earlier)";
  return { state: "verified", title: "Deal verified", text: `SHA-256 of the revealed salt and seed matches the commitment ${when}.` };
}

/** Fill `panel` (#deal) with the table's deal: who chose it, its commitment, and once revealed, the check. */
export async function showDeal(panel, tableId, deal) {
  const outcome = await checkDeal(tableId, deal);
  panel.className = `card deal ${outcome.state}`;
  panel.setAttribute("role", outcome.state === "failed" ? "alert" : "status");
  const parts = [h("h2", { class: "deal-title" }, outcome.title)];
  if (deal && deal.fixed) parts.push(fixedDealWarning());
  else if (deal && deal.commitment) parts.push(h("p", {}, "The server drew this deal and committed to it before the first move."));
  parts.push(h("p", {}, outcome.text));
  if (deal && deal.commitment) {
    const rows = [["commitment", deal.commitment]];
    if (deal.seed !== null) rows.push(["seed", deal.seed], ["salt", deal.salt]);
    parts.push(h("dl", {}, ...rows.flatMap(([name, value]) => [h("dt", {}, name), h("dd", {}, h("code", { class: `deal-${name}` }, value))])));
  }
  clear(panel).append(...parts);
  return outcome;
}

/** The warning every page shows about a fixed deal before anybody takes a seat. */
export function fixedDealWarning() {
  return h("p", { class: "fixed-deal-warning" }, "Fixed deal: the table's creator chose the deal (its seed), so they may know every hidden card.");
}
