// Boot and routing: #/ is the lobby, #/table/ID a table (#/table/ID?invitation=CODE: a private
// table's invitation link), #/joueur/NAME a player's page, #/replay/ID/GAME a finished game's
// replay. Arrival asks for a name once.

import { h, replace, toast, toastError } from "./dom.js";
import { errorText } from "./errors.js";
import { api, currentPlayer, forgetPlayer, savePlayer } from "./api.js";
import { TableSocket } from "./socket.js";
import { showLobby } from "./lobby.js";
import { showTable } from "./table.js";
import { loginForm } from "./account.js";
import { showProfile } from "./profile.js";
import { showReplay } from "./replay.js";

const app = document.getElementById("app");
let socket = null;
let page = null;

export function getSocket() {
  const player = currentPlayer();
  if (!player) return null;
  if (socket && socket.token === player.token) return socket;
  socket?.close();
  socket = new TableSocket(player.token, {
    onStatus: (state) => setConn(state),
    onState: (msg) => page?.onState?.(msg),
    onError: (msg) => (page?.onSocketError ? page.onSocketError(msg) : toastError(msg)),
    onMessage: (msg) => page?.onMessage?.(msg),
    onRefused: () => {
      forgetPlayer();
      socket = null;
      toast("Votre compte n'est plus reconnu : choisissez un nom.", "error");
      route();
    },
  });
  socket.connect();
  return socket;
}

function setConn(state) {
  const el = document.getElementById("conn");
  const text = { open: "connecté", connecting: "connexion…", reconnecting: "reconnexion…", refused: "refusé" }[state] || state;
  el.className = `conn ${state}`;
  el.textContent = state === "open" ? "" : text;
  el.title = text;
  page?.onConn?.(state);
}

function showWho() {
  const player = currentPlayer();
  const who = document.getElementById("who");
  if (!player) {
    who.replaceChildren();
    return;
  }
  who.replaceChildren(
    h("a.me-name", { title: "votre page de joueur", href: `#/joueur/${encodeURIComponent(player.name)}` }, player.name),
    h("button.btn.ghost.small", {
      type: "button",
      title: "changer de joueur",
      onclick: () => {
        if (!confirm("Quitter ce compte invité ? Vous pourrez en créer un autre.")) return;
        forgetPlayer();
        socket?.close();
        socket = null;
        location.hash = "#/";
        route();
      },
    }, "changer"),
  );
}

function arrival() {
  document.getElementById("crumb").textContent = "";
  const input = h("input", {
    id: "name",
    name: "name",
    autocomplete: "nickname",
    maxlength: 24,
    required: true,
    placeholder: "Votre nom",
    "aria-label": "Votre nom",
  });
  const error = h("p.error", { role: "alert" });
  const button = h("button.btn.primary", { type: "submit" }, "Entrer");
  const form = h(
    "form.arrival.panel",
    {
      onsubmit: async (ev) => {
        ev.preventDefault();
        const name = input.value.trim().replace(/\s+/g, " ");
        if (name.length < 2 || name.length > 24) {
          error.textContent = "Un nom a de 2 à 24 caractères.";
          return;
        }
        if (!/^[\p{L}\p{N} .'_-]+$/u.test(name) || !/[\p{L}\p{N}]/u.test(name)) {
          error.textContent = "Lettres, chiffres, espaces et - _ . ' seulement.";
          return;
        }
        button.disabled = true;
        error.textContent = "";
        try {
          const player = await api.createPlayer(name);
          savePlayer(player);
          route();
        } catch (e) {
          error.textContent = errorText(e);
          button.disabled = false;
        }
      },
    },
    h("h1", "Bienvenue à la tablée"),
    h("p", "Contrecarte, belote, contrée, tarot, barbu, motton, freeze et yaniv, entre amis ou avec des robots."),
    h("label", { for: "name" }, "Choisissez un nom de joueur"),
    h("div.row", input, button),
    error,
    h("p.muted", "Pas de mot de passe : ce navigateur se souviendra de vous (vous pourrez en choisir un ensuite pour garder votre nom)."),
  );
  replace(app, h("div.arrival-wrap", form, loginForm(route)));
  input.focus();
}

async function route() {
  page?.leave?.();
  page = null;
  showWho();
  const profile = (location.hash || "").match(/^#\/joueur\/([^/?]+)/);
  if (profile) {
    page = showProfile(app, decodeURIComponent(profile[1]));
    return;
  }
  // a replay is public: a shared link opens without a name
  const replay = (location.hash || "").match(/^#\/replay\/(\d+)\/(\d+)/);
  if (replay) {
    page = showReplay(app, Number(replay[1]), Number(replay[2]), { player: currentPlayer() });
    return;
  }
  const player = currentPlayer();
  if (!player) {
    // logged out: the socket of the session that ended goes too
    socket?.close();
    socket = null;
    arrival();
    return;
  }
  const hash = location.hash || "#/";
  const m = hash.match(/^#\/table\/([^/?]+)(?:\?(.*))?$/);
  if (m) {
    // a private table's link: #/table/ID?invitation=CODE
    const invitation = new URLSearchParams(m[2] || "").get("invitation");
    page = showTable(app, decodeURIComponent(m[1]), { socket: getSocket(), player, invitation });
  } else {
    page = showLobby(app, { socket: getSocket(), player, onAccount: () => route() });
  }
}

// A token this server no longer knows (a new database) sends the player back to the arrival.
async function checkPlayer() {
  if (!currentPlayer()) return;
  try {
    const me = await api.me();
    const p = currentPlayer();
    if (p && me?.name && me.name !== p.name) savePlayer({ ...p, name: me.name });
  } catch (e) {
    if (e.status === 401) {
      forgetPlayer();
      socket?.close();
      socket = null;
      route();
    }
  }
}

window.addEventListener("hashchange", route);
route();
checkPlayer();
