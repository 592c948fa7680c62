// The chat page: a turn streamed as it arrives (stop aborts it), the plan as chips, cards,
// comparison, the step feed, and the session restored after a reload.

import { ApiError, loadCards, loadFeatures, loadSession, readEvents,
  startTurn } from "./api.js";
import { addDetails, renderCompare, renderPicks, selectedIds, setSimilarSupported,
  shownPicks } from "./cards.js";
import { fetchFacets } from "./catalog.js";
import { el } from "./dom.js";
import { renderFacets, updateFilters } from "./facets.js";
import { clearFeed, feedEvent, hideBanner, showBanner } from "./feed.js";
import { renderPlan } from "./plan.js";
import { session } from "./session.js";

const $ = (id) => document.getElementById(id);
/** Per turn: ms from Enter to the first streamed token, to the cards, to the end. */
const timings = [];
window.pickwiseTimings = timings;
let running = null;
let turns = 0;
let plan = null;

const WHO = { user: "You", assistant: "Pickwise", note: "Note" };

function say(role, text) {
  const line = el("li", { class: `line ${role}` }, el("span", { class: "who" }, WHO[role]),
    el("p", { class: "text" }, text));
  $("conversation").append(line);
  toBottom();
  return line.querySelector(".text");
}

function toBottom() {
  const list = $("conversation");
  list.scrollTop = list.scrollHeight;
}

function setBusy(busy) {
  $("send").disabled = busy;
  $("stop").disabled = !busy;
  $("conversation").setAttribute("aria-busy", String(busy));
  renderPlan(plan, editPlan, busy);
  updateFilters(plan, busy);
}

function since(mark) {
  return Math.round(performance.measure(`${mark}-to-now-${performance.now()}`, mark).duration);
}

async function enrich(ids, compareIds) {
  if (!ids.length) return;
  try {
    addDetails((await loadCards(ids)).cards);
    if (compareIds && !$("compare").hidden) renderCompare(compareIds);
  } catch (error) {
    if (!(error instanceof ApiError && error.status === 404)) showBanner(error);
  }
}

function finish(data, timing, mark) {
  if (data.plan) plan = data.plan;
  const picks = data.picks || [];
  if (picks.length) {
    renderPicks(picks, data.slots);
    if (timing.cards_ms === null) timing.cards_ms = since(mark);
  }
  const compare = data.compare || [];
  if (compare.length >= 2) renderCompare(compare);
  else if (picks.length) $("compare").hidden = true;
  enrich(shownPicks().map((p) => p.item_id), compare.length >= 2 ? compare : null);
}

async function open(request, signal) {
  try {
    return await startTurn(request, signal);
  } catch (error) {
    const refused = error instanceof ApiError && [404, 422].includes(error.status);
    if (!refused || request.edit || !session.id()) throw error;
    session.forget();
    say("note", "The earlier conversation has ended; starting a new one.");
    return startTurn(request, signal);
  }
}

/** Run one turn (a message, or a plan edit) and show its events as they arrive. */
async function runTurn(request) {
  hideBanner();
  clearFeed();
  turns += 1;
  const mark = `pickwise-enter-${turns}`;
  performance.mark(mark);
  const timing = { turn: turns, first_token_ms: null, cards_ms: null, done_ms: null };
  const controller = new AbortController();
  running = controller;
  setBusy(true);
  let answer = null;
  let ended = false;
  try {
    const response = await open(request, controller.signal);
    for await (const { type, event } of readEvents(response)) {
      const data = event.data || {};
      feedEvent(type, data);
      if (type === "session") {
        session.remember(event.session_id, event.session_token || data.session_token);
      } else if (type === "plan") {
        plan = data.plan;
        renderPlan(plan, editPlan, true);
      } else if (type === "picks") {
        renderPicks(data.picks || [], data.slots);
        if (timing.cards_ms === null) timing.cards_ms = since(mark);
      } else if (type === "message_delta") {
        if (!answer) {
          answer = say("assistant", "");
          timing.first_token_ms = since(mark);
        }
        answer.textContent += data.text || "";
        toBottom();
      } else if (type === "done") {
        ended = true;
        finish(data, timing, mark);
      } else if (type === "error") {
        ended = true;
        showBanner(data);
        say("note", "This turn could not be finished.");
      }
    }
    if (!ended) throw new Error("the answer stopped before the turn ended");
  } catch (error) {
    if (error.name === "AbortError") say("note", "Stopped.");
    else showBanner(error instanceof ApiError ? error : { message: String(error.message) });
  } finally {
    running = null;
    timing.done_ms = since(mark);
    timings.push(timing);
    setBusy(false);
    document.body.dataset.turns = String(timings.length);
  }
}

function editPlan(edit) {
  if (running || !session.id()) return;
  say("note", "Plan changed; searching again.");
  runTurn({ edit });
}

async function restore() {
  const id = session.id();
  if (!id) return;
  try {
    const doc = await loadSession(id);
    for (const line of doc.messages || []) say(line.role, line.content);
    plan = doc.plan;
    renderPlan(plan, editPlan);
    const picks = doc.picks || [];
    if (picks.length) {
      renderPicks(picks, doc.slots || null);
      enrich(picks.map((p) => p.item_id), null);
    }
  } catch (error) {
    if (error instanceof ApiError && [404, 422].includes(error.status)) session.forget();
    else showBanner(error instanceof ApiError ? error : { message: String(error.message) });
  }
}

function wire() {
  $("chat-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const text = $("message").value.trim();
    if (!text || running) return;
    say("user", text);
    $("message").value = "";
    runTurn({ message: text });
  });
  $("stop").addEventListener("click", () => running && running.abort());
  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && running) running.abort();
  });
  $("banner-close").addEventListener("click", hideBanner);
  window.addEventListener("resize", toBottom);
  $("compare-selected").addEventListener("click", () => {
    const ids = selectedIds();
    renderCompare(ids);
    enrich(ids, ids);
    $("compare").querySelector("table")?.focus();
  });
  $("new-session").addEventListener("click", () => {
    if (running) running.abort();
    session.forget();
    plan = null;
    $("conversation").replaceChildren();
    renderPicks([], null);
    renderPlan(null, editPlan);
    updateFilters(null);
    $("compare").hidden = true;
    clearFeed();
    $("message").focus();
  });
}

async function main() {
  wire();
  const features = await loadFeatures();
  setSimilarSupported(features.similar);
  if (features.facets) renderFacets(await fetchFacets().catch(() => null), editPlan);
  await restore();
  updateFilters(plan);
  document.body.dataset.ready = "true";
}

main();
