// Which renderer draws which game: the default (render.js) plus each game's own overrides.

import { DEFAULT } from "./render.js";
import barbu from "./games/barbu.js";
import tarot from "./games/tarot.js";

const RENDERERS = {};

function register(name, renderer) {
  RENDERERS[name] = {
    ...DEFAULT,
    ...renderer,
    labels: { ...DEFAULT.labels, ...(renderer.labels || {}) },
  };
}

register("barbu", barbu);
register("tarot", tarot);

export function rendererFor(game) {
  return RENDERERS[game] || DEFAULT;
}
