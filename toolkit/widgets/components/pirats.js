// The Sewer Pirats components (anywidget ESM): the table, a token pile, a one-ship board. The kernel
// decides everything; the page draws what it was given and sends each click back as one message,
// {type: "pick", what: ..., ...}, which the kernel checks (and the engine judges). No trait is set here.
//
// __STYLE__ is replaced by the kernel with the charm symbols (toolkit/widgets/components/pirats.py).
const STYLE = __STYLE__;
const SVG_NS = "http://www.w3.org/2000/svg";

// a <button> when `send` is given (click and Enter/Space: native), else a labelled picture
function clickable(tag, cls, aria, send, key) {
  const e = el(send ? "button" : tag, cls);
  if (send) {
    e.type = "button";
    e.addEventListener("click", send);
  } else {
    e.setAttribute("role", "img");
  }
  e.setAttribute("aria-label", aria);
  e.title = aria;
  if (key) e.dataset.key = key;
  return e;
}

function piratsHeading(text, level) {
  return heading(text, level, "pir-heading");
}

function charmSymbol(card) {
  const svg = document.createElementNS(SVG_NS, "svg");
  svg.setAttribute("viewBox", "0 0 24 24");
  svg.setAttribute("aria-hidden", "true");
  svg.setAttribute("focusable", "false");
  svg.setAttribute("class", "pir-symbol");
  const path = document.createElementNS(SVG_NS, "path");
  path.setAttribute("d", STYLE.charms[card]);
  path.setAttribute("fill-rule", "evenodd");   // the cat's eyes are holes
  svg.appendChild(path);
  return svg;
}

// a charm card: the ship's symbol and its name
function charmCard(card, label, aria, send, extra, key) {
  const c = clickable("div", "pir-charm pir-charm-" + card + (extra ? " " + extra : ""), aria, send, key);
  c.dataset.card = card;
  c.appendChild(charmSymbol(card));
  c.appendChild(el("span", "pir-charm-name", label));
  return c;
}

// a treasure token: loot square with its value, bonus round
function tokenFace(t, send, extra, key) {
  const c = clickable("div", "pir-token pir-token-" + t.shape + " pir-kind-" + t.kind + (extra ? " " + extra : ""),
                      t.aria || t.label, send, key);
  c.dataset.token = t.token;
  c.appendChild(el("span", "pir-token-name", t.name));
  if (t.value !== null && t.value !== undefined) c.appendChild(el("span", "pir-token-value", t.value));
  return c;
}

// a pirat figure: a pawn in its seat's colour with the species' initial and name
function figureFace(f, send, key) {
  const c = clickable("div", "pir-figure pir-seat-" + f.colour + (f.chosen ? " pir-chosen" : "") +
                      (f.clickable ? " pir-movable" : ""), f.aria + (f.power ? " — " + f.power : ""), send, key);
  c.dataset.figure = f.figure;
  c.dataset.seat = String(f.seat);
  if (send) c.setAttribute("aria-pressed", f.chosen ? "true" : "false");
  c.appendChild(el("span", "pir-figure-head", f.initial));
  c.appendChild(el("span", "pir-figure-name", f.name));
  return c;
}

function renderShip(model, ship, labels) {
  const send = (msg) => () => model.send(Object.assign({ type: "pick" }, msg));
  const wrap = el("div", "pir-voyage");
  wrap.dataset.ship = ship.ship;
  wrap.setAttribute("role", "group");
  wrap.setAttribute("aria-label", ship.name);
  const hull = el("div", "pir-ship pir-ship-" + ship.ship);
  const stern = el("div", "pir-stern");
  stern.appendChild(charmSymbol(ship.ship));
  stern.appendChild(el("span", "pir-ship-name", ship.name));
  hull.appendChild(stern);
  const deck = el("div", "pir-deck");
  for (const s of ship.spaces) {
    const cls = "pir-space" + (s.captain ? " pir-captain" : "") + (s.target ? " pir-target" : "") +
                (s.sail ? " pir-sail" : "") + (s.picking ? " pir-picking" : "") + (s.figure ? "" : " pir-free");
    const space = ship.clickable
      ? clickable("div", cls, s.aria, send({ what: "space", ship: ship.ship, space: s.space }),
                  "space:" + ship.ship + ":" + s.space)
      : clickable("div", cls, s.aria, null);
    space.dataset.space = String(s.space);
    space.classList.add("pir-space-" + ship.ship + "-" + s.space);
    space.appendChild(el("span", "pir-space-no", s.captain ? "C" : s.space));
    if (s.figure) {
      const f = figureFace(s.figure, null);
      f.removeAttribute("role");
      f.removeAttribute("aria-label");
      f.removeAttribute("title");
      f.setAttribute("aria-hidden", "true");
      space.appendChild(f);
    }
    deck.appendChild(space);
  }
  hull.appendChild(deck);
  hull.appendChild(el("div", "pir-bow"));
  wrap.appendChild(hull);
  const sea = el("div", "pir-flotsam");
  ship.flotsam.forEach((g, gi) => {
    const group = el("div", "pir-group" + (g.front ? " pir-front" : ""));
    group.setAttribute("role", "group");
    group.setAttribute("aria-label", ship.name + ": " + g.label);
    for (const t of g.tokens) {
      group.appendChild(tokenFace(t, t.pickable ? send({ what: "loot", ship: ship.ship, token: t.token }) : null,
                                  t.pickable ? "pir-pickable" : "", "loot:" + ship.ship + ":" + gi + ":" + t.token));
    }
    sea.appendChild(group);
  });
  wrap.appendChild(sea);
  return wrap;
}

