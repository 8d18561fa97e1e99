// The admin page (/?admin), for accounts holding the admin role: the reports' queue, accounts
// (find, disable, enable, a password-reset code), the refused words and the audit log. Each
// section calls the admin API (docs/server.md, "Running a community") and shows its refusals.

import { account } from "./account.js";
import { call } from "./api.js";
import { clear, h } from "./dom.js";

/** A section whose body is redrawn by `draw` (an async function returning nodes). */
function section(id, title, draw) {
  const body = h("div", { class: "admin-body" });
  const status = h("p", { class: "status", role: "status" });
  const element = h("section", { class: "card admin", id }, h("h2", {}, title), body, status);
  const redraw = async () => {
    try {
      clear(body).append(...(await draw(redraw, say)));
    } catch (error) {
      say(error.message, true);
    }
  };
  function say(text, failed = false) {
    status.textContent = text;
    status.classList.toggle("error", failed);
  }
  return { element, redraw };
}

// Redraws the audit log, where every change shows at once.
let afterChange = async () => {};

/** Run an admin call, then redraw the section and the audit log; a refusal is shown in the section's status line. */
function acting(redraw, say, work) {
  return async () => {
    try {
      const done = await work();
      await redraw();
      await afterChange();
      say(done || "");
    } catch (error) {
      say(error.message, true);
    }
  };
}

function reportEntry(report, redraw, say) {
  const resolution = h("input", { type: "text", class: "resolution", maxlength: 1000, "aria-label": "Resolution", placeholder: "what was done" });
  const context = report.context.map((m) =>
    h("li", { class: m.id === report.message ? "reported" : "" }, h("strong", {}, m.name || "a player"), ": ", m.text));
  const resolve = acting(redraw, say, async () => {
    await call(`/api/admin/reports/${report.id}/resolve`, { method: "POST", body: { resolution: resolution.value } });
    return `Report ${report.id} resolved.`;
  });
  return h("li", { class: "report", "data-id": report.id },
    h("p", {}, h("strong", {}, report.reporter), " reports ", report.player ? h("strong", {}, report.player) : "a message",
      report.table ? ` at table ${report.table}` : "", ": ", report.reason),
    context.length ? h("ol", { class: "report-context" }, ...context) : "",
    h("div", { class: "controls" }, resolution, h("button", { type: "button", class: "resolve", onclick: resolve }, "Resolve")));
}

async function drawReports(redraw, say) {
  const { reports } = await call("/api/admin/reports");
  if (!reports.length) return [h("p", { class: "muted", id: "no-reports" }, "No open reports.")];
  return [h("ul", { class: "reports" }, ...reports.map((r) => reportEntry(r, redraw, say)))];
}

function accountEntry(person, redraw, say) {
  const path = `/api/admin/accounts/${encodeURIComponent(person.name)}`;
  const reason = h("input", { type: "text", class: "reason", maxlength: 500, "aria-label": `Reason to disable ${person.name}`, placeholder: "reason" });
  const seats = h("select", { class: "seats", "aria-label": "Their unfinished seats" },
    h("option", { value: "bot" }, "seats to the bot"), h("option", { value: "keep" }, "keep seats"));
  const disable = acting(redraw, say, async () => {
    await call(`${path}/disable`, { method: "POST", body: { reason: reason.value, seats: seats.value } });
    return `${person.name} is disabled.`;
  });
  const enable = acting(redraw, say, async () => {
    await call(`${path}/enable`, { method: "POST" });
    return `${person.name} is enabled.`;
  });
  const resetCode = acting(async () => {}, say, async () => {
    const answer = await call(`${path}/reset-code`, { method: "POST" });
    return `Reset code for ${person.name}: ${answer.code} (until ${answer.expires_at})`;
  });
  const state = person.disabled ? `disabled: ${person.disabled_reason}` : person.admin ? "admin" : "";
  const actions = person.disabled
    ? [h("button", { type: "button", class: "enable", onclick: enable }, "Enable")]
    : [reason, seats, h("button", { type: "button", class: "disable", onclick: disable }, "Disable"),
      h("button", { type: "button", class: "reset-code", onclick: resetCode }, "Reset code")];
  return h("li", { class: "account", "data-name": person.name },
    h("strong", {}, person.name), state ? h("span", { class: "muted" }, ` (${state})`) : "",
    h("div", { class: "controls" }, ...actions));
}

function accountsSection() {
  const find = h("input", { type: "search", id: "admin-find", maxlength: 40, "aria-label": "Find accounts", placeholder: "name contains" });
  const { element, redraw } = section("admin-accounts", "Accounts", async (again, say) => {
    const query = find.value ? `?find=${encodeURIComponent(find.value)}&limit=50` : "?limit=50";
    const { accounts } = await call(`/api/admin/accounts${query}`);
    return [h("ul", { class: "accounts" }, ...accounts.map((a) => accountEntry(a, again, say)))];
  });
  find.addEventListener("input", redraw);
  element.insertBefore(find, element.children[1]);
  return { element, redraw };
}

async function drawWords(redraw, say) {
  const { words } = await call("/api/admin/refused-words");
  const word = h("input", { type: "text", id: "new-word", maxlength: 64, "aria-label": "A word to refuse" });
  const add = acting(redraw, say, async () => {
    const answer = await call("/api/admin/refused-words", { method: "POST", body: { word: word.value } });
    return `"${answer.added}" is refused.`;
  });
  const remove = (w) => acting(redraw, say, async () => {
    await call(`/api/admin/refused-words/${encodeURIComponent(w)}`, { method: "DELETE" });
    return `"${w}" is no longer refused.`;
  });
  return [
    h("ul", { class: "words" }, ...words.map((w) =>
      h("li", { "data-word": w }, w, " ", h("button", { type: "button", class: "remove-word", onclick: remove(w) }, "Remove")))),
    h("div", { class: "controls" }, word, h("button", { type: "button", id: "add-word", onclick: add }, "Refuse")),
  ];
}

async function drawAudit() {
  const { actions } = await call("/api/admin/audit?limit=50");
  return [h("ol", { class: "audit" }, ...actions.map((a) =>
    h("li", { "data-action": a.action }, `${a.at.slice(0, 19).replace("T", " ")} — ${a.admin}: ${a.action} ${a.target}`)))];
}

export async function showAdmin(app) {
  document.title = "parlour — admin";
  const me = await account();
  if (!me) {
    clear(app).append(h("h1", {}, "Administration"), h("p", {}, h("a", { href: "/?account" }, "Sign in"), " with an admin account."));
    return;
  }
  try {
    await call("/api/admin/audit?limit=1");
  } catch (error) {
    clear(app).append(h("h1", {}, "Administration"), h("p", { class: "error", id: "admin-refused" }, error.message));
    return;
  }
  const audit = section("admin-audit", "Audit log", drawAudit);
  const sections = [section("admin-reports", "Reports", drawReports), accountsSection(), section("admin-words", "Refused words", drawWords), audit];
  afterChange = audit.redraw;
  clear(app).append(h("h1", {}, "Administration"), ...sections.map((s) => s.element));
  for (const s of sections) await s.redraw();
}
