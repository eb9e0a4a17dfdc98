// REST calls and the player's identity (a guest account whose token stays in this browser).

const KEY = "tablee.player";

export function currentPlayer() {
  try {
    const p = JSON.parse(localStorage.getItem(KEY) || "null");
    return p && p.token ? p : null;
  } catch {
    return null;
  }
}

export function savePlayer(player) {
  localStorage.setItem(KEY, JSON.stringify({ id: player.id, name: player.name, token: player.token }));
}

export function forgetPlayer() {
  localStorage.removeItem(KEY);
}

export class ApiError extends Error {
  constructor(status, message, body) {
    super(message);
    this.status = status;
    this.body = body;
    // the server's error code (`{"detail": ..., "code": ...}`), for a French sentence
    this.code = body && typeof body === "object" && typeof body.code === "string" ? body.code : undefined;
  }
}

/** FastAPI answers `{"detail": "text"}` or `{"detail": [{"loc": [...], "msg": "..."}]}`. */
function messageOf(body, status) {
  const detail = body && (body.detail ?? body.message ?? body.error);
  if (typeof detail === "string") return detail;
  if (Array.isArray(detail) && detail.length) {
    return detail
      .map((d) => {
        const loc = (d.loc || []).filter((x) => x !== "body").join(".");
        return loc ? `${loc} : ${d.msg}` : d.msg;
      })
      .join(" ; ");
  }
  if (detail && typeof detail === "object" && detail.message) return detail.message;
  return `erreur ${status}`;
}

async function call(method, path, body) {
  const headers = { Accept: "application/json" };
  const player = currentPlayer();
  if (player) headers.Authorization = `Bearer ${player.token}`;
  const init = { method, headers };
  if (body !== undefined) {
    headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  let res;
  try {
    res = await fetch(path, init);
  } catch {
    throw Object.assign(new ApiError(0, "serveur injoignable", null), { code: "offline" });
  }
  let data = null;
  const text = await res.text();
  if (text) {
    try {
      data = JSON.parse(text);
    } catch {
      data = text;
    }
  }
  if (!res.ok) throw new ApiError(res.status, messageOf(data, res.status), data);
  return data;
}

export const api = {
  createPlayer: (name) => call("POST", "/api/players", { name }),
  me: () => call("GET", "/api/me"),
  games: () => call("GET", "/api/games"),
  tables: (params = {}) => {
    const q = new URLSearchParams(Object.entries(params).filter(([, v]) => v != null));
    const qs = q.toString();
    return call("GET", `/api/tables${qs ? `?${qs}` : ""}`);
  },
  // a private table's invitation code (from its link) opens it to a player not seated there
  table: (id, invitation) => call("GET", `/api/tables/${encodeURIComponent(id)}${invited(invitation)}`),
  createTable: (spec) => call("POST", "/api/tables", spec),
  join: (id, seat, invitation) => call("POST", `/api/tables/${encodeURIComponent(id)}/join`, { ...(seat == null ? {} : { seat }), ...(invitation ? { invitation } : {}) }),
  leave: (id) => call("POST", `/api/tables/${encodeURIComponent(id)}/leave`, {}),
  takeBack: (id) => call("POST", `/api/tables/${encodeURIComponent(id)}/take_back`, {}),
  start: (id, fillWithBots = false) => call("POST", `/api/tables/${encodeURIComponent(id)}/start`, { fill_with_bots: fillWithBots }),
  rematch: (id) => call("POST", `/api/tables/${encodeURIComponent(id)}/rematch`, {}),
  results: (id, invitation) => call("GET", `/api/tables/${encodeURIComponent(id)}/results${invited(invitation)}`),
  replay: (id, gameNo, invitation) => call("GET", `/api/tables/${encodeURIComponent(id)}/games/${encodeURIComponent(gameNo)}/replay${invited(invitation)}`),
  claim: (body) => call("POST", "/api/accounts/claim", body),
  login: (name, password) => call("POST", "/api/accounts/login", { name, password }),
  logout: () => call("POST", "/api/accounts/logout", {}),
  logoutEverywhere: () => call("POST", "/api/accounts/logout-everywhere", {}),
  changePassword: (old_password, new_password) => call("POST", "/api/accounts/password", { old_password, new_password }),
  account: () => call("GET", "/api/accounts/me"),
  ratedLeaderboard: (game) => call("GET", `/api/leaderboard/${encodeURIComponent(game)}`),
  profile: (name) => call("GET", `/api/profiles/${encodeURIComponent(name)}`),
  leaderboard: (game) => call("GET", `/api/leaderboard${game ? `?game=${encodeURIComponent(game)}` : ""}`),
};

function invited(invitation) {
  return invitation ? `?invitation=${encodeURIComponent(invitation)}` : "";
}

/** Lists from the server may come bare or wrapped (`{"tables": [...]}`); accept both. */
export function listOf(data, key) {
  if (Array.isArray(data)) return data;
  if (data && Array.isArray(data[key])) return data[key];
  if (data && Array.isArray(data.items)) return data.items;
  return [];
}
