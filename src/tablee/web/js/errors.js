// The server's refusals in French. Its codes (the WebSocket's `error` messages, the `code` of a
// REST error) pick a sentence a player reads; the server's own reason, in English, follows as a
// detail ("Ce coup n'est pas permis. — you must follow hearts").

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
  stale_version: "La table a changé entre-temps : rien n'a été joué.",
};

const BY_STATUS = { 401: "unauthorized", 403: "forbidden", 404: "unknown_table", 409: "conflict" };

/** { text, detail }: the French sentence for an error (an Error with `code` or `status`, or the
 * server's `{code, message}`), and the server's reason when it says more. */
export function describeError(err) {
  const code = err?.code ?? BY_STATUS[err?.status];
  const reason = String(err?.message ?? err?.detail ?? "").trim();
  const text = ERROR_SENTENCES[code];
  if (!text) return { text: reason || "Erreur inattendue.", detail: "" };
  return { text, detail: reason && reason !== code ? reason : "" };
}

/** The same as one line, for places with room for one. */
export function errorText(err) {
  const { text, detail } = describeError(err);
  return detail ? `${text} — ${detail}` : text;
}
