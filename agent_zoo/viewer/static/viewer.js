// The viewer's page: it fetches frames and table views from the server and draws them; it computes nothing
// about the game (every pot, stack and bet comes from the server, which has the rules compute them).
"use strict";

const SUITS = { s: "\u2660", h: "\u2665", d: "\u2666", c: "\u2663" };
const NUMBER = new Intl.NumberFormat("en-US", { maximumFractionDigits: 6 });
const state = { hands: [], replay: null, frame: 0, play: null };

const $ = (id) => document.getElementById(id);

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (key === "class") node.className = value;
    else if (key === "text") node.textContent = value;
    else if (key.startsWith("data-")) node.setAttribute(key, value);
    else node[key] = value;
  }
  for (const child of children) if (child !== null && child !== undefined) node.append(child);
  return node;
}

function fmt(x) {
  return NUMBER.format(x);
}

function showError(message) {
  const box = $("error");
  box.textContent = message || "";
  box.hidden = !message;
}

async function api(path, body) {
  const options = body === undefined ? {} : {
    method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body),
  };
  const response = await fetch(path, options);
  const data = await response.json();
  if (!response.ok) throw new Error(data.error || response.statusText);
  showError("");
  return data;
}

// ---- cards and the table ----------------------------------------------------------------------------

function card(text) {
  if (text === null) return el("span", { class: "card back", title: "unknown" });
  const rank = text[0] === "T" ? "10" : text[0];
  return el("span", { class: `card suit-${text[1]}`, "data-card": text, title: text },
    el("span", { class: "rank", text: rank }), el("span", { class: "suit", text: SUITS[text[1]] }));
}

function seatPlace(index, count, bottom) {
  // seat `bottom` sits at the bottom middle; the others go clockwise round the oval
  const angle = Math.PI / 2 + (2 * Math.PI * ((index - bottom + count) % count)) / count;
  return { x: Math.cos(angle), y: Math.sin(angle) };
}

function drawTable(host, frame, bottom = 0) {
  host.replaceChildren();
  if (!frame) return;
  const felt = el("div", { class: "felt" });
  const board = el("div", { id: host.id + "-board", class: "board" }, ...frame.board.map(card));
  const pot = el("div", { class: "pot" }, "Pot ",
    el("b", { id: host.id === "replay-table" ? "pot" : "play-pot", "data-value": frame.pot, text: fmt(frame.pot) }));
  felt.append(el("div", { class: "street", text: frame.street }), board, pot);
  host.append(felt);
  frame.seats.forEach((seat, i) => {
    const place = seatPlace(i, frame.seats.length, bottom);
    const classes = ["seat"];
    if (seat.folded) classes.push("folded");
    if (frame.to_act === i) classes.push("to-act");
    if (frame.actor === i) classes.push("actor");
    const status = seat.folded ? "folded" : seat.all_in ? "all-in" : "";
    const box = el("div", { class: classes.join(" "), "data-seat": i },
      el("div", { class: "name", text: seat.name, title: seat.name }),
      el("div", { class: "cards" }, ...seat.cards.map(card)),
      el("div", { class: "stack" }, el("span", { class: "stack-value", "data-value": seat.stack, text: fmt(seat.stack) }),
        status ? el("span", { class: "badge", text: status }) : null),
      seat.hand ? el("div", { class: "hand", text: seat.hand }) : null,
      seat.won !== undefined && seat.won !== null ? el("div", {
        class: seat.won > 0 ? "won plus" : seat.won < 0 ? "won minus" : "won",
        text: (seat.won > 0 ? "+" : "") + fmt(seat.won),
      }) : null);
    box.style.left = `${50 + 41 * place.x}%`;
    box.style.top = `${50 + 37 * place.y}%`;
    host.append(box);
    if (seat.button) {
      const dealer = el("div", { class: "dealer", text: "D", title: "button" });
      dealer.style.left = `${50 + 27 * place.x - 9}%`;
      dealer.style.top = `${50 + 21 * place.y}%`;
      host.append(dealer);
    }
    if (seat.bet > 0) {
      const bet = el("div", { class: "bet", "data-seat": i, "data-value": seat.bet, text: fmt(seat.bet) });
      bet.style.left = `${50 + 27 * place.x}%`;
      bet.style.top = `${50 + 21 * place.y}%`;
      host.append(bet);
    }
  });
}

