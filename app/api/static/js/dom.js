// Building the page's elements: text always goes in as text nodes, never as markup.

/** An element with attributes (strings, or true for a bare one) and children (elements or
 * text, which is never parsed). */
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === false || value === null || value === undefined) continue;
    if (name === "class") node.className = value;
    else node.setAttribute(name, value === true ? "" : String(value));
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

/** A URL the page may link or load: http(s) only, never javascript: or data:. */
export function safeUrl(value) {
  if (typeof value !== "string") return null;
  try {
    const url = new URL(value, window.location.href);
    return url.protocol === "http:" || url.protocol === "https:" ? url.href : null;
  } catch {
    return null;
  }
}

/** An amount in a currency ("$12.50", "€9.99"); null for no amount. */
export function money(amount, currency = "USD") {
  if (typeof amount !== "number" || !Number.isFinite(amount)) return null;
  try {
    return new Intl.NumberFormat("en-US", { style: "currency", currency }).format(amount);
  } catch {
    return `${amount.toFixed(2)} ${currency}`;
  }
}

/** A pick's price as the shop states it, with the converted USD one when they differ. */
export function priceText(pick) {
  const usd = money(pick.price_usd);
  const own = pick.currency && pick.currency !== "USD" ? money(pick.price, pick.currency) : null;
  if (own && usd) return `${own} (≈ ${usd})`;
  return own || usd || "price not listed";
}

const STOCK = { in_stock: "In stock", preorder: "Pre-order", out_of_stock: "Sold out" };

/** What the shop says of a pick's stock, or null when it says nothing. */
export function stockText(pick) {
  return STOCK[pick.availability] || null;
}

const SHOPS = { icecat: "Icecat", walmart: "Walmart", amazon: "Amazon",
  google: "Google Shopping", abt: "Abt", buy: "Buy.com" };

/** A shop's display name. */
export function shopName(platform) {
  return SHOPS[platform] || String(platform || "unknown shop");
}

/** The shops a plan can be scoped to, in a stable order. */
export const SHOP_IDS = Object.keys(SHOPS);
