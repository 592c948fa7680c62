// The live feed of a turn's steps (plan, tool start and end with timings) and the banner for
// a dependency that is down or a refused request.

import { el } from "./dom.js";

const feed = () => document.getElementById("feed");
const calls = new Map();

export function clearFeed() {
  feed().replaceChildren();
  calls.clear();
}

function step(text, kind) {
  const item = el("li", { class: `step ${kind}` }, text);
  feed().append(item);
  return item;
}

/** One event of the turn as a line of the feed. */
export function feedEvent(type, data) {
  if (type === "session") {
    step(data.new ? "new session" : `turn ${data.turn || ""} (${data.mode || "agent"})`, "info");
  } else if (type === "plan") {
    const plan = data.plan || {};
    const what = [plan.category, ...(plan.keywords || [])].filter(Boolean).join(" ");
    step(`plan: ${what || "no product yet"} (${data.source || "planner"})`, "plan");
  } else if (type === "tool_start") {
    calls.set(data.call_id, step(`${data.tool} started`, "running"));
  } else if (type === "tool_end") {
    const ms = typeof data.ms === "number" ? `${Math.round(data.ms)} ms` : "";
    const detail = data.ok ? data.summary || "" : `${data.code || "error"}: ${data.message || ""}`;
    const text = `${data.tool} ${data.ok ? "done" : "failed"} in ${ms}${detail ? ` — ${detail}` : ""}`;
    const line = calls.get(data.call_id);
    if (line) {
      line.textContent = text;
      line.className = `step ${data.ok ? "ok" : "failed"}`;
    } else step(text, data.ok ? "ok" : "failed");
  } else if (type === "done") {
    const planner = (data.trace || []).find((t) => t.stage === "planner");
    step(planner ? `done (planning took ${Math.round(planner.ms)} ms)` : "done", "info");
  } else if (type === "error") {
    step(`error: ${data.message || data.code}`, "failed");
  }
}

/** Show a plain notice; `error` is an ApiError or an `error` event's data. */
export function showBanner(error) {
  const text = document.getElementById("banner-text");
  text.textContent = describe(error);
  document.getElementById("banner").hidden = false;
}

export function hideBanner() {
  document.getElementById("banner").hidden = true;
}

function describe(error) {
  const status = error.status;
  const message = error.message || "";
  if (error.code === "dependency_down" || status === 503) {
    const what = error.dependency ? ` (${error.dependency})` : "";
    return `A service Pickwise needs is down${what}; please try again in a moment. ${message}`;
  }
  if (status === 429) return "Too many requests right now; please wait a moment and try again.";
  if (status >= 500 || error.code === "internal_error") {
    return "Something went wrong on the server; please try again.";
  }
  if (status >= 400 || error.code) return `The request was refused: ${message}`;
  return message || "Something went wrong.";
}
