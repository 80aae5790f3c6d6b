// The Crew components (anywidget ESM). One module renders every kind (card, hand, picker, trick, tasks):
// the kernel decides everything; the page only draws what it was given and sends clicks back as
// {type: "pick", ...} messages, which the kernel validates. No trait is ever set from here.
//
// __STYLE__ is replaced by the kernel with the palette and symbols (toolkit/widgets/components/crew.py),
// so the Python chips and these cards share one definition.
const STYLE = __STYLE__;
const SVG_NS = "http://www.w3.org/2000/svg";

function symbol(suit, cls) {
  const svg = document.createElementNS(SVG_NS, "svg");
  svg.setAttribute("viewBox", "0 0 24 24");
  svg.setAttribute("aria-hidden", "true");
  svg.setAttribute("focusable", "false");
  svg.setAttribute("class", cls || "crew-c-symbol");
  const path = document.createElementNS(SVG_NS, "path");
  path.setAttribute("d", STYLE.suits[suit].symbol);
  svg.appendChild(path);
  return svg;
}

// One card face. `item` = {card, label, aria}; returns a <button> when clickable.
function cardFace(item, clickable, extra) {
  const code = item.card;
  const suit = code[0];
  const value = code.slice(1);
  const el = document.createElement(clickable ? "button" : "div");
  if (clickable) el.type = "button";
  el.className = "crew-c-card crew-c-suit-" + suit + (extra ? " " + extra : "");
  el.dataset.card = code;
  el.dataset.key = "card:" + code;
  if (!clickable) el.setAttribute("role", "img");
  el.setAttribute("aria-label", item.aria || item.label || code);
  el.title = item.label || code;
  const top = document.createElement("span");
  top.className = "crew-c-value";
  top.textContent = value;
  el.appendChild(top);
  el.appendChild(symbol(suit));
  const code_ = document.createElement("span");
  code_.className = "crew-c-code";
  code_.textContent = code;   // the code a power user types, shown small
  el.appendChild(code_);
  return el;
}

function crewHeading(text, level) {
  return heading(text, level, "crew-c-heading");
}

function renderCard(model, root) {
  const item = model.get("item");
  if (!item || !item.card) return;
  const clickable = model.get("clickable");
  const face = cardFace(item, clickable, model.get("selected") ? "crew-c-selected" : "");
  if (clickable) {
    face.setAttribute("aria-pressed", model.get("selected") ? "true" : "false");
    face.addEventListener("click", () => model.send({ type: "pick", card: item.card }));
  }
  root.appendChild(face);
}

function renderHand(model, root) {
  const labels = model.get("labels");
  const items = model.get("items");
  const selected = model.get("selected");
  if (labels.title) root.appendChild(crewHeading(labels.title));
  const row = document.createElement("div");
  row.className = "crew-c-row";
  row.setAttribute("role", "group");
  row.setAttribute("aria-label", labels.title || "");
  for (const item of items) {
    const playable = item.playable !== false;
    const extra = [playable ? "crew-c-playable" : "crew-c-unplayable",
                   item.card === selected ? "crew-c-selected" : "", item.mark ? "crew-c-mark-" + item.mark : ""]
      .join(" ");
    const face = cardFace(item, true, extra);
    if (!playable) face.setAttribute("aria-disabled", "true");
    if (model.get("toggle")) face.setAttribute("aria-pressed", item.card === selected ? "true" : "false");
    face.addEventListener("click", () => model.send({ type: "pick", card: item.card }));
    row.appendChild(face);
  }
  if (!items.length) {
    const empty = document.createElement("span");
    empty.className = "crew-c-empty";
    empty.textContent = labels.empty || "—";
    row.appendChild(empty);
  }
  root.appendChild(row);
}

