"""The clickable Deep Blue table for one seat: board, dive track, bag, market and hand as components
(:mod:`toolkit.widgets.components.deepblue`), each action a click on the object it acts on.

What the table draws comes from ``ENGINE.observe(state, seat)`` of the seat shown on the page (another
seat's hand is never handed to a component). What a click does comes from the engine: the seat's moves in
``legal_moves`` are offered, and an object that cannot be used now carries the engine's ``why_illegal``
reason (shown on hover/focus, and as the refusal if clicked). The table itself holds no rules; it only
chooses which legal move a click means:

* **sail**: click one of your boats to choose it, then a site: the cheapest propeller payment that the
  engine accepts for that trip is suggested (or the propeller cards you clicked in your hand), then the
  boat moves; with propellers left, click another site for the other boat or "drop anchor";
* **hire**: click a market card; if there is more than one minimal payment, the cheapest one is
  suggested (highlighted) and you click cards/tokens to change it, then "pay";
* **rest**: click your rest area; **dive**: click the site where your boat stands on a face-up wreck;
* in a dive: click the bag to draw, your boat on the dive track to surface (stop or leave), a scoring
  card to play it, a protection card or your scouting spot to avoid a bust; join or stay on deck.
"""

from __future__ import annotations

from typing import Any, Callable, Iterable, Mapping

import ipywidgets as widgets

from toolkit.core.i18n import translate as t
from toolkit.deepblue.bots import card_worth
from toolkit.deepblue.engine import ENGINE
from toolkit.deepblue.gems import HAZARDS
from toolkit.deepblue.model import (Anchor, ChooseSpot, Decline, DrawGem, Hire, Join, Leave, MoveBoat, PlayCard,
                                    Protect, Rest, SetSail, StartDive, Stop)
from toolkit.widgets.components.deepblue import (GEM_STYLE, SEAT_STYLE, CrewCardRow, DeepBlueBoard, DiveTrack,
                                                 GemBagTokens)
from toolkit.widgets.deepblue.common import card_text, gem_name


def gem_item(colour: str, lang: str) -> dict[str, Any]:
    return {"colour": colour, "name": gem_name(colour, lang), **GEM_STYLE.get(colour, GEM_STYLE["silver"])}


def card_item(card_id: int, lang: str, key: str | None = None) -> dict[str, Any]:
    """A crew card face: name, icons (each with text for screen readers) and the full text as aria-label."""
    card = ENGINE.components.card(card_id)
    icons = []
    if card.cash:
        icons.append({"icon": "cash", "glyph": "$", "text": t("deepblue.ui.card_cash", lang, n=card.cash)})
    if card.propellers:
        icons.append({"icon": "propellers", "glyph": "⟳", "text": t("deepblue.ui.card_props", lang, n=card.propellers)})
    if card.protection:
        icons.append({"icon": "protect", "glyph": "⊘", "gem": gem_item(card.protection, lang),
                      "text": t("deepblue.ui.card_protect", lang, gem=gem_name(card.protection, lang))})
    if card.scores:
        need = " + ".join(f"{n} {gem_name(c, lang)}" for c, n in card.score_requires)
        icons.append({"icon": "score", "glyph": "★", "text": t("deepblue.ui.card_score", lang, need=need, vp=card.score_vp)})
    if card.adds_gem:
        icons.append({"icon": "adds", "glyph": "+", "gem": gem_item(card.adds_gem, lang),
                      "text": t("deepblue.ui.card_adds", lang, gem=gem_name(card.adds_gem, lang))})
    return {"key": key or f"card:{card_id}", "id": card_id, "name": card.name.get(lang, card.name["en"]),
            "icons": icons, "aria": card_text(card, lang)}


def payment_text(cards: Iterable[int], tokens: int, lang: str) -> str:
    """``"#2 Navigator, bonus token"``: what a payment spends."""
    comps = ENGINE.components
    parts = [f"#{c} {comps.card(c).name.get(lang, comps.card(c).name['en'])}" for c in cards]
    parts += [t("deepblue.move.token", lang)] * tokens
    return ("、" if lang == "ja" else ", ").join(parts) or "—"


