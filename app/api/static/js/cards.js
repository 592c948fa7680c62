// Product cards for the picks (bundles grouped by slot with a total), their offers on other
// shops, similar items, and the side-by-side comparison of two or three picks.

import { el, money, priceText, safeUrl, shopName, stockText } from "./dom.js";
import { toggleSimilar } from "./similar.js";

const state = { picks: [], details: new Map(), selected: new Set(), similar: false };
const MAX_COMPARE = 3;

/** Whether the server lists similar items (read once from its OpenAPI document). */
export function setSimilarSupported(supported) {
  state.similar = Boolean(supported);
}

/** The picks on screen now. */
export function shownPicks() {
  return state.picks;
}

function placeholder() {
  return el("div", { class: "thumb placeholder", "aria-hidden": "true" }, "no image");
}

function thumb(pick) {
  const src = safeUrl(pick.image_url);
  if (!src) return placeholder();
  const img = el("img", { class: "thumb", src, alt: "", loading: "lazy",
    referrerpolicy: "no-referrer" });
  img.addEventListener("error", () => img.replaceWith(placeholder()), { once: true });
  return img;
}

function card(pick, index) {
  const link = safeUrl(pick.url);
  const stock = stockText(pick);
  const box = el("input", { type: "checkbox", class: "compare-pick", "data-item-id": pick.item_id });
  box.checked = state.selected.has(pick.item_id);
  box.addEventListener("change", () => toggleCompare(pick.item_id, box.checked));
  const similar = state.similar
    ? el("button", { type: "button", class: "similar-button", "aria-expanded": "false",
      "aria-label": `Similar items to ${pick.title}` }, "Similar items")
    : null;
  const article = el("article", { class: "card", "data-item-id": pick.item_id,
    "aria-label": `Pick ${index + 1}` },
    thumb(pick),
    el("div", { class: "card-body" },
      el("h3", { class: "title" }, pick.title),
      el("p", { class: "shop" }, shopName(pick.platform)),
      el("p", { class: "price" }, priceText(pick)),
      stock ? el("p", { class: "stock" }, stock) : null,
      el("p", { class: "reason" }, pick.reason || ""),
      el("p", { class: "cite" }, "Item ", el("code", {}, pick.item_id)),
      link ? el("a", { href: link, rel: "noopener noreferrer", target: "_blank" },
        "View in the shop") : null,
      el("div", { class: "offers", "aria-live": "polite" }),
      el("div", { class: "card-actions" },
        el("label", {}, box, " Compare"),
        similar),
      el("div", { class: "similar", "aria-live": "polite" })));
  if (similar) {
    similar.addEventListener("click", async () => {
      if ((await toggleSimilar(article, pick, similar)) === "absent") state.similar = false;
    });
  }
  return article;
}

function slotTotal(picks) {
  const prices = picks.map((p) => p.price_usd);
  if (!prices.length || prices.some((p) => typeof p !== "number")) return null;
  return prices.reduce((a, b) => a + b, 0);
}

/** Show `picks`; with several slots (a bundle) they are grouped by slot, with a total of the
 * first pick of each. */
export function renderPicks(picks, slots) {
  state.picks = picks.slice();
  state.selected = new Set([...state.selected].filter((id) => picks.some((p) => p.item_id === id)));
  const root = document.getElementById("cards");
  if (!picks.length) {
    root.replaceChildren(el("p", { class: "empty" }, "No picks for this request."));
    updateCompareButton();
    return;
  }
  const byId = new Map(picks.map((p) => [p.item_id, p]));
  const groups = Object.entries(slots || {}).map(([slot, ids]) =>
    [slot, ids.map((id) => byId.get(id)).filter(Boolean)]).filter(([, list]) => list.length);
  let index = 0;
  if (groups.length > 1) {
    const firsts = groups.map(([, list]) => list[0]);
    const total = slotTotal(firsts);
    root.replaceChildren(
      ...groups.map(([slot, list]) => el("section", { class: "slot", "data-slot": slot },
        el("h3", { class: "slot-name" }, slot),
        el("div", { class: "slot-cards" }, list.map((p) => card(p, index++))))),
      el("p", { class: "bundle-total" }, total === null
        ? "Bundle total: some prices are not listed"
        : `Bundle total (first pick of each part): ${money(total)}`));
  } else {
    root.replaceChildren(...picks.map((p) => card(p, index++)));
  }
  for (const [id, detail] of state.details) showDetail(id, detail);
  updateCompareButton();
}

/** Add catalog fields and offers (GET /v1/cards) to the cards on screen. */
export function addDetails(cards) {
  for (const detail of cards || []) {
    state.details.set(detail.item_id, detail);
    showDetail(detail.item_id, detail);
  }
}