// ---- replays ----------------------------------------------------------------------------------------

async function loadHands() {
  const data = await api("/api/hands");
  state.hands = data.hands;
  $("skipped").textContent = data.skipped.length ? `Skipped: ${data.skipped.join("; ")}` : "";
  listHands();
  if (state.hands.length) openHand(state.hands[0].id);
}

function listHands() {
  const words = $("filter").value.toLowerCase().split(/\s+/).filter(Boolean);
  const shown = state.hands.filter((h) => words.every((w) => h.title.toLowerCase().includes(w)));
  $("hand-count").textContent = `${shown.length} of ${state.hands.length} hand(s)`;
  $("hand-list").replaceChildren(...shown.slice(0, 2000).map((hand) => {
    const item = el("li", { "data-id": hand.id, title: hand.source },
      el("span", { class: `kind kind-${hand.kind}`, text: hand.kind === "log" ? "log" : "PHH" }), hand.title);
    if (state.replay && state.replay.id === hand.id) item.classList.add("selected");
    item.addEventListener("click", () => openHand(hand.id));
    return item;
  }));
}

async function openHand(id) {
  try {
    state.replay = await api(`/api/hands/${id}`);
  } catch (err) {
    state.replay = null;
    showError(err.message);
    $("hand-title").textContent = "This hand cannot be replayed";
    drawReplay();
    return;
  }
  state.frame = 0;
  $("hand-title").textContent = state.replay.title;
  $("hand-source").textContent = state.replay.source;
  $("notes").replaceChildren(...state.replay.notes.map((n) => el("p", { class: "note", text: n })));
  $("reply-panel").hidden = state.replay.kind !== "log";
  $("frame-list").replaceChildren(...state.replay.frames.map((f, k) => {
    const item = el("li", { "data-frame": k, text: f.text });
    if (f.reply) item.classList.add("has-reply");
    item.addEventListener("click", () => goTo(k));
    return item;
  }));
  for (const item of $("hand-list").children) item.classList.toggle("selected", Number(item.dataset.id) === id);
  drawReplay();
}

function goTo(k) {
  if (!state.replay) return;
  state.frame = Math.max(0, Math.min(k, state.replay.frames.length - 1));
  drawReplay();
}

function drawReplay() {
  const frames = state.replay ? state.replay.frames : [];
  const frame = frames[state.frame];
  drawTable($("replay-table"), frame, state.replay ? state.replay.focus : 0);
  $("frame-pos").textContent = `${frames.length ? state.frame + 1 : 0} / ${frames.length}`;
  $("frame-text").textContent = frame ? frame.text : "";
  $("prev").disabled = $("first").disabled = state.frame <= 0;
  $("next").disabled = $("last").disabled = state.frame >= frames.length - 1;
  for (const item of $("frame-list").children) {
    const on = Number(item.dataset.frame) === state.frame;
    item.classList.toggle("current", on);
    if (on) scrollInto($("frame-list"), item);
  }
  drawReply(frame && frame.reply);
}

function scrollInto(list, item) {
  // keep the current item visible in its list without scrolling the page
  if (item.offsetTop < list.scrollTop) list.scrollTop = item.offsetTop;
  else if (item.offsetTop + item.offsetHeight > list.scrollTop + list.clientHeight) {
    list.scrollTop = item.offsetTop + item.offsetHeight - list.clientHeight;
  }
}

function drawReply(reply) {
  const box = $("reply");
  if (!reply) {
    box.replaceChildren(el("p", { class: "muted", text: "No reply logged for this frame." }));
    return;
  }
  const parts = [el("p", { class: "muted", text: reply.agent || "" })];
  (reply.replies || []).forEach((text, k) => {
    const failure = (reply.failures || [])[k];
    parts.push(el("h4", { text: `Reply ${k + 1}` + (failure ? ` (refused: ${failure})` : "") }));
    parts.push(el("pre", { class: failure ? "reply failed" : "reply", text }));
  });
  if (reply.fallback) parts.push(el("p", { class: "note", text: "No reply gave a legal action: the fallback was played." }));
  if (reply.prompt) parts.push(el("details", {}, el("summary", { text: "Prompt" }), el("pre", { text: reply.prompt })));
  box.replaceChildren(...parts);
}

// ---- play -------------------------------------------------------------------------------------------

