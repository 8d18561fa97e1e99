// The sign-up form states the server's rules for names and passwords up front, and the browser
// checks them as they are typed (the server's own words: GET /api/account/rules).

import { call } from "./api.js";
import { h } from "./dom.js";

export async function stateRules(form) {
  const rules = await call("/api/account/rules").catch(() => null);
  if (!rules) return;
  const name = form.querySelector("#signup-name");
  const password = form.querySelector("#signup-password");
  name.pattern = rules.name_pattern;
  name.maxLength = rules.name_max;
  name.title = `A name is ${rules.name}.`;
  password.minLength = rules.password_min;
  password.maxLength = rules.password_max;
  name.after(h("small", { class: "muted rule", id: "signup-name-rule" }, `${rules.name}.`));
  password.after(h("small", { class: "muted rule", id: "signup-password-rule" }, `${rules.password}.`));
  name.setAttribute("aria-describedby", "signup-name-rule");
  password.setAttribute("aria-describedby", "signup-password-rule");
}
