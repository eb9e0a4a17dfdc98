// The server's refusals in French. Its codes (the WebSocket's `error` messages, the `code` of a
// REST error) pick a sentence a player reads. The server's own reason is in English: it follows
// as a detail only when it is one this file can say in French ("options.target : must be at
// least 100, got 50" → "Partie en points : au moins 100 (et non 50)"); otherwise the player
// reads the French sentence alone. No English word reaches the player.

export const ERROR_SENTENCES = {
  not_your_turn: "Ce n'est pas à vous de jouer.",
  illegal_action: "Ce coup n'est pas permis.",
  bad_action: "Ce coup est incomplet ou mal formé.",
  not_seated: "Vous n'êtes pas assis à cette table.",
  not_started: "La partie n'a pas encore commencé.",
  table_over: "La partie est terminée.",
  unknown_table: "Cette table n'existe pas (ou plus).",
  table_full: "Toutes les places de cette table sont prises.",
  seat_taken: "Cette place vient d'être prise.",
  already_seated: "Vous êtes déjà assis à cette table.",
  already_started: "La partie a déjà commencé.",
  seats_empty: "Des places sont encore libres.",
  forbidden: "Seul le créateur de la table peut faire cela.",
  not_finished: "La partie n'est pas encore terminée.",
  conflict: "La table est occupée : réessayez.",
  unauthorized: "Vous n'êtes pas reconnu : reconnectez-vous.",
  too_large: "Message trop long pour le serveur.",
  bad_json: "Le serveur n'a pas compris le message.",
  unknown_type: "Le serveur n'a pas compris le message.",
  bad_request: "Demande refusée par le serveur.",
  offline: "Pas de connexion au serveur.",
  bad_message: "Le serveur n'a pas compris le message.",
  rate_limited: "Trop de demandes d'un coup : patientez un instant.",
  banned: "Ce compte n'a plus accès au jeu.",
  internal: "Le serveur a rencontré une erreur : réessayez.",
  not_a_player: "Seuls les joueurs de la table peuvent faire cela.",
  too_many_tables: "Vous avez déjà trop de tables ouvertes.",
  too_many_seats: "Vous êtes déjà assis à trop de tables.",
  name_taken: "Ce nom est déjà pris : choisissez-en un autre.",
  robot_plays: "Un robot joue à votre place : reprenez d'abord votre place.",
  not_away: "Aucun robot ne joue pour vous : vous tenez déjà votre place.",
  invalid: "Ce choix n'est pas permis.",
  unavailable: "Le serveur est momentanément indisponible.",
  stale_version: "La table a changé entre-temps : rien n'a été joué.",
};

const BY_STATUS = {
  400: "bad_request",
  401: "unauthorized",
  403: "forbidden",
  404: "unknown_table",
  409: "conflict",
  413: "too_large",
  422: "invalid",
  429: "rate_limited",
  500: "internal",
  503: "unavailable",
};

/** The fields a refusal may name, in the words of the forms. */
const FIELDS = {
  game: "Jeu",
  players: "Nombre de joueurs",
  bots: "Robots",
  turn_seconds: "Minuteur",
  private: "Table privée",
  options: "Options",
  target: "Partie en points",
  name: "Nom",
  seat: "Place",
};

/** The server's reasons this file can say in French (engine/options.py, the table's timer,
 * the validation of a request); anything else is left unsaid. */
const REASONS = [
  [/^must be at least (-?[\d.]+), got (.+)$/, (m) => `au moins ${m[1]} (et non ${m[2]})`],
  [/^must be at most (-?[\d.]+), got (.+)$/, (m) => `au plus ${m[1]} (et non ${m[2]})`],
  [/^must be a whole number/, () => "un nombre entier"],
  [/^must be true or false/, () => "oui ou non"],
  [/^must be one of /, () => "une des valeurs proposées"],
  [/^may not be null$/, () => "obligatoire"],
  [/^must be an object$/, () => "mal formées"],
  [/^unknown option/, () => "option inconnue de ce jeu"],
  [/^must be null \(no timer\) or between ([\d.]+) and ([\d.]+) seconds/, (m) => `sans minuteur, ou de ${m[1]} à ${m[2]} secondes`],
  [/^field required$/i, () => "obligatoire"],
  [/^input should be/i, () => "valeur refusée"],
];

/** One "loc : reason" part of a REST refusal (api.js) in French, or null. */
function frenchPart(part, fields) {
  const m = /^(?:([\w.]+) : )?(.+)$/.exec(part.trim());
  if (!m) return null;
  const [, loc, reason] = m;
  for (const [re, say] of REASONS) {
    const r = re.exec(reason.trim());
    if (!r) continue;
    const key = loc ? loc.split(".").pop() : null;
    const field = key ? fields?.[key] ?? FIELDS[key] ?? null : null;
    return field ? `${field} : ${say(r)}` : say(r).replace(/^./, (c) => c.toUpperCase());
  }
  return null;
}

/** The server's reason in French, or "" when it cannot be said in French. `fields`: the names
 * of a form's fields (an option's label), by field. */
export function frenchReason(reason, fields = {}) {
  const parts = String(reason ?? "").split(" ; ").filter((x) => x.trim());
  const said = parts.map((p) => frenchPart(p, fields));
  return said.length && said.every(Boolean) ? said.join(" ; ") : "";
}

/** { text, detail }: the French sentence for an error (an Error with `code` or `status`, or the
 * server's `{code, message}`), and the server's reason when it says more, in French. */
export function describeError(err, { fields = {} } = {}) {
  let code = err?.code ?? BY_STATUS[err?.status];
  if (!ERROR_SENTENCES[code] && BY_STATUS[err?.status]) code = BY_STATUS[err.status];
  const reason = String(err?.message ?? err?.detail ?? "").trim();
  const detail = reason && reason !== code ? frenchReason(reason, fields) : "";
  const text = ERROR_SENTENCES[code];
  if (!text) return { text: detail || "Erreur inattendue.", detail: "" };
  return { text, detail };
}

/** The same as one line, for places with room for one. */
export function errorText(err, opts = {}) {
  const { text, detail } = describeError(err, opts);
  return detail ? `${text} — ${detail}` : text;
}
