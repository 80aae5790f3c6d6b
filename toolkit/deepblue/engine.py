"""The Deep Blue engine: setup, the four actions (hire, sail, rest, dive), the dive step by step, scoring
and the end after the fourth Sunken City dive.

Source: ``shared/rules/deep-blue.ja.txt``; component facts from ``shared/data/README.md``. Every decision
the sources leave open is a ruling recorded in ``rules.toml`` and ``docs/deepblue-notes.md``. Options of
:meth:`DeepBlueEngine.new_state`:

* ``players`` (2–5), ``scenario`` (a Captain's Log id, applied to Sunken City dives only),
* ``gems_return`` (default ``True``: dive gems go back into the bag; the sources are silent),
* ``leader_bonus_on_bust`` (default ``True``: the Japanese text lists only gem VP as lost on a bust),
* ``card_vp_on_bust`` (default ``True``: crew-card VP already played is kept after a bust,
  「このカードの効果は以降バーストした場合でも獲得可能です」; ``False`` reads 「ただし、潜水が無事に完了した場合となる
  のは変わりません」 as covering card VP too).

Hiring accepts any payment that reaches the price (「任意の枚数消化することで」, the excess is lost), but
:meth:`DeepBlueEngine.legal_moves` lists only the *minimal* payments (no card or token could be left out):
every larger payment spends a strict superset of one of them for the same hire, and listing all of them
would multiply the move list by up to 2^(cash cards in hand). See :meth:`DeepBlueEngine.listed`.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from itertools import combinations
from typing import Any, Mapping

from toolkit.core.chance import Chance
from toolkit.core.checks import check_bool, check_int, check_seed
from toolkit.core.engine import Engine
from toolkit.core.errors import InvalidMoveError, InvalidStateError, RuleError
from toolkit.core.explain import Event, Outcome, Violation
from toolkit.core.i18n import Term
from toolkit.deepblue.components import (MARKET_SLOTS, STARTER_TOKENS, SUNKEN_CITY_DIVES_TO_END, Components,
                                         default_components)
from toolkit.deepblue.gems import COLOURS, GEM_VP, HAZARDS, SPOT_GEM_VP, SPOT_KINDS
from toolkit.deepblue.model import (MOVE_TYPES, NO_SPOT, Anchor, Boat, Check, ChooseSpot, Decline, DeepBlueState,
                                    Diver, DiveState, DrawGem, Hire, Join, Leave, Move, MoveBoat, Player, PlayCard,
                                    Protect, Rest, SailState, SetSail, StartDive, Stop, Tile, parse_move)

REST_DRAW = 3
_CI = {c: i for i, c in enumerate(COLOURS)}


@dataclass(frozen=True)
class Named:
    """A name from the component data (not the catalogue), shown in the reader's language."""

    en: str
    ja: str

    def text(self, lang: str = "en") -> str:
        return self.ja if lang == "ja" else self.en

    def __str__(self) -> str:
        return self.en


def gem(colour: str) -> Term:
    return Term(f"deepblue.gem.{colour}")


def _add(counts: tuple[int, ...], colour: str, n: int = 1) -> tuple[int, ...]:
    i = _CI[colour]
    return counts[:i] + (counts[i] + n,) + counts[i + 1:]


def _set(seq: tuple, i: int, value: Any) -> tuple:
    return seq[:i] + (value,) + seq[i + 1:]


