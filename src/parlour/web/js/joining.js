// Joining by invite when signed in: the seat is the account's, under the account's name.

import { account } from "./account.js";
import { h } from "./dom.js";

/** Fill the join form's name with the signed-in account's, and say so; a guest types one. */
export async function asAccount(input) {
  const me = await account().catch(() => null);
  if (!me) return;
  input.value = me.name;
  const field = input.closest(".field");
  if (field && !field.querySelector(".as-account")) {
    field.append(h("small", { class: "muted as-account" }, ` You join as your account, ${me.name}; change the name shown if you like.`));
  }
  input.closest("form")?.querySelector("#join")?.focus();
}
