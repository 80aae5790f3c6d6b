// Tranquility components (toolkit/widgets/components/tranquility.py): the grid and a hand.
// The kernel owns all state; the page draws it and sends {type: "pick", key} for a clicked object. Every
// cell and every card is a <button> (Tab-reachable, Enter/Space operable) with an aria-label; one the
// kernel would refuse carries aria-disabled but still asks the kernel, which answers with the reason
// (shown in the status line right under the component, and on hover/focus in the info line).

function pickButton(model, obj, cls, label, info) {
  const b = el("button", cls);
  b.type = "button";
  b.dataset.key = obj.key;
  if (obj.act === "offer") b.classList.add("tranq-c-offer");
  else b.setAttribute("aria-disabled", "true");
  if (obj.act === "refuse") b.classList.add("tranq-c-refused");
  const note = obj.note || "";
  b.setAttribute("aria-label", note ? label + " — " + note : label);
  b.title = note ? label + " — ✘ " + note : label;
  const show = () => { info.textContent = b.title; };
  b.addEventListener("mouseenter", show);
  b.addEventListener("focus", show);
  b.addEventListener("click", () => model.send({ type: "pick", key: obj.key }));
  return b;
}

function renderGrid(model, root, info) {
  const labels = model.get("labels");
  if (labels.title) root.appendChild(heading(labels.title, 4, "tranq-c-heading"));
  const grid = el("div", "tranq-c-grid");
  grid.setAttribute("role", "group");
  if (labels.title) grid.setAttribute("aria-label", labels.title);
  const cells = model.get("cells");
  // row 6 on top, row 1 at the bottom (as on the table)
  for (let row = 5; row >= 0; row--) {
    for (let col = 0; col < 6; col++) {
      const c = cells[row * 6 + col];
      if (!c) continue;
      const what = c.value ? String(c.value) : (labels.empty || "empty");
      let label = (c.tip || ("#" + c.index)) + " — " + what;
      if (c.legal && labels.legal) label += " — " + labels.legal;
      const cls = "tranq-grid-cell tranq-grid-cell-" + c.index +
        (c.value ? " tranq-cell-filled" : " tranq-cell-empty") +
        (c.legal ? " tranq-cell-legal" : "") + (c.selected ? " tranq-cell-selected" : "") +
        (c.blocked ? " tranq-cell-blocked" : "");
      const b = pickButton(model, c, cls, label, info);
      b.title = c.tip + (c.note ? " — ✘ " + c.note : "");
      if (c.selected) b.setAttribute("aria-pressed", "true");
      if (c.value) {
        b.appendChild(el("span", "tranq-c-value", c.value));
      } else {
        b.appendChild(el("span", "tranq-c-index", "#" + c.index));
      }
      grid.appendChild(b);
    }
  }
  root.appendChild(grid);
}

function renderHand(model, root, info) {
  const labels = model.get("labels");
  if (labels.title) root.appendChild(heading(labels.title, 4, "tranq-c-heading"));
  const row = el("div", "tranq-c-hand");
  row.setAttribute("role", "group");
  if (labels.title) row.setAttribute("aria-label", labels.title);
  const cards = model.get("cards");
  for (const c of cards) {
    const b = pickButton(model, c, "tranq-card tranq-card-" + c.kind + (c.selected ? " tranq-card-selected" : ""),
                         c.label, info);
    b.dataset.card = c.name;
    if (c.act === "offer") b.setAttribute("aria-pressed", c.selected ? "true" : "false");
    b.appendChild(el("span", "tranq-c-card-label", c.label));
    row.appendChild(b);
  }
  if (!cards.length) row.appendChild(el("span", "tranq-c-empty", labels.empty || "—"));
  root.appendChild(row);
}

const RENDER = { grid: renderGrid, hand: renderHand };

function render({ model, el: host }) {
  return mount(model, host, () => {
    const root = el("div", "tranq-c tranq-c-root-" + model.get("_kind") +
                    (model.get("size") === "large" ? " tranq-c-large" : ""));
    root.lang = model.get("lang");
    const info = el("div", "tranq-c-info");
    info.setAttribute("aria-hidden", "true");
    const fn = RENDER[model.get("_kind")];
    if (fn) fn(model, root, info);
    root.appendChild(statusLine("tranq-c-refusal deepsea-refusal", model.get("refusal") ? "✘ " + model.get("refusal") : ""));
    root.appendChild(info);
    return root;
  });
}

export default { render };
