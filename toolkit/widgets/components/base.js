// Shared by every game component module (crew.js, deepblue.js, pirats.js). An anywidget ESM is one
// standalone string, so the kernel shares this by concatenation (base.py `component_source`), not by
// import: a module may use `el`, `heading`, `statusLine` and `mount` as if it had defined them.

function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined && text !== null) e.textContent = String(text);
  return e;
}

// A heading a screen reader lists (role + level) without the page's own heading styles.
function heading(text, level, cls) {
  const h = el("div", cls, text);
  h.setAttribute("role", "heading");
  h.setAttribute("aria-level", String(level || 4));
  return h;
}

// The line where the kernel's refusal of the last click is read out (polite live region).
function statusLine(cls, text) {
  const s = el("div", cls, text || "");
  s.setAttribute("role", "status");
  s.setAttribute("aria-live", "polite");
  return s;
}

// Draw with `build(model)` (returns the new root element) now and after every change of the model.
// The kernel answers every click with new state, so the keyboard focus is put back on the object with
// the same data-key: a keyboard user must not be thrown back to the top of the page by a redraw.
function mount(model, host, build) {
  const draw = () => {
    const active = host.contains(document.activeElement) ? document.activeElement.dataset.key : null;
    host.replaceChildren(build(model));
    markHints(host, model.get("hint_keys") || [], model.get("hint_label") || "");
    if (active) {
      const again = host.querySelector('[data-key="' + CSS.escape(active) + '"]');
      if (again) again.focus();
    }
  };
  draw();
  model.on("change", draw);
  return () => model.off("change", draw);
}

// The table's hint marks the object it suggests where it is drawn (issue 26): every element whose
// data-key is in `keys` gets the class `deepsea-hinted` (an outline and a badge, base.css) and the hint's
// words as its aria-description, so a screen reader says why the object is marked.
function markHints(host, keys, label) {
  // a new hint brings its first object into view (a figure at home may be below the ships at 1200x900);
  // a redraw of the same hint does not scroll the page again
  const signature = keys.join("|");
  const fresh = signature !== (host.dataset.hintSignature || "");
  host.dataset.hintSignature = signature;
  let first = true;
  for (const key of keys) {
    for (const target of host.querySelectorAll('[data-key="' + CSS.escape(key) + '"]')) {
      target.classList.add("deepsea-hinted");
      target.dataset.hint = label || "hint";
      if (label) target.setAttribute("aria-description", label);
      if (fresh && first && target.scrollIntoView) target.scrollIntoView({block: "nearest", inline: "nearest"});
      first = false;
    }
  }
}
