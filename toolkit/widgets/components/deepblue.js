// Deep Blue components (toolkit/widgets/components/deepblue.py): board, crew card rows, gem bag, dive track.
// The kernel owns all state; the page only draws it and sends {type: "pick", key} for a clicked object.
// Every clickable object is a <button> (Tab-reachable, Enter/Space operable) with an aria-label; an object
// the kernel refuses (with a reason) stays a button with aria-disabled, so a click or key press asks the
// kernel, which answers with the reason. The reason or cost also shows on hover and focus (the info line).

// A clickable object (act "offer" or "refuse") is a button; anything else a plain element.
function thing(model, obj, cls, info, tag) {
  const clickable = obj && (obj.act === "offer" || obj.act === "refuse");
  const e = el(clickable ? "button" : (tag || "div"), cls);
  if (clickable) {
    e.type = "button";
    e.dataset.key = obj.key;
    e.classList.add(obj.act === "offer" ? "db-c-offer" : "db-c-refused");
    if (obj.act === "refuse") e.setAttribute("aria-disabled", "true");
    e.addEventListener("click", () => model.send({ type: "pick", key: obj.key }));
  }
  const aria = (obj && obj.aria) || "";
  const note = (obj && obj.note) || "";
  if (aria) {
    e.setAttribute("aria-label", note ? aria + " — " + note : aria);
    if (!clickable) e.setAttribute("role", "img");
  }
  if (note) {
    e.title = note;
    const show = () => { info.textContent = (aria ? aria + ": " : "") + note; };
    e.addEventListener("mouseenter", show);
    e.addEventListener("focus", show);
  }
  if (obj && obj.mark) e.classList.add("db-c-mark-" + obj.mark);
  if (obj && obj.selected) { e.classList.add("db-c-selected"); if (clickable) e.setAttribute("aria-pressed", "true"); }
  return e;
}

function gemToken(g, small) {
  const t = el("span", "db-c-gem db-c-gem-" + g.colour + (small ? " db-c-gem-small" : ""), g.letter || "");
  t.style.background = g.fill;
  t.style.color = g.fg;
  t.setAttribute("aria-hidden", "true");
  return t;
}

function buttons(model, list, info, cls) {
  const row = el("div", "db-c-buttons " + (cls || ""));
  for (const b of list || []) {
    const e = thing(model, b, "db-c-button", info);
    if (b.gem) e.appendChild(gemToken(b.gem, true));
    e.appendChild(el("span", "", b.label));
    row.appendChild(e);
  }
  return row;
}

