// The plan under the input as chips (budget, must-haves, exclusions, shop scope, stock);
// removing one, choosing a shop or ticking "In stock only" asks for a typed plan edit.

import { SHOP_IDS, el, money, shopName } from "./dom.js";

function chip(label, edit, onEdit) {
  const children = [el("span", { class: "chip-label" }, label)];
  if (edit) {
    const remove = el("button", { type: "button", class: "chip-remove",
      "aria-label": `Remove ${label}` }, "×");
    remove.addEventListener("click", () => onEdit(edit));
    children.push(remove);
  }
  return el("li", { class: "chip" }, children);
}

function budgetLabel(plan) {
  const written = plan.currency && plan.currency !== "USD" && plan.budget_amount
    ? money(plan.budget_amount, plan.currency) : null;
  const usd = money(plan.budget_usd);
  return written ? `${written} (≈ ${usd})` : usd;
}

/** Show `plan` (a ShoppingPlan document, or null) as chips; `onEdit(edit)` gets the edit a
 * chip's removal or the shop choice asks for. */
export function renderPlan(plan, onEdit, busy = false) {
  const chips = document.getElementById("chips");
  const scope = document.getElementById("shop-scope");
  const apply = document.getElementById("shop-apply");
  const stock = document.getElementById("in-stock");
  if (!plan) {
    chips.replaceChildren();
    scope.disabled = true;
    apply.disabled = true;
    stock.disabled = true;
    stock.checked = false;
    return;
  }
  const items = [];
  if (plan.category) items.push(chip(`Looking for: ${plan.category}`, null, onEdit));
  if (plan.budget_usd) {
    items.push(chip(`Budget: under ${budgetLabel(plan)}`, { budget_usd: null }, onEdit));
  }
  if (plan.budget_min_usd) {
    items.push(chip(`Budget: over ${money(plan.budget_min_usd)}`, { budget_min_usd: null },
      onEdit));
  }
  for (const term of plan.must_have || []) {
    items.push(chip(`Must have: ${term}`, { drop_must_have: [term] }, onEdit));
  }
  for (const c of plan.exclude || []) {
    items.push(chip(`Not: ${c.term}`, { drop_exclude: [c.term] }, onEdit));
  }
  const platforms = plan.platforms || [];
  for (const p of platforms) {
    const rest = platforms.filter((q) => q !== p);
    items.push(chip(`Shop: ${shopName(p)}`, { platforms: rest.length ? rest : null }, onEdit));
  }
  if (!platforms.length) items.push(chip("Shops: all", null, onEdit));
  if (plan.in_stock) items.push(chip("In stock only", { in_stock: null }, onEdit));
  chips.replaceChildren(...items);
  for (const button of chips.querySelectorAll("button")) button.disabled = busy;
  if (scope.options.length <= 1) {
    scope.append(...SHOP_IDS.map((id) => el("option", { value: id }, shopName(id))));
  }
  scope.value = platforms.length === 1 ? platforms[0] : "";
  scope.disabled = busy;
  apply.disabled = busy;
  apply.onclick = () => onEdit({ platforms: scope.value ? [scope.value] : null });
  stock.checked = Boolean(plan.in_stock);
  stock.disabled = busy;
  stock.onchange = () => onEdit({ in_stock: stock.checked ? true : null });
}
