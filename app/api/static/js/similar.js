// "Similar items" on a product card: other products like it (never the same product on
// another shop), within the session's plan. The button folds the list away again; a server
// without the route loses every such button, an item it does not know loses its own.

import { fetchSimilar } from "./catalog.js";
import { el, priceText, shopName } from "./dom.js";

function entry(item) {
  return el("li", { class: "similar-item", "data-item-id": item.item_id },
    el("span", { class: "similar-title" }, item.title || item.item_id),
    ` — ${shopName(item.platform)} — ${priceText(item)} `,
    el("code", {}, item.item_id));
}

/** Show (or fold away) the similar items of `pick` in its card `article`; resolves to
 * "absent" when the server has no similar items at all. */
export async function toggleSimilar(article, pick, button) {
  const box = article.querySelector(".similar");
  if (button.getAttribute("aria-expanded") === "true") {
    box.replaceChildren();
    button.setAttribute("aria-expanded", "false");
    return "folded";
  }
  button.disabled = true;
  let found;
  try {
    found = await fetchSimilar(pick.item_id);
  } catch {
    found = { failed: true };
  } finally {
    button.disabled = false;
  }
  if (found.absent) {
    for (const other of document.querySelectorAll(".similar-button")) other.remove();
    return "absent";
  }
  if (found.unknown) {
    button.remove();
    box.replaceChildren(el("p", { class: "note" }, "No similar items for this one."));
    return "unknown";
  }
  if (found.failed) {
    box.replaceChildren(el("p", { class: "note" }, "Similar items are unavailable right now."));
    return "failed";
  }
  box.replaceChildren(el("p", { class: "offers-title" }, "Similar items"),
    found.items.length
      ? el("ul", { class: "similar-list" }, found.items.map(entry))
      : el("p", { class: "note" }, "Nothing similar within your plan."));
  button.setAttribute("aria-expanded", "true");
  return "shown";
}