function cardsOf(id) {
  return [...document.querySelectorAll("#cards .card")].filter((c) => c.dataset.itemId === id);
}

function showDetail(id, detail) {
  for (const node of cardsOf(id)) {
    const image = node.querySelector(".thumb");
    if (image && image.classList.contains("placeholder") && safeUrl(detail.image_url)) {
      image.replaceWith(thumb(detail));
    }
    const body = node.querySelector(".card-body");
    if (!body.querySelector("a") && safeUrl(detail.url)) {
      body.querySelector(".cite").after(el("a", { href: safeUrl(detail.url),
        rel: "noopener noreferrer", target: "_blank" }, "View in the shop"));
    }
    node.querySelector(".offers").replaceChildren(...offerLines(detail));
  }
}

function offerLines(detail) {
  if (detail.offers_error) return [el("p", { class: "note" }, "Offers elsewhere unavailable.")];
  const offers = detail.offers || [];
  const own = detail.price_usd;
  const cheaper = offers.filter((o) => typeof o.price_usd === "number" && typeof own === "number"
    && o.price_usd < own).slice(0, 3);
  if (!cheaper.length) {
    return offers.length ? [el("p", { class: "note" },
      `Also sold at ${[...new Set(offers.map((o) => shopName(o.platform)))].join(", ")}.`)] : [];
  }
  return [el("p", { class: "offers-title" }, "Cheaper elsewhere"),
    el("ul", {}, cheaper.map((o) => el("li", { class: "offer" },
      `${money(o.price_usd)} at ${shopName(o.platform)} (save ${money(own - o.price_usd)}) `,
      el("code", {}, o.item_id))))];
}

function toggleCompare(id, on) {
  if (on && state.selected.size >= MAX_COMPARE) {
    for (const box of document.querySelectorAll(".compare-pick")) {
      if (box.dataset.itemId === id) box.checked = false;
    }
    return;
  }
  if (on) state.selected.add(id);
  else state.selected.delete(id);
  updateCompareButton();
}

function updateCompareButton() {
  const button = document.getElementById("compare-selected");
  button.disabled = state.selected.size < 2;
}

/** The ids ticked for comparison. */
export function selectedIds() {
  return [...state.selected];
}

const ROWS = [
  ["Price", (p) => priceText(p)],
  ["Shop", (p) => shopName(p.platform)],
  ["Stock", (p) => stockText(p)],
  ["Brand", (p) => p.brand],
  ["Category", (p) => p.category],
  ["Colour", (p) => p.color],
  ["Model", (p) => p.model_number],
  ["Released", (p) => p.released],
  ["Rating", (p) => (typeof p.rating === "number" ? `${p.rating} / 5` : null)],
  ["Features", (p) => (p.features && p.features.length ? p.features.join(", ") : null)],
  ["Cheapest elsewhere", (p) => cheapestElsewhere(p)],
  ["Why", (p) => p.reason],
];

function cheapestElsewhere(p) {
  const priced = (p.offers || []).filter((o) => typeof o.price_usd === "number");
  if (!priced.length) return null;
  const best = priced.reduce((a, b) => (b.price_usd < a.price_usd ? b : a));
  return `${money(best.price_usd)} at ${shopName(best.platform)}`;
}

/** Put two or three picks side by side: price, shop, the specs the catalog lists, reasons. */
export function renderCompare(ids) {
  const picks = ids.map((id) => state.picks.find((p) => p.item_id === id)).filter(Boolean)
    .slice(0, MAX_COMPARE).map((p) => ({ ...(state.details.get(p.item_id) || {}), ...p }));
  const root = document.getElementById("compare");
  if (picks.length < 2) {
    root.hidden = true;
    return;
  }
  const rows = ROWS.filter(([, get]) => picks.some((p) => get(p) !== null && get(p) !== undefined
    && get(p) !== ""));
  const close = el("button", { type: "button", class: "compare-close" }, "Close comparison");
  close.addEventListener("click", () => { root.hidden = true; });
  root.replaceChildren(
    el("table", { class: "compare-table", tabindex: "-1" },
      el("caption", {}, `Comparing ${picks.length} picks`),
      el("thead", {}, el("tr", {}, el("th", { scope: "col" }, "Pick"),
        picks.map((p) => el("th", { scope: "col" }, p.title)))),
      el("tbody", {}, rows.map(([name, get]) => el("tr", {}, el("th", { scope: "row" }, name),
        picks.map((p) => el("td", {}, get(p) ?? "—")))))),
    close);
  root.hidden = false;
}