function renderTable(model, root) {
  const labels = model.get("labels");
  const live = model.get("interactive");
  const send = (msg) => () => model.send(Object.assign({ type: "pick" }, msg));
  const prompt = model.get("prompt");
  if (prompt) {
    const p = el("div", "pir-prompt", prompt);
    root.appendChild(p);
  }
  const actions = model.get("actions");
  if (actions.length) {
    const bar = el("div", "pir-actions");
    bar.setAttribute("role", "group");
    bar.setAttribute("aria-label", labels.actions || "");
    for (const a of actions) {
      const b = el("button", "pir-action pir-action-" + a.action, a.label);
      b.type = "button";
      b.dataset.key = "action:" + a.action;
      b.addEventListener("click", send({ what: "action", action: a.action }));
      bar.appendChild(b);
    }
    root.appendChild(bar);
  }
  // the three ships, stern at the left, bow and flotsam at the right
  const ships = el("div", "pir-ships");
  ships.setAttribute("role", "group");
  ships.setAttribute("aria-label", labels.ships || "");
  for (const ship of model.get("ships")) ships.appendChild(renderShip(model, ship, labels));
  root.appendChild(ships);
  // the charm deck, the face-up row, the discard pile and the token stocks
  const supply = model.get("supply");
  const sup = el("div", "pir-supply");
  sup.setAttribute("role", "group");
  sup.setAttribute("aria-label", labels.supply || "");
  const deck = clickable("div", "pir-deck-pile" + (supply.draw ? " pir-pickable" : ""), supply.deck_aria,
                         supply.draw ? send({ what: "deck" }) : null, "deck");
  deck.appendChild(el("span", "pir-deck-count", supply.deck));
  deck.appendChild(el("span", "pir-deck-name", supply.deck_label));
  sup.appendChild(deck);
  const row = el("div", "pir-row");
  row.setAttribute("role", "group");
  row.setAttribute("aria-label", labels.row || "");
  supply.row.forEach((c, i) => row.appendChild(
    charmCard(c.card, c.label, c.aria, supply.draw ? send({ what: "row", card: c.card }) : null,
              supply.draw ? "pir-pickable" : "", "row:" + i)));
  sup.appendChild(row);
  const notes = el("div", "pir-notes");
  notes.appendChild(el("div", "", supply.discard));
  notes.appendChild(el("div", "", supply.stocks));
  sup.appendChild(notes);
  root.appendChild(sup);
  // the auction bar (crew auction variant)
  const auction = model.get("auction");
  if (auction && auction.bar) {
    const box = el("div", "pir-auction");
    box.setAttribute("role", "group");
    box.setAttribute("aria-label", auction.title);
    box.appendChild(piratsHeading(auction.title));
    const bar = el("div", "pir-bar");
    for (const b of auction.bar) {
      const stool = clickable("div", "pir-stool" + (b.chosen ? " pir-chosen" : "") + (b.clickable ? " pir-pickable" : ""),
                              b.aria, b.clickable ? send({ what: "stool", stool: b.stool }) : null, "stool:" + b.stool);
      stool.dataset.stool = String(b.stool);
      stool.appendChild(el("span", "pir-stool-no", b.stool));
      stool.appendChild(el("span", "pir-stool-name", b.name));
      if (b.under) stool.appendChild(el("span", "pir-stool-under", "+" + b.under));
      bar.appendChild(stool);
    }
    box.appendChild(bar);
    box.appendChild(el("div", "pir-bid-state", auction.state));
    if (auction.bids.length) {
      const bids = el("div", "pir-bids");
      bids.setAttribute("role", "group");
      bids.setAttribute("aria-label", auction.bids_label);
      for (const b of auction.bids) {
        const btn = el("button", "pir-bid" + (b.legal ? " pir-pickable" : " pir-off"), b.amount);
        btn.type = "button";
        btn.dataset.key = "bid:" + b.amount;
        btn.dataset.amount = String(b.amount);
        btn.setAttribute("aria-label", b.aria);
        btn.addEventListener("click", send({ what: "bid", amount: b.amount }));
        bids.appendChild(btn);
      }
      box.appendChild(bids);
    }
    root.appendChild(box);
  }
  // the seat's hand (only the seat this page shows)
  const hand = model.get("hand");
  if (hand && hand.cards) {
    const box = el("div", "pir-hand");
    box.setAttribute("role", "group");
    box.setAttribute("aria-label", hand.title);
    box.appendChild(piratsHeading(hand.title));
    const cards = el("div", "pir-cards");
    for (const c of hand.cards) {
      const card = charmCard(c.card, c.label, c.aria, live ? send({ what: "hand", index: c.index }) : null,
                             (c.selected ? "pir-chosen" : "") + (hand.pick ? " pir-pickable" : ""), "hand:" + c.index);
      if (live && hand.pick) card.setAttribute("aria-pressed", c.selected ? "true" : "false");
      cards.appendChild(card);
    }
    if (!hand.cards.length) cards.appendChild(el("span", "pir-empty", hand.empty));
    box.appendChild(cards);
    root.appendChild(box);
  }
  // every seat: its figures at home, its cards (a count), its treasure and points
  const seats = el("div", "pir-seats");
  seats.setAttribute("role", "group");
  seats.setAttribute("aria-label", labels.seats || "");
  for (const s of model.get("seats")) {
    const box = el("div", "pir-seat pir-seat-box-" + s.colour + (s.acting ? " pir-acting" : "") + (s.you ? " pir-you" : ""));
    box.setAttribute("role", "group");
    box.setAttribute("aria-label", s.name);
    box.dataset.seat = String(s.seat);
    const head = el("div", "pir-seat-head");
    head.appendChild(el("span", "pir-seat-name", s.name));
    head.appendChild(el("span", "pir-seat-cards", s.cards));
    head.appendChild(el("span", "pir-seat-points", s.points));
    box.appendChild(head);
    const home = el("div", "pir-home");
    home.appendChild(el("span", "pir-label", s.home_label));
    for (const f of s.home) {
      home.appendChild(figureFace(f, f.clickable ? send({ what: "figure", figure: f.figure }) : null,
                                  "figure:" + s.seat + ":" + f.figure));
    }
    if (!s.home.length) home.appendChild(el("span", "pir-empty", labels.none));
    box.appendChild(home);
    const pile = el("div", "pir-treasure");
    pile.appendChild(el("span", "pir-label", s.treasure_label));
    for (const t of s.treasure) pile.appendChild(tokenFace(t, null));
    if (!s.treasure.length) pile.appendChild(el("span", "pir-empty", labels.none));
    box.appendChild(pile);
    seats.appendChild(box);
  }
  root.appendChild(seats);
  // figures aboard that may move: a row of buttons under the ships (a figure on a space is drawn there)
  const aboard = [];
  for (const ship of model.get("ships")) for (const s of ship.spaces) if (s.figure && s.figure.clickable) aboard.push(s.figure);
  if (aboard.length) {
    const row2 = el("div", "pir-aboard");
    row2.setAttribute("role", "group");
    row2.setAttribute("aria-label", labels.ships || "");
    for (const f of aboard) row2.appendChild(figureFace(f, send({ what: "figure", figure: f.figure }), "aboard:" + f.figure));
    ships.after(row2);
  }
}