class DeepBlueEngine(Engine[DeepBlueState, Move]):
    name = "deepblue"
    state_type = DeepBlueState
    move_types = MOVE_TYPES

    def __init__(self, components: Components | None = None):
        if components is not None and not isinstance(components, Components):
            raise TypeError(f"components must be Components (see load_components), not {components!r:.60}")
        self.components = components or default_components()

    # =========================================================================================
    # setup
    def new_state(self, seed: int, players: int = 3, scenario: str = "troubled-waters", gems_return: bool = True,
                  leader_bonus_on_bust: bool = True, card_vp_on_bust: bool = True, **options: Any) -> DeepBlueState:
        comps = self.components
        if options:
            raise InvalidMoveError(f"unknown Deep Blue option(s): {', '.join(sorted(options))}")
        if isinstance(players, bool) or not isinstance(players, int) or not 2 <= players <= min(5, len(comps.player_colours)):
            raise InvalidMoveError(f"Deep Blue is for 2 to 5 players, not {players!r}")
        check_seed(seed, error=InvalidMoveError, type_error=InvalidMoveError)
        for name, flag in (("gems_return", gems_return), ("leader_bonus_on_bust", leader_bonus_on_bust),
                           ("card_vp_on_bust", card_vp_on_bust)):
            if not isinstance(flag, bool):
                raise InvalidMoveError(f"the option {name} must be true or false, not {flag!r}")
        try:
            comps.scenario(scenario)
        except RuleError as exc:
            raise InvalidMoveError(str(exc)) from None
        chance = Chance(seed)
        # wreck tiles: each deck shuffled onto its sites; starting tiles face up, the empty one removed
        tiles, removed = [], []
        for deck, sites, face_up in (("start", comps.board.start_sites, True),
                                     ("advanced", comps.board.advanced_sites, False)):
            chance, order = chance.shuffled([w.id for w in comps.wrecks if w.deck == deck])
            for site, wid in zip(sites, order):
                if comps.wreck(wid).empty and face_up:
                    removed.append(wid)
                else:
                    tiles.append(Tile(site, wid, face_up))
        bag = tuple(dict(comps.bag).get(c, 0) for c in COLOURS)
        supply = tuple(dict(comps.supply).get(c, 0) for c in COLOURS)
        harbour = comps.board.harbour
        plist = tuple(Player(colour, tuple(sorted(comps.starters(colour))), (), (Boat(harbour), Boat(harbour)),
                             STARTER_TOKENS[seat] if seat < len(STARTER_TOKENS) else STARTER_TOKENS[-1])
                      for seat, colour in enumerate(comps.player_colours[:players]))
        chance, deck = chance.shuffled(comps.market_deck())
        state = DeepBlueState(plist, 0, "action", tuple(tiles), (), (), deck, bag, supply, (0,) * len(COLOURS),
                              (), tuple(removed), scenario, bool(gems_return), bool(leader_bonus_on_bust), chance,
                              card_vp_on_bust=bool(card_vp_on_bust))
        state, _ = self._refill_market(state, [])
        return state

    def _refill_market(self, state: DeepBlueState, events: list[Event]) -> tuple[DeepBlueState, list[Event]]:
        """Slide the market toward $1 and reveal cards into the empty slots; gem-add icons fill the bag."""
        market, deck, bag, supply = list(state.market), list(state.deck), state.bag, state.supply
        while len(market) < MARKET_SLOTS and deck:
            cid = deck.pop(0)
            market.append(cid)
            card = self.components.card(cid)
            if card.adds_gem:
                if supply[_CI[card.adds_gem]] > 0:
                    supply = _add(supply, card.adds_gem, -1)
                    bag = _add(bag, card.adds_gem, 1)
                    events.append(Event("DEEPBLUE_GEM_ADDED", "deepblue.market.gem-add", card=cid, gem=gem(card.adds_gem)))
                else:
                    events.append(Event("DEEPBLUE_SUPPLY_EMPTY", "deepblue.market.gem-add", card=cid, gem=gem(card.adds_gem)))
        return replace(state, market=tuple(market), deck=tuple(deck), bag=bag, supply=supply), events

    # =========================================================================================
    # reading
    def current_player(self, state: DeepBlueState) -> int | None:
        if state.phase == "over":
            return None
        if state.phase == "join":
            return state.dive.to_join[0]
        if state.phase == "check":
            return state.dive.checks[0].seat
        if state.phase == "dive":
            return state.dive.leader
        return state.turn

    def outcome(self, state: DeepBlueState) -> Outcome | None:
        if state.phase != "over":
            return None
        scores = tuple(p.chest for p in state.players)
        best = max(scores)
        top = [s for s, v in enumerate(scores) if v == best]
        if len(top) > 1:
            most = max(state.players[s].crew_count() for s in top)
            tied = tuple(s for s in top if state.players[s].crew_count() == most)
        else:
            tied = tuple(top)
        if len(tied) == 1:
            return Outcome("DEEPBLUE_WINNER", "deepblue.end.tiebreak" if len(top) > 1 else "deepblue.end.sunken-city",
                           result="win", winners=tied, scores=scores, seat=tied[0], vp=best)
        return Outcome("DEEPBLUE_SHARED_WIN", "deepblue.end.tiebreak", result="draw", winners=tied, scores=scores,
                       seats=[f"{s}" for s in tied], vp=best)

    def observe(self, state: DeepBlueState, seat: int | None) -> Mapping[str, Any]:
        """What ``seat`` may see: its own hand; everybody's boats, chests, used cards and hand sizes; the
        market; the bag's counts (never its order); face-down tiles without their identity; the dive."""
        comps = self.components
        players = []
        for s, p in enumerate(state.players):
            entry = {"seat": s, "colour": p.colour, "chest": p.chest, "tokens": p.tokens, "hand_size": len(p.hand),
                     "used": list(p.used), "boats": [{"site": b.site, "spot": b.spot} for b in p.boats]}
            if s == seat:
                entry["hand"] = list(p.hand)
            players.append(entry)
        tiles = []
        for t in state.tiles:
            if t.face_up:
                w = comps.wreck(t.wreck)
                tiles.append({"site": t.site, "face_up": True, "wreck": t.wreck, "sunken_city": w.sunken_city,
                              "leader_bonus": w.leader_bonus, "spots": list(w.spots)})
            else:
                tiles.append({"site": t.site, "face_up": False})
        out: dict[str, Any] = {
            "seat": seat, "turn": state.turn, "phase": state.phase, "to_act": self.current_player(state),
            # the shared key (docs/architecture.md): this seat's own crew cards, also under players[seat]
            "hand": list(state.players[seat].hand) if seat is not None else None,
            "players": players, "tiles": tiles, "tile_gems": [list(g) for g in state.tile_gems],
            "market": list(state.market), "deck_size": len(state.deck),
            "bag": dict(zip(COLOURS, state.bag)), "supply": dict(zip(COLOURS, state.supply)),
            "sunken_cities": list(state.sunken_cities), "scenario": state.scenario,
            # the table's rule options are public: bots and the coach read them from here
            "options": {"gems_return": state.gems_return, "leader_bonus_on_bust": state.leader_bonus_on_bust,
                        "card_vp_on_bust": state.card_vp_on_bust},
        }
        if state.sail is not None:
            out["sail"] = {"propellers": state.sail.propellers, "moved": list(state.sail.moved),
                           "landing": state.sail.landing}
        if state.dive is not None:
            d = state.dive
            out["dive"] = {"site": d.site, "wreck": d.wreck, "leader": d.leader, "sunken_city": d.sunken_city,
                           "drawn": list(d.drawn), "draws": d.draws, "to_join": list(d.to_join),
                           "divers": [{"seat": v.seat, "status": v.status, "spot": v.spot, "spot_used": v.spot_used,
                                       "card_vp": v.card_vp, "treasure_vp": v.treasure_vp} for v in d.divers]}
        return out

    def parse_move(self, text: str) -> Move:
        return parse_move(text)

    # ---- who acts (bots and tables) ------------------------------------------------------------
    def actor(self, state: DeepBlueState, move: Move) -> int | None:
        """Every Deep Blue move names its seat: followers leave and score cards out of turn."""
        seat = getattr(move, "seat", None)
        return seat if isinstance(seat, int) and not isinstance(seat, bool) else None

    def optional_actors(self, state: DeepBlueState) -> tuple[int, ...]:
        """During a dive, after a draw, the divers other than the leader may leave or play scoring cards."""
        d = state.dive
        if state.phase != "dive" or d is None or d.draws == 0:
            return ()
        return tuple(v.seat for v in d.divers if v.status == "in" and v.seat != d.leader)

    def describe_move(self, move: Move, lang: str = "en", state: DeepBlueState | None = None) -> str:
        """The move as a menu entry in ``lang`` (card names from the component data)."""
        from toolkit.core.i18n import translate as t

        if state is not None and not isinstance(state, DeepBlueState):
            raise TypeError(f"state must be a DeepBlueState or None, not {state!r:.60}")

        def name(card_id: int) -> str:
            try:
                card = self.components.card(card_id)
            except KeyError:
                return f"#{card_id}"
            return f"#{card_id} {card.name.get(lang, card.name['en'])}"

        def pay(cards: tuple[int, ...], tokens: int) -> str:
            parts = [name(c) for c in cards] + [t("deepblue.move.token", lang)] * tokens
            return ", ".join(parts) if parts else "—"

        seat = move.seat
        if isinstance(move, Hire):
            card = "?"
            if state is not None and 1 <= move.slot <= len(state.market):
                card = name(state.market[move.slot - 1])
            return t("deepblue.move.hire", lang, seat=seat, slot=move.slot, card=card, pay=pay(move.cards, move.tokens))
        if isinstance(move, SetSail):
            return t("deepblue.move.sail", lang, seat=seat, pay=pay(move.cards, move.tokens))
        if isinstance(move, MoveBoat):
            return t("deepblue.move.move_boat", lang, seat=seat, boat=move.boat, site=move.site)
        if isinstance(move, ChooseSpot):
            kind = "?"
            if state is not None and state.sail is not None and state.sail.landing >= 0:
                site = state.players[seat].boats[state.sail.landing].site
                tile = state.tile_at(site)
                if tile is not None:
                    kind = t(f"deepblue.spot.{self.components.wreck(tile.wreck).spots[move.spot]}", lang)
            return t("deepblue.move.spot", lang, seat=seat, spot=move.spot, kind=kind)
        if isinstance(move, StartDive):
            site = state.players[seat].boats[move.boat].site if state is not None else "?"
            return t("deepblue.move.dive", lang, seat=seat, boat=move.boat, site=site)
        if isinstance(move, PlayCard):
            return t("deepblue.move.play", lang, seat=seat, card=name(move.card))
        if isinstance(move, Protect):
            source = t("deepblue.move.spot_source", lang) if move.card is None else name(move.card)
            return t("deepblue.move.protect", lang, seat=seat, source=source)
        simple = {Anchor: "anchor", Rest: "rest", Join: "join", Decline: "decline", DrawGem: "draw", Stop: "stop",
                  Leave: "leave"}
        return t(f"deepblue.move.{simple[type(move)]}", lang, seat=seat)

    # =========================================================================================
    # helpers about the position
    def gems_per_draw(self, state: DeepBlueState, sunken_city: bool) -> int:
        check_bool("sunken_city", sunken_city)
        return self.components.scenario(state.scenario).gems_per_draw if sunken_city else 1

    def gem_value(self, colour: str, spot: str | None) -> int:
        if not isinstance(colour, str) or colour not in GEM_VP:
            raise InvalidMoveError(f"colour must be a gem colour ({', '.join(COLOURS)}), not {colour!r:.60}")
        if spot is not None and (not isinstance(spot, str) or spot not in SPOT_KINDS):
            raise InvalidMoveError(f"spot must be None or a spot kind ({', '.join(SPOT_KINDS)}), not {spot!r:.60}")
        return SPOT_GEM_VP[colour] if spot == colour and colour in SPOT_GEM_VP else GEM_VP[colour]

    def treasure_vp(self, drawn: tuple[str, ...], spot: str | None) -> int:
        if not isinstance(drawn, (tuple, list)):
            raise TypeError(f"drawn must be a list of gem colours, not {drawn!r:.60}")
        return sum(self.gem_value(c, spot) for c in drawn)

    def spot_kind(self, state: DeepBlueState, boat: Boat) -> str | None:
        if not isinstance(boat, Boat):
            raise TypeError(f"boat must be a Boat, not {boat!r:.60}")
        tile = state.tile_at(boat.site)
        if tile is None or boat.spot == NO_SPOT:
            return None
        spots = self.components.wreck(tile.wreck).spots
        return spots[boat.spot] if 0 <= boat.spot < len(spots) else None

    def free_spots(self, state: DeepBlueState, site: int, ignore: tuple[int, int] | None = None) -> list[int]:
        check_int("site", site)
        if ignore is not None and not (isinstance(ignore, tuple) and len(ignore) == 2):
            raise TypeError(f"ignore must be None or a (seat, boat) pair, not {ignore!r:.60}")
        tile = state.tile_at(site)
        if tile is None:
            return []
        taken = {b.spot for s, p in enumerate(state.players) for i, b in enumerate(p.boats)
                 if b.site == site and b.spot != NO_SPOT and (s, i) != ignore}
        return [i for i in range(len(self.components.wreck(tile.wreck).spots)) if i not in taken]

    def protections(self, state: DeepBlueState, seat: int, colour: str) -> list[int | None]:
        """A diver's ways to pass a ``colour`` check: ``None`` (the scouting spot) and crew-card ids."""
        check_int("seat", seat, 0, len(state.players) - 1)
        if not isinstance(colour, str) or colour not in HAZARDS:
            raise InvalidMoveError(f"colour must be one of {', '.join(HAZARDS)}, not {colour!r:.60}")
        diver = state.dive.diver(seat) if state.dive is not None else None
        if diver is None:
            raise InvalidMoveError(f"seat {seat} is not diving")
        out: list[int | None] = []
        if diver.spot in (colour, "any") and not diver.spot_used:
            out.append(None)
        out += [c for c in state.players[seat].hand if self.components.card(c).protection == colour]
        return out

    def _eligible_boat(self, state: DeepBlueState, seat: int, site: int) -> int | None:
        """The boat a player would join a dive at ``site`` with: one on the tile first, else one next to it."""
        near = self.components.board.neighbours(site)
        boats = state.players[seat].boats
        for i, b in enumerate(boats):
            if b.site == site:
                return i
        for i, b in enumerate(boats):
            if b.site in near:
                return i
        return None

    # =========================================================================================
    # legality
    def legal_moves(self, state: DeepBlueState) -> list[Move]:
        seat = self.current_player(state)
        if seat is None:
            return []
        moves: list[Move] = []
        if state.phase == "action":
            moves += self._hire_moves(state, seat)
            moves += self._sail_moves(state, seat)
            moves.append(Rest(seat))
            moves += [StartDive(seat, i) for i, b in enumerate(state.players[seat].boats)
                      if (t := state.tile_at(b.site)) is not None and t.face_up]
        elif state.phase == "sail":
            sail = state.sail
            if sail.landing >= 0:
                moves += [ChooseSpot(seat, i) for i in self.free_spots(state, state.players[seat].boats[sail.landing].site)]
            else:
                for i, b in enumerate(state.players[seat].boats):
                    if i in sail.moved:
                        continue
                    for site, dist in sorted(self.components.board.distances(b.site).items()):
                        if 0 < dist <= sail.propellers:
                            moves.append(MoveBoat(seat, i, site))
                moves.append(Anchor(seat))
        elif state.phase == "join":
            moves += [Join(seat), Decline(seat)]
        elif state.phase == "check":
            colour = state.dive.checks[0].colour
            moves += [Protect(seat, c) for c in self.protections(state, seat, colour)]
        elif state.phase == "dive":
            d = state.dive
            if sum(state.bag) > 0:
                moves.append(DrawGem(d.leader))
            moves.append(Stop(d.leader))
            if d.draws > 0:
                for v in d.divers:
                    if v.status != "in":
                        continue
                    moves += [PlayCard(v.seat, c) for c in state.players[v.seat].hand
                              if self._card_playable(state, c)]
                    if v.seat != d.leader:
                        moves.append(Leave(v.seat))
        return moves

    def _hire_moves(self, state: DeepBlueState, seat: int) -> list[Move]:
        player = state.players[seat]
        cash_cards = [c for c in player.hand if self.components.card(c).cash > 0]
        out = []
        for slot in range(1, len(state.market) + 1):
            for n in range(len(cash_cards) + 1):
                for cards in combinations(cash_cards, n):
                    for tokens in range(player.tokens + 1):
                        if (self._payment_ok(cards, tokens, slot) is None
                                and self._payment_minimal(cards, tokens, slot)):
                            out.append(Hire(seat, slot, cards, tokens))
        return out

    def _payment_ok(self, cards: tuple[int, ...], tokens: int, price: int) -> str | None:
        """``None`` if the payment covers ``price`` (any excess is lost), else ``"short"``."""
        total = sum(self.components.card(c).cash for c in cards) + tokens
        return "short" if total < price else None

    def _payment_minimal(self, cards: tuple[int, ...], tokens: int, price: int) -> bool:
        """Whether every part of a covering payment is needed: leaving out its cheapest part falls short."""
        values = [self.components.card(c).cash for c in cards] + [1] * tokens
        return not values or sum(values) - min(values) < price

    def listed(self, state: DeepBlueState, move: Move) -> bool:
        """Whether a legal ``move`` is one :meth:`legal_moves` lists: all are, except hires that overpay
        with a part left over (legal, 「金額が超過した場合は…消滅します」, but a superset of a listed payment).

        The engine's invariant for Deep Blue: ``why_illegal(s, m) is None`` ⇔ ``m in legal_moves(s)`` or
        (``m`` is an overpaying :class:`Hire` and ``why_illegal`` accepts it).
        """
        if isinstance(move, Hire):
            return self._payment_minimal(move.cards, move.tokens, move.slot)
        return True

    def _sail_moves(self, state: DeepBlueState, seat: int) -> list[Move]:
        player = state.players[seat]
        prop_cards = [c for c in player.hand if self.components.card(c).propellers > 0]
        out = []
        for n in range(len(prop_cards) + 1):
            for cards in combinations(prop_cards, n):
                for tokens in range(player.tokens + 1):
                    if cards or tokens:
                        out.append(SetSail(seat, cards, tokens))
        return out

    def _card_playable(self, state: DeepBlueState, card_id: int) -> bool:
        card = self.components.card(card_id)
        if not card.scores:
            return False
        drawn = state.dive.drawn
        return all(drawn.count(c) >= n for c, n in card.score_requires)

    def why_illegal(self, state: DeepBlueState, move: Move) -> Violation | None:
        self.check_move_type(move)
        if state.phase == "over":
            return Violation("GAME_OVER", "core.over")
        if isinstance(move.seat, bool) or not isinstance(move.seat, int) or not 0 <= move.seat < state.seats:
            return Violation("DEEPBLUE_NO_SUCH_SEAT", "core.turn", seat=move.seat, seats=state.seats)
        actor = self.current_player(state)
        # followers act in the dive out of turn: leave and score cards are theirs to choose
        out_of_turn_ok = state.phase == "dive" and isinstance(move, (Leave, PlayCard))
        if move.seat != actor and not out_of_turn_ok:
            return Violation("NOT_YOUR_TURN", "core.turn", seat=move.seat, current=actor)
        phase_of = {Hire: "action", SetSail: "action", Rest: "action", StartDive: "action",
                    MoveBoat: "sail", ChooseSpot: "sail", Anchor: "sail", Join: "join", Decline: "join",
                    Protect: "check", DrawGem: "dive", Stop: "dive", Leave: "dive", PlayCard: "dive"}
        if phase_of[type(move)] != state.phase:
            return Violation("DEEPBLUE_WRONG_PHASE", "deepblue.turn.action", move=str(move),
                             phase=Term(f"deepblue.phase.{state.phase}"))
        check = getattr(self, f"_why_{type(move).__name__.lower()}")
        return check(state, move)

    # ---- per-move checks -------------------------------------------------------------------
    def _why_hire(self, state, m: Hire):
        player = state.players[m.seat]
        if isinstance(m.slot, bool) or not isinstance(m.slot, int) or not 1 <= m.slot <= len(state.market):
            return Violation("DEEPBLUE_NO_MARKET_CARD", "deepblue.hire.market", slot=m.slot)
        bad = self._why_payment_cards(player, m.cards, m.tokens, "cash", "deepblue.hire.pay")
        if bad:
            return bad
        why = self._payment_ok(m.cards, m.tokens, m.slot)
        if why == "short":
            paid = sum(self.components.card(c).cash for c in m.cards) + m.tokens
            return Violation("DEEPBLUE_NOT_ENOUGH_CASH", "deepblue.hire.pay", paid=paid, price=m.slot)
        return None

    def _why_payment_cards(self, player: Player, cards, tokens, icon: str, rule: str):
        if not isinstance(cards, tuple) or any(isinstance(c, bool) or not isinstance(c, int) for c in cards):
            return Violation("DEEPBLUE_NOT_IN_HAND", rule, card=repr(cards))
        if len(set(cards)) != len(cards):
            return Violation("DEEPBLUE_CARD_TWICE", rule)
        if isinstance(tokens, bool) or not isinstance(tokens, int) or tokens < 0:
            return Violation("DEEPBLUE_NOT_ENOUGH_TOKENS", "deepblue.setup.tokens", tokens=tokens, have=player.tokens)
        if tokens > player.tokens:
            return Violation("DEEPBLUE_NOT_ENOUGH_TOKENS", "deepblue.setup.tokens", tokens=tokens, have=player.tokens)
        for c in cards:
            if c not in player.hand:
                return Violation("DEEPBLUE_NOT_IN_HAND", rule, card=c)
            if getattr(self.components.card(c), icon) <= 0:
                return Violation("DEEPBLUE_NO_ICON", rule, card=c, icon=Term(f"deepblue.icon.{icon}"))
        return None

    def _why_setsail(self, state, m: SetSail):
        bad = self._why_payment_cards(state.players[m.seat], m.cards, m.tokens, "propellers", "deepblue.sail.propellers")
        if bad:
            return bad
        if not m.cards and not m.tokens:
            return Violation("DEEPBLUE_NO_PROPELLERS", "deepblue.sail.propellers")
        return None

    def _why_moveboat(self, state, m: MoveBoat):
        sail = state.sail
        if sail.landing >= 0:
            return Violation("DEEPBLUE_CHOOSE_SPOT_FIRST", "deepblue.spot.choose")
        if m.boat not in (0, 1):
            return Violation("DEEPBLUE_NO_SUCH_BOAT", "deepblue.sail.move", boat=m.boat)
        if m.boat in sail.moved:
            return Violation("DEEPBLUE_BOAT_ALREADY_MOVED", "deepblue.sail.move", boat=m.boat)
        here = state.players[m.seat].boats[m.boat].site
        dist = self.components.board.distances(here).get(m.site)
        if dist is None:
            return Violation("DEEPBLUE_NO_SUCH_SITE", "deepblue.sail.move", site=m.site)
        if dist == 0:
            return Violation("DEEPBLUE_ALREADY_THERE", "deepblue.sail.move", boat=m.boat, site=m.site)
        if dist > sail.propellers:
            return Violation("DEEPBLUE_TOO_FAR", "deepblue.sail.move", site=m.site, steps=dist, propellers=sail.propellers)
        return None

    def _why_choosespot(self, state, m: ChooseSpot):
        sail = state.sail
        if sail.landing < 0:
            return Violation("DEEPBLUE_NO_LANDING", "deepblue.spot.choose")
        site = state.players[m.seat].boats[sail.landing].site
        if m.spot not in self.free_spots(state, site):
            return Violation("DEEPBLUE_SPOT_TAKEN", "deepblue.spot.choose", spot=m.spot, free=self.free_spots(state, site))
        return None

    def _why_anchor(self, state, m: Anchor):
        if state.sail.landing >= 0:
            return Violation("DEEPBLUE_CHOOSE_SPOT_FIRST", "deepblue.spot.choose")
        return None

    def _why_rest(self, state, m: Rest):
        return None

    def _why_startdive(self, state, m: StartDive):
        if m.boat not in (0, 1):
            return Violation("DEEPBLUE_NO_SUCH_BOAT", "deepblue.dive.start", boat=m.boat)
        site = state.players[m.seat].boats[m.boat].site
        tile = state.tile_at(site)
        if tile is None or not tile.face_up:
            return Violation("DEEPBLUE_NO_WRECK_HERE", "deepblue.dive.start", boat=m.boat, site=site)
        return None

    def _why_join(self, state, m: Join):
        return None

    def _why_decline(self, state, m: Decline):
        return None

    def _why_protect(self, state, m: Protect):
        colour = state.dive.checks[0].colour
        options = self.protections(state, m.seat, colour)
        if m.card not in options:
            return Violation("DEEPBLUE_NOT_A_PROTECTION", "deepblue.dive.protection",
                             source=("spot" if m.card is None else m.card), gem=gem(colour))
        return None

    def _why_drawgem(self, state, m: DrawGem):
        if sum(state.bag) == 0:
            return Violation("DEEPBLUE_BAG_EMPTY", "deepblue.dive.draw")
        return None

    def _why_stop(self, state, m: Stop):
        return None

    def _in_dive(self, state, seat: int) -> Violation | None:
        diver = state.dive.diver(seat)
        if diver is None or diver.status != "in":
            return Violation("DEEPBLUE_NOT_DIVING", "deepblue.dive.leave", seat=seat)
        if state.dive.draws == 0:
            return Violation("DEEPBLUE_NOTHING_DRAWN", "deepblue.dive.leave")
        return None

    def _why_leave(self, state, m: Leave):
        bad = self._in_dive(state, m.seat)
        if bad:
            return bad
        if m.seat == state.dive.leader:
            return Violation("DEEPBLUE_LEADER_STOPS", "deepblue.dive.stop")
        return None

    def _why_playcard(self, state, m: PlayCard):
        bad = self._in_dive(state, m.seat)
        if bad:
            return Violation(bad.code, "deepblue.dive.card-vp", **dict(bad.params))
        if m.card not in state.players[m.seat].hand:
            return Violation("DEEPBLUE_NOT_IN_HAND", "deepblue.dive.card-vp", card=m.card)
        card = self.components.card(m.card)
        if not card.scores:
            return Violation("DEEPBLUE_CARD_DOES_NOT_SCORE", "deepblue.dive.card-vp", card=m.card)
        if not self._card_playable(state, m.card):
            need = [f"{n} {c}" for c, n in card.score_requires]
            return Violation("DEEPBLUE_CARD_NEEDS_GEMS", "deepblue.dive.card-vp", card=m.card, need=need)
        return None

    # =========================================================================================
    # transitions
    def _transition(self, state: DeepBlueState, move: Move) -> tuple[DeepBlueState, tuple[Event, ...]]:
        events: list[Event] = []
        handler = getattr(self, f"_do_{type(move).__name__.lower()}")
        state = handler(state, move, events)
        return state, tuple(events)

    def _next_turn(self, state: DeepBlueState, after: int, events: list[Event]) -> DeepBlueState:
        nxt = (after + 1) % state.seats
        events.append(Event("DEEPBLUE_NEXT_TURN", "core.turn", seat=nxt))
        return replace(state, turn=nxt, phase="action", sail=None, dive=None)

    def _spend(self, player: Player, cards: tuple[int, ...], tokens: int = 0) -> Player:
        hand = tuple(c for c in player.hand if c not in cards)
        return replace(player, hand=hand, used=tuple(sorted(player.used + tuple(cards))), tokens=player.tokens - tokens)

    def _do_hire(self, state, m: Hire, events):
        player = self._spend(state.players[m.seat], m.cards, m.tokens)
        cid = state.market[m.slot - 1]
        player = replace(player, hand=tuple(sorted(player.hand + (cid,))))
        paid = sum(self.components.card(c).cash for c in m.cards) + m.tokens
        events.append(Event("DEEPBLUE_HIRED", "deepblue.hire.pay", seat=m.seat, card=cid, price=m.slot, paid=paid))
        market = state.market[:m.slot - 1] + state.market[m.slot:]
        state = replace(state, players=_set(state.players, m.seat, player), market=market)
        events.append(Event("DEEPBLUE_MARKET_SLID", "deepblue.market.slide"))
        state, _ = self._refill_market(state, events)
        return self._next_turn(state, m.seat, events)

    def _do_setsail(self, state, m: SetSail, events):
        props = sum(self.components.card(c).propellers for c in m.cards) + m.tokens
        player = self._spend(state.players[m.seat], m.cards, m.tokens)
        events.append(Event("DEEPBLUE_SAIL", "deepblue.sail.propellers", seat=m.seat, propellers=props))
        return replace(state, players=_set(state.players, m.seat, player), phase="sail", sail=SailState(props))

    def _do_moveboat(self, state, m: MoveBoat, events):
        player = state.players[m.seat]
        dist = self.components.board.distances(player.boats[m.boat].site)[m.site]
        boats = _set(player.boats, m.boat, Boat(m.site))
        state = replace(state, players=_set(state.players, m.seat, replace(player, boats=boats)))
        sail = SailState(state.sail.propellers - dist, state.sail.moved + (m.boat,))
        events.append(Event("DEEPBLUE_BOAT_MOVED", "deepblue.sail.move", seat=m.seat, boat=m.boat, site=m.site, steps=dist))
        tile = state.tile_at(m.site)
        if tile is not None:
            if not tile.face_up:
                state = self._reveal(state, tile, events)
            free = self.free_spots(state, m.site)
            if free:
                return replace(state, sail=replace(sail, landing=m.boat))
            events.append(Event("DEEPBLUE_NO_FREE_SPOT", "deepblue.spot.choose", seat=m.seat, site=m.site))
        return self._after_sail_step(replace(state, sail=sail), m.seat, events)

    def _reveal(self, state, tile: Tile, events) -> DeepBlueState:
        wreck = self.components.wreck(tile.wreck)
        tiles = tuple(replace(t, face_up=True) if t.site == tile.site else t for t in state.tiles)
        events.append(Event("DEEPBLUE_REVEALED", "deepblue.sail.reveal", site=tile.site,
                            wreck=Term("deepblue.ui.sunken_city") if wreck.sunken_city else tile.wreck))
        state = replace(state, tiles=tiles)
        if wreck.sunken_city and self.components.scenario(state.scenario).scattered_wealth:
            targets = [tile.site] + [n for n in self.components.board.neighbours(tile.site) if state.tile_at(n)]
            for site in targets:
                if sum(state.bag) == 0:
                    break
                chance, colour = self._draw_colour(state)
                state = replace(state, chance=chance, bag=_add(state.bag, colour, -1),
                                tile_gems=state.tile_gems + ((site, colour),))
                events.append(Event("DEEPBLUE_SCATTERED_GEM", "deepblue.scenario.scattered-wealth", site=site, gem=gem(colour)))
        return state

    def _do_choosespot(self, state, m: ChooseSpot, events):
        player = state.players[m.seat]
        b = state.sail.landing
        boats = _set(player.boats, b, Boat(player.boats[b].site, m.spot))
        state = replace(state, players=_set(state.players, m.seat, replace(player, boats=boats)),
                        sail=replace(state.sail, landing=-1))
        kind = self.spot_kind(state, boats[b])
        events.append(Event("DEEPBLUE_SPOT_CHOSEN", "deepblue.spot.choose", seat=m.seat, boat=b, spot=m.spot,
                            kind=Term(f"deepblue.spot.{kind}")))
        return self._after_sail_step(state, m.seat, events)

    def _after_sail_step(self, state, seat, events):
        sail = state.sail
        if sail.landing < 0 and (sail.propellers == 0 or len(sail.moved) == 2):
            events.append(Event("DEEPBLUE_SAIL_DONE", "deepblue.sail.move", seat=seat))
            return self._next_turn(state, seat, events)
        return state

    def _do_anchor(self, state, m: Anchor, events):
        events.append(Event("DEEPBLUE_SAIL_DONE", "deepblue.sail.move", seat=m.seat))
        return self._next_turn(state, m.seat, events)

    def _do_rest(self, state, m: Rest, events):
        player = state.players[m.seat]
        chance, order = state.chance.shuffled(player.used)
        back = tuple(order[:REST_DRAW])
        player = replace(player, hand=tuple(sorted(player.hand + back)), used=tuple(sorted(order[REST_DRAW:])))
        events.append(Event("DEEPBLUE_RESTED", "deepblue.rest", seat=m.seat, count=len(back)))
        state = replace(state, chance=chance, players=_set(state.players, m.seat, player))
        return self._next_turn(state, m.seat, events)

    def _do_startdive(self, state, m: StartDive, events):
        boat = state.players[m.seat].boats[m.boat]
        tile = state.tile_at(boat.site)
        wreck = self.components.wreck(tile.wreck)
        leader = Diver(m.seat, m.boat, self.spot_kind(state, boat))
        seeds = tuple(c for s, c in state.tile_gems if s == boat.site)
        to_join = tuple(s for k in range(1, state.seats) if self._eligible_boat(state, s := (m.seat + k) % state.seats,
                                                                                  boat.site) is not None)
        dive = DiveState(boat.site, tile.wreck, m.seat, wreck.sunken_city, (leader,), to_join, seeds)
        events.append(Event("DEEPBLUE_DIVE_START", "deepblue.dive.start", seat=m.seat, site=boat.site,
                            bonus=wreck.leader_bonus))
        if wreck.sunken_city:
            sc = self.components.scenario(state.scenario)
            events.append(Event("DEEPBLUE_SCENARIO_APPLIES", "deepblue.scenario.sunken-city-only",
                                scenario=Named(sc.name["en"], sc.name["ja"])))
        for c in seeds:
            events.append(Event("DEEPBLUE_SEED_GEM", "deepblue.scenario.scattered-wealth", gem=gem(c)))
        state = replace(state, tile_gems=tuple(g for g in state.tile_gems if g[0] != boat.site), dive=dive,
                        phase="join" if to_join else "dive")
        return state

    def _do_join(self, state, m: Join, events):
        d = state.dive
        b = self._eligible_boat(state, m.seat, d.site)
        player = state.players[m.seat]
        boat = player.boats[b]  # noqa: F841 - an out-of-range boat fails here, before anything changes
        # 「潜水するプレーヤーは船コマを沈没船タイルに移動します。（偵察ポットボーナスは使用することができません。）」:
        # a joining boat goes to the wreck's centre and its player dives without a scouting spot, even if the
        # boat already stood on one of this tile's spots. Only the leader dives from a spot.
        player = replace(player, boats=_set(player.boats, b, Boat(d.site)))
        divers = d.divers + (Diver(m.seat, b, None),)
        events.append(Event("DEEPBLUE_JOINED", "deepblue.dive.join", seat=m.seat, boat=b, site=d.site))
        dive = replace(d, divers=divers, to_join=d.to_join[1:])
        return replace(state, players=_set(state.players, m.seat, player), dive=dive,
                       phase="join" if dive.to_join else "dive")

    def _do_decline(self, state, m: Decline, events):
        d = state.dive
        events.append(Event("DEEPBLUE_DECLINED", "deepblue.dive.join", seat=m.seat))
        dive = replace(d, to_join=d.to_join[1:])
        return replace(state, dive=dive, phase="join" if dive.to_join else "dive")

    # ---- the dive ---------------------------------------------------------------------------
    def _draw_colour(self, state) -> tuple[Chance, str]:
        chance, rng = state.chance.rng()
        k = int(rng.integers(0, sum(state.bag)))
        for colour, n in zip(COLOURS, state.bag):
            if k < n:
                return chance, colour
            k -= n
        raise InvalidStateError("the bag is empty")  # pragma: no cover - callers check

    def _do_drawgem(self, state, m: DrawGem, events):
        pull = self.gems_per_draw(state, state.dive.sunken_city)
        if pull > 1:
            events.append(Event("DEEPBLUE_PULL", "deepblue.scenario.troubled-waters", seat=m.seat, count=pull))
        state = replace(state, dive=replace(state.dive, pull_left=pull))
        return self._continue_pull(state, events)

    def _continue_pull(self, state, events):
        """Draw the remaining gems of the current pull, stopping for a check that needs a choice."""
        while True:
            d = state.dive
            if d.checks:
                state = self._resolve_checks(state, events)
                if state.phase != "dive" or state.dive is None:
                    return state
                d = state.dive
            if d.pull_left == 0 or sum(state.bag) == 0:
                return replace(state, dive=replace(d, pull_left=0))
            chance, colour = self._draw_colour(state)
            drawn = d.drawn + (colour,)
            state = replace(state, chance=chance, bag=_add(state.bag, colour, -1),
                            dive=replace(d, drawn=drawn, draws=d.draws + 1, pull_left=d.pull_left - 1))
            events.append(Event("DEEPBLUE_DREW", "deepblue.dive.draw", seat=d.leader, gem=gem(colour),
                                number=d.draws + 1))
            if colour in HAZARDS:
                if drawn.count(colour) == 1:
                    events.append(Event("DEEPBLUE_WARNING", "deepblue.dive.warning", gem=gem(colour)))
                else:
                    checks = tuple(Check(v.seat, colour) for v in d.divers if v.status == "in")
                    state = replace(state, dive=replace(state.dive, checks=checks))

    def _resolve_checks(self, state, events):
        """Resolve pending checks in order; pause (phase "check") when a diver has a real choice."""
        while state.dive.checks:
            chk = state.dive.checks[0]
            options = self.protections(state, chk.seat, chk.colour)
            if len(options) >= 2:
                return replace(state, phase="check")
            if options:
                state = self._protect(state, chk.seat, options[0], chk.colour, events, auto=True)
            else:
                state = self._bust(state, chk.seat, chk.colour, events)
            state = replace(state, dive=replace(state.dive, checks=state.dive.checks[1:]))
        state = replace(state, phase="dive")
        leader = state.dive.diver(state.dive.leader)
        if leader.status == "bust":
            return self._end_dive(state, events, "bust")
        return state

    def _protect(self, state, seat, source, colour, events, auto=False):
        d = state.dive
        diver = d.diver(seat)
        players = state.players
        if source is None:
            diver = replace(diver, spot_used=True)
            if diver.spot == "any":
                # the "any" spot sends the boat to the tile's centre
                p = players[seat]
                players = _set(players, seat, replace(p, boats=_set(p.boats, diver.boat, Boat(p.boats[diver.boat].site))))
            events.append(Event("DEEPBLUE_PROTECTED_SPOT", "deepblue.dive.protection", seat=seat, gem=gem(colour),
                                kind=Term(f"deepblue.spot.{diver.spot}")))
        else:
            players = _set(players, seat, self._spend(players[seat], (source,)))
            events.append(Event("DEEPBLUE_PROTECTED_CARD", "deepblue.dive.protection", seat=seat, gem=gem(colour),
                                card=source))
        divers = tuple(diver if v.seat == seat else v for v in d.divers)
        return replace(state, players=players, dive=replace(d, divers=divers))

    def _bust(self, state, seat, colour, events):
        d = state.dive
        divers = tuple(replace(v, status="bust") if v.seat == seat else v for v in d.divers)
        events.append(Event("DEEPBLUE_BUST", "deepblue.dive.bust", seat=seat, gem=gem(colour)))
        return replace(state, dive=replace(d, divers=divers))

    def _do_protect(self, state, m: Protect, events):
        chk = state.dive.checks[0]
        state = self._protect(state, m.seat, m.card, chk.colour, events)
        state = replace(state, dive=replace(state.dive, checks=state.dive.checks[1:]))
        state = self._resolve_checks(state, events)      # the remaining checks, then a leader's bust ends it
        if state.phase != "dive" or state.dive is None:
            return state
        return self._continue_pull(state, events)

    def _do_leave(self, state, m: Leave, events):
        d = state.dive
        diver = d.diver(m.seat)
        vp = self.treasure_vp(d.drawn, diver.spot)
        divers = tuple(replace(v, status="left", treasure_vp=vp) if v.seat == m.seat else v for v in d.divers)
        events.append(Event("DEEPBLUE_LEFT", "deepblue.dive.leave", seat=m.seat, vp=vp))
        return replace(state, dive=replace(d, divers=divers))

    def _do_playcard(self, state, m: PlayCard, events):
        d = state.dive
        card = self.components.card(m.card)
        bonus = self.components.scenario(state.scenario).card_vp_bonus if d.sunken_city else 0
        vp = card.score_vp + bonus
        divers = tuple(replace(v, card_vp=v.card_vp + vp) if v.seat == m.seat else v for v in d.divers)
        players = _set(state.players, m.seat, self._spend(state.players[m.seat], (m.card,)))
        events.append(Event("DEEPBLUE_CARD_SCORED", "deepblue.dive.card-vp", seat=m.seat, card=m.card, vp=vp))
        if bonus:
            events.append(Event("DEEPBLUE_BEST_OF_THE_BEST", "deepblue.scenario.best-of-the-best", seat=m.seat, vp=bonus))
        return replace(state, players=players, dive=replace(d, divers=divers))

    def _do_stop(self, state, m: Stop, events):
        events.append(Event("DEEPBLUE_LEADER_STOPPED", "deepblue.dive.stop", seat=m.seat))
        return self._end_dive(state, events, "stop")

    def _end_dive(self, state, events, how: str) -> DeepBlueState:
        d = state.dive
        comps = self.components
        wreck = comps.wreck(d.wreck)
        players = list(state.players)
        for v in d.divers:
            treasure = {"in": self.treasure_vp(d.drawn, v.spot), "left": v.treasure_vp, "bust": 0}[v.status]
            bonus = 0
            if v.seat == d.leader and (v.status != "bust" or state.leader_bonus_on_bust):
                bonus = wreck.leader_bonus
            # 「このカードの効果は以降バーストした場合でも獲得可能です」 (kept, the default) against
            # 「ただし、潜水が無事に完了した場合となるのは変わりません」 (option card_vp_on_bust=False)
            cards = v.card_vp if v.status != "bust" or state.card_vp_on_bust else 0
            total = treasure + cards + bonus
            players[v.seat] = replace(players[v.seat], chest=players[v.seat].chest + total)
            events.append(Event("DEEPBLUE_SCORED", "deepblue.dive.score", seat=v.seat, gems=treasure, cards=cards,
                                bonus=bonus, total=total))
            if v.status == "bust" and v.card_vp and not state.card_vp_on_bust:
                events.append(Event("DEEPBLUE_CARD_VP_LOST", "deepblue.dive.card-vp-on-bust", seat=v.seat,
                                    vp=v.card_vp))
            if bonus:
                events.append(Event("DEEPBLUE_LEADER_BONUS", "deepblue.dive.leader-bonus", seat=v.seat, vp=bonus))
        # the dive's gems go back to the bag (ruling: the sources are silent), or aside
        bag, aside = state.bag, state.set_aside
        for c in d.drawn:
            if state.gems_return:
                bag = _add(bag, c)
            else:
                aside = _add(aside, c)
        events.append(Event("DEEPBLUE_GEMS_RETURNED" if state.gems_return else "DEEPBLUE_GEMS_SET_ASIDE",
                            "deepblue.dive.gems-return", count=len(d.drawn)))
        # the wreck tile is removed whatever happened; boats on it go to the (now empty) site's centre
        players = [replace(p, boats=tuple(Boat(b.site) if b.site == d.site else b for b in p.boats)) for p in players]
        tiles = tuple(t for t in state.tiles if t.site != d.site)
        sunken = state.sunken_cities + ((d.wreck,) if wreck.sunken_city else ())
        events.append(Event("DEEPBLUE_TILE_REMOVED", "deepblue.dive.discard", site=d.site,
                            sunken_city=wreck.sunken_city, count=len(sunken)))
        state = replace(state, players=tuple(players), bag=bag, set_aside=aside, tiles=tiles, sunken_cities=sunken,
                        removed=state.removed + (d.wreck,), dive=None, phase="dive")
        if len(sunken) >= SUNKEN_CITY_DIVES_TO_END:
            state = replace(state, phase="over", sail=None)
            events.append(Event("DEEPBLUE_GAME_END", "deepblue.end.sunken-city", count=len(sunken)))
            return state
        return self._next_turn(state, d.leader, events)

    # =========================================================================================
    # checking loaded states
    def validate_state(self, state: DeepBlueState) -> None:
        comps = self.components
        if not 2 <= state.seats <= 5:
            raise InvalidStateError(f"state.players: Deep Blue is for 2 to 5 players, got {state.seats}")
        if state.phase not in ("action", "sail", "join", "dive", "check", "over"):
            raise InvalidStateError(f"state.phase: unknown phase {state.phase!r}")
        if not 0 <= state.turn < state.seats:
            raise InvalidStateError(f"state.turn: no seat {state.turn}")
        for name in ("bag", "supply", "set_aside"):
            counts = getattr(state, name)
            if len(counts) != len(COLOURS) or any(n < 0 for n in counts):
                raise InvalidStateError(f"state.{name}: need {len(COLOURS)} non-negative gem counts")
        try:
            comps.scenario(state.scenario)
        except RuleError as exc:
            raise InvalidStateError(f"state.scenario: {exc}") from None
        seen: list[int] = list(state.market) + list(state.deck)
        sites = {s.id for s in comps.board.sites}
        for i, p in enumerate(state.players):
            seen += list(p.hand) + list(p.used)
            if p.tokens < 0 or p.chest < 0:
                raise InvalidStateError(f"state.players[{i}]: tokens and chest cannot be negative")
            for j, b in enumerate(p.boats):
                if b.site not in sites:
                    raise InvalidStateError(f"state.players[{i}].boats[{j}].site: no site {b.site}")
        colours = [p.colour for p in state.players]
        if len(set(colours)) != len(colours) or any(c not in comps.player_colours for c in colours):
            raise InvalidStateError(f"state.players: player colours must be distinct colours of the box, got {colours}")
        # starting cards of colours nobody plays stay in the box
        known = {c.id for c in comps.cards if c.starter is None or c.starter in colours}
        if sorted(seen) != sorted(known) or len(seen) != len(set(seen)):
            raise InvalidStateError("state: every crew card must be in exactly one place (hand, used, market or deck)")
        wrecks = [t.wreck for t in state.tiles] + list(state.removed)
        if sorted(wrecks) != sorted(w.id for w in comps.wrecks):
            raise InvalidStateError("state.tiles: every wreck tile must be on the board or removed, once")
        if len({t.site for t in state.tiles}) != len(state.tiles) or any(t.site not in sites for t in state.tiles):
            raise InvalidStateError("state.tiles: one tile per known site")
        for k, c in state.tile_gems:
            if c not in COLOURS:
                raise InvalidStateError(f"state.tile_gems: unknown gem {c!r}")
        if state.phase in ("join", "dive", "check") and state.dive is None:
            raise InvalidStateError(f"state.dive: phase {state.phase!r} needs a dive")
        if state.phase == "sail" and state.sail is None:
            raise InvalidStateError("state.sail: phase 'sail' needs the sail in progress")
        if state.dive is not None and any(c not in COLOURS for c in state.dive.drawn):
            raise InvalidStateError("state.dive.drawn: unknown gem colour")
        total = [a + b + c for a, b, c in zip(state.bag, state.supply, state.set_aside)]
        for c in (state.dive.drawn if state.dive else ()):
            total[_CI[c]] += 1
        for _, c in state.tile_gems:
            total[_CI[c]] += 1
        expected = [dict(comps.bag).get(c, 0) + dict(comps.supply).get(c, 0) for c in COLOURS]
        if total != expected:
            raise InvalidStateError(f"state.bag: gems are not conserved (bag+supply+dive+tiles+aside = {total}, "
                                    f"components have {expected})")


ENGINE = DeepBlueEngine()


def gem_total(state: DeepBlueState) -> tuple[int, ...]:
    """Gems by colour across bag, supply, the dive board, tiles and the set-aside pile (conserved)."""
    if not isinstance(state, DeepBlueState):
        raise TypeError(f"state must be a DeepBlueState, not {state!r:.60}")
    total = [a + b + c for a, b, c in zip(state.bag, state.supply, state.set_aside)]
    for c in (state.dive.drawn if state.dive else ()):
        total[_CI[c]] += 1
    for _, c in state.tile_gems:
        total[_CI[c]] += 1
    return tuple(total)
