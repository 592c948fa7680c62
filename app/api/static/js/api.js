// The HTTP API as the page uses it: a turn streamed over Server-Sent Events read with fetch
// and a ReadableStream, the session and plan routes, cards, and optional catalog routes.

import { session } from "./session.js";

/** An HTTP answer that is not 2xx, with the server's error object. */
export class ApiError extends Error {
  constructor(status, error) {
    super((error && error.message) || `HTTP ${status}`);
    this.status = status;
    this.code = (error && error.code) || "http_error";
    this.dependency = error && error.dependency;
  }
}

async function failure(response) {
  let body = null;
  try {
    body = await response.json();
  } catch {
    body = null;
  }
  return new ApiError(response.status, body && body.error);
}

/** Start a turn: POST /v1/chat, or PATCH the plan; resolves to the streaming response. */
export async function startTurn({ message, edit }, signal) {
  const id = session.id();
  const headers = { "Content-Type": "application/json", Accept: "text/event-stream",
    ...session.headers() };
  const request = edit
    ? { url: `/v1/sessions/${encodeURIComponent(id)}/plan`, method: "PATCH", body: edit }
    : { url: "/v1/chat", method: "POST", body: id ? { session_id: id, message } : { message } };
  const response = await fetch(request.url, {
    method: request.method, headers, body: JSON.stringify(request.body), signal,
  });
  if (!response.ok) throw await failure(response);
  const token = response.headers.get("X-Session-Token");
  if (token) session.remember(response.headers.get("X-Session-Id"), token);
  return response;
}

function parseBlock(block) {
  let type = "message";
  const data = [];
  for (const line of block.split("\n")) {
    if (!line || line.startsWith(":")) continue;
    const cut = line.indexOf(":");
    const name = cut < 0 ? line : line.slice(0, cut);
    let value = cut < 0 ? "" : line.slice(cut + 1);
    if (value.startsWith(" ")) value = value.slice(1);
    if (name === "event") type = value;
    else if (name === "data") data.push(value);
  }
  return data.length ? { type, event: JSON.parse(data.join("\n")) } : null;
}

/** The events of a streamed turn as they arrive: {type, event}. */
export async function* readEvents(response) {
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += decoder.decode(value, { stream: true }).replace(/\r\n/g, "\n");
    let cut;
    while ((cut = buffer.indexOf("\n\n")) >= 0) {
      const message = parseBlock(buffer.slice(0, cut));
      buffer = buffer.slice(cut + 2);
      if (message) yield message;
    }
  }
}

async function getJson(url) {
  const response = await fetch(url, { headers: { Accept: "application/json",
    ...session.headers() } });
  if (!response.ok) throw await failure(response);
  return response.json();
}

/** The stored session (plan, messages, last picks); ApiError 404 when it is gone. */
export function loadSession(id) {
  return getJson(`/v1/sessions/${encodeURIComponent(id)}`);
}

/** Catalog fields and offers elsewhere of these item ids. */
export function loadCards(ids) {
  const query = ids.map((id) => `ids=${encodeURIComponent(id)}`).join("&");
  return getJson(`/v1/cards?${query}`);
}

/** Similar items of one item, when the server has the route; null when it has not. */
export async function loadSimilar(id) {
  try {
    const doc = await getJson(`/v1/items/${encodeURIComponent(id)}/similar?k=5`);
    const list = Array.isArray(doc) ? doc : doc.items || doc.similar || doc.results || [];
    return Array.isArray(list) ? list : [];
  } catch (error) {
    if (error instanceof ApiError && [404, 405, 501].includes(error.status)) return null;
    throw error;
  }
}

/** The catalog's facets, when the server has the route; null when it has not. */
export async function loadFacets() {
  try {
    const doc = await getJson("/v1/catalog/facets");
    return doc && typeof doc === "object" ? doc.facets || doc : null;
  } catch {
    return null;
  }
}

/** Which optional routes the server has, read from its OpenAPI document (no probing 404s). */
export async function loadFeatures() {
  try {
    const doc = await getJson("/openapi.json");
    const paths = Object.keys((doc && doc.paths) || {});
    return {
      facets: paths.includes("/v1/catalog/facets"),
      similar: paths.some((p) => /^\/v1\/items\/\{[^}]+\}\/similar$/.test(p)),
    };
  } catch {
    return { facets: false, similar: false };
  }
}