function renderPicker(model, root) {
  const labels = model.get("labels");
  const selected = model.get("selected");
  const unavailable = new Set(model.get("unavailable"));
  const names = model.get("item_labels");
  // marks: what a picked card is when that is more than its click order (TONOJA's "column 3, face down")
  const marks = model.get("marks") || {};
  if (labels.title) root.appendChild(crewHeading(labels.title));
  const grid = document.createElement("div");
  grid.className = "crew-c-picker" + (Object.keys(marks).length ? " crew-c-picker-marked" : "");
  grid.setAttribute("role", "group");
  grid.setAttribute("aria-label", labels.title || "");
  for (const suit of ["B", "G", "Y", "P", "S"]) {
    const line = document.createElement("div");
    line.className = "crew-c-picker-row";
    const name = document.createElement("span");
    name.className = "crew-c-picker-suit";
    name.appendChild(symbol(suit, "crew-c-symbol-small crew-c-suit-" + suit));
    const text = document.createElement("span");
    text.textContent = (labels.suits || {})[suit] || suit;
    name.appendChild(text);
    line.appendChild(name);
    const top = suit === "S" ? 4 : 9;
    for (let v = 1; v <= top; v++) {
      const code = suit + v;
      const order = selected.indexOf(code);
      const item = { card: code, label: names[code] || code };
      const mark = order >= 0 ? marks[code] : undefined;
      item.aria = item.label + (mark ? " — " + mark.aria
                                     : order >= 0 ? " — " + (labels.chosen || "chosen") + " " + (order + 1) : "");
      const off = unavailable.has(code) && order < 0;
      const face = cardFace(item, true, (order >= 0 ? "crew-c-selected" : "") + (off ? " crew-c-unplayable" : ""));
      face.setAttribute("aria-pressed", order >= 0 ? "true" : "false");
      if (off) face.setAttribute("aria-disabled", "true");
      if (order >= 0 && (mark || model.get("ordered"))) {
        const badge = document.createElement("span");
        badge.className = "crew-c-badge" + (mark ? " crew-c-badge-mark" : "") + (mark && mark.low ? " crew-c-badge-low" : "");
        badge.setAttribute("aria-hidden", "true");   // said by the card's aria-label
        badge.textContent = mark ? mark.badge : String(order + 1);
        face.appendChild(badge);
      }
      face.addEventListener("click", () => model.send({ type: "pick", card: code }));
      line.appendChild(face);
    }
    grid.appendChild(line);
  }
  root.appendChild(grid);
}

function renderTrickBox(trick, labels, small) {
  // trick = {seats: [{seat, name, card|null, label, leader, winner, you, acting}], title, caption}
  const box = document.createElement("div");
  box.className = "crew-c-trickbox" + (small ? " crew-c-trick-small" : "");
  box.setAttribute("role", "group");
  box.setAttribute("aria-label", trick.title || "");
  if (trick.title) box.appendChild(crewHeading(trick.title));
  const table = document.createElement("div");
  table.className = "crew-c-table crew-c-seats-" + trick.seats.length;
  if (trick.caption) {   // above the table, not on the felt: on the felt it ran into the bottom seat's name
    const caption = document.createElement("div");
    caption.className = "crew-c-caption";
    caption.textContent = trick.caption;
    box.appendChild(caption);
  }
  const felt = document.createElement("div");
  felt.className = "crew-c-felt";
  table.appendChild(felt);
  trick.seats.forEach((s, i) => {
    const spot = document.createElement("div");
    spot.className = "crew-c-spot crew-c-pos-" + trick.seats.length + "-" + i +
      (s.leader ? " crew-c-leader" : "") + (s.winner ? " crew-c-winner" : "") +
      (s.you ? " crew-c-you" : "") + (s.acting ? " crew-c-acting" : "");
    spot.dataset.seat = String(s.seat);
    const name = document.createElement("div");
    name.className = "crew-c-seatname";
    name.textContent = s.name + (s.leader ? " ▶" : "");
    if (s.note) name.title = s.note;
    spot.appendChild(name);
    if (s.card) {
      spot.appendChild(cardFace({ card: s.card, label: s.label, aria: s.aria }, false,
                                (s.winner ? "crew-c-win" : "") + (s.mark ? " crew-c-mark-" + s.mark : "")));
    } else {
      const slot = document.createElement("div");
      slot.className = "crew-c-slot";
      slot.setAttribute("aria-hidden", "true");
      spot.appendChild(slot);
    }
    if (s.winner && s.wins) {
      const badge = document.createElement("div");
      badge.className = "crew-c-winbadge";
      badge.textContent = s.wins;
      spot.appendChild(badge);
    }
    table.appendChild(spot);
  });
  box.appendChild(table);
  return box;
}