function renderTokens(model, root) {
  const labels = model.get("labels");
  const send = (msg) => () => model.send(Object.assign({ type: "pick" }, msg));
  const pal = el("div", "pir-palette");
  pal.setAttribute("role", "group");
  pal.setAttribute("aria-label", labels.palette);
  pal.appendChild(piratsHeading(labels.palette));
  for (const shape of ["loot", "bonus"]) {
    const line = el("div", "pir-palette-row");
    line.appendChild(el("span", "pir-label", labels[shape]));
    for (const t of model.get("palette")) {
      if (t.shape !== shape) continue;
      const face = tokenFace(t, send({ what: "add", token: t.token }), t.count ? "pir-held" : "", "add:" + t.token);
      if (t.count) face.appendChild(el("span", "pir-badge", "×" + t.count));
      line.appendChild(face);
    }
    pal.appendChild(line);
  }
  root.appendChild(pal);
  const pile = el("div", "pir-pile");
  pile.setAttribute("role", "group");
  pile.setAttribute("aria-label", labels.pile);
  pile.appendChild(piratsHeading(labels.pile));
  const row = el("div", "pir-pile-row");
  const items = model.get("pile");
  for (const t of items) row.appendChild(tokenFace(t, send({ what: "remove", index: t.index }), "pir-removable",
                                                   "remove:" + t.index));
  if (!items.length) row.appendChild(el("span", "pir-empty", labels.empty));
  pile.appendChild(row);
  root.appendChild(pile);
}

