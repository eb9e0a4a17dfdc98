// Before the start: the seats (free ones to sit at), "Quitter la table", "Démarrer avec des
// robots" for the creator, and the link to invite friends (a private table's carries its
// invitation code: without it the table stays unknown), with a button that copies it.

import { h, toast } from "../dom.js";
import { botIcon } from "../icons.js";
import { gameTitle } from "../lobby.js";

/** The waiting room's panel. `isCreator`: the viewer created the table; `link`: the table's
 * address; `onJoin(seat)`, `onLeave()`, `onStart()`: the buttons. */
export function waitingRoom(scene, { isCreator = false, link = "", onJoin, onLeave, onStart } = {}) {
  const { seats: all, info, name } = scene;
  const me = scene.mySeat;
  const st = info?.status;
  const empty = all.filter((s) => s.kind === "empty").length;
  const rows = all.map((s) =>
    h("li", { class: `wait-seat ${s.kind}`, dataset: { seat: s.seat } },
      h("span.sn", `Place ${s.seat + 1}`),
      h("span.nm", s.kind === "empty" ? "libre" : [s.kind === "bot" ? botIcon() : null, `${s.name || name(s.seat)}${s.seat === me ? " (vous)" : ""}`]),
      s.kind === "player" && s.seat !== me ? h("span.conn-dot", { class: s.connected ? "on" : "off", title: s.connected ? "connecté" : "absent" }) : null,
      s.kind === "empty" && me == null && st === "waiting"
        ? h("button.btn.small.primary", { type: "button", dataset: { joinSeat: s.seat }, onclick: () => onJoin(s.seat) }, "S'asseoir ici")
        : null),
  );
  const buttons = [];
  if (me != null && st === "waiting") buttons.push(h("button.btn", { type: "button", id: "leave", onclick: onLeave }, "Quitter la table"));
  if (isCreator && st === "waiting" && empty) {
    buttons.push(h("button.btn.primary", { type: "button", id: "start-bots", onclick: onStart }, "Démarrer avec des robots"));
  }
  return h("div.waiting.panel",
    h("h2", st === "waiting" ? "En attente des joueurs" : "Connexion à la table…"),
    info ? h("p.muted", `${info.title || gameTitle(info.game)} · ${info.players} joueurs · ${info.turn_seconds ? `${info.turn_seconds} s par coup` : "sans minuteur"}`) : null,
    h("ul.wait-seats", rows),
    st === "waiting" && empty ? h("p.muted.small", `La partie commence dès que ${empty === 1 ? "la dernière place est prise" : `les ${empty} places libres sont prises`}.`) : null,
    h("div.row", buttons),
    st === "waiting" ? invite(link, Boolean(info?.private)) : null);
}

/** The invitation link, selectable, and "Copier le lien". */
function invite(link, secret) {
  const field = h("input.invite-link", {
    id: "invite-link",
    type: "text",
    readonly: true,
    value: link,
    "aria-label": "Lien d'invitation",
    onfocus: (ev) => ev.target.select(),
  });
  const copy = h("button.btn.small", {
    type: "button",
    id: "copy-link",
    onclick: async () => {
      try {
        await navigator.clipboard.writeText(link);
      } catch {
        // no clipboard (an insecure origin, a refusal): the link is selected, to copy by hand
        field.focus();
        field.select();
        toast("Copiez le lien sélectionné (Ctrl+C).");
        return;
      }
      toast("Lien copié : envoyez-le à vos invités.");
    },
  }, "Copier le lien");
  return h("div.invite",
    h("p.muted.small", secret
      ? "Table privée : seules les personnes qui ont ce lien peuvent la voir et s'y asseoir."
      : "Invitez vos amis avec ce lien :"),
    h("div.row.nowrap", field, copy));
}
