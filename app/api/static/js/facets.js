// The catalog's facets as filters beside the picks: the shops (ticked ones become the plan's
// shop scope), price ranges of a category (one becomes the budget), and brands, categories
// and attribute values that go into the next message. Filters edit the plan, so they wait
// for one; every text is put in as text.

import { el, money, shopName } from "./dom.js";

const state = { facets: null, onEdit: null, category: null, plan: null, busy: false };
const WORDS_SHOWN = 12;
const ATTRIBUTES_SHOWN = 3;

const $ = (id) => document.getElementById(id);

function counted(label, count) {
  return typeof count === "number" ? `${label} (${count.toLocaleString("en-US")})` : label;
}

function shopBox(shop) {
  const box = el("input", { type: "checkbox", class: "facet-shop", value: shop.value });
  return el("label", { class: "facet-check" }, box, " ", counted(shopName(shop.value), shop.count));
}

function shopsField(shops) {
  const apply = el("button", { type: "button", id: "facet-shops-apply", class: "facet-apply" },
    "Search the ticked shops");
  apply.addEventListener("click", () => {
    const ticked = [...document.querySelectorAll(".facet-shop")].filter((b) => b.checked)
      .map((b) => b.value);
    state.onEdit({ platforms: ticked.length ? ticked : null });
  });
  return el("fieldset", { class: "facet facet-shops" }, el("legend", {}, "Shops"),
    el("div", { class: "facet-options" }, shops.map(shopBox)), apply);
}

function amount(value, currency, usd) {
  const shown = money(value, currency);
  return currency !== "USD" && typeof usd === "number" ? `${shown} (≈ ${money(usd)})` : shown;
}

/** The price ranges of one category (or the whole catalog) as budget edits. */
function rangeButtons(entry) {
  const shown = entry && entry.prices;
  const usd = entry && entry.prices_usd;
  if (!shown || !usd || !(usd.p25 > 0) || !(usd.p75 > usd.p25)) {
    return [el("p", { class: "note" }, "No price ranges for this choice.")];
  }
  const c = shown.currency;
  const ranges = [
    [`Under ${amount(shown.p25, c, usd.p25)}`, { budget_usd: usd.p25, budget_min_usd: null }],
    [`${amount(shown.p25, c, usd.p25)} to ${amount(shown.p75, c, usd.p75)}`,
      { budget_min_usd: usd.p25, budget_usd: usd.p75 }],
    [`Over ${amount(shown.p75, c, usd.p75)}`, { budget_min_usd: usd.p75, budget_usd: null }],
    ["Any price", { budget_usd: null, budget_min_usd: null }],
  ];
  return ranges.map(([label, edit]) => {
    const button = el("button", { type: "button", class: "facet-apply facet-range" }, label);
    button.addEventListener("click", () => state.onEdit(edit));
    return button;
  });
}

function priceEntry(value) {
  const facets = state.facets;
  if (!value) return { prices: facets.prices, prices_usd: facets.prices_usd };
  return (facets.categories || []).find((c) => c.value === value) || null;
}

function showRanges() {
  const box = $("facet-ranges");
  box.replaceChildren(...rangeButtons(priceEntry($("facet-price-category").value)));
  updateFilters(state.plan, state.busy);
}

function priceField(categories) {
  const select = el("select", { id: "facet-price-category" },
    el("option", { value: "" }, "the whole catalog"),
    categories.filter((c) => c.prices_usd).map((c) =>
      el("option", { value: c.value }, counted(c.value, c.count))));
  select.addEventListener("change", showRanges);
  return el("fieldset", { class: "facet facet-price" }, el("legend", {}, "Price"),
    el("label", { for: "facet-price-category" }, "Price ranges of "), select,
    el("div", { id: "facet-ranges", class: "facet-options" }));
}

function wordsField(legend, values) {
  if (!values || !values.length) return null;
  return el("fieldset", { class: "facet facet-words" }, el("legend", {}, legend),
    el("div", { class: "facet-options" }, values.slice(0, WORDS_SHOWN).map((v) => {
      const button = el("button", { type: "button", class: "facet-value",
        "aria-label": `Add ${v.value} to the message` }, counted(v.value, v.count));
      button.addEventListener("click", () => {
        const input = $("message");
        input.value = `${input.value} ${v.value}`.trim();
        input.focus();
      });
      return button;
    })));
}

function fillShopScope(shops) {
  const scope = $("shop-scope");
  const kept = scope.value;
  scope.replaceChildren(el("option", { value: "" }, "every shop"),
    ...shops.map((s) => el("option", { value: s.value }, shopName(s.value))));
  scope.value = shops.some((s) => s.value === kept) ? kept : "";
}

/** Show the facets as filters; `onEdit(edit)` sends a plan edit. Nothing shows for null. */
export function renderFacets(facets, onEdit) {
  const root = $("facets");
  if (!facets || !Array.isArray(facets.shops)) {
    root.hidden = true;
    return;
  }
  state.facets = facets;
  state.onEdit = onEdit;
  if (facets.shops.length) fillShopScope(facets.shops);
  const attributes = (facets.attributes || []).slice(0, ATTRIBUTES_SHOWN)
    .map((a) => wordsField(a.name, a.values));
  root.replaceChildren(
    el("h2", { id: "facets-heading" }, "Filter the catalog"),
    el("p", { id: "facets-note", class: "note" }, ""),
    facets.shops.length > 1 ? shopsField(facets.shops) : null,
    priceField(facets.categories || []),
    wordsField("Brands", facets.brands),
    wordsField("Categories", facets.categories),
    ...attributes);
  root.setAttribute("aria-labelledby", "facets-heading");
  root.hidden = false;
  showRanges();
}

/** The facet category of the plan's: the same name (or its plural), else the longest one
 * the plan's ends with ("bluetooth headphones" -> "headphones"). */
function matchingCategory(plan) {
  const wanted = plan && plan.category ? String(plan.category).toLowerCase() : null;
  if (!wanted || !state.facets) return null;
  const names = (state.facets.categories || []).filter((c) => c.prices_usd).map((c) => c.value);
  const same = names.find((n) => n === wanted || n === `${wanted}s` || `${n}s` === wanted);
  if (same) return same;
  const tails = names.filter((n) => wanted.endsWith(` ${n}`) || wanted.endsWith(` ${n}s`)
    || `${wanted}s`.endsWith(` ${n}`));
  return tails.sort((a, b) => b.length - a.length)[0] || null;
}

/** Follow the plan: filters apply only to a plan (and not while a turn runs); the ticked
 * shops are the plan's, the price ranges those of its category when the catalog has it. */
export function updateFilters(plan, busy = false) {
  state.plan = plan;
  state.busy = busy;
  if (!state.facets) return;
  const category = matchingCategory(plan);
  const select = $("facet-price-category");
  if (select && category && category !== state.category) {
    state.category = category;
    select.value = category;
    $("facet-ranges").replaceChildren(...rangeButtons(priceEntry(category)));
  }
  const scope = new Set((plan && plan.platforms) || []);
  for (const box of document.querySelectorAll(".facet-shop")) box.checked = scope.has(box.value);
  for (const button of document.querySelectorAll("#facets .facet-apply")) {
    button.disabled = !plan || busy;
  }
  $("facets-note").textContent = plan
    ? "Shops and prices change the plan and search again."
    : "Ask for something first: shops and prices then narrow its search.";
}