// one ship: the area (your pirat at home) and the hull; buttons only when `send` makes them
function boardShip(labels, area, spaces, send, keyPrefix) {
  const wrap = el("div", "pir-voyage pir-one-ship");
  wrap.setAttribute("role", "group");
  wrap.setAttribute("aria-label", labels.ship);
  const home = clickable("div", "pir-area" + (area.you ? " pir-you-here" : ""), area.aria,
                         send ? send({ what: "area" }) : null, keyPrefix + "area");
  home.appendChild(el("span", "pir-label", area.label));
  if (area.you) home.appendChild(el("span", "pir-figure pir-who-you", labels.you));
  wrap.appendChild(home);
  const hull = el("div", "pir-ship pir-ship-cat");
  const stern = el("div", "pir-stern");
  stern.appendChild(charmSymbol("cat"));
  stern.appendChild(el("span", "pir-ship-name", labels.ship));
  hull.appendChild(stern);
  const deck = el("div", "pir-deck");
  for (const s of spaces) {
    const space = clickable("div", "pir-space pir-cell-" + s.space + (s.captain ? " pir-captain" : ""), s.aria,
                            send ? send({ what: "space", space: s.space }) : null, keyPrefix + "space:" + s.space);
    space.dataset.space = String(s.space);
    space.dataset.who = s.who;
    space.appendChild(el("span", "pir-space-no", s.captain ? "C" : s.space));
    if (s.who !== "empty") space.appendChild(el("span", "pir-figure pir-who-" + s.who, s.text));
    deck.appendChild(space);
  }
  hull.appendChild(deck);
  hull.appendChild(el("div", "pir-bow"));
  wrap.appendChild(hull);
  return wrap;
}

function renderBoard(model, root) {
  const labels = model.get("labels");
  const live = model.get("clickable");
  const send = live ? (msg) => () => model.send(Object.assign({ type: "pick" }, msg)) : null;
  root.appendChild(boardShip(labels, model.get("area"), model.get("spaces"), send, ""));
  const cards = el("div", "pir-cards pir-play");
  cards.setAttribute("role", "group");
  cards.setAttribute("aria-label", labels.cards);
  cards.appendChild(el("span", "pir-label", labels.cards));
  for (const c of model.get("cards")) {
    const card = charmCard(c.card, c.label + " " + c.count, c.aria, send ? send({ what: "cards", count: c.count }) : null,
                           c.on ? "pir-chosen" : "pir-off", "cards:" + c.count);
    if (live) card.setAttribute("aria-pressed", c.on ? "true" : "false");
    cards.appendChild(card);
  }
  root.appendChild(cards);
  const after = model.get("after");
  if (after.length) {
    const box = el("div", "pir-after");
    box.appendChild(piratsHeading(labels.after));
    const you = !after.some((s) => s.who === "you");
    box.appendChild(boardShip(labels, { label: model.get("area").label, you: you, aria: model.get("area").label +
                                        (you ? ": " + labels.you : "") }, after, null, "after:"));
    root.appendChild(box);
  }
}

const RENDER = { table: renderTable, tokens: renderTokens, ship: renderBoard };

function render({ model, el: host }) {
  return mount(model, host, () => {
    const root = el("div", "pir pir-root-" + model.get("_kind") + (model.get("size") === "large" ? " pir-large" : ""));
    root.lang = model.get("lang");
    const fn = RENDER[model.get("_kind")];
    if (fn) fn(model, root);
    root.prepend(statusLine("pir-refusal", model.get("refusal")));
    return root;
  });
}

export default { render };
