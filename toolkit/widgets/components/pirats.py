"""The Sewer Pirats components: the table (ships with spaces and figures, flotsam tokens, charm cards, the
deck, the treasure piles, the seat's hand, the auction bar), a token pile editor and a one-ship board.

Each is an ``anywidget.AnyWidget`` sharing one ESM module (``pirats.js``) and one stylesheet
(``pirats.css``) on the components' base (:class:`~toolkit.widgets.components.base.PickComponent`:
kernel-owned state, ``set_state`` ignored, one ``{"type": "pick", ...}`` message kind, refusals in the
component's language, never a traceback). See docs/architecture.md for why anywidget here.

A pick names the object clicked (``what``) and which one:

======== ======================================= ==============================================
what     payload                                 component
======== ======================================= ==============================================
deck     –                                       table: the charm deck
row      ``card``: cat / bird / fish             table: a face-up charm card
hand     ``index``: position in the hand         table: a card of your hand (discard, pay)
figure   ``figure``: ``rat`` / ``rat#2``         table: one of your figures
space    ``ship``, ``space`` 1–4                 table, ship: a ship's space (4 = captain)
loot     ``ship``, ``token``: ``fries 2``        table: a loot token of a ship's front flotsam
stool    ``stool`` 1–20                          table: a figure at the auction bar
bid      ``amount``                              table: a bid amount
action   ``action``: pass / stay / step          table: a named action button
add      ``token``                               tokens: a token of the box, added to the pile
remove   ``index``                               tokens: a token of the pile, taken off
area     –                                       ship: your pirat back to your area
cards    ``count`` 1–3                           ship: how many charm cards to play
======== ======================================= ==============================================

The component checks only that a pick names something it was given (structure); whether the click is a
legal move is the engine's to say (the views ask ``why_illegal``): **no rules here**.

Hidden information: the table draws one observation, ``ENGINE.observe(state, seat)`` for a seat shown on
this page, and nothing else: another seat's hand is never in it (only hand sizes).

>>> pile = TokenPile(["fries 2", "ketchup"])
>>> pile.receive({"type": "pick", "what": "remove", "index": 0}); [str(t) for t in pile.value]
['ketchup']
>>> pile.receive({"type": "pick", "what": "add", "token": "can 99"}); pile.refusal
'"can 99" is not a token of this box.'
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Callable, Iterable, Mapping, Sequence

from traitlets import Bool, Dict, List, Unicode

from toolkit.core import i18n
from toolkit.core.errors import RuleError
from toolkit.pirats.model import CAPTAIN, SHIPS
from toolkit.pirats.tokens import DEFAULT_BOX, Token, score
from toolkit.widgets.components.base import PickComponent, component_css, component_source

HERE = Path(__file__).parent

#: Charm-card symbols (SVG paths in a 24×24 box) and faces; text on a face meets WCAG AA (4.5:1),
#: pinned by tests/widgets/test_pirats_components.py.
CHARM_STYLE: dict[str, dict[str, str]] = {
    "cat": {"bg": "#8a3f12", "fg": "#ffffff",
            "symbol": "M3.5 2l5 5.5h7l5-5.5v10c0 5.2-3.8 9.5-8.5 9.5S3.5 17.2 3.5 12Z"
                      "M7.2 12.8a1.6 1.6 0 1 0 3.2 0a1.6 1.6 0 1 0-3.2 0Z M13.6 12.8a1.6 1.6 0 1 0 3.2 0a1.6 1.6 0 1 0-3.2 0Z"},
    "bird": {"bg": "#1b4f8a", "fg": "#ffffff",
             "symbol": "M2 12.5c3.5-4 7.5-4.5 10-2.5 1.5-3.5 5-5 10-4.5-2.6 1.6-3.8 3.4-4.5 5.5"
                       "-.8 5.5-6.5 9-12 7.5L2 21.5l3-4.5Z"},
    "fish": {"bg": "#1d6b4f", "fg": "#ffffff",
             "symbol": "M1.5 12c4-6 11-7 15.5 0-4.5 7-11.5 6-15.5 0Z M17 12l5.5-5v10Z"},
}
#: seat colours (figure bases): background and text, AA contrast both ways
SEAT_STYLE: dict[str, dict[str, str]] = {
    "red": {"bg": "#c62828", "fg": "#ffffff"}, "green": {"bg": "#2e7d32", "fg": "#ffffff"},
    "yellow": {"bg": "#f9d71c", "fg": "#1a1a1a"}, "blue": {"bg": "#1565c0", "fg": "#ffffff"},
    "black": {"bg": "#212121", "fg": "#ffffff"},
}
#: treasure token faces by kind (loot tokens are square, bonus tokens round, as in the box)
TOKEN_STYLE: dict[str, dict[str, str]] = {
    "fries": {"bg": "#f2c14e", "fg": "#1a1a1a"}, "noodles": {"bg": "#f4e3c1", "fg": "#1a1a1a"},
    "burger": {"bg": "#9c5b2e", "fg": "#ffffff"}, "teddy": {"bg": "#c08552", "fg": "#1a1a1a"},
    "doll": {"bg": "#e8a0bf", "fg": "#1a1a1a"}, "can": {"bg": "#8e9aa6", "fg": "#1a1a1a"},
    "ketchup": {"bg": "#b71c1c", "fg": "#ffffff"}, "chili": {"bg": "#bf360c", "fg": "#ffffff"},
    "milkshake": {"bg": "#f8bbd0", "fg": "#1a1a1a"}, "parrot": {"bg": "#2e7d32", "fg": "#ffffff"},
    "opener": {"bg": "#455a64", "fg": "#ffffff"},
}

_ESM = component_source("pirats").replace(
    "__STYLE__", json.dumps({"charms": {s: v["symbol"] for s, v in CHARM_STYLE.items()}}))
_CSS = component_css("pirats")

MAX_PILE = 40
MAX_HAND = 80
#: the mark on a figure's head in English (rat and raccoon both start with R); Japanese uses the first kana
INITIALS = {"rat": "Rt", "raccoon": "Rc", "cockroach": "Ck", "weasel": "Ws", "snail": "Sn", "toad": "Td"}


def _tr(key: str, lang: str, **params: Any) -> str:
    return i18n.translate(key, lang, params)


def token_label(token: "Token | str", lang: str) -> str:
    """What a screen reader says for a token: ``"French fries 2"`` / ``"フレンチフライ 2"``."""
    return Token.parse(token).text(lang)


def token_item(token: "Token | str", lang: str, **extra: Any) -> dict[str, Any]:
    """A token as the page draws it: text, kind, value (loot), label, ``loot`` (square) or ``bonus`` (round)."""
    t = Token.parse(token)
    name = i18n.translate(f"pirats.comp.short.{t.kind}", lang)   # the face's short name; the label says it all
    return {"token": str(t), "kind": t.kind, "value": t.value if t.is_loot else None, "name": name,
            "label": t.text(lang), "shape": "loot" if t.is_loot else "bonus", **extra}


def figure_text(label: str, lang: str) -> str:
    """``rat#2`` as ``"rat (2)"`` / ``"ネズミ(2)"``, as the engine's move descriptions name it.

    >>> figure_text("rat#2", "en"), figure_text("rat#2", "ja"), figure_text("toad", "en")
    ('rat (2)', 'ネズミ(2)', 'toad')
    """
    species, hash_, number = label.partition("#")
    name = i18n.translate(f"pirats.species.{species}", lang)
    if not hash_:
        return name
    return f"{name}({number})" if lang == "ja" else f"{name} ({number})"


def _power_text(species: str, lang: str) -> str:
    from toolkit.core.rules import registry
    info = registry().get(f"pirats.power.{species}")
    return "" if info is None else info.text.get(lang, info.text.get("en", ""))


def _small_int(value: Any, low: int, high: int) -> int | None:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        return None
    return value


class PiratsComponent(PickComponent):
    """Base of the Sewer Pirats components (the shared base with this game's module and stylesheet)."""

    _esm = Unicode(_ESM).tag(sync=True)
    _css = Unicode(_CSS).tag(sync=True)

    def _check_pick(self, content: Mapping[str, Any]) -> tuple[Any, str | None]:
        what = content.get("what")
        check = getattr(self, f"_pick_{what}", None) if isinstance(what, str) and what.isidentifier() else None
        if check is None or what not in self.PICKS:
            return None, _tr("pirats.comp.not_clickable", self.lang, what=str(what)[:16])
        return check(content)

    PICKS: tuple[str, ...] = ()


# ---------------------------------------------------------------------------------------------------------
# the table


class PiratsTable(PiratsComponent):
    """The Sewer Pirats table drawn from one observation (see the module docstring).

    ``show(obs, offers=...)`` draws ``obs`` (``ENGINE.observe(state, seat)``). ``offers`` says what may be
    clicked now (the view works it out from the engine's legal moves; a click on any drawn button is sent
    to ``on_pick`` callbacks as ``(what, value)`` and the view asks the engine):

    * ``interactive``: a person's seat is to move (else nothing is a button);
    * ``figures``: your figures that can move; ``chosen``: the one chosen; ``targets``: ``(ship, space)``
      the chosen figure can reach; ``sail``: the ship whose captain space sets sail;
    * ``loot``: ship whose front flotsam loot may be taken; ``draw``: deck and row are offered;
    * ``hand_pick``: how many hand cards to choose (discard / pay) and ``hand_selected`` indices;
    * ``bids``: bid amounts to show, ``legal_bids`` those the engine allows; ``stools``: stools to click,
      ``stool``: the chosen one; ``actions``: ``[(action, label)]`` buttons (pass / stay / step).
    """

    _kind = Unicode("table").tag(sync=True)
    ships = List().tag(sync=True)
    supply = Dict().tag(sync=True)
    seats = List().tag(sync=True)
    hand = Dict().tag(sync=True)
    auction = Dict().tag(sync=True)
    actions = List().tag(sync=True)
    prompt = Unicode("").tag(sync=True)
    interactive = Bool(False).tag(sync=True)
    PICKS = ("deck", "row", "hand", "figure", "space", "loot", "stool", "bid", "action")

    def __init__(self, lang: str = "en", **kwargs: Any):
        self._obs: Mapping[str, Any] | None = None
        self._offers: dict[str, Any] = {}
        super().__init__(lang=lang, **kwargs)

    @property
    def observation(self) -> Mapping[str, Any] | None:
        """The one observation this table draws (tests read it)."""
        return self._obs

    def show(self, obs: Mapping[str, Any], **offers: Any) -> None:
        """Draw ``obs`` with these offers (kernel side only)."""
        if not isinstance(obs, Mapping) or "ships" not in obs or "hand_sizes" not in obs:
            raise RuleError("the table draws an observation: ENGINE.observe(state, seat)")
        self._obs = obs
        self._offers = dict(offers)
        self._render()

    # ---- what the page draws --------------------------------------------------------------------
    def _figure_item(self, p: Mapping[str, Any], obs: Mapping[str, Any], clickable: bool) -> dict[str, Any]:
        lang = self.lang
        colour = obs["colours"][p["seat"]]
        species = p["figure"].partition("#")[0]
        name = figure_text(p["figure"], lang)
        owner = _tr("pirats.comp.seat_colour", lang, seat=p["seat"],
                    colour=i18n.translate(f"pirats.colour.{colour}", lang))
        chosen = clickable and self._offers.get("chosen") == p["figure"]
        aria = f"{owner}: {name}"
        if clickable:
            aria += " — " + _tr("pirats.comp.chosen" if chosen else "pirats.comp.click_figure", lang)
        power = _power_text(species, lang) if obs.get("powers") else ""
        return {"figure": p["figure"], "seat": p["seat"], "colour": colour, "species": species, "name": name,
                "initial": INITIALS.get(species, species[:2]) if lang == "en" else name[:1], "aria": aria, "power": power,
                "clickable": clickable, "chosen": chosen}

    def _render(self) -> None:
        obs = getattr(self, "_obs", None)
        if obs is None:
            return
        lang, off = self.lang, self._offers
        live = bool(off.get("interactive"))
        acting = obs.get("to_move")
        movable = set(off.get("figures", ())) if live else set()
        targets = {tuple(t) for t in off.get("targets", ())} if live else set()
        sail = off.get("sail") if live else None
        loot_ship = off.get("loot") if live else None
        sailing = obs.get("sailing") or {}
        ships = []
        for name in SHIPS:
            ship = obs["ships"][name]
            spaces = []
            for index, p in enumerate(ship["spaces"]):
                number = index + 1
                where = (_tr("pirats.comp.captain_space", lang) if index == CAPTAIN
                         else _tr("pirats.comp.space", lang, number=number))
                fig = None
                if p is not None:
                    fig = self._figure_item(p, obs, live and p["seat"] == acting and p["figure"] in movable)
                target = (name, number) in targets
                sails = sail == name and index == CAPTAIN
                who = fig["aria"].split(" — ")[0] if fig else _tr("pirats.comp.empty", lang)
                aria = f"{i18n.translate('pirats.ship.' + name, lang)}, {where}: {who}"
                if target:
                    aria += " — " + _tr("pirats.comp.target", lang)
                if sails:
                    aria += " — " + _tr("pirats.comp.sail_here", lang)
                picking = sailing.get("ship") == name and sailing.get("space") == number and fig is not None
                if picking:
                    aria += " — " + _tr("pirats.comp.picking", lang)
                if fig is not None and fig["clickable"]:
                    # the figure is chosen where it is drawn: the space's button says so
                    aria += " — " + _tr("pirats.comp.chosen" if fig["chosen"] else "pirats.comp.click_figure", lang)
                spaces.append({"space": number, "where": where, "figure": fig, "target": target, "sail": sails,
                               "picking": picking,
                               "aria": aria, "captain": index == CAPTAIN})
            groups = []
            for g, group in enumerate(ship["flotsam"]):
                pick = live and loot_ship == name and g == 0
                loot = [token_item(t, lang, pickable=pick,
                                   aria=token_label(t, lang) + (" — " + _tr("pirats.comp.take", lang) if pick else ""))
                        for t in group["loot"]]
                bonus = ([token_item(group["bonus"], lang, pickable=False, aria=token_label(group["bonus"], lang))]
                         if group["bonus"] else [])
                groups.append({"tokens": loot + bonus, "front": g == 0,
                               "label": _tr("pirats.comp.flotsam_front" if g == 0 else "pirats.comp.flotsam_next",
                                            lang)})
            ships.append({"ship": name, "name": i18n.translate(f"pirats.ship.{name}", lang), "spaces": spaces,
                          "flotsam": groups, "clickable": live})
        draw = live and bool(off.get("draw"))
        supply = {
            "deck": obs["deck"], "draw": draw,
            "deck_label": _tr("pirats.comp.deck", lang, n=obs["deck"]),
            "deck_aria": _tr("pirats.comp.deck", lang, n=obs["deck"]) + (
                " — " + _tr("pirats.comp.click_draw", lang) if draw else ""),
            "row": [{"card": c, "label": i18n.translate(f"pirats.card.{c}", lang),
                     "aria": _tr("pirats.comp.row_card", lang, card=i18n.translate(f"pirats.card.{c}", lang)) + (
                         " — " + _tr("pirats.comp.click_draw", lang) if draw else "")} for c in obs["row"]],
            "discard": _tr("pirats.comp.discard_pile", lang, n=sum(obs["discard"].values())),
            "stocks": _tr("pirats.comp.stocks", lang, loot=obs["loot_stock"], bonus=obs["bonus_stock"]),
        }
        seats = []
        for s in range(obs["players"]):
            colour = obs["colours"][s]
            home = [self._figure_item({"seat": s, "figure": f}, obs, live and s == acting and f in movable)
                    for f in obs["home"][s]]
            treasure = [token_item(t, lang, aria=token_label(t, lang)) for t in obs["treasure"][s]]
            seats.append({"seat": s, "colour": colour,
                          "name": _tr("pirats.comp.seat_colour", lang, seat=s,
                                      colour=i18n.translate(f"pirats.colour.{colour}", lang)),
                          "cards": _tr("pirats.comp.cards_held", lang, n=obs["hand_sizes"][s]),
                          "points": _tr("pirats.comp.points", lang, n=obs["scores"][s]),
                          "home": home, "treasure": treasure, "acting": s == acting, "you": s == obs["seat"],
                          "home_label": _tr("pirats.comp.area", lang),
                          "treasure_label": _tr("pirats.comp.treasure", lang)})
        hand: dict[str, Any] = {}
        if obs.get("seat") is not None and obs.get("hand") is not None:
            pick = int(off.get("hand_pick", 0)) if live else 0
            chosen = set(off.get("hand_selected", ()))
            cards = [c for c in SHIPS for _ in range(int(obs["hand"][c]))][:MAX_HAND]
            items = []
            for i, c in enumerate(cards):
                label = i18n.translate(f"pirats.card.{c}", lang)
                aria = _tr("pirats.comp.hand_card", lang, card=label)
                if pick:
                    aria += " — " + _tr("pirats.comp.chosen" if i in chosen else "pirats.comp.click_choose", lang)
                items.append({"index": i, "card": c, "label": label, "aria": aria, "selected": i in chosen})
            hand = {"seat": obs["seat"], "cards": items, "pick": pick,
                    "title": _tr("pirats.comp.hand", lang, seat=obs["seat"]),
                    "empty": _tr("pirats.comp.no_cards", lang)}
        auction: dict[str, Any] = {}
        auc = obs.get("auction")
        if auc is not None:
            stools = set(off.get("stools", ())) if live else set()
            bar = []
            for i, sp in enumerate(auc["bar"]):
                if sp is None:
                    continue
                name = i18n.translate(f"pirats.species.{sp}", lang)
                under = auc["cards_under"][i]
                aria = _tr("pirats.comp.stool", lang, stool=i + 1, species=name, under=under)
                bar.append({"stool": i + 1, "species": sp, "name": name, "under": under, "aria": aria,
                            "clickable": (i + 1) in stools, "chosen": auc.get("stool") == i + 1
                            or off.get("stool") == i + 1})
            legal = set(off.get("legal_bids", ()))
            bids = [{"amount": b, "legal": b in legal,
                     "aria": _tr("pirats.comp.bid", lang, n=b) + ("" if b in legal else
                                                                  " — " + _tr("pirats.comp.not_now", lang))}
                    for b in off.get("bids", ())] if live else []
            auction = {"title": _tr("pirats.comp.bar", lang), "bar": bar, "bids": bids,
                       "bids_label": _tr("pirats.comp.bids", lang),
                       "state": _tr("pirats.comp.bid_state", lang, bid=auc["bid"],
                                    bidder="—" if auc["bidder"] is None else auc["bidder"])}
        with self.hold_sync():
            self.interactive = live
            self.labels = {"ships": _tr("pirats.comp.ships", lang), "stern": _tr("pirats.comp.stern", lang),
                           "bow": _tr("pirats.comp.bow", lang), "supply": _tr("pirats.comp.supply", lang),
                           "row": _tr("pirats.comp.row", lang), "seats": _tr("pirats.comp.seats", lang),
                           "none": _tr("pirats.comp.none", lang), "actions": _tr("pirats.comp.actions", lang)}
            self.ships = ships
            self.supply = supply
            self.seats = seats
            self.hand = hand
            self.auction = auction
            self.actions = ([{"action": a, "label": label} for a, label in off.get("actions", ())] if live else [])
            self.prompt = str(off.get("prompt", "")) if live else ""

    # ---- checks: a pick must name something drawn as a button ------------------------------------
    def _live(self) -> str | None:
        return None if self.interactive else _tr("pirats.comp.not_your_turn", self.lang)

    def _pick_deck(self, content: Mapping[str, Any]) -> tuple[Any, str | None]:
        return ("deck", None), self._live()

    def _pick_row(self, content: Mapping[str, Any]) -> tuple[Any, str | None]:
        card = content.get("card")
        if card not in SHIPS or self._obs is None or card not in self._obs["row"]:
            return None, _tr("pirats.comp.not_in_row", self.lang, text=str(card)[:16])
        return ("row", card), self._live()

    def _pick_hand(self, content: Mapping[str, Any]) -> tuple[Any, str | None]:
        index = _small_int(content.get("index"), 0, len(self.hand.get("cards", ())) - 1)
        if index is None:
            return None, _tr("pirats.comp.not_in_hand", self.lang, text=str(content.get("index"))[:16])
        return ("hand", (index, self.hand["cards"][index]["card"])), self._live()

    def _pick_figure(self, content: Mapping[str, Any]) -> tuple[Any, str | None]:
        figure = content.get("figure")
        acting = None if self._obs is None else self._obs.get("to_move")
        crew = [] if acting is None else self._obs["crews"][acting]
        if not isinstance(figure, str) or figure not in crew:
            return None, _tr("pirats.comp.not_your_figure", self.lang, text=str(figure)[:16])
        return ("figure", figure), self._live()

    def _pick_space(self, content: Mapping[str, Any]) -> tuple[Any, str | None]:
        ship, space = content.get("ship"), _small_int(content.get("space"), 1, CAPTAIN + 1)
        if ship not in SHIPS or space is None:
            return None, _tr("pirats.comp.no_space", self.lang, text=f"{str(ship)[:12]} {str(content.get('space'))[:4]}")
        return ("space", (ship, space)), self._live()

    def _pick_loot(self, content: Mapping[str, Any]) -> tuple[Any, str | None]:
        ship, raw = content.get("ship"), content.get("token")
        groups = self._obs["ships"][ship]["flotsam"] if self._obs is not None and ship in SHIPS else []
        if not isinstance(raw, str) or not groups or raw not in groups[0]["loot"]:
            return None, _tr("pirats.comp.not_a_token", self.lang, text=str(raw)[:16])
        return ("loot", (ship, Token.parse(raw))), self._live()

    def _pick_stool(self, content: Mapping[str, Any]) -> tuple[Any, str | None]:
        stool = _small_int(content.get("stool"), 1, 20)
        if stool is None or not any(b["stool"] == stool for b in self.auction.get("bar", ())):
            return None, _tr("pirats.comp.no_stool", self.lang, text=str(content.get("stool"))[:8])
        return ("stool", stool), self._live()

    def _pick_bid(self, content: Mapping[str, Any]) -> tuple[Any, str | None]:
        amount = _small_int(content.get("amount"), 0, 60)
        if amount is None or not any(b["amount"] == amount for b in self.auction.get("bids", ())):
            return None, _tr("pirats.comp.no_bid", self.lang, text=str(content.get("amount"))[:8])
        return ("bid", amount), self._live()

    def _pick_action(self, content: Mapping[str, Any]) -> tuple[Any, str | None]:
        action = content.get("action")
        if not any(a["action"] == action for a in self.actions):
            return None, _tr("pirats.comp.no_action", self.lang, text=str(action)[:16])
        return ("action", action), self._live()


# ---------------------------------------------------------------------------------------------------------
# the scoring example: a pile built by clicking tokens


def box_tokens() -> list[Token]:
    """Every distinct token in the box (:data:`toolkit.pirats.tokens.DEFAULT_BOX`), loot then bonus."""
    return sorted(set(DEFAULT_BOX.loot) | set(DEFAULT_BOX.bonus), key=Token.sort_key)


class TokenPile(PiratsComponent):
    """A treasure pile: click a token of the box to add it, a token of the pile to take it off.

    ``value`` is the pile in the order built; ``on_change(callback)`` runs after each accepted change.
    """

    _kind = Unicode("tokens").tag(sync=True)
    palette = List().tag(sync=True)
    pile = List().tag(sync=True)
    PICKS = ("add", "remove")

    def __init__(self, value: Iterable["Token | str"] = (), limit: int = MAX_PILE, lang: str = "en", **kwargs: Any):
        self._value: tuple[Token, ...] = ()
        self._box = tuple(box_tokens())
        self.limit = max(0, min(int(limit), MAX_PILE))
        self._change_callbacks: list[Callable[[tuple[Token, ...]], Any]] = []
        super().__init__(lang=lang, **kwargs)
        self.set_value(value)

    @property
    def value(self) -> tuple[Token, ...]:
        return self._value

    def on_change(self, callback: Callable[[tuple[Token, ...]], Any]) -> None:
        self._change_callbacks.append(callback)

    def set_value(self, tokens: Iterable["Token | str"]) -> None:
        value = tuple(Token.parse(t) for t in tokens)
        if len(value) > self.limit:
            raise RuleError(f"a pile of {len(value)} tokens: at most {self.limit} here")
        self._value = value
        self._render()

    def _render(self) -> None:
        if not hasattr(self, "_change_callbacks"):
            return
        lang = self.lang
        held = {t: self._value.count(t) for t in set(self._value)}
        with self.hold_sync():
            self.labels = {"palette": _tr("pirats.comp.palette", lang),
                           "pile": _tr("pirats.comp.pile", lang, n=len(self._value), points=score(self._value)),
                           "empty": _tr("pirats.comp.empty_pile", lang),
                           "loot": _tr("pirats.comp.loot_tokens", lang), "bonus": _tr("pirats.comp.bonus_tokens", lang)}
            self.palette = [token_item(t, lang, count=held.get(t, 0),
                                       aria=_tr("pirats.comp.add_token", lang, token=token_label(t, lang))
                                       + (" — " + _tr("pirats.comp.in_pile", lang, n=held[t]) if held.get(t) else ""))
                            for t in self._box]
            self.pile = [token_item(t, lang, index=i,
                                    aria=_tr("pirats.comp.remove_token", lang, token=token_label(t, lang)))
                         for i, t in enumerate(self._value)]

    def _changed(self) -> None:
        self._render()
        for callback in list(self._change_callbacks):
            callback(self._value)

    def _pick_add(self, content: Mapping[str, Any]) -> tuple[Any, str | None]:
        raw = content.get("token")
        token = next((t for t in self._box if isinstance(raw, str) and str(t) == raw), None)
        if token is None:
            return None, _tr("pirats.comp.not_in_box", self.lang, text=str(raw)[:16])
        if len(self._value) >= self.limit:
            return None, _tr("pirats.comp.pile_full", self.lang, n=self.limit)
        self._value = self._value + (token,)
        self._changed()
        return token, None

    def _pick_remove(self, content: Mapping[str, Any]) -> tuple[Any, str | None]:
        index = _small_int(content.get("index"), 0, len(self._value) - 1)
        if index is None:
            return None, _tr("pirats.comp.not_in_pile", self.lang, text=str(content.get("index"))[:8])
        token = self._value[index]
        self._value = self._value[:index] + self._value[index + 1:]
        self._changed()
        return token, None


# ---------------------------------------------------------------------------------------------------------
# the boarding example: one ship, set up by clicking


class ShipBoard(PiratsComponent):
    """One ship (the cat ship) for the boarding example: your area, spaces 1–3 and the captain space,
    and the charm cards you would play.

    ``show(spaces, cards, max_cards=3, after=None)``: ``spaces`` four entries ``"empty"``, ``"you"`` or
    ``"other"`` (index 3 = captain); ``after`` the same for the ship after a move, drawn below as a picture
    (one component, so the page receives the module once). A click on a space, your area or a card is passed
    to ``on_pick`` as ``("space", n)``, ``("area", None)`` or ``("cards", n)``; the view decides what it means.
    """

    _kind = Unicode("ship").tag(sync=True)
    spaces = List().tag(sync=True)
    cards = List().tag(sync=True)
    area = Dict().tag(sync=True)
    after = List().tag(sync=True)
    clickable = Bool(True).tag(sync=True)
    PICKS = ("space", "area", "cards")

    def __init__(self, lang: str = "en", clickable: bool = True, **kwargs: Any):
        self._shown: tuple[tuple[str, ...], int, int] | None = None
        self._after: tuple[str, ...] | None = None
        super().__init__(lang=lang, **kwargs)
        self.clickable = bool(clickable)

    def _check_pick(self, content: Mapping[str, Any]) -> tuple[Any, str | None]:
        if not self.clickable:
            return None, self._text("not_clickable")
        return super()._check_pick(content)

    def show(self, spaces: Sequence[str], cards: int, max_cards: int = 3, after: Sequence[str] | None = None) -> None:
        for ship in (spaces, after or ["empty"] * 4):
            if len(ship) != 4 or any(s not in ("empty", "you", "other") for s in ship):
                raise RuleError(f"a ship has four spaces, each empty, you or other: not {list(ship)!r:.60}")
        self._shown = (tuple(spaces), int(cards), int(max_cards))
        self._after = None if after is None else tuple(after)
        self._render()

    def _items(self, spaces: Sequence[str], live: bool) -> list[dict[str, Any]]:
        lang = self.lang
        items = []
        for index, who in enumerate(spaces):
            where = (_tr("pirats.comp.captain_space", lang) if index == CAPTAIN
                     else _tr("pirats.comp.space", lang, number=index + 1))
            text = _tr(f"pirats.comp.who_{who}", lang)
            aria = f"{where}: {text}"
            if live:
                aria += " — " + _tr("pirats.comp.click_cycle" if index < CAPTAIN else "pirats.comp.click_toggle", lang)
            items.append({"space": index + 1, "where": where, "who": who, "text": text, "aria": aria,
                          "captain": index == CAPTAIN})
        return items

    def _render(self) -> None:
        shown = getattr(self, "_shown", None)
        if shown is None:
            return
        spaces, cards, top = shown
        lang = self.lang
        items = self._items(spaces, self.clickable)
        card = i18n.translate("pirats.card.cat", lang)
        home = "you" not in spaces
        with self.hold_sync():
            self.labels = {"ship": i18n.translate("pirats.ship.cat", lang), "stern": _tr("pirats.comp.stern", lang),
                           "bow": _tr("pirats.comp.bow", lang), "cards": _tr("pirats.comp.cards_to_play", lang, n=cards),
                           "you": _tr("pirats.comp.who_you", lang), "after": _tr("pirats.comp.after_move", lang)}
            self.area = {"label": _tr("pirats.comp.area", lang), "you": home,
                         "aria": _tr("pirats.comp.area", lang) + (
                             ": " + _tr("pirats.comp.who_you", lang) if home else
                             " — " + _tr("pirats.comp.click_home", lang) if self.clickable else "")}
            self.spaces = items
            self.after = [] if self._after is None else self._items(self._after, False)
            self.cards = [{"count": n, "card": "cat", "label": card, "on": n <= cards,
                           "aria": _tr("pirats.comp.play_cards", lang, n=n, card=card)} for n in range(1, top + 1)]

    def _pick_space(self, content: Mapping[str, Any]) -> tuple[Any, str | None]:
        space = _small_int(content.get("space"), 1, CAPTAIN + 1)
        if space is None:
            return None, _tr("pirats.comp.no_space", self.lang, text=str(content.get("space"))[:8])
        return ("space", space), None

    def _pick_area(self, content: Mapping[str, Any]) -> tuple[Any, str | None]:
        return ("area", None), None

    def _pick_cards(self, content: Mapping[str, Any]) -> tuple[Any, str | None]:
        top = self._shown[2] if self._shown else 3
        n = _small_int(content.get("count"), 1, top)
        if n is None:
            return None, _tr("pirats.comp.no_cards_count", self.lang, text=str(content.get("count"))[:8], n=top)
        return ("cards", n), None


__all__ = ["CHARM_STYLE", "PiratsComponent", "PiratsTable", "SEAT_STYLE", "ShipBoard", "TOKEN_STYLE", "TokenPile",
           "box_tokens", "figure_text", "token_item", "token_label"]