def hint_marks(move: Any, state: Any, reason: Any = None) -> list[tuple[str, list[str]]]:
    """Where a suggested ``move`` is clicked on a :class:`DeepBlueTable`: ``[(component, data-keys)]``, the
    component named as the table's attribute ("board", "dive", "bag", "market", "hand"). Pure: the table
    frame and :meth:`DeepBlueTable.mark_hint` call it with the hint bot's move and the position it saw.

    Sailing takes two clicks, the boat and the site, both marked. "Set sail" names neither: the hint bot's
    reason (``reason``, its :class:`~toolkit.core.events.Event`) names the boat and the site it plans; without
    one, the seat's boats that may sail are marked.

    >>> from toolkit.deepblue.model import DrawGem, Hire, MoveBoat
    >>> hint_marks(MoveBoat(1, 0, 7), None), hint_marks(DrawGem(2), None)
    ([('board', ['boat:0', 'site:7'])], [('bag', ['bag'])])
    >>> hint_marks(Hire(0, 3, (4,), 0), None)
    [('market', ['slot:3']), ('hand', ['pay'])]
    """
    if isinstance(move, MoveBoat):
        return [("board", [f"boat:{move.boat}", f"site:{move.site}"])]
    if isinstance(move, SetSail):
        site = reason.param("site", None) if reason is not None else None
        boat = reason.param("boat", None) if reason is not None else None
        if isinstance(site, int) and isinstance(boat, int):
            return [("board", [f"boat:{boat}", f"site:{site}"])]
        boats = state.players[move.seat].boats if state is not None else ()
        moved = state.sail.moved if state is not None and state.phase == "sail" and state.sail else ()
        return [("board", [f"boat:{b}" for b in range(len(boats)) if b not in moved])]
    if isinstance(move, StartDive):
        return [("board", [f"site:{state.players[move.seat].boats[move.boat].site}"])] if state is not None else []
    if isinstance(move, ChooseSpot):
        return [("board", [f"spot:{move.spot}"])]
    if isinstance(move, Anchor):
        return [("board", ["anchor"])]
    if isinstance(move, Hire):
        # with a choice of payment the hand then shows "pay" (the cheapest payment preselected): marked too
        return [("market", [f"slot:{move.slot}"]), ("hand", ["pay"])]
    if isinstance(move, Rest):
        return [("hand", ["rest"])]
    if isinstance(move, (PlayCard, Protect)):
        return [("dive", ["protect-spot"])] if move.card is None else [("hand", [f"card:{move.card}"])]
    if isinstance(move, DrawGem):
        return [("bag", ["bag"])]
    if isinstance(move, (Stop, Leave)):
        return [("dive", ["surface"])]
    if isinstance(move, Join):
        return [("dive", ["join"])]
    if isinstance(move, Decline):
        return [("dive", ["decline"])]
    return []


def _why(state: Any, move: Any, lang: str) -> str:
    """The engine's reason a move is refused, in ``lang`` ("" if it is legal)."""
    v = ENGINE.why_illegal(state, move)
    return "" if v is None else v.text(lang)


