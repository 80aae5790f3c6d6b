// The generic table's legal moves (toolkit/widgets/components/moves.py): one button per move, drawn here
// from one synced list. As ipywidgets Buttons, a Tranquility turn of ~140 moves cost ~280 comm messages
// (180 KB) per position on every page; as one component it is one message.

function render({ model, el: host }) {
  return mount(model, host, () => {
    const root = el("div", "deepsea-move-row" + (model.get("size") === "large" ? " deepsea-move-large" : ""));
    root.lang = model.get("lang");
    root.setAttribute("role", "group");
    if (model.get("group_label")) root.setAttribute("aria-label", model.get("group_label"));
    for (const item of model.get("items") || []) {
      const button = el("button", "deepsea-move-button", item.label);
      button.type = "button";
      button.title = item.key;
      button.dataset.key = item.key;
      button.addEventListener("click", () => model.send({ type: "pick", key: item.key }));
      root.appendChild(button);
    }
    root.appendChild(statusLine("deepsea-move-refusal", model.get("refusal")));
    return root;
  });
}

export default { render };
