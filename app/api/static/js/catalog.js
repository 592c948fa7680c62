// The optional catalog routes: facets (GET /v1/catalog/facets) and similar items (GET
// /v1/items/{id}/similar). Each answers null when the server does not have the route (404,
// 405 or 501), so the page hides what depends on it.

import { ApiError } from "./api.js";
import { session } from "./session.js";

const ABSENT = [404, 405, 501];

async function getJson(url) {
  const response = await fetch(url, { headers: { Accept: "application/json",
    ...session.headers() } });
  if (!response.ok) {
    let body = null;
    try {
      body = await response.json();
    } catch {
      body = null;
    }
    throw new ApiError(response.status, body && body.error);
  }
  return response.json();
}

/** The catalog's facets ({shops, categories, brands, attributes, prices, ...}); null when the
 * server has no facets. */
export async function fetchFacets() {
  try {
    const doc = await getJson("/v1/catalog/facets");
    const facets = doc && typeof doc === "object" ? doc.facets : null;
    return facets && typeof facets === "object" ? facets : null;
  } catch (error) {
    if (error instanceof ApiError && ABSENT.includes(error.status)) return null;
    throw error;
  }
}

/** Items similar to `id` within this session's plan: {items: [...]}; {absent: true} when
 * the server has no similar items (405/501), {unknown: true} when it does not know the item
 * (404). */
export async function fetchSimilar(id, k = 5, withSession = true) {
  const sid = withSession ? session.id() : null;
  const query = `k=${k}${sid ? `&session_id=${encodeURIComponent(sid)}` : ""}`;
  try {
    const doc = await getJson(`/v1/items/${encodeURIComponent(id)}/similar?${query}`);
    return { items: Array.isArray(doc && doc.items) ? doc.items : [] };
  } catch (error) {
    // A 404 may mean the session has gone rather than the item: ask once without it.
    if (error instanceof ApiError && error.status === 404 && sid) return fetchSimilar(id, k, false);
    if (error instanceof ApiError && error.status === 404) return { unknown: true };
    if (error instanceof ApiError && ABSENT.includes(error.status)) return { absent: true };
    throw error;
  }
}