function renderBoard(model, root, info) {
  const labels = model.get("labels");
  if (labels.title) root.appendChild(el("div", "db-c-heading", labels.title));
  if (labels.hint) root.appendChild(el("div", "db-c-hint", labels.hint));
  const sites = model.get("sites");
  const cols = Math.max(1, ...sites.map((s) => s.x + 1));
  const rows = Math.max(1, ...sites.map((s) => s.y + 1));
  const sea = el("div", "db-c-sea");
  sea.setAttribute("role", "group");
  if (labels.title) sea.setAttribute("aria-label", labels.title);
  sea.style.gridTemplateColumns = "repeat(" + cols + ", minmax(0, 1fr))";
  sea.style.gridTemplateRows = "repeat(" + rows + ", 1fr)";   // equal rows: the lanes join cell centres
  const ns = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(ns, "svg");
  svg.setAttribute("class", "db-c-lanes");
  svg.setAttribute("viewBox", "0 0 " + cols + " " + rows);
  svg.setAttribute("preserveAspectRatio", "none");
  svg.setAttribute("aria-hidden", "true");
  for (const [x1, y1, x2, y2] of model.get("lanes")) {
    const line = document.createElementNS(ns, "line");
    line.setAttribute("x1", x1 + 0.5); line.setAttribute("y1", rows - y1 - 0.5);
    line.setAttribute("x2", x2 + 0.5); line.setAttribute("y2", rows - y2 - 0.5);
    line.setAttribute("vector-effect", "non-scaling-stroke");
    svg.appendChild(line);
  }
  sea.appendChild(svg);
  for (const s of sites) {
    const cell = el("div", "db-c-site-cell db-c-kind-" + s.kind);
    cell.style.gridColumn = String(s.x + 1);
    cell.style.gridRow = String(rows - s.y);
    cell.dataset.site = String(s.site);
    const site = thing(model, s, "db-c-site", info);
    site.dataset.site = String(s.site);
    site.appendChild(el("span", "db-c-site-name", s.label));
    if (s.detail) site.appendChild(el("span", "db-c-site-detail", s.detail));
    if (s.cost) site.appendChild(el("span", "db-c-site-cost", s.cost));
    if (s.gems && s.gems.length) {
      const gems = el("span", "db-c-site-gems");
      for (const g of s.gems) gems.appendChild(gemToken(g, true));
      site.appendChild(gems);
    }
    cell.appendChild(site);
    if (s.spots && s.spots.length) {
      const spots = el("div", "db-c-spots");
      for (const sp of s.spots) {
        const e = thing(model, sp, "db-c-spot db-c-spot-" + sp.spot, info, "span");
        if (sp.gem) e.appendChild(gemToken(sp.gem, true));
        if (sp.label) e.appendChild(el("span", "", sp.label));
        if (sp.taken) e.classList.add("db-c-spot-taken");
        spots.appendChild(e);
      }
      cell.appendChild(spots);
    }
    if (s.boats && s.boats.length) {
      const boats = el("div", "db-c-boats");
      for (const b of s.boats) {
        const e = thing(model, b, "db-c-boat" + (b.you ? " db-c-boat-you" : ""), info);
        e.style.setProperty("--seat", b.colour);
        e.dataset.seat = String(b.seat);
        e.dataset.boat = String(b.boat);
        e.textContent = b.label;
        boats.appendChild(e);
      }
      cell.appendChild(boats);
    }
    sea.appendChild(cell);
  }
  root.appendChild(sea);
  root.appendChild(buttons(model, model.get("buttons"), info));
}

function cardFace(model, c, info) {
  const e = thing(model, c, "db-c-card", info);
  e.dataset.card = String(c.id);
  if (c.price) e.appendChild(el("span", "db-c-price", c.price));
  e.appendChild(el("span", "db-c-card-name", c.name));
  const icons = el("span", "db-c-icons");
  for (const i of c.icons || []) {
    const icon = el("span", "db-c-icon db-c-icon-" + i.icon);
    icon.appendChild(el("span", "db-c-icon-glyph", i.glyph));
    if (i.gem) icon.appendChild(gemToken(i.gem, true));
    icon.appendChild(el("span", "db-c-icon-text", i.text));
    icons.appendChild(icon);
  }
  e.appendChild(icons);
  e.appendChild(el("span", "db-c-card-id", "#" + c.id));
  return e;
}

function renderCards(model, root, info) {
  const labels = model.get("labels");
  if (labels.title) root.appendChild(el("div", "db-c-heading", labels.title));
  const row = el("div", "db-c-row");
  row.setAttribute("role", "group");
  if (labels.title) row.setAttribute("aria-label", labels.title);
  const cards = model.get("cards");
  for (const c of cards) row.appendChild(cardFace(model, c, info));
  if (!cards.length) row.appendChild(el("span", "db-c-empty", labels.empty || "—"));
  root.appendChild(row);
  root.appendChild(buttons(model, model.get("buttons"), info));
}