async function playRequest(path, body) {
  try {
    state.play = await api(path, body);
    drawPlay();
  } catch (err) {
    showError(err.message);
  }
}

function drawPlay() {
  const view = state.play;
  if (!view) return;
  const host = $("play-table");
  if (view.table) drawTable(host, view.table, view.seat);
  else host.replaceChildren(el("div", { class: "felt info" }, el("p", { id: "play-info", text: view.info })));
  $("play-game").textContent = `${view.title} against ${view.agent}`;
  $("play-hands").textContent = view.hands;
  const total = $("play-total");
  total.dataset.value = view.total;
  total.textContent = (view.total > 0 ? "+" : "") + fmt(view.total);
  total.className = view.total > 0 ? "plus" : view.total < 0 ? "minus" : "";
  $("play-unit").textContent = view.unit === "bb" ? "big blinds" : view.unit;
  $("play-log").replaceChildren(...view.log.map((line) => el("li", { text: line })));
  $("play-status").textContent = view.over
    ? `Hand over: you ${view.won >= 0 ? "won" : "lost"} ${fmt(Math.abs(view.won))} ${view.unit === "bb" ? "big blinds" : view.unit}.`
    : "Your turn.";
  $("play-actions").replaceChildren(...view.legal.map((a) => {
    const button = el("button", { class: `act act-${a.kind}`, "data-id": a.id, "data-kind": a.kind, text: a.label });
    button.addEventListener("click", () => playRequest("/api/play/act", { action: a.id }));
    return button;
  }));
  const sizes = view.sizes;
  $("play-raise").hidden = !sizes;
  if (sizes) {
    const input = $("raise-amount");
    input.min = sizes.min;
    input.max = sizes.max;
    if (!input.value || Number(input.value) < sizes.min || Number(input.value) > sizes.max) input.value = sizes.min;
    $("raise-label").textContent = sizes.kind === "bet" ? "Bet" : "Raise to";
    $("raise-go").textContent = sizes.kind === "bet" ? "Bet" : "Raise";
    $("raise-range").textContent = `${fmt(sizes.min)} to ${fmt(sizes.max)}`;
  }
  $("deal").hidden = !view.over;
  const select = $("new-game");
  if (!select.options.length) {
    select.replaceChildren(...view.games.map((g) => el("option", { value: g, text: g })));
    $("new-agent").value = view.agent;
  }
  select.value = view.game;
}

// ---- wiring -----------------------------------------------------------------------------------------

function showView(name) {
  const hash = name === "play" ? "#play" : "";
  if (location.hash !== hash) history.replaceState(null, "", location.pathname + hash);
  for (const tab of document.querySelectorAll(".tab")) tab.classList.toggle("active", tab.dataset.view === name);
  $("view-replays").hidden = name !== "replays";
  $("view-play").hidden = name !== "play";
  if (name === "play" && !state.play) playRequest("/api/play");
}

function wire() {
  for (const tab of document.querySelectorAll(".tab")) tab.addEventListener("click", () => showView(tab.dataset.view));
  $("filter").addEventListener("input", listHands);
  $("first").addEventListener("click", () => goTo(0));
  $("prev").addEventListener("click", () => goTo(state.frame - 1));
  $("next").addEventListener("click", () => goTo(state.frame + 1));
  $("last").addEventListener("click", () => goTo(Infinity));
  document.addEventListener("keydown", (event) => {
    if ($("view-replays").hidden || event.target.tagName === "INPUT") return;
    const moves = { ArrowLeft: state.frame - 1, ArrowRight: state.frame + 1, Home: 0, End: Infinity };
    if (event.key in moves) {
      goTo(moves[event.key]);
      event.preventDefault();
    }
  });
  $("raise-go").addEventListener("click", () => playRequest("/api/play/act", { amount: Number($("raise-amount").value) }));
  $("deal").addEventListener("click", () => playRequest("/api/play/deal", {}));
  $("new-session").addEventListener("submit", (event) => {
    event.preventDefault();
    const seed = $("new-seed").value;
    playRequest("/api/play/new", { game: $("new-game").value, agent: $("new-agent").value.trim(),
      seed: seed === "" ? null : Number(seed) });
  });
  window.addEventListener("hashchange", () => showView(location.hash === "#play" ? "play" : "replays"));
  if (location.hash === "#play") showView("play");
  loadHands().catch((err) => showError(err.message));
}

wire();