function renderTrick(model, root) {
  const labels = model.get("labels");
  const wrap = document.createElement("div");
  wrap.className = "crew-c-tricks";
  const current = model.get("current");
  if (current && current.seats) wrap.appendChild(renderTrickBox(current, labels, false));
  const previous = model.get("previous");
  if (previous && previous.seats) wrap.appendChild(renderTrickBox(previous, labels, true));
  root.appendChild(wrap);
}

function renderTasks(model, root) {
  const labels = model.get("labels");
  const groups = model.get("groups");
  if (labels.title) root.appendChild(crewHeading(labels.title));
  const wrap = document.createElement("div");
  wrap.className = "crew-c-taskgroups";
  for (const g of groups) {
    const box = document.createElement("div");
    box.className = "crew-c-taskgroup" + (g.you ? " crew-c-you" : "");
    box.setAttribute("role", "group");
    box.setAttribute("aria-label", g.name);
    box.dataset.owner = g.owner === null ? "none" : String(g.owner);
    const name = document.createElement("div");
    name.className = "crew-c-seatname";
    name.textContent = g.name;
    box.appendChild(name);
    for (const t of g.tasks) {
      const el = document.createElement(t.selectable ? "button" : "div");
      if (t.selectable) el.type = "button";
      el.className = "crew-c-task crew-c-status-" + t.status + (t.selectable ? " crew-c-selectable" : "");
      el.dataset.task = String(t.id);
      el.dataset.status = t.status;
      el.dataset.key = "task:" + t.id;
      el.setAttribute("aria-label", t.aria);
      if (!t.selectable) el.setAttribute("role", "note");
      const head = document.createElement("span");
      head.className = "crew-c-task-id";
      head.textContent = "#" + t.id + (t.difficulty !== null && t.difficulty !== undefined ? " · " + t.difficulty : "");
      el.appendChild(head);
      const icon = document.createElement("span");
      icon.className = "crew-c-task-icon";
      icon.setAttribute("aria-hidden", "true");
      icon.textContent = t.status === "done" ? "✓" : t.status === "failed" ? "✗" : "○";
      el.appendChild(icon);
      const text = document.createElement("span");
      text.className = "crew-c-task-text";
      text.textContent = t.text;
      el.appendChild(text);
      if (t.note) {
        const note = document.createElement("span");
        note.className = "crew-c-task-note";
        note.textContent = t.note;
        el.appendChild(note);
      }
      if (t.selectable) el.addEventListener("click", () => model.send({ type: "pick", task: t.id }));
      box.appendChild(el);
    }
    if (!g.tasks.length) {
      const empty = document.createElement("span");
      empty.className = "crew-c-empty";
      empty.textContent = labels.empty || "—";
      box.appendChild(empty);
    }
    wrap.appendChild(box);
  }
  root.appendChild(wrap);
}

const RENDER = { card: renderCard, hand: renderHand, picker: renderPicker, trick: renderTrick, tasks: renderTasks };

function render({ model, el: host }) {
  return mount(model, host, () => {
    const root = el("div", "crew-c crew-c-" + model.get("_kind") + (model.get("size") === "large" ? " crew-c-large" : ""));
    root.lang = model.get("lang");
    const fn = RENDER[model.get("_kind")];
    if (fn) fn(model, root);
    root.appendChild(statusLine("crew-c-refusal", model.get("refusal")));
    return root;
  });
}

export default { render };