function renderBag(model, root, info) {
  const labels = model.get("labels");
  if (labels.title) root.appendChild(el("div", "db-c-heading", labels.title));
  const bag = model.get("bag");
  const holder = bag && bag.key ? thing(model, bag, "db-c-bag db-c-bag-draw", info)
                                : el("div", "db-c-bag");
  if (!(bag && bag.key)) {
    holder.setAttribute("role", "group");
    if (labels.title) holder.setAttribute("aria-label", labels.title);
  }
  for (const g of model.get("gems")) {
    const group = el("span", "db-c-bag-colour");
    group.dataset.colour = g.colour;
    if (g.minus) { const m = thing(model, g.minus, "db-c-step db-c-minus", info); m.textContent = "−"; group.appendChild(m); }
    const tok = gemToken(g, false);
    group.appendChild(tok);
    const count = el("span", "db-c-count", "×" + g.n);
    count.dataset.count = String(g.n);
    group.appendChild(count);
    group.appendChild(el("span", "db-c-gem-name", g.name));
    if (g.plus) { const p = thing(model, g.plus, "db-c-step db-c-plus", info); p.textContent = "+"; group.appendChild(p); }
    holder.appendChild(group);
  }
  if (labels.total) holder.appendChild(el("span", "db-c-bag-total", labels.total));
  root.appendChild(holder);
  root.appendChild(buttons(model, model.get("buttons"), info));
}

function renderDive(model, root, info) {
  const labels = model.get("labels");
  if (labels.title) root.appendChild(el("div", "db-c-heading", labels.title));
  const track = el("ol", "db-c-track");
  if (labels.track) track.setAttribute("aria-label", labels.track);
  const gems = model.get("gems");
  gems.forEach((g, i) => {
    const li = el("li", "db-c-track-gem" + (g.danger ? " db-c-danger-" + g.danger : ""));
    li.dataset.colour = g.colour;
    li.appendChild(el("span", "db-c-track-n", String(i + 1)));
    li.appendChild(gemToken(g, false));
    li.appendChild(el("span", "db-c-sr", g.name + (g.dangerText ? " — " + g.dangerText : "")));
    if (g.danger) li.appendChild(el("span", "db-c-danger-mark", g.danger === "bust" ? "‼" : "!"));
    track.appendChild(li);
  });
  if (!gems.length) track.appendChild(el("li", "db-c-empty", labels.empty || "—"));
  root.appendChild(track);
  const divers = el("div", "db-c-divers");
  for (const d of model.get("divers")) {
    const e = thing(model, d, "db-c-diver db-c-status-" + d.status + (d.you ? " db-c-you" : ""), info);
    e.dataset.seat = String(d.seat);
    e.style.setProperty("--seat", d.colour);
    const boat = el("span", "db-c-diver-boat"); boat.setAttribute("aria-hidden", "true"); e.appendChild(boat);
    e.appendChild(el("span", "db-c-diver-name", d.name + (d.leader ? " ⚓" : "")));
    e.appendChild(el("span", "db-c-diver-text", d.text));
    if (d.action) e.appendChild(el("span", "db-c-diver-action", d.action));
    divers.appendChild(e);
  }
  root.appendChild(divers);
  root.appendChild(buttons(model, model.get("buttons"), info));
}

const RENDER = { board: renderBoard, cards: renderCards, bag: renderBag, dive: renderDive };

function render({ model, el: host }) {
  return mount(model, host, () => {
    const root = el("div", "db-c db-c-root-" + model.get("_kind"));
    root.lang = model.get("lang");
    const info = el("div", "db-c-info");
    info.setAttribute("aria-hidden", "true");
    const fn = RENDER[model.get("_kind")];
    if (fn) fn(model, root, info);
    root.appendChild(info);
    root.appendChild(statusLine("db-c-refusal", model.get("refusal")));
    return root;
  });
}

// components created with assets=False wait for this module (see _STUB_ESM in deepblue.py)
const api = { render };
for (const resolve of globalThis.__deepseaDeepBlueWaiters || []) resolve(api);
globalThis.__deepseaDeepBlueWaiters = [];
globalThis.__deepseaDeepBlue = api;

export default { render };
