// Accounts: a guest keeps its name with a password; a player logs in from another browser, logs
// out (here or everywhere) and changes its password. The session token replaces the guest token
// in this browser's storage; the socket reconnects with it.

import { h, replace, toast } from "./dom.js";
import { api, currentPlayer, forgetPlayer, savePlayer } from "./api.js";
import { errorText } from "./errors.js";

function field(id, label, attrs) {
  const input = h("input", { id, name: id, required: true, ...attrs });
  return { input, el: h("label.field", { for: id }, h("span", label), input) };
}

/** "Se connecter": a name and a password, for a player who has an account. */
export function loginForm(onDone) {
  const name = field("login-name", "Nom", { autocomplete: "username", maxlength: 24 });
  const password = field("login-password", "Mot de passe", { type: "password", autocomplete: "current-password", maxlength: 200 });
  const error = h("p.error", { role: "alert" });
  const submit = h("button.btn", { type: "submit" }, "Se connecter");
  return h("form.login.panel", {
    id: "login",
    onsubmit: async (ev) => {
      ev.preventDefault();
      submit.disabled = true;
      error.textContent = "";
      try {
        const out = await api.login(name.input.value.trim(), password.input.value);
        savePlayer({ ...out.player, token: out.token });
        onDone();
      } catch (e) {
        error.textContent = errorText(e);
        submit.disabled = false;
      }
    },
  },
  h("h2", "Déjà un compte ?"),
  name.el, password.el, error, submit);
}

/** The lobby's account panel: claim the guest's name, or manage the account. */
export function accountPanel(player, onChange) {
  const panel = h("section.account.panel", { id: "account" }, h("h2", "Mon compte"), h("p.muted", "Chargement…"));
  api.account()
    .then((me) => replace(panel, ...(me.claimed ? manage(me, onChange) : claim(player, onChange))))
    .catch(() => panel.remove());
  return panel;
}

function claim(player, onChange) {
  const password = field("claim-password", "Mot de passe (8 caractères au moins)", { type: "password", autocomplete: "new-password", minlength: 8, maxlength: 200 });
  const email = field("claim-email", "E-mail (facultatif)", { type: "email", autocomplete: "email", required: false });
  const error = h("p.error", { role: "alert" });
  const submit = h("button.btn.primary", { type: "submit" }, "Garder mon nom");
  const form = h("form.claim", {
    id: "claim",
    onsubmit: async (ev) => {
      ev.preventDefault();
      submit.disabled = true;
      error.textContent = "";
      try {
        const body = { password: password.input.value };
        if (email.input.value.trim()) body.email = email.input.value.trim();
        const out = await api.claim(body);
        savePlayer({ ...out.player, token: out.token });
        toast("Compte créé : connectez-vous avec ce nom depuis n'importe quel navigateur.");
        onChange();
      } catch (e) {
        error.textContent = errorText(e);
        submit.disabled = false;
      }
    },
  }, password.el, email.el, error, submit);
  return [
    h("h2", "Mon compte"),
    h("p", `Vous jouez en invité : « ${player.name} » n'existe que dans ce navigateur. Un mot de passe le garde pour vous, avec vos parties.`),
    form,
    profileLink(player.name),
  ];
}

function manage(me, onChange) {
  const error = h("p.error", { role: "alert" });
  const done = (fn) => async () => {
    error.textContent = "";
    try {
      await fn();
    } catch (e) {
      error.textContent = errorText(e);
    }
  };
  const old = field("old-password", "Mot de passe actuel", { type: "password", autocomplete: "current-password", maxlength: 200 });
  const fresh = field("new-password", "Nouveau mot de passe", { type: "password", autocomplete: "new-password", minlength: 8, maxlength: 200 });
  const change = h("form.password", {
    id: "password",
    onsubmit: async (ev) => {
      ev.preventDefault();
      await done(async () => {
        await api.changePassword(old.input.value, fresh.input.value);
        old.input.value = fresh.input.value = "";
        toast("Mot de passe changé ; vos autres sessions sont fermées.");
      })();
    },
  }, old.el, fresh.el, h("button.btn", { type: "submit" }, "Changer le mot de passe"));
  const sessions = me.sessions?.length ?? 0;
  return [
    h("h2", "Mon compte"),
    h("p", `« ${me.name} » est à vous${me.email ? ` (${me.email})` : ""} : ${sessions} session${sessions > 1 ? "s" : ""} ouverte${sessions > 1 ? "s" : ""}.`),
    h("div.row",
      h("button.btn", {
        type: "button",
        id: "logout",
        onclick: done(async () => {
          await api.logout();
          forgetPlayer();
          onChange();
        }),
      }, "Se déconnecter"),
      h("button.btn.ghost", {
        type: "button",
        id: "logout-everywhere",
        onclick: done(async () => {
          if (!confirm("Fermer toutes vos sessions, sur tous vos appareils ?")) return;
          await api.logoutEverywhere();
          forgetPlayer();
          onChange();
        }),
      }, "Se déconnecter partout")),
    change,
    error,
    profileLink(me.name),
  ];
}

export function profileLink(name) {
  return h("p", h("a", { href: `#/joueur/${encodeURIComponent(name)}`, id: "my-profile" }, "Ma page de joueur"));
}

export function isLoggedIn() {
  return currentPlayer() !== null;
}
