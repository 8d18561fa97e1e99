// Accounts: the name in the top bar, and the account page (/?account): sign up, sign in, change
// password, sign out here or everywhere. Guests need none of it: seat tokens keep working.

import { call, setCsrf } from "./api.js";
import { clear, h, plural } from "./dom.js";
import { stateRules } from "./signup_rules.js";

let current = null;

/** The signed-in account ({name, csrf_token, ...}) or null; asked once per page. */
export function account() {
  if (!current) {
    current = call("/api/account").then((answer) => {
      setCsrf(answer.signed_in ? answer.csrf_token : null);
      return answer.signed_in ? answer : null;
    });
  }
  return current;
}

/** The top bar's account link: the name when signed in, else "Sign in". */
export async function showNav() {
  const nav = document.getElementById("nav");
  const me = await account();
  // A guest gets the sign-in link alone (append would write a missing link as the word "null").
  const links = me ? [h("a", { href: "/?games", id: "my-games-link" }, "My games"), " "] : [];
  clear(nav).append(...links, h("a", { href: "/?account", id: "account-link" }, me ? me.name : "Sign in"));
}

function passwordField(id, label, autocomplete) {
  return h("div", { class: "field" }, h("label", { for: id }, label),
    h("input", { id, name: id, type: "password", required: true, minlength: 8, maxlength: 200, autocomplete }));
}

function credentialsForm(kind, title) {
  const status = h("p", { class: "status", role: "status" });
  const form = h("form", { class: "card", id: `${kind}-form`, "aria-label": title },
    h("h2", {}, title),
    h("div", { class: "field" }, h("label", { for: `${kind}-name` }, "Name"),
      h("input", { id: `${kind}-name`, name: "name", type: "text", required: true, maxlength: 40, autocomplete: "username" })),
    passwordField(`${kind}-password`, "Password", kind === "signup" ? "new-password" : "current-password"),
    h("button", { type: "submit", class: "primary" }, title), status);
  if (kind === "signup") stateRules(form); // the rules before a try, not after a refusal
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    status.textContent = "";
    try {
      await call(`/api/account/${kind}`, {
        method: "POST",
        body: { name: form.querySelector(`#${kind}-name`).value, password: form.querySelector(`#${kind}-password`).value },
      });
      location.assign("/?account");
    } catch (error) {
      status.textContent = error.message;
      status.classList.add("error");
    }
  });
  return form;
}

function passwordForm() {
  const status = h("p", { class: "status", role: "status" });
  const form = h("form", { class: "card", id: "password-form", "aria-label": "Change password" },
    h("h2", {}, "Change password"),
    passwordField("old-password", "Current password", "current-password"),
    passwordField("new-password", "New password", "new-password"),
    h("button", { type: "submit" }, "Change password"), status);
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    try {
      const answer = await call("/api/account/password", {
        method: "POST",
        body: { password: form.querySelector("#old-password").value, new_password: form.querySelector("#new-password").value },
      });
      status.textContent = `Password changed; ${plural(answer.signed_out, "other session")} signed out.`;
      status.classList.remove("error");
      form.reset();
    } catch (error) {
      status.textContent = error.message;
      status.classList.add("error");
    }
  });
  return form;
}

async function signOut(path) {
  await call(path, { method: "POST" });
  location.assign("/");
}

/** The account page: forms to sign up or in for a guest, the account's settings once signed in. */
export async function showAccount(app) {
  document.title = "parlour — account";
  const me = await account();
  if (!me) {
    clear(app).append(h("h1", {}, "Your account"),
      h("p", { class: "muted" }, "An account keeps your seats and games across devices. You can always play as a guest by invite link."),
      h("div", { class: "account-forms" }, credentialsForm("signin", "Sign in"), credentialsForm("signup", "Sign up")));
    return;
  }
  clear(app).append(
    h("h1", {}, "Your account"),
    h("p", { id: "signed-in-as" }, "Signed in as ", h("strong", {}, me.name)),
    h("div", { class: "controls" },
      h("button", { type: "button", id: "sign-out", onclick: () => signOut("/api/account/signout") }, "Sign out"),
      h("button", { type: "button", id: "sign-out-everywhere", onclick: () => signOut("/api/account/signout-everywhere") },
        "Sign out everywhere")),
    passwordForm());
}

/** At a table: a guest's seat can be kept in the signed-in account (then it is listed there). */
export async function claimButton(tableId, held) {
  const me = await account();
  if (!me || !held || held.account) return null;
  const button = h("button", { type: "button", id: "claim-seat" }, `Keep this seat in ${me.name}'s account`);
  button.addEventListener("click", async () => {
    try {
      await call(`/api/tables/${tableId}/claim`, { method: "POST", token: held.token });
      held.account = me.name;
      localStorage.setItem(`parlour.seat.${tableId}`, JSON.stringify(held));
      button.replaceWith(h("span", { id: "seat-claimed", class: "muted" }, `Seat kept in ${me.name}'s account`));
    } catch (error) {
      button.textContent = error.message;
    }
  });
  return button;
}

/** The account's seat at a table, with a token for this device (after Resume in "my games"). */
export async function resumeSeat(tableId) {
  if (!(await account())) return null;
  const seat = await call(`/api/account/tables/${tableId}/resume`, { method: "POST" });
  const held = { token: seat.token, seat: seat.seat, name: seat.name, account: seat.account };
  localStorage.setItem(`parlour.seat.${tableId}`, JSON.stringify(held));
  return held;
}