class DeepBlueTable:
    """The five components of a seat's table, and what each click means (see the module docstring).

    ``on_move(move)`` plays a move for the view (through the engine); the table calls it once per move of
    a click (sailing to a site is "set sail" and "move the boat")."""

    def __init__(self, on_move: Callable[[Any], Any], lang: str = "en", board: bool = True, market: bool = True):
        self._on_move = on_move
        # a view that shows no board or market (the dive example) does not create them: every widget
        # created in the kernel costs a comm and its state on the wire, displayed or not
        # the first component carries the drawing code (ESM + CSS) for all five (``assets``)
        self.board = DeepBlueBoard(lang=lang) if board else None
        if self.board is not None:          # beside the dive and the bag where there is room, else above them
            self.board.layout = widgets.Layout(flex="1 1 26em", max_width="44em", min_width="0")
        self.dive = DiveTrack(lang=lang, assets=self.board is None)
        self.bag = GemBagTokens(lang=lang, assets=False)
        self.market = CrewCardRow(lang=lang, assets=False) if market else None
        self.hand = CrewCardRow(lang=lang, assets=False)
        for comp in self.components:
            comp.add_class(f"deepblue-{comp._kind}-component")
            comp.on_pick(self._picked)
        if self.market is not None:
            self.market.add_class("deepblue-market-component")
        self.hand.add_class("deepblue-hand-component")
        self.lang = lang
        self._last: tuple[Any, int | None, list] | None = None
        self._boat: int | None = None               # the boat chosen to sail
        self._sail_cards: frozenset[int] = frozenset()
        self._sail_tokens = 0
        self._hire_slot: int | None = None           # paying for this market slot
        self._pay_cards: frozenset[int] = frozenset()
        self._pay_tokens = 0

    @property
    def components(self) -> tuple:
        return tuple(c for c in (self.board, self.dive, self.bag, self.market, self.hand) if c is not None)

    # ---- clicks ------------------------------------------------------------------------------------
    def _picked(self, value: Any) -> None:
        if isinstance(value, tuple) and value and isinstance(value[0], str):
            self._choose(*value)
            return
        moves = value if isinstance(value, list) else [value]
        self._reset_choices()
        for move in moves:
            if not self._on_move(move):
                break

    def _choose(self, what: str, *args: Any) -> None:
        """A choice that is not yet a move: a boat to sail, a payment part, hire/cancel."""
        if what == "boat":
            self._boat = args[0]
        elif what == "sail_card":
            self._sail_cards ^= {args[0]}
        elif what == "sail_token":
            self._sail_tokens = args[0]
        elif what == "hire":
            self._hire_slot, (cards, tokens) = args[0], args[1]
            self._pay_cards, self._pay_tokens = frozenset(cards), tokens
        elif what == "pay_card":
            self._pay_cards ^= {args[0]}
        elif what == "pay_token":
            self._pay_tokens = args[0]
        elif what == "cancel":
            self._reset_choices()
        if self._last is not None:
            self.update(*self._last)

    def _reset_choices(self) -> None:
        self._sail_cards, self._sail_tokens = frozenset(), 0
        self._hire_slot, self._pay_cards, self._pay_tokens = None, frozenset(), 0

    # ---- the hint's marks ---------------------------------------------------------------------------
    def mark_hint(self, move: Any = None, state: Any = None, label: str = "", reason: Any = None) -> None:
        """Outline where ``move`` (the hint bot's suggestion in ``state``, with its ``reason``) is clicked;
        ``None`` clears every mark (after any move)."""
        marks = dict(hint_marks(move, state, reason)) if move is not None else {}
        for name in ("board", "dive", "bag", "market", "hand"):
            comp = getattr(self, name)
            if comp is not None:
                comp.mark_hint(marks.get(name, ()), label)

    # ---- drawing -----------------------------------------------------------------------------------
    def set_lang(self, lang: str) -> None:
        self.lang = lang
        for comp in self.components:
            comp.lang = lang
        if self._last is not None:
            self.update(*self._last)

    def update(self, state: Any, seat: int | None, moves: list, last_dive: str = "") -> None:
        """Draw ``observe(state, seat)`` and offer ``moves`` (the seat's legal moves; [] when it may not act).
        ``last_dive``: how the last dive ended, shown on the dive track until the next dive starts."""
        last = self._last
        if last is not None and (last[1] != seat or state.turn != last[0].turn or state.phase != last[0].phase):
            self._reset_choices()           # a choice in progress belongs to the position it was made in
        self._last = (state, seat, list(moves), last_dive)
        self._last_dive = last_dive
        obs = ENGINE.observe(state, seat)
        moves = list(moves)
        if self._hire_slot is not None and not any(isinstance(m, Hire) and m.slot == self._hire_slot for m in moves):
            self._reset_choices()
        if self.board is not None:
            self._draw_board(state, obs, seat, moves)
        self._draw_dive(state, obs, seat, moves)
        self._draw_bag(state, obs, seat, moves)
        if self.market is not None:
            self._draw_market(state, obs, seat, moves)
        self._draw_hand(state, obs, seat, moves)

    def _tr(self, key: str, **params: Any) -> str:
        return t(key, self.lang, **params)

    def _seat_name(self, seat: int, me: int | None) -> str:
        return self._tr("deepblue.comp.you_seat", seat=seat) if seat == me else self._tr("deepblue.ui.seat_n", seat=seat)

    # board ------------------------------------------------------------------------------------------
    def _sail_choice(self, state: Any, seat: int, moves: list) -> tuple[int | None, list]:
        """The boat chosen to sail and the sail payments to try (the clicked one, else every listed one)."""
        boats = state.players[seat].boats
        movable = [b for b in range(len(boats)) if state.phase == "action" or b not in state.sail.moved]
        boat = self._boat if self._boat in movable else (movable[0] if movable else None)
        self._boat = boat
        sails = [m for m in moves if isinstance(m, SetSail)]
        if self._sail_cards or self._sail_tokens:
            sails = [SetSail(seat, tuple(sorted(self._sail_cards)), self._sail_tokens)]
        return boat, sails

    def _draw_board(self, state: Any, obs: Mapping[str, Any], me: int | None, moves: list) -> None:
        comps = ENGINE.components
        lang = self.lang
        tiles = {tile["site"]: tile for tile in obs["tiles"]}
        gems_at: dict[int, list] = {}
        for site, colour in obs["tile_gems"]:
            gems_at.setdefault(site, []).append(gem_item(colour, lang))
        offers: dict[str, Any] = {}
        refusals: dict[str, str] = {}
        costs: dict[int, str] = {}        # what a click on a site costs or does (hover/focus, aria-label)
        short: dict[int, str] = {}        # the same, drawn on the site: "⟳ 2"
        mine = me is not None and bool(moves)
        boat = None
        landing = -1
        if mine and state.phase in ("action", "sail"):
            boat, sails = self._sail_choice(state, me, moves)
            if state.phase == "sail":
                landing = state.sail.landing
            for b, _ in enumerate(state.players[me].boats):
                if state.phase == "action" or (landing < 0 and b not in state.sail.moved):
                    offers[f"boat:{b}"] = ("boat", b)
            if boat is not None and landing < 0:
                self._offer_sites(state, me, boat, sails, offers, refusals, costs, short)
            for m in moves:
                if isinstance(m, StartDive):
                    site = state.players[me].boats[m.boat].site
                    offers[f"site:{site}"] = m
                    costs[site] = short[site] = self._tr("deepblue.comp.dive_here")
                    refusals.pop(f"site:{site}", None)
        dive_site = obs["dive"]["site"] if obs.get("dive") else None
        if mine and state.phase == "join":
            join = next((m for m in moves if isinstance(m, Join)), None)
            if join is not None and dive_site is not None:
                offers[f"site:{dive_site}"] = join
                costs[dive_site] = short[dive_site] = self._tr("deepblue.ui.join")
        taken: dict[int, set] = {}
        for p in obs["players"]:
            for b in p["boats"]:
                if b["spot"] >= 0:
                    taken.setdefault(b["site"], set()).add(b["spot"])
        sites = []
        for s in comps.board.sites:
            tile = tiles.get(s.id)
            name = s.name.get(lang, s.name["en"])
            spots = []
            if s.harbour:
                kind, label, detail = "harbour", name, ""
            elif tile is None:
                kind, label, detail = "open", str(s.id), self._tr("deepblue.comp.open_water")
            elif not tile["face_up"]:
                kind, label, detail = "hidden", str(s.id), self._tr("deepblue.comp.face_down")
            else:
                kind = "city" if tile["sunken_city"] else "wreck"
                label = f"{s.id}" + (" ★" if tile["sunken_city"] else "")
                detail = (self._tr("deepblue.ui.sunken_city") + " · " if tile["sunken_city"] else "") + \
                    self._tr("deepblue.comp.bonus", vp=tile["leader_bonus"])
                for i, spot in enumerate(tile["spots"]):
                    key = f"spot:{i}" if landing >= 0 and state.players[me].boats[landing].site == s.id else None
                    # the token shows the kind (S/G/R, ✕ in black or blue, ★ either); its name is the aria-label
                    # and shows on hover/focus
                    item = {"key": key, "spot": spot, "label": "", "note": t(f"deepblue.spot.{spot}", lang) if key else "",
                            "gem": gem_item("blue" if spot == "any" else spot, lang) | (
                                {"letter": "★", "fill": "#ffffff", "fg": "#1a1a1a"} if spot == "any" else {}),
                            "taken": i in taken.get(s.id, set()),
                            "aria": self._tr("deepblue.comp.spot_aria", kind=t(f"deepblue.spot.{spot}", lang))}
                    if key is not None:
                        move = ChooseSpot(me, i)
                        if move in moves:
                            offers[key] = move
                        else:
                            refusals[key] = _why(state, move, lang)
                    spots.append(item)
            boats = []
            for p in obs["players"]:
                for b, bt in enumerate(p["boats"]):
                    if bt["site"] != s.id:
                        continue
                    you = p["seat"] == me
                    boats.append({"key": f"boat:{b}" if you else None, "seat": p["seat"], "boat": b,
                                  "label": f"{p['seat'] + 1}·{b}", "you": you, "colour": SEAT_STYLE[p["seat"] % 5],
                                  "selected": you and b == boat and state.phase in ("action", "sail"),
                                  "aria": self._tr("deepblue.comp.boat_aria", who=self._seat_name(p["seat"], me),
                                                   boat=b, site=name)})
            aria = f"{name}: {detail}" if detail else name
            if spots:
                aria += " · " + ", ".join(sp["aria"] for sp in spots)
            sites.append({"key": f"site:{s.id}", "site": s.id, "x": s.x, "y": s.y, "kind": kind, "label": label,
                          "detail": detail, "cost": short.get(s.id, ""), "note": costs.get(s.id, ""), "aria": aria,
                          "gems": gems_at.get(s.id, []),
                          "spots": spots, "boats": boats, "mark": "dive" if s.id == dive_site else ""})
        sites_by_id = {s.id: s for s in comps.board.sites}
        lanes = [(sites_by_id[a].x, sites_by_id[a].y, sites_by_id[b].x, sites_by_id[b].y) for a, b in comps.board.edges]
        buttons = []
        if mine and state.phase == "sail":
            anchor = Anchor(me)
            buttons.append({"key": "anchor", "label": self._tr("deepblue.comp.anchor"),
                            "aria": self._tr("deepblue.comp.anchor")})
            if anchor in moves:
                offers["anchor"] = anchor
            else:
                refusals["anchor"] = _why(state, anchor, lang)
        hint = ""
        if mine and state.phase == "action":
            hint = self._tr("deepblue.comp.board_hint_action")
        elif mine and state.phase == "sail":
            hint = (self._tr("deepblue.comp.board_hint_spot") if landing >= 0 else
                    self._tr("deepblue.comp.board_hint_sail", propellers=state.sail.propellers))
        self.board.show(sites, lanes, buttons, offers, refusals,
                        labels={"title": self._tr("deepblue.comp.board"), "hint": hint})

    def _offer_sites(self, state, me, boat, sails, offers, refusals, costs, short) -> None:
        """Offer each site the chosen boat can reach; the others carry the engine's reason."""
        lang = self.lang
        comps = ENGINE.components
        here = state.players[me].boats[boat].site
        if state.phase == "sail":
            afters = [(None, state)]
        else:
            # after each candidate payment (the engine applies it), which sites can the boat reach?
            afters = []
            for sail in sails:
                if ENGINE.why_illegal(state, sail) is None:
                    afters.append((sail, ENGINE.apply(state, sail)))
        worth = {s: (sum(card_worth(comps, c) for c in s.cards) + 0.6 * s.tokens, len(s.cards)) if s else (0, 0)
                 for s, _ in afters}
        for site in comps.board.sites:
            if site.id == here:
                continue
            move = MoveBoat(me, boat, site.id)
            ok = [(sail, after) for sail, after in afters if ENGINE.why_illegal(after, move) is None]
            steps = comps.board.distances(here).get(site.id, 0)
            if ok:
                sail = min(ok, key=lambda pair: worth[pair[0]])[0]
                offers[f"site:{site.id}"] = [sail, move] if sail is not None else move
                short[site.id] = f"⟳ {steps}"
                if sail is None:
                    costs[site.id] = self._tr("deepblue.comp.steps", n=steps)
                else:
                    pay = payment_text(sail.cards, sail.tokens, lang)
                    costs[site.id] = self._tr("deepblue.comp.sail_cost", n=steps, pay=pay)
            elif afters:
                # the most propellers any payment gives still fall short: the engine says by how much
                after = max(afters, key=lambda pair: pair[1].sail.propellers if pair[1].sail else 0)[1]
                refusals[f"site:{site.id}"] = _why(after, move, lang)
            else:
                refusals[f"site:{site.id}"] = _why(state, sails[0] if sails else SetSail(me, (), 0), lang)

    # dive track -------------------------------------------------------------------------------------
    def _draw_dive(self, state: Any, obs: Mapping[str, Any], me: int | None, moves: list) -> None:
        lang = self.lang
        dive = obs.get("dive")
        offers: dict[str, Any] = {}
        refusals: dict[str, str] = {}
        if not dive:
            self.dive.show([], [], labels={"title": self._tr("deepblue.comp.dive_track"),
                                           "empty": getattr(self, "_last_dive", "") or self._tr("deepblue.comp.no_dive")})
            return
        seen: dict[str, int] = {}
        gems = []
        for c in dive["drawn"]:
            seen[c] = seen.get(c, 0) + 1
            danger = "" if c not in HAZARDS else ("warn" if seen[c] == 1 else "bust")
            gems.append({**gem_item(c, lang), "danger": danger,
                         "dangerText": self._tr(f"deepblue.comp.danger_{danger}") if danger else ""})
        divers = []
        for d in dive["divers"]:
            spot = t(f"deepblue.spot.{d['spot'] or 'none'}", lang) + (" ✓" if d["spot_used"] else "")
            status = t(f"deepblue.ui.status_{d['status']}", lang)
            text = f"{status} · {self._tr('deepblue.comp.spot', kind=spot)} · {d['card_vp']} VP"
            item = {"seat": d["seat"], "name": self._seat_name(d["seat"], me), "status": d["status"],
                    "text": text, "leader": d["seat"] == dive["leader"], "you": d["seat"] == me,
                    "colour": SEAT_STYLE[d["seat"] % 5],
                    "aria": f"{self._seat_name(d['seat'], me)}{' (' + self._tr('deepblue.comp.leader') + ')' if d['seat'] == dive['leader'] else ''}: {text}"}
            if d["seat"] == me and d["status"] == "in" and state.phase in ("dive", "check"):
                item["key"] = "surface"
                surface = Stop(me) if d["seat"] == dive["leader"] else Leave(me)
                item["action"] = self._tr("deepblue.comp.surface_stop" if isinstance(surface, Stop)
                                          else "deepblue.comp.surface_leave")
                item["aria"] += f" — {item['action']}"
                if surface in moves:
                    offers["surface"] = surface
                else:
                    refusals["surface"] = _why(state, surface, lang)
            divers.append(item)
        for s in dive["to_join"]:
            divers.append({"seat": s, "name": self._seat_name(s, me), "status": "deciding",
                           "text": self._tr("deepblue.comp.deciding"), "leader": False, "you": s == me,
                           "colour": SEAT_STYLE[s % 5],
                           "aria": f"{self._seat_name(s, me)}: {self._tr('deepblue.comp.deciding')}"})
        buttons = []
        for move, key, label in ((Join(me), "join", "deepblue.ui.join"), (Decline(me), "decline", "deepblue.ui.decline"),
                                 (Protect(me, None), "protect-spot", "deepblue.comp.protect_spot")):
            if me is not None and move in moves:
                buttons.append({"key": key, "label": self._tr(label), "aria": self._tr(label)})
                offers[key] = move
        title = self._tr("deepblue.comp.dive_at", site=dive["site"])
        self.dive.show(gems, divers, buttons, offers, refusals,
                       labels={"title": title, "track": self._tr("deepblue.ui.dive_board"),
                               "empty": self._tr("deepblue.comp.nothing_drawn")})

    # bag --------------------------------------------------------------------------------------------
    def _draw_bag(self, state: Any, obs: Mapping[str, Any], me: int | None, moves: list) -> None:
        lang = self.lang
        gems = [{"colour": c, "name": gem_name(c, lang), "n": n} for c, n in obs["bag"].items() if n]
        total = sum(obs["bag"].values())
        offers: dict[str, Any] = {}
        refusals: dict[str, str] = {}
        bag = None
        if state.phase in ("dive", "check") and me is not None:
            draw = DrawGem(me)
            bag = {"key": "bag", "aria": self._tr("deepblue.comp.bag_draw_aria", total=total)}
            if draw in moves:
                offers["bag"] = draw
            else:
                refusals["bag"] = _why(state, draw, lang)
        self.bag.show(gems, bag, (), offers, refusals,
                      labels={"title": self._tr("deepblue.comp.bag_title", total=total) +
                              (f" — {self._tr('deepblue.comp.click_to_draw')}" if "bag" in offers else ""),
                              "total": self._tr("deepblue.comp.bag_secret")})

    # market -----------------------------------------------------------------------------------------
    def _best_payment(self, hires: list) -> tuple[tuple[int, ...], int]:
        comps = ENGINE.components
        best = min(hires, key=lambda m: (sum(card_worth(comps, c) for c in m.cards) + 0.6 * m.tokens, len(m.cards)))
        return best.cards, best.tokens

    def _draw_market(self, state: Any, obs: Mapping[str, Any], me: int | None, moves: list) -> None:
        lang = self.lang
        offers: dict[str, Any] = {}
        refusals: dict[str, str] = {}
        cards = []
        acting = me is not None and state.phase == "action" and bool(moves)
        for i, cid in enumerate(obs["market"]):
            slot = i + 1
            item = card_item(cid, lang, key=f"slot:{slot}")
            item["price"] = f"${slot}"
            item["aria"] = f"${slot}: {item['aria']}"
            item["selected"] = self._hire_slot == slot
            if acting:
                hires = [m for m in moves if isinstance(m, Hire) and m.slot == slot]
                if len(hires) == 1:          # one way to pay: no choice to make
                    offers[item["key"]] = hires[0]
                elif hires:
                    offers[item["key"]] = ("hire", slot, self._best_payment(hires))
                else:
                    p = state.players[me]
                    cash = tuple(c for c in p.hand if ENGINE.components.card(c).cash > 0)
                    refusals[item["key"]] = _why(state, Hire(me, slot, cash, p.tokens), lang)
            cards.append(item)
        title = self._tr("deepblue.ui.market")
        if acting:
            title += f" — {self._tr('deepblue.comp.market_hint')}"
        self.market.show(cards, (), offers, refusals,
                         labels={"title": title, "empty": self._tr("deepblue.ui.no_cards")})

    # hand -------------------------------------------------------------------------------------------
    def _draw_hand(self, state: Any, obs: Mapping[str, Any], me: int | None, moves: list) -> None:
        lang = self.lang
        offers: dict[str, Any] = {}
        refusals: dict[str, str] = {}
        buttons: list[dict[str, Any]] = []
        if me is None:
            self.hand.show([], labels={"title": self._tr("deepblue.comp.no_hand_public"), "empty": "—"})
            return
        me_obs = obs["players"][me]
        hand = list(me_obs.get("hand", []))
        comps = ENGINE.components
        cards = [card_item(c, lang) for c in hand]
        title = self._tr("deepblue.comp.hand_of", who=self._seat_name(me, me))
        phase = state.phase
        if self._hire_slot is not None and moves:
            # paying for a hire: click cash cards and tokens, then "pay" (the suggestion is preselected)
            slot = self._hire_slot
            for item in cards:
                c = item["id"]
                item["selected"] = c in self._pay_cards
                if comps.card(c).cash > 0:
                    offers[item["key"]] = ("pay_card", c)
                else:
                    refusals[item["key"]] = _why(state, Hire(me, slot, (c,), 0), lang)
            self._token_buttons(me_obs["tokens"], self._pay_tokens, "pay_token", buttons, offers)
            pay = Hire(me, slot, tuple(sorted(self._pay_cards)), self._pay_tokens)
            paid = sum(comps.card(c).cash for c in self._pay_cards) + self._pay_tokens
            buttons.append({"key": "pay", "mark": "primary", "aria": self._tr("deepblue.comp.pay", paid=paid, price=slot),
                            "label": self._tr("deepblue.comp.pay", paid=paid, price=slot)})
            why = _why(state, pay, lang)
            if why:
                refusals["pay"] = why
            else:
                offers["pay"] = pay
            buttons.append({"key": "cancel", "label": self._tr("deepblue.comp.cancel"), "aria": self._tr("deepblue.comp.cancel")})
            offers["cancel"] = ("cancel",)
            title += f" — {self._tr('deepblue.comp.pay_hint', price=slot)}"
        elif phase == "action" and moves:
            for item in cards:
                c = item["id"]
                item["selected"] = c in self._sail_cards
                if comps.card(c).propellers > 0:
                    offers[item["key"]] = ("sail_card", c)
            self._token_buttons(me_obs["tokens"], self._sail_tokens, "sail_token", buttons, offers)
            rest = Rest(me)
            label = self._tr("deepblue.comp.rest", n=len(me_obs["used"]))
            buttons.append({"key": "rest", "label": label, "aria": label})
            if rest in moves:
                offers["rest"] = rest
            else:
                refusals["rest"] = _why(state, rest, lang)
            title += f" — {self._tr('deepblue.comp.hand_hint_action')}"
        elif phase in ("dive", "check") and moves:
            for item in cards:
                c = item["id"]
                card = comps.card(c)
                move = (Protect(me, c) if phase == "check" else PlayCard(me, c))
                if move in moves:
                    offers[item["key"]] = move
                    item["mark"] = "suggested"
                elif (phase == "check" and card.protection) or (phase == "dive" and card.scores):
                    refusals[item["key"]] = _why(state, move, lang)
        if me_obs["used"]:
            title += f" · {self._tr('deepblue.comp.used', n=len(me_obs['used']))}"
        self.hand.show(cards, buttons, offers, refusals,
                       labels={"title": title, "empty": self._tr("deepblue.ui.no_cards")})

    def _token_buttons(self, have: int, chosen: int, what: str, buttons: list, offers: dict) -> None:
        """Starter bonus tokens as toggles: the i-th token is "in" when ``chosen`` >= i."""
        for i in range(1, have + 1):
            key = f"token:{i}"
            inside = chosen >= i
            label = self._tr("deepblue.comp.token", i=i)
            buttons.append({"key": key, "label": label, "aria": label, "selected": inside,
                            "gem": None})
            offers[key] = (what, i - 1 if inside else i)


def moves_of(moves: Iterable[Any], seat: int | None) -> list:
    """The moves of ``seat`` among legal moves (none for no seat)."""
    return [] if seat is None else [m for m in moves if getattr(m, "seat", None) == seat]
