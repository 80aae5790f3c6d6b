"""The Sewer Pirats rules engine: setup (standard, landlubber, crew auction), the four actions, sailing,
species powers, the end and scoring.

Turn structure as a small state machine (``state.phase``):

``action``   the seat to move picks one action: ``draw`` (A), ``move`` (B), ``captain`` (C), ``sail`` (D)
``draw``     the second card of action A
``discard``  down to 6 cards after drawing with 7 or more
``sail``     a sailing is paid out; the pirat whose pick it is chooses loot (``take``), a toad may ``stay``,
             a rat may ``pass`` on its second loot
``extra``    a weasel may take a second move/captain/sail action with the same figure (or ``pass``)
``snail``    a snail turned up a matching card: its owner takes the extra space (``step``) or not (``pass``)
``auction`` / ``bid`` / ``pay``   the crew auction variant
``over``     scored

Every refusal is a :class:`Violation` with a ``pirats.*`` rule id; every change an :class:`Event`.
"""

from __future__ import annotations

from typing import Any, Callable, Mapping

from toolkit.core.chance import Chance
from toolkit.core.checks import check_int, check_seed, one_of
from toolkit.core.engine import Engine
from toolkit.core.errors import IllegalMoveError, InvalidOptionError, InvalidStateError
from toolkit.core.explain import Event, Outcome, Violation
from toolkit.core.i18n import Term, translate
from toolkit.pirats.boarding import crew_path
from toolkit.pirats.model import (AUCTION_MONEY, CAPTAIN, CAPTAIN_NUMBER, CARDS_PER_SYMBOL, COLOURS, CREW_SIZE,
                                  HAND_LIMIT, MAX_PLAYERS, MIN_PLAYERS, MOVE_TYPES,
                                  ROW_SIZE, SHIPS, SPECIES, VARIANTS, Auction, BecomeCaptain, Bid, Discard,
                                  Draw, Flotsam, MovePirat, OpenAuction, Pass, Pay, Pirat, PiratsState,
                                  Sailing, SetSail, Ship, SnailStep, Stay, TakeLoot, figure_label, parse_move,
                                  resolve_figure)
from toolkit.pirats.tokens import DEFAULT_BOX, Box, Token, load_box, score, score_sheet

TOTAL_CARDS = CARDS_PER_SYMBOL * len(SHIPS)
PHASES = ("action", "draw", "discard", "sail", "extra", "snail", "auction", "bid", "pay", "over")
_SHIP_INDEX = {s: i for i, s in enumerate(SHIPS)}


class SetupError(InvalidOptionError, InvalidStateError):
    """Options for a new game that do not describe a Sewer Pirats start (player count, variant, species).
    An :class:`~toolkit.core.InvalidOptionError` like every game's; still an ``InvalidStateError`` for
    callers written before the shared class."""


def _ship_term(i: int) -> Term:
    return Term(f"pirats.ship.{SHIPS[i]}")


def _card_term(symbol: str) -> Term:
    return Term(f"pirats.card.{symbol}")


def _species_term(species: str) -> Term:
    return Term(f"pirats.species.{species}")


def _space_name(index: int) -> Term:
    """A space by its index in ``Ship.spaces`` (-1 = the player's area)."""
    if index == CAPTAIN:
        return Term("pirats.space.captain")
    return Term("pirats.space.area") if index < 0 else Term(f"pirats.space.{index + 1}")


# ---------------------------------------------------------------------------------------------------------
# the mutable scratch copy a transition works on (states stay immutable; this is thrown away)

def _copied(name: str, copy: Callable[[Any], Any]) -> property:
    """A collection of the scratch state that is copied from the old state (``copy(state.<name>)``) the first
    time it is read, held in the slot ``_<name>``; assigning replaces the copy."""
    slot = "_" + name

    def get(work: "_Work") -> Any:
        value = getattr(work, slot)
        if value is None:
            value = copy(getattr(work.s, name))
            setattr(work, slot, value)
        return value

    def put(work: "_Work", value: Any) -> None:
        setattr(work, slot, value)

    return property(get, put, doc=f"The state's {name}, copied on first use.")


class _Work:
    """A mutable scratch copy of a state for one transition.

    This is the hot path of every playout (one per action), and most actions touch only a few of the
    state's collections (a draw never changes the ships, the treasure piles or the discards). So each
    collection is copied on first use (through the properties below) and :meth:`freeze` hands the old
    tuples on unchanged when their copy was never taken; scalar fields are copied eagerly (cheap).
    """

    __slots__ = ("s", "_spaces", "_flotsam", "loot_stock", "bonus_stock", "_deck", "_row", "_discard", "_hands",
                 "_treasure", "boxed", "turn", "phase", "chance", "drawn", "to_discard", "sailing", "extra",
                 "extra_used", "ended", "final", "auction", "crews", "start_player", "events", "explain")

    def __init__(self, s: PiratsState, explain: bool = True):
        self.s = s
        self.explain = explain
        self._spaces: list[list[Pirat | None]] | None = None   # copied on first use (draws never need them)
        self._flotsam: list[list[Flotsam]] | None = None
        self._deck: list[str] | None = None
        self._row: list[str] | None = None
        self._discard: list[str] | None = None
        self._hands: list[list[int]] | None = None
        self._treasure: list[list[Token]] | None = None
        self.loot_stock = s.loot_stock
        self.bonus_stock = s.bonus_stock
        self.boxed = s.boxed
        self.turn = s.turn
        self.phase = s.phase
        self.chance = s.chance
        self.drawn = s.drawn
        self.to_discard = s.to_discard
        self.sailing = s.sailing
        self.extra = s.extra
        self.extra_used = s.extra_used
        self.ended = s.ended
        self.final = s.final
        self.auction = s.auction
        self.crews = s.crews
        self.start_player = s.start_player
        self.events: list[Event] = []

    def _open_ships(self) -> None:
        self._spaces = [list(sh.spaces) for sh in self.s.ships]
        self._flotsam = [list(sh.flotsam) for sh in self.s.ships]

    @property
    def spaces(self) -> list[list[Pirat | None]]:
        if self._spaces is None:
            self._open_ships()
        return self._spaces  # type: ignore[return-value]

    @property
    def flotsam(self) -> list[list[Flotsam]]:
        if self._flotsam is None:
            self._open_ships()
        return self._flotsam  # type: ignore[return-value]

    # the collections copied on first use (see the class docstring), made by _copied below
    deck = _copied("deck", list)
    row = _copied("row", list)
    discard = _copied("discard", list)
    hands = _copied("hands", lambda hands: [list(h) for h in hands])
    treasure = _copied("treasure", lambda piles: [list(t) for t in piles])

    def freeze(self) -> PiratsState:
        s = self.s
        old_ships = s.ships
        if self._spaces is None:
            ships = old_ships
        else:
            # an unchanged ship keeps its old value (tuple comparison short-cuts on identical items)
            new_ships = list(old_ships)
            for i, old in enumerate(old_ships):
                sp, fl = tuple(self._spaces[i]), tuple(self._flotsam[i])  # type: ignore[index]
                if sp != old.spaces or fl != old.flotsam:
                    new_ships[i] = Ship(sp, fl)  # type: ignore[arg-type]
            ships = tuple(new_ships)
        # A frozen dataclass's __init__ sets its 27 fields one by one through object.__setattr__; this copy is
        # the hot path of every playout, so the new value is filled in one dict update instead. Same fields,
        # same immutability (frozen only forbids attribute assignment), about 5x faster. Collections never
        # copied (see the class docstring) are the old, equal tuples.
        new = object.__new__(PiratsState)
        new.__dict__.update(
            players=s.players, variant=s.variant, powers=s.powers, crews=self.crews, ships=ships,
            loot_stock=self.loot_stock, bonus_stock=self.bonus_stock,
            deck=s.deck if self._deck is None else tuple(self._deck),
            row=s.row if self._row is None else tuple(self._row),
            discard=s.discard if self._discard is None else tuple(self._discard),
            hands=s.hands if self._hands is None else tuple(map(tuple, self._hands)),
            treasure=s.treasure if self._treasure is None else tuple(map(tuple, self._treasure)),
            boxed=self.boxed, turn=self.turn,
            start_player=self.start_player, phase=self.phase, chance=self.chance, drawn=self.drawn,
            to_discard=self.to_discard, sailing=self.sailing, extra=self.extra, extra_used=self.extra_used,
            ended=self.ended, final=self.final, auction=self.auction, actions=s.actions + 1)
        return new

    def ev(self, code: str, rule: str, seat: int | None = None, **params: Any) -> None:
        """Record an event (only when explaining). Callers whose parameters cost something to build (terms,
        lists) test ``w.explain`` first, so that ``apply`` in a playout does not build them for nothing."""
        if not self.explain:
            return
        if seat is not None:
            params["who"] = seat  # so the sentence can name the seat
        self.events.append(Event(code, rule, seat=seat, **params))

    # ---- cards -------------------------------------------------------------------------------
    def _reshuffle(self) -> None:
        self.chance, order = self.chance.shuffled(self.discard)
        self.deck = list(order)
        self.ev("PIRATS_RESHUFFLED", "pirats.draw.reshuffle", cards=len(order))
        self.discard = []

    def top_card(self) -> str | None:
        """Take the deck's top card; discards are reshuffled into a new deck whenever the deck runs out."""
        if not self.deck and self.discard:
            self._reshuffle()
        if not self.deck:
            return None
        card = self.deck.pop(0)
        if not self.deck and self.discard:
            self._reshuffle()
        return card

    def captain_of(self, seat: int) -> int | None:
        for i, sp in enumerate(self.spaces):
            c = sp[CAPTAIN]
            if c is not None and c.seat == seat:
                return i
        return None


class PiratsEngine(Engine[PiratsState, Any]):
    name = "pirats"
    state_type = PiratsState
    move_types = MOVE_TYPES

    # =====================================================================================================
    # setup

    def new_state(self, seed: int, players: int = 4, variant: str = "standard", species: Any = None,
                  start_player: int = 0, box: Any = None, **options: Any) -> PiratsState:
        """A new game. ``variant`` is ``standard`` (4 species cards drawn, powers), ``landlubber``
        (``species``: one species per seat, four figures each, no powers) or ``auction`` (crews hired at the
        bar). ``box`` replaces the illustrative token mix and starting hands (see ``box.json``)."""
        if options:
            raise SetupError(f"unknown option(s) {', '.join(sorted(options))}: use players, variant, species, "
                             "start_player, box")
        check_seed(seed, error=SetupError, type_error=SetupError)
        if isinstance(players, bool) or not isinstance(players, int) or not MIN_PLAYERS <= players <= MAX_PLAYERS:
            raise SetupError(f"Sewer Pirats is for {MIN_PLAYERS} to {MAX_PLAYERS} players, not {players!r} "
                             "(rule pirats.setup.crew)")
        if not one_of(variant, VARIANTS):
            raise SetupError(f"unknown variant {variant!r}: use {', '.join(VARIANTS)}")
        if isinstance(start_player, bool) or not isinstance(start_player, int) or not 0 <= start_player < players:
            raise SetupError(f"start_player must be a seat from 0 to {players - 1}, not {start_player!r}")
        the_box: Box = DEFAULT_BOX if box is None else load_box(box)
        chance = Chance(seed)
        # tokens: two face-down stocks; two flotsam groups (3 loot + 1 bonus) before each ship
        chance, loot = chance.shuffled(the_box.loot)
        chance, bonus = chance.shuffled(the_box.bonus)
        ships = []
        for _ in SHIPS:
            groups = []
            for _g in range(2):
                groups.append(Flotsam(loot[:3], bonus[0]))
                loot, bonus = loot[3:], bonus[1:]
            ships.append(Ship((None, None, None, None), tuple(groups)))
        # crews
        crews: tuple[tuple[str, ...], ...]
        auction = None
        if variant == "standard":
            if species is not None:
                crews = (self._check_crew_species(species),) * players
            else:
                chance, cards = chance.shuffled(SPECIES)
                drawn = tuple(sorted(cards[:CREW_SIZE], key=SPECIES.index))
                crews = (drawn,) * players
        elif variant == "landlubber":
            chosen = self._check_landlubber(species, players)
            crews = tuple((sp,) * CREW_SIZE for sp in chosen)
        else:
            if species is not None:
                raise SetupError("the auction variant hires crews at the bar; do not pass species")
            bar: list[str | None] = [None] * (CREW_SIZE * players)
            placed = 0
            for _seat in range(players):   # each player in turn shuffles the species cards and draws 4
                chance, cards = chance.shuffled(SPECIES)
                for sp in cards[:CREW_SIZE]:
                    bar[len(bar) - 1 - placed] = sp  # the rearmost free stool
                    placed += 1
            auction = Auction(tuple(bar), tuple(() for _ in bar), opener=start_player, active=())
            crews = tuple(() for _ in range(players))
        # charm cards
        chance, deck = chance.shuffled([s for s in SHIPS for _ in range(CARDS_PER_SYMBOL)])
        deck_l = list(deck)
        hands = [[0, 0, 0] for _ in range(players)]
        row: list[str] = []
        if variant == "auction":
            for seat in range(players):       # 8 cards each, face down, as money
                for _ in range(AUCTION_MONEY):
                    hands[seat][_SHIP_INDEX[deck_l.pop(0)]] += 1
            phase = "auction"
        else:
            row, deck_l = deck_l[:ROW_SIZE], deck_l[ROW_SIZE:]
            for k in range(players):
                seat = (start_player + k) % players
                for _ in range(the_box.starting_hands[k]):
                    hands[seat][_SHIP_INDEX[deck_l.pop(0)]] += 1
            phase = "action"
        return PiratsState(
            players=players, variant=variant, powers=variant != "landlubber", crews=crews, ships=tuple(ships),
            loot_stock=tuple(loot), bonus_stock=tuple(bonus), deck=tuple(deck_l), row=tuple(row), discard=(),
            hands=tuple(tuple(h) for h in hands),  # type: ignore[misc]
            treasure=tuple(() for _ in range(players)), boxed=(), turn=start_player, start_player=start_player,
            phase=phase, chance=chance, auction=auction)

    def setup_events(self, state: PiratsState) -> tuple[Event, ...]:
        """The setup of ``state`` explained step by step (for logs and the teaching views); valid for a
        state fresh from :meth:`new_state`."""
        ev = []
        ev.append(Event("PIRATS_SETUP_SHIPS", "pirats.setup.ships"))
        for s, ship in enumerate(state.ships):
            for g in ship.flotsam:
                ev.append(Event("PIRATS_SETUP_FLOTSAM", "pirats.setup.flotsam", ship=_ship_term(s),
                                loot=list(g.loot), bonus=g.bonus if g.bonus is not None else "-"))
        if state.variant == "auction":
            assert state.auction is not None
            ev.append(Event("PIRATS_SETUP_BAR", "pirats.auction.bar", count=len(state.auction.bar),
                            species=[_species_term(sp) for sp in state.auction.bar if sp is not None]))
            ev.append(Event("PIRATS_SETUP_MONEY", "pirats.auction.money", count=AUCTION_MONEY))
            return tuple(ev)
        ev.append(Event("PIRATS_SETUP_CHARMS", "pirats.setup.charms", cards=[_card_term(c) for c in state.row]))
        ev.append(Event("PIRATS_SETUP_HANDS", "pirats.setup.hands", seat=state.start_player,
                        sizes=[sum(h) for h in state.hands]))
        if state.variant == "landlubber":
            ev.append(Event("PIRATS_SETUP_LANDLUBBER", "pirats.variant.landlubber",
                            species=[_species_term(c[0]) for c in state.crews]))
        else:
            ev.append(Event("PIRATS_SETUP_CREW", "pirats.setup.crew",
                            species=[_species_term(sp) for sp in state.crews[0]]))
        return tuple(ev)

    @staticmethod
    def _check_crew_species(species: Any) -> tuple[str, ...]:
        if isinstance(species, str) or not isinstance(species, (list, tuple)):
            raise SetupError(f"species must be a list of {CREW_SIZE} species, not {species!r}")
        chosen = tuple(species)
        if len(chosen) != CREW_SIZE or len(set(chosen)) != CREW_SIZE or not set(chosen) <= set(SPECIES):
            raise SetupError(f"a standard crew is {CREW_SIZE} different species from {', '.join(SPECIES)}; "
                             f"got {species!r}")
        return tuple(sorted(chosen, key=SPECIES.index))

    @staticmethod
    def _check_landlubber(species: Any, players: int) -> tuple[str, ...]:
        if species is None:
            return SPECIES[:players]
        if isinstance(species, str) or not isinstance(species, (list, tuple)) or len(species) != players:
            raise SetupError(f"landlubber: give one species per seat ({players}), got {species!r}")
        if not set(species) <= set(SPECIES):
            raise SetupError(f"landlubber: species must come from {', '.join(SPECIES)}; got {species!r}")
        if len(set(species)) != len(species):
            # only five figures of each species exist, and everyone takes four
            raise SetupError(f"landlubber: each seat needs its own species (5 figures each), got {species!r} "
                             "(rule pirats.variant.landlubber)")
        return tuple(species)

    # =====================================================================================================
    # reading

    def current_player(self, state: PiratsState) -> int | None:
        if state.phase == "over":
            return None
        if state.phase == "sail":
            sail = state.sailing
            assert sail is not None
            pirat = state.ships[sail.ship].spaces[sail.order[sail.index]]
            return pirat.seat if pirat is not None else state.turn
        return state.turn

    def species_of(self, state: PiratsState, pirat: Pirat) -> str:
        if not isinstance(pirat, Pirat):
            raise TypeError(f"pirat must be a Pirat, not {pirat!r:.60}")
        check_int("pirat.seat", pirat.seat, 0, state.players - 1)
        check_int("pirat.figure", pirat.figure, 0, len(state.crews[pirat.seat]) - 1)
        return state.crews[pirat.seat][pirat.figure]

    def _power(self, state: PiratsState, pirat: Pirat, species: str) -> bool:
        return state.powers and state.crews[pirat.seat][pirat.figure] == species

    def scores(self, state: PiratsState) -> tuple[int, ...]:
        return tuple(score(t) for t in state.treasure)

    def tie_break(self, state: PiratsState) -> tuple[int, ...]:
        """Sum of the space numbers each seat's pirats stand on (the captain space counts 4)."""
        out = [0] * state.players
        for ship in state.ships:
            for i, p in enumerate(ship.spaces):
                if p is not None:
                    out[p.seat] += CAPTAIN_NUMBER if i == CAPTAIN else i + 1
        return tuple(out)

    def outcome(self, state: PiratsState) -> Outcome | None:
        if state.phase != "over":
            return None
        scores = self.scores(state)
        best = max(scores)
        leaders = [s for s in range(state.players) if scores[s] == best]
        if len(leaders) == 1:
            return Outcome("PIRATS_WINNER", "pirats.end.scoring", result="win", winners=tuple(leaders),
                           scores=scores, seat=leaders[0], points=best)
        spaces = self.tie_break(state)
        top = max(spaces[s] for s in leaders)
        winners = tuple(s for s in leaders if spaces[s] == top)
        if len(winners) == 1:
            return Outcome("PIRATS_WINNER_TIE_BREAK", "pirats.end.tie-break", result="win", winners=winners,
                           scores=scores, seat=winners[0], points=best, spaces=top)
        return Outcome("PIRATS_SHARED_WIN", "pirats.end.tie-break", result="draw", winners=winners,
                       scores=scores, seats=list(winners), points=best, spaces=top)

    # =====================================================================================================
    # legality

    def _phase_violation(self, state: PiratsState) -> Violation:
        """Why a move of the wrong kind for this phase is refused: say what is expected now."""
        phase = state.phase
        if phase == "over":
            return Violation("GAME_OVER", "core.over")
        rule = {"action": "pirats.turn.one-action", "draw": "pirats.draw.two", "discard": "pirats.draw.hand-limit",
                "sail": "pirats.sail.order", "extra": "pirats.power.weasel", "snail": "pirats.power.snail", "auction": "pirats.auction.open",
                "bid": "pirats.auction.bidding", "pay": "pirats.auction.bidding"}[phase]
        return Violation(f"PIRATS_EXPECT_{phase.upper()}", rule, seat=self.current_player(state),
                         count=state.to_discard, bid=state.auction.bid if state.auction else 0)

    def _gate(self, state: PiratsState, kind: str) -> Violation | None:
        """Checks shared by the actions A-D in the ``action``/``extra`` phases."""
        if state.phase == "extra":
            if kind == "draw":
                return Violation("PIRATS_WEASEL_EXTRA_KIND", "pirats.power.weasel")
            return None
        if state.phase != "action":
            return self._phase_violation(state)
        if state.final:
            if kind != "sail":
                return Violation("PIRATS_FINAL_SAILING", "pirats.end.final-sailing", seat=state.turn,
                                 ship=_ship_term(state.final[0]))
            return None
        own = state.captain_of(state.turn)
        if own is not None and kind != "sail":
            return Violation("PIRATS_MUST_SAIL", "pirats.sail.must", seat=state.turn, ship=_ship_term(own))
        return None

    def _figure(self, state: PiratsState, label: str) -> tuple[Violation | None, int]:
        seat = state.turn
        fig = _resolve(state.crews[seat], label)
        if fig is None:
            return Violation("PIRATS_NO_SUCH_FIGURE", "pirats.setup.crew", seat=seat, figure=label,
                             crew=[figure_label(state.crews[seat], i) for i in range(len(state.crews[seat]))]), -1
        if state.phase == "extra" and fig != state.extra:
            return Violation("PIRATS_WEASEL_SAME_FIGURE", "pirats.power.weasel", seat=seat,
                             figure=figure_label(state.crews[seat], state.extra or 0)), -1
        return None, fig

    def _tolls(self, state: PiratsState, ship: Ship, seat: int, passed: tuple[int, ...]) -> list[int]:
        """Seats owed a toll card: each other player's raccoon on a space the mover jumps over."""
        if not state.powers:
            return []
        out = []
        for idx in passed:
            p = ship.spaces[idx]
            if p is not None and p.seat != seat and state.crews[p.seat][p.figure] == "raccoon":
                out.append(p.seat)
        return out

    def _boarding_checks(self, state: PiratsState, move: MovePirat | BecomeCaptain, action: str) -> tuple:
        """What moving and becoming captain both check first: the action is allowed now, the figure is
        the player's, and a figure already aboard stays on its own ship. Returns (violation, found)."""
        gate = self._gate(state, action)
        if gate:
            return gate, None
        bad, fig = self._figure(state, move.figure)
        if bad:
            return bad, None
        seat, s = state.turn, _SHIP_INDEX[move.ship]
        here = state.where(seat, fig)
        if here is not None and here[0] != s:
            return Violation("PIRATS_OTHER_SHIP", "pirats.move.along", figure=move.figure,
                             ship=_ship_term(here[0]), target=_ship_term(s)), None
        return None, (seat, fig, s, state.ships[s], here)

    def _plan_move(self, state: PiratsState, move: MovePirat) -> tuple[Violation | None, dict]:
        bad, found = self._boarding_checks(state, move, "move")
        if bad:
            return bad, {}
        seat, fig, s, ship, here = found
        if here is not None and here[1] == CAPTAIN:
            return Violation("PIRATS_CAPTAIN_STAYS", "pirats.move.no-captain", figure=move.figure,
                             ship=_ship_term(s)), {}
        start = 0 if here is None else here[1] + 1       # 0 = the player's area, else the space number
        spaces = ship.spaces
        # crew_path's answer depends only on which crew spaces are taken, the start and the distance: keep
        # the successful walks (a refusal is rare in playouts and builds its own Violation each time)
        key = (spaces[0] is not None, spaces[1] is not None, spaces[2] is not None, start, move.steps)
        path = _PATHS.get(key)
        if path is None:
            occupied = frozenset(i + 1 for i in range(3) if spaces[i] is not None) - {start}
            path = crew_path(occupied, start, move.steps)
            if isinstance(path, Violation):
                return path, {}
            _PATHS[key] = path
        dest, jumped = path
        # the species read straight from the crew: a Pirat built only to ask _power would cost more
        cockroach = state.powers and state.crews[seat][fig] == "cockroach"
        base = move.steps - (1 if cockroach else 0)
        tolls = self._tolls(state, ship, seat, tuple(j - 1 for j in jumped))
        held = state.hands[seat][s]
        if base > held:
            return Violation("PIRATS_NOT_ENOUGH_CARDS", "pirats.move.match", figure=move.figure, ship=_ship_term(s),
                             need=base, held=held), {}
        if base + len(tolls) > held:
            return Violation("PIRATS_TOLL_UNPAID", "pirats.power.raccoon", figure=move.figure, ship=_ship_term(s),
                             need=base + len(tolls), tolls=len(tolls), held=held), {}
        if move.peek and not (state.powers and state.crews[seat][fig] == "snail"):
            return Violation("PIRATS_ONLY_SNAIL_PEEKS", "pirats.power.snail", figure=move.figure), {}
        return None, dict(seat=seat, fig=fig, ship=s, start=start, dest=dest, jumped=jumped, base=base, tolls=tolls)

    def _plan_captain(self, state: PiratsState, move: BecomeCaptain) -> tuple[Violation | None, dict]:
        bad, found = self._boarding_checks(state, move, "captain")
        if bad:
            return bad, {}
        seat, fig, s, ship, here = found
        if here is not None and here[1] == CAPTAIN:
            return Violation("PIRATS_ALREADY_CAPTAIN", "pirats.captain.path", figure=move.figure,
                             ship=_ship_term(s)), {}
        if ship.spaces[CAPTAIN] is not None:
            return Violation("PIRATS_CAPTAIN_TAKEN", "pirats.captain.path", ship=_ship_term(s),
                             seat=ship.spaces[CAPTAIN].seat), {}
        start_idx = -1 if here is None else here[1]
        between = tuple(range(start_idx + 1, CAPTAIN))
        gaps = [i + 1 for i in between if ship.spaces[i] is None]
        if gaps:
            return Violation("PIRATS_GAP_BEFORE_CAPTAIN", "pirats.captain.path", figure=move.figure,
                             ship=_ship_term(s), spaces=gaps), {}
        own = state.captain_of(seat)
        if own is not None:
            return Violation("PIRATS_ONE_CAPTAIN", "pirats.captain.one-per-player", seat=seat,
                             ship=_ship_term(own)), {}
        cockroach = state.powers and state.crews[seat][fig] == "cockroach"
        base = (3 if here is None else 1) - (1 if cockroach else 0)
        tolls = self._tolls(state, ship, seat, between)
        held = state.hands[seat][s]
        if base > held:
            return Violation("PIRATS_CAPTAIN_COST", "pirats.captain.cost", figure=move.figure, ship=_ship_term(s),
                             need=base, held=held), {}
        if base + len(tolls) > held:
            return Violation("PIRATS_TOLL_UNPAID", "pirats.power.raccoon", figure=move.figure, ship=_ship_term(s),
                             need=base + len(tolls), tolls=len(tolls), held=held), {}
        return None, dict(seat=seat, fig=fig, ship=s, start=start_idx, jumped=between, base=base, tolls=tolls)

    def _check_sail(self, state: PiratsState, move: SetSail) -> Violation | None:
        gate = self._gate(state, "sail")
        if gate:
            return gate
        s = _SHIP_INDEX[move.ship]
        captain = state.ships[s].spaces[CAPTAIN]
        if state.phase == "action" and state.final and s != state.final[0]:
            return Violation("PIRATS_FINAL_SAILING", "pirats.end.final-sailing", seat=state.turn,
                             ship=_ship_term(state.final[0]))
        if captain is None or captain.seat != state.turn:
            return Violation("PIRATS_NOT_YOUR_CAPTAIN", "pirats.sail.must", seat=state.turn, ship=_ship_term(s))
        if state.phase == "extra" and captain.figure != state.extra:
            return Violation("PIRATS_WEASEL_SAME_FIGURE", "pirats.power.weasel", seat=state.turn,
                             figure=figure_label(state.crews[state.turn], state.extra or 0))
        return None

    def _sail_picker(self, state: PiratsState) -> tuple[Pirat, int]:
        sail = state.sailing
        assert sail is not None
        idx = sail.order[sail.index]
        pirat = state.ships[sail.ship].spaces[idx]
        assert pirat is not None
        return pirat, idx

    def why_illegal(self, state: PiratsState, move: Any) -> Violation | None:
        self.check_move_type(move)
        phase = state.phase
        if isinstance(move, Draw):
            gate = self._gate(state, "draw") if phase != "draw" else None
            if gate:
                return gate
            if move.source == "deck":
                if not state.deck and not state.discard:
                    return Violation("PIRATS_DECK_EMPTY", "pirats.draw.reshuffle")
            elif move.source not in state.row:
                return Violation("PIRATS_NOT_IN_ROW", "pirats.draw.two", card=_card_term(move.source),
                                 row=[_card_term(c) for c in state.row])
            return None
        if isinstance(move, MovePirat):
            return self._plan_move(state, move)[0]
        if isinstance(move, BecomeCaptain):
            return self._plan_captain(state, move)[0]
        if isinstance(move, SetSail):
            return self._check_sail(state, move)
        if isinstance(move, Discard):
            if phase != "discard":
                return self._phase_violation(state)
            return self._check_cards(state, move.cards, state.to_discard, "PIRATS_DISCARD_COUNT",
                                     "PIRATS_DISCARD_NOT_HELD", "pirats.draw.hand-limit")
        if isinstance(move, TakeLoot):
            if phase != "sail":
                return self._phase_violation(state)
            sail = state.sailing
            assert sail is not None
            front = state.ships[sail.ship].flotsam[0]
            if move.token not in front.loot:
                return Violation("PIRATS_NO_SUCH_LOOT", "pirats.sail.order", token=move.token, loot=list(front.loot))
            return None
        if isinstance(move, Stay):
            if phase != "sail":
                return self._phase_violation(state)
            pirat, idx = self._sail_picker(state)
            if not self._power(state, pirat, "toad"):
                return Violation("PIRATS_ONLY_TOAD_STAYS", "pirats.power.toad",
                                 figure=figure_label(state.crews[pirat.seat], pirat.figure))
            if idx == CAPTAIN:
                return Violation("PIRATS_TOAD_CAPTAIN_JUMPS", "pirats.power.toad")
            if state.sailing.picks:  # type: ignore[union-attr]
                return Violation("PIRATS_ONLY_TOAD_STAYS", "pirats.power.toad",
                                 figure=figure_label(state.crews[pirat.seat], pirat.figure))
            return None
        if isinstance(move, Pass):
            return self._check_pass(state)
        if isinstance(move, SnailStep):
            return None if phase == "snail" else self._phase_violation(state)
        if isinstance(move, OpenAuction):
            if phase != "auction":
                return self._phase_violation(state)
            auc = state.auction
            assert auc is not None
            i = move.stool - 1
            if i >= len(auc.bar) or auc.bar[i] is None:
                return Violation("PIRATS_STOOL_EMPTY", "pirats.auction.bar", stool=move.stool)
            price = self.minimum_price(auc, i)
            if move.bid < price:
                return Violation("PIRATS_BELOW_MINIMUM", "pirats.auction.minimum-price", stool=move.stool,
                                 bid=move.bid, price=price)
            if move.bid > state.hand_size(state.turn):
                return Violation("PIRATS_BID_OVER_HAND", "pirats.auction.bidding", bid=move.bid,
                                 held=state.hand_size(state.turn))
            return None
        if isinstance(move, Bid):
            if phase != "bid":
                return self._phase_violation(state)
            auc = state.auction
            assert auc is not None
            if move.amount <= auc.bid:
                return Violation("PIRATS_BID_TOO_LOW", "pirats.auction.bidding", bid=move.amount, high=auc.bid)
            if move.amount > state.hand_size(state.turn):
                return Violation("PIRATS_BID_OVER_HAND", "pirats.auction.bidding", bid=move.amount,
                                 held=state.hand_size(state.turn))
            return None
        if isinstance(move, Pay):
            if phase != "pay":
                return self._phase_violation(state)
            return self._check_cards(state, move.cards, state.auction.bid, "PIRATS_PAY_COUNT",  # type: ignore[union-attr]
                                     "PIRATS_PAY_NOT_HELD", "pirats.auction.bidding")
        raise AssertionError(move)  # pragma: no cover - check_move_type covers every type

    @staticmethod
    def _check_cards(state: PiratsState, cards: tuple[int, int, int], need: int, count_code: str,
                     held_code: str, rule: str) -> Violation | None:
        if sum(cards) != need:
            return Violation(count_code, rule, count=need, given=sum(cards))
        hand = state.hands[state.turn]
        short = [_card_term(SHIPS[i]) for i in range(3) if cards[i] > hand[i]]
        if short:
            return Violation(held_code, rule, cards=short)
        return None

    def _check_pass(self, state: PiratsState) -> Violation | None:
        phase = state.phase
        if phase in ("extra", "snail", "bid"):
            return None
        if phase == "sail":
            if state.sailing.picks == 0:  # type: ignore[union-attr]
                pirat, _ = self._sail_picker(state)
                return Violation("PIRATS_MUST_PICK", "pirats.sail.order",
                                 figure=figure_label(state.crews[pirat.seat], pirat.figure))
            return None
        if phase == "action":
            if self._action_moves(state, stop_at_first=True):
                return Violation("PIRATS_MUST_ACT", "pirats.turn.one-action", seat=state.turn)
            return None
        return self._phase_violation(state)

    @staticmethod
    def minimum_price(auction: Auction, stool: int) -> int:
        """A figure's minimum price: its place among the figures still at the bar, counted from the front."""
        if not isinstance(auction, Auction):
            raise TypeError(f"auction must be an Auction, not {auction!r:.60}")
        check_int("stool", stool, 0, len(auction.bar))
        return sum(1 for sp in auction.bar[:stool] if sp is not None)

    # =====================================================================================================
    # legal moves

    def _action_moves(self, state: PiratsState, stop_at_first: bool = False) -> list[Any]:
        """Legal A-D moves in the ``action`` or ``extra`` phase, in a fixed order: sail, draws, then per
        figure and ship the 1-3 space moves (each followed by its snail peek) and becoming captain.

        This is the hot path of every playout, so it walks the ships directly instead of asking
        :meth:`why_illegal` about each candidate; the property tests check the two always agree. A walk
        along a ship depends only on the ship and the starting space (not on the figure), so it is made
        once per call and shared: the figures waiting in the player's area all start from the same place.
        """
        out: list[Any] = []
        seat = state.turn
        ships = state.ships
        # where the mover's figures stand, and the first ship it captains (one pass over the 12 spaces)
        where: dict[int, tuple[int, int]] = {}
        captain_ship = -1
        for s, ship in enumerate(ships):
            for i, p in enumerate(ship.spaces):
                if p is not None and p.seat == seat:
                    where[p.figure] = (s, i)
                    if i == CAPTAIN and captain_ship < 0:
                        captain_ship = s
        if state.phase == "action":
            if state.final:
                return [_SAIL[state.final[0]]]
            if captain_ship >= 0:
                return [_SAIL[captain_ship]]
            if state.deck or state.discard:
                out.append(_DRAW["deck"])
            row = state.row
            for sym in SHIPS:
                if sym in row:
                    out.append(_DRAW[sym])
            if out and stop_at_first:
                return out
            figures: Any = range(len(state.crews[seat]))
        else:
            figures = [state.extra] if state.extra is not None else []
            if state.extra is not None:
                here = where.get(state.extra)
                if here is not None and here[1] == CAPTAIN:
                    out.append(_SAIL[here[0]])
        may_captain = captain_ship < 0
        crews = state.crews
        hand = state.hands[seat]
        powers = state.powers
        figure_tables = _figure_tables(crews[seat], powers)
        # Figures in the area all start from the same place, so their walk along each ship is made once
        # (figures aboard stand on different spaces: nothing to share). Per ship: spaces affordable and
        # captaincy affordable, without and with the cockroach's discount.
        area: list[tuple[int, bool, int, bool] | None] = [None, None, None]
        for fig in figures:
            here = where.get(fig)
            discount, table = figure_tables[fig]
            walks: list[tuple[int, tuple[int, bool, int, bool]]] = []
            if here is None:
                for s in (0, 1, 2):
                    if hand[s] == 0 and not discount:
                        continue  # every move and captaincy costs at least one card here
                    walk = area[s]
                    if walk is None:
                        walk = area[s] = _affordable(ships[s].spaces, -1, seat, crews, powers, hand[s], may_captain)
                    walks.append((s, walk))
            elif here[1] != CAPTAIN:
                s = here[0]
                if hand[s] == 0 and not discount:
                    continue
                walks.append((s, _affordable(ships[s].spaces, here[1], seat, crews, powers, hand[s], may_captain)))
            for s, walk in walks:
                moves = table[s][walk[2]][walk[3]] if discount else table[s][walk[0]][walk[1]]
                if moves:
                    if stop_at_first:
                        out.append(moves[0])
                        return out
                    out.extend(moves)
        return out

    def legal_moves(self, state: PiratsState) -> list[Any]:
        # Moves are immutable values, so the lists below are made of shared instances (see ``_shared``):
        # building and validating a fresh dataclass per candidate was a good part of every playout step.
        phase = state.phase
        if phase == "over":
            return []
        if phase == "action":
            moves = self._action_moves(state)
            return moves or [_PASS]
        if phase == "extra":
            moves = self._action_moves(state)
            moves.append(_PASS)
            return moves
        if phase == "snail":
            return [_STEP, _PASS]
        if phase == "draw":
            out = [_DRAW["deck"]] if state.deck or state.discard else []
            row = state.row
            for sym in SHIPS:
                if sym in row:
                    out.append(_DRAW[sym])
            return out
        if phase == "discard":
            return list(_card_moves(Discard, state.hands[state.turn], state.to_discard))
        if phase == "sail":
            sail = state.sailing
            assert sail is not None
            out = list(_takes(state.ships[sail.ship].flotsam[0].loot))
            pirat, idx = self._sail_picker(state)
            if sail.picks:
                out.append(_PASS)
            elif idx != CAPTAIN and self._power(state, pirat, "toad"):
                out.append(_STAY)
            return out
        auc = state.auction
        assert auc is not None
        held = state.hand_size(state.turn)
        if phase == "auction":
            return [_shared(OpenAuction, i + 1, b) for i, sp in enumerate(auc.bar) if sp is not None
                    for b in range(self.minimum_price(auc, i), held + 1)]
        if phase == "bid":
            return [_shared(Bid, b) for b in range(auc.bid + 1, held + 1)] + [_PASS]
        if phase == "pay":
            return list(_card_moves(Pay, state.hands[state.turn], auc.bid))
        raise AssertionError(phase)  # pragma: no cover

    # =====================================================================================================
    # transitions

    def apply(self, state: PiratsState, move: Any) -> PiratsState:
        """Checked move, like :meth:`transition`, but builds no events (they would be thrown away):
        playouts and searches call this millions of times."""
        kind = type(move)
        if kind not in _EXACT_MOVE_TYPES:  # text, a subclass, or not a move at all: the general path
            if isinstance(move, str):
                move = self.parse_move(move)
            self.check_move_type(move)
            kind = _move_kind(move)
        if kind is MovePirat:
            # the legality check already works out the move's plan (path, cost, tolls): use it once
            violation, plan = self._plan_move(state, move)
        elif kind is BecomeCaptain:
            violation, plan = self._plan_captain(state, move)
        else:
            violation, plan = self.why_illegal(state, move), None
        if violation is not None:
            raise IllegalMoveError(violation)
        return self._run(state, move, explain=False, plan=plan, kind=kind)[0]

    def _transition(self, state: PiratsState, move: Any) -> tuple[PiratsState, tuple[Event, ...]]:
        return self._run(state, move, explain=True)

    def _run(self, state: PiratsState, move: Any, explain: bool, plan: dict | None = None,
             kind: type | None = None) -> tuple[PiratsState, tuple[Event, ...]]:
        w = _Work(state, explain)
        # dispatch on the exact class (``is`` tests, most frequent first) rather than a chain of isinstance
        # calls: this runs once per action of every playout
        if kind is None:
            kind = _move_kind(move)
        if kind is Draw:
            self._do_draw(w, move)
        elif kind is MovePirat:
            self._begin_extra(w)
            self._do_move(w, plan or self._plan_move(state, move)[1], move.peek)
        elif kind is TakeLoot:
            self._do_take(w, move.token)
        elif kind is Pass:
            self._do_pass(w)
        elif kind is SetSail:
            self._begin_extra(w)
            self._do_sail(w, _SHIP_INDEX[move.ship])
        elif kind is BecomeCaptain:
            self._begin_extra(w)
            self._do_captain(w, plan or self._plan_captain(state, move)[1])
        elif kind is Discard:
            seat = w.turn
            for i in range(3):
                w.hands[seat][i] -= move.cards[i]
                w.discard.extend([SHIPS[i]] * move.cards[i])
            if explain:
                w.ev("PIRATS_DISCARDED", "pirats.draw.hand-limit", seat=seat,
                     cards=[_card_term(SHIPS[i]) for i in range(3) for _ in range(move.cards[i])])
            w.to_discard = 0
            self._end_turn(w)
        elif kind is Stay:
            sail = w.sailing
            assert sail is not None
            pirat = w.spaces[sail.ship][sail.order[sail.index]]
            w.ev("PIRATS_TOAD_STAYS", "pirats.power.toad", seat=pirat.seat)  # type: ignore[union-attr]
            w.sailing = Sailing(sail.ship, sail.seat, sail.order, sail.index + 1, 0, sail.outcomes + ("stay",),
                                sail.weasel)
            self._advance_sailing(w)
        elif kind is SnailStep:
            seat, fig = w.turn, w.extra
            assert fig is not None
            s, here = state.where(seat, fig)  # type: ignore[misc]
            self._snail_step(w, seat, fig, s, here, SHIPS[s])
            w.extra = None
            self._after_action(w, seat, fig)
        elif kind is OpenAuction:
            self._do_open(w, move)
        elif kind is Bid:
            auc = w.auction
            assert auc is not None
            w.auction = _replace_auction(auc, bid=move.amount, bidder=w.turn)
            w.ev("PIRATS_BID", "pirats.auction.bidding", seat=w.turn, bid=move.amount)
            w.turn = _next_in(w.auction.active, w.turn)
        elif kind is Pay:
            seat = w.turn
            for i in range(3):
                w.hands[seat][i] -= move.cards[i]
                w.discard.extend([SHIPS[i]] * move.cards[i])
            if explain:
                w.ev("PIRATS_PAID", "pirats.auction.bidding", seat=seat,
                     cards=[_card_term(SHIPS[i]) for i in range(3) for _ in range(move.cards[i])])
            self._after_hire(w)
        return w.freeze(), tuple(w.events)

    # ---- A: draw ------------------------------------------------------------------------------
    def _do_draw(self, w: _Work, move: Draw) -> None:
        seat = w.turn
        if move.source == "deck":
            card = w.top_card()
            assert card is not None
            w.ev("PIRATS_DREW_DECK", "pirats.draw.two", seat=seat)
        else:
            w.row.remove(move.source)
            card = move.source
            if w.explain:
                w.ev("PIRATS_DREW_ROW", "pirats.draw.two", seat=seat, card=_card_term(card))
        w.hands[seat][_SHIP_INDEX[card]] += 1
        w.drawn += 1
        if w.drawn < 2 and (w.deck or w.discard or w.row):
            w.phase = "draw"
            return
        # after both cards: refill the face-up row, then the hand limit
        row = w.row
        refilled = len(row)
        while len(row) < ROW_SIZE:
            c = w.top_card()
            if c is None:
                break
            row.append(c)
        if w.explain and len(row) > refilled:
            w.ev("PIRATS_ROW_REFILLED", "pirats.draw.refill", cards=[_card_term(c) for c in row[refilled:]])
        w.drawn = 0
        held = sum(w.hands[seat])
        if held > HAND_LIMIT:
            w.phase = "discard"
            w.to_discard = held - HAND_LIMIT
            w.ev("PIRATS_OVER_LIMIT", "pirats.draw.hand-limit", seat=seat, held=held, count=w.to_discard)
        else:
            self._end_turn(w)

    # ---- B/C: moving and becoming captain -------------------------------------------------------------
    def _begin_extra(self, w: _Work) -> None:
        if w.phase == "extra":
            w.extra, w.extra_used = None, True
            w.phase = "action"

    def _pay(self, w: _Work, plan: dict) -> None:
        seat, s = plan["seat"], plan["ship"]
        if plan["base"]:  # a cockroach's one-space move is free: leave hand and discards uncopied
            w.hands[seat][s] -= plan["base"]
            w.discard.extend([SHIPS[s]] * plan["base"])
        for owner in plan["tolls"]:
            w.hands[seat][s] -= 1
            w.hands[owner][s] += 1
            if w.explain:
                w.ev("PIRATS_TOLL", "pirats.power.raccoon", seat=seat, owner=owner, ship=_card_term(SHIPS[s]))

    def _after_action(self, w: _Work, seat: int, fig: int) -> None:
        """End the action: a weasel may act again (once) with the same figure."""
        if w.s.powers and w.crews[seat][fig] == "weasel" and not w.extra_used:
            w.phase, w.extra = "extra", fig
            w.ev("PIRATS_WEASEL_AGAIN", "pirats.power.weasel", seat=seat)
        else:
            self._end_turn(w)

    def _do_move(self, w: _Work, plan: dict, peek: bool) -> None:
        seat, fig, s = plan["seat"], plan["fig"], plan["ship"]
        self._pay(w, plan)
        spaces = w.spaces[s]
        if plan["start"]:
            # the figure already aboard is this very (immutable) Pirat: move it rather than build another
            me = spaces[plan["start"] - 1]
            spaces[plan["start"] - 1] = None
        else:
            me = Pirat(seat, fig)
        dest = plan["dest"] - 1
        w.spaces[s][dest] = me
        if w.explain:
            w.ev("PIRATS_MOVED_SKIPPING" if plan["jumped"] else "PIRATS_MOVED", "pirats.move.skip-occupied",
                 seat=seat, figure=_species_term(w.crews[seat][fig]), label=figure_label(w.crews[seat], fig),
                 ship=_ship_term(s), start=_space_name(plan["start"] - 1), space=_space_name(plan["dest"] - 1),
                 cards=plan["base"], jumped=list(plan["jumped"]) or "-")
        if w.crews[seat][fig] == "cockroach" and w.s.powers:
            w.ev("PIRATS_COCKROACH_DISCOUNT", "pirats.power.cockroach", seat=seat)
        if peek:
            card = w.top_card()
            if card is None:
                w.ev("PIRATS_SNAIL_NO_CARD", "pirats.power.snail", seat=seat)
            else:
                w.discard.append(card)
                if card != SHIPS[s]:
                    if w.explain:
                        w.ev("PIRATS_SNAIL_MISS", "pirats.power.snail", seat=seat, card=_card_term(card),
                             ship=_ship_term(s))
                elif dest + 1 == CAPTAIN and w.captain_of(seat) is not None:
                    if w.explain:
                        w.ev("PIRATS_SNAIL_HELD", "pirats.captain.one-per-player", seat=seat, card=_card_term(card))
                else:
                    # 「…1マス追加で移動できます」: the extra space is the owner's choice (step or pass)
                    w.phase, w.extra = "snail", fig
                    if w.explain:
                        w.ev("PIRATS_SNAIL_MATCH", "pirats.power.snail", seat=seat, card=_card_term(card),
                             space=_space_name(dest + 1))
                    return
        self._after_action(w, seat, fig)

    def _snail_step(self, w: _Work, seat: int, fig: int, s: int, here: int, card: str) -> None:
        """A matching card: one more space toward the bow, swapping with whoever stands there (the captain
        space too, unless the owner already has a captain: then no choice is offered). Not a move action, so no
        raccoon toll."""
        target = here + 1
        other = w.spaces[s][target]
        w.spaces[s][target], w.spaces[s][here] = Pirat(seat, fig), other
        if w.explain:
            w.ev("PIRATS_SNAIL_STEP", "pirats.power.snail", seat=seat, card=_card_term(card), space=_space_name(target),
                 swapped=other is not None)

    def _do_captain(self, w: _Work, plan: dict) -> None:
        seat, fig, s = plan["seat"], plan["fig"], plan["ship"]
        self._pay(w, plan)
        spaces = w.spaces[s]
        if plan["start"] >= 0:
            me = spaces[plan["start"]]  # the same figure, already a Pirat
            spaces[plan["start"]] = None
        else:
            me = Pirat(seat, fig)
        spaces[CAPTAIN] = me
        if w.explain:
            w.ev("PIRATS_BECAME_CAPTAIN", "pirats.captain.cost", seat=seat, figure=_species_term(w.crews[seat][fig]),
                 ship=_ship_term(s), cards=plan["base"])
        self._after_action(w, seat, fig)

    # ---- D: sailing -------------------------------------------------------------------------------
    def _do_sail(self, w: _Work, s: int) -> None:
        seat = w.turn
        if w.final and w.final[0] == s:
            w.final = w.final[1:]
        captain = w.spaces[s][CAPTAIN]
        assert captain is not None
        order = (CAPTAIN,) + tuple(i for i in (2, 1, 0) if w.spaces[s][i] is not None)
        front = w.flotsam[s][0]
        if w.explain:
            w.ev("PIRATS_SET_SAIL", "pirats.sail.order", seat=seat, ship=_ship_term(s),
                 loot=list(front.loot), bonus=front.bonus if front.bonus is not None else "-")
        if front.bonus is not None:
            w.treasure[seat].append(front.bonus)
            w.ev("PIRATS_TOOK_BONUS", "pirats.sail.order", seat=seat, token=front.bonus)
            w.flotsam[s][0] = Flotsam(front.loot, None)
        weasel = captain.figure if (w.s.powers and w.crews[seat][captain.figure] == "weasel"
                                    and not w.extra_used) else None
        w.sailing = Sailing(s, seat, order, 0, 0, (), weasel)
        w.phase = "sail"
        self._advance_sailing(w)

    def _advance_sailing(self, w: _Work) -> None:
        """Move the payout on to the next real choice; forced picks are made automatically."""
        while True:
            sail = w.sailing
            assert sail is not None
            if sail.index >= len(sail.order):
                self._finish_sailing(w)
                return
            idx = sail.order[sail.index]
            pirat = w.spaces[sail.ship][idx]
            assert pirat is not None
            loot = w.flotsam[sail.ship][0].loot
            rat = w.s.powers and w.crews[pirat.seat][pirat.figure] == "rat"
            if not loot:
                # the captain always took the bonus token, so it always goes home
                w.sailing = _next_pirat(sail, "took" if sail.picks or idx == CAPTAIN else "none")
                continue
            if sail.picks and not rat:  # pragma: no cover - only a rat picks twice
                w.sailing = _next_pirat(sail, "took")
                continue
            toad = w.s.powers and w.crews[pirat.seat][pirat.figure] == "toad" and idx != CAPTAIN
            if sail.picks == 0 and not toad and len(set(loot)) == 1:
                self._take(w, loot[0])  # the only choice
                continue
            return  # a real choice: wait for the picker's move

    def _take(self, w: _Work, token: Token) -> None:
        sail = w.sailing
        assert sail is not None
        idx = sail.order[sail.index]
        pirat = w.spaces[sail.ship][idx]
        assert pirat is not None
        front = w.flotsam[sail.ship][0]
        loot = list(front.loot)
        loot.remove(token)
        w.flotsam[sail.ship][0] = Flotsam(tuple(loot), front.bonus)
        w.treasure[pirat.seat].append(token)
        rat = w.s.powers and w.crews[pirat.seat][pirat.figure] == "rat"
        if w.explain:
            w.ev("PIRATS_TOOK_LOOT", "pirats.power.rat" if sail.picks else "pirats.sail.order", seat=pirat.seat,
                 token=token, space=_space_name(idx))
        if rat and sail.picks == 0:
            w.sailing = Sailing(sail.ship, sail.seat, sail.order, sail.index, 1, sail.outcomes, sail.weasel)
        else:
            w.sailing = _next_pirat(sail, "took")

    def _do_take(self, w: _Work, token: Token) -> None:
        self._take(w, token)
        self._advance_sailing(w)

    def _finish_sailing(self, w: _Work) -> None:
        sail = w.sailing
        assert sail is not None
        s = sail.ship
        spaces = w.spaces[s]
        went_home = []
        for idx, outcome in zip(sail.order, sail.outcomes):
            if outcome == "took":
                p = spaces[idx]
                went_home.append(p.seat)  # type: ignore[union-attr]
                spaces[idx] = None
        if went_home:
            if w.explain:
                w.ev("PIRATS_WENT_HOME", "pirats.sail.go-home", seats=sorted(set(went_home)))
        left = w.flotsam[s][0].loot
        if left:
            w.boxed = w.boxed + left
            if w.explain:
                w.ev("PIRATS_LEFTOVERS_BOXED", "pirats.sail.leftovers", loot=list(left))
        # Pirats that took nothing move one space toward the bow, front first. "One space" is one *free*
        # space, occupied ones skipped as in a crew move: the rules' toad example has red's toad go from
        # space 2 past green's toad (held on 3) straight to the captain space.
        stayed = {idx for idx, o in zip(sail.order, sail.outcomes) if o in ("stay", "none")}
        for idx in (2, 1, 0):
            if idx not in stayed:
                continue
            p = spaces[idx]
            assert p is not None
            target = idx + 1
            while target < CAPTAIN and spaces[target] is not None:
                target += 1
            toad = w.s.powers and w.crews[p.seat][p.figure] == "toad"
            if target == CAPTAIN:
                if toad and spaces[CAPTAIN] is None and w.captain_of(p.seat) is None:
                    spaces[CAPTAIN], spaces[idx] = p, None
                    if w.explain:
                        w.ev("PIRATS_TOAD_CAPTAIN", "pirats.power.toad", seat=p.seat, ship=_ship_term(s))
                else:
                    # only a toad may become captain this way, and only if its owner has no captain
                    if w.explain:
                        w.ev("PIRATS_HELD", "pirats.captain.one-per-player" if toad else "pirats.sail.move-up",
                             seat=p.seat, ship=_ship_term(s), space=idx + 1)
            else:
                spaces[target], spaces[idx] = p, None
                if w.explain:
                    w.ev("PIRATS_MOVED_UP", "pirats.sail.move-up", seat=p.seat, ship=_ship_term(s),
                         space=target + 1)
        # the next flotsam group moves up; a new one is drawn, or the game's end begins
        w.flotsam[s] = w.flotsam[s][1:]
        if len(w.loot_stock) >= 3 and w.bonus_stock:
            group = Flotsam(w.loot_stock[:3], w.bonus_stock[0])
            w.loot_stock, w.bonus_stock = w.loot_stock[3:], w.bonus_stock[1:]
            w.flotsam[s].append(group)
            if w.explain:
                w.ev("PIRATS_NEW_FLOTSAM", "pirats.sail.flotsam", ship=_ship_term(s), loot=list(group.loot),
                     bonus=group.bonus)
        elif not w.ended:
            w.ended = True
            n = w.s.players
            others = [(((sp[CAPTAIN].seat - sail.seat) % n) or n, i) for i, sp in enumerate(w.spaces)
                      if i != s and sp[CAPTAIN] is not None]
            w.final = tuple(i for _, i in sorted(others))
            if w.explain:
                w.ev("PIRATS_END_TRIGGERED", "pirats.end.trigger", ship=_ship_term(s),
                     ships=[_ship_term(i) for i in w.final] or "-")
        w.sailing = None
        seat = sail.seat
        w.phase = "action"
        if sail.weasel is not None:
            w.phase, w.extra = "extra", sail.weasel
            w.ev("PIRATS_WEASEL_AGAIN", "pirats.power.weasel", seat=seat)
        else:
            self._end_turn(w)

    # ---- turn order and the end -----------------------------------------------------------------
    def _end_turn(self, w: _Work) -> None:
        w.extra, w.extra_used, w.drawn, w.phase = None, False, 0, "action"
        if w.ended:
            while w.final and w.spaces[w.final[0]][CAPTAIN] is None:
                w.final = w.final[1:]
            if w.final:
                w.turn = w.spaces[w.final[0]][CAPTAIN].seat  # type: ignore[union-attr]
                if w.explain:
                    w.ev("PIRATS_FINAL_TURN", "pirats.end.final-sailing", seat=w.turn, ship=_ship_term(w.final[0]))
                return
            w.phase = "over"
            if w.explain:  # scoring every pile is dear, and only the event needs it here
                w.ev("PIRATS_GAME_ENDS", "pirats.end.scoring", scores=[score(t) for t in w.treasure])
            return
        w.turn = (w.turn + 1) % w.s.players

    def _do_pass(self, w: _Work) -> None:
        if w.phase == "extra":
            w.ev("PIRATS_WEASEL_DECLINES", "pirats.power.weasel", seat=w.turn)
            self._end_turn(w)
        elif w.phase == "snail":
            w.ev("PIRATS_SNAIL_DECLINES", "pirats.power.snail", seat=w.turn)
            self._end_turn(w)
        elif w.phase == "sail":
            sail = w.sailing
            assert sail is not None
            if w.explain:
                w.ev("PIRATS_RAT_DECLINES", "pirats.power.rat", seat=self.current_player(w.s))
            w.sailing = _next_pirat(sail, "took")
            self._advance_sailing(w)
        elif w.phase == "bid":
            auc = w.auction
            assert auc is not None
            w.ev("PIRATS_PASSED", "pirats.auction.bidding", seat=w.turn)
            active = tuple(a for a in auc.active if a != w.turn)
            nxt = _next_in(auc.active, w.turn)
            w.auction = _replace_auction(auc, active=active)
            if len(active) == 1:
                self._hire(w, active[0])
            else:
                w.turn = nxt
        else:
            w.ev("PIRATS_NO_ACTION", "pirats.turn.one-action", seat=w.turn)
            self._end_turn(w)

    # ---- the crew auction -----------------------------------------------------------------------
    def _do_open(self, w: _Work, move: OpenAuction) -> None:
        auc = w.auction
        assert auc is not None
        i = move.stool - 1
        front = next(k for k, sp in enumerate(auc.bar) if sp is not None)
        under = list(auc.under)
        if i != front:
            card = w.top_card()
            if card is not None:
                under[front] = under[front] + (card,)
                w.ev("PIRATS_CARD_SLIPPED", "pirats.auction.skip-card", stool=front + 1)
        needers = [seat for seat in range(w.s.players) if len(w.crews[seat]) < CREW_SIZE]
        k = needers.index(w.turn)
        active = tuple(needers[k:] + needers[:k])
        w.auction = _replace_auction(auc, under=tuple(under), stool=i, bid=move.bid, bidder=w.turn, active=active)
        if w.explain:
            w.ev("PIRATS_AUCTION_OPENED", "pirats.auction.open", seat=w.turn, stool=move.stool,
                 species=_species_term(auc.bar[i]), bid=move.bid)  # type: ignore[arg-type]
        w.phase = "bid"
        w.turn = _next_in(active, w.turn)

    def _hire(self, w: _Work, seat: int) -> None:
        auc = w.auction
        assert auc is not None and auc.stool is not None
        i = auc.stool
        species = auc.bar[i]
        assert species is not None
        crews = list(w.crews)
        crews[seat] = crews[seat] + (species,)
        w.crews = tuple(crews)
        for c in auc.under[i]:
            w.hands[seat][_SHIP_INDEX[c]] += 1
        bar = list(auc.bar)
        bar[i] = None
        under = list(auc.under)
        if w.explain:
            w.ev("PIRATS_HIRED", "pirats.auction.bidding", seat=seat, species=_species_term(species), bid=auc.bid,
                 bonus=len(under[i]))
        under[i] = ()
        w.auction = _replace_auction(auc, bar=tuple(bar), under=tuple(under), bidder=seat)
        w.turn = seat
        if auc.bid:
            w.phase = "pay"
        else:
            self._after_hire(w)

    def _after_hire(self, w: _Work) -> None:
        auc = w.auction
        assert auc is not None
        winner = auc.bidder
        n = w.s.players
        needers = [s for s in range(n) if len(w.crews[s]) < CREW_SIZE]
        last = winner
        if len(needers) == 1:
            # the only player still hiring takes everyone left at the bar, free (cards under them too)
            seat = needers[0]
            crews = list(w.crews)
            rest = [sp for sp in auc.bar if sp is not None]
            crews[seat] = crews[seat] + tuple(rest)
            w.crews = tuple(crews)
            for cards in auc.under:
                for c in cards:
                    w.hands[seat][_SHIP_INDEX[c]] += 1
            if w.explain:
                w.ev("PIRATS_HIRED_REST_FREE", "pirats.auction.last-bidder", seat=seat,
                     species=[_species_term(sp) for sp in rest])
            w.auction = _replace_auction(auc, bar=tuple(None for _ in auc.bar), under=tuple(() for _ in auc.bar))
            last = seat
            needers = []
        if not needers:
            assert last is not None
            w.auction = _replace_auction(w.auction, last_hirer=last, stool=None, active=())
            added = []
            while len(w.row) < ROW_SIZE:
                c = w.top_card()
                if c is None:
                    break
                w.row.append(c)
                added.append(_card_term(c))
            w.turn = w.start_player = last
            w.phase = "action"
            w.ev("PIRATS_AUCTION_DONE", "pirats.auction.starter", seat=last, cards=added)
            return
        opener = _next_in(tuple(needers), auc.opener)  # the left neighbour of the last opener still hiring
        w.auction = _replace_auction(auc, opener=opener, stool=None, bid=0, bidder=None, active=(),
                                     last_hirer=winner)
        w.turn = opener
        w.phase = "auction"

    # =====================================================================================================
    # views, text, loading

    def observe(self, state: PiratsState, seat: int | None) -> Mapping[str, Any]:
        """What ``seat`` may see: every table component, treasure piles (each pick is made face up in
        plain view), hand *sizes* of others and only ``seat``'s own hand."""
        def pirat_json(p: Pirat | None) -> Any:
            if p is None:
                return None
            return {"seat": p.seat, "figure": figure_label(state.crews[p.seat], p.figure),
                    "species": state.crews[p.seat][p.figure]}

        auc = state.auction
        sail = state.sailing
        return {
            "seat": seat, "players": state.players, "variant": state.variant, "powers": state.powers,
            "visibility": "pirats.view.hands",  # own hand only; hand sizes, table and every token public
            "phase": state.phase, "to_move": self.current_player(state), "turn": state.turn,
            "colours": list(COLOURS[:state.players]),
            "crews": [[figure_label(c, i) for i in range(len(c))] for c in state.crews],
            "home": [[figure_label(state.crews[p], f) for f in range(len(state.crews[p]))
                      if state.where(p, f) is None] for p in range(state.players)],
            "ships": {name: {"spaces": [pirat_json(p) for p in ship.spaces],
                             "flotsam": [{"loot": [str(t) for t in g.loot],
                                          "bonus": str(g.bonus) if g.bonus else None} for g in ship.flotsam]}
                      for name, ship in zip(SHIPS, state.ships)},
            "row": list(state.row), "deck": len(state.deck),
            "discard": {sym: state.discard.count(sym) for sym in SHIPS},
            "hand": dict(zip(SHIPS, state.hands[seat])) if seat is not None else None,
            "hand_sizes": [sum(h) for h in state.hands],
            "treasure": [[str(t) for t in pile] for pile in state.treasure],
            "scores": list(self.scores(state)),
            "loot_stock": len(state.loot_stock), "bonus_stock": len(state.bonus_stock),
            "boxed": [str(t) for t in state.boxed],
            "ended": state.ended, "final": [SHIPS[i] for i in state.final],
            # public: whose pick it is during a sailing, and which figure's option (a weasel's second action,
            # a snail's extra space) is pending — a bot or a hint reads the table from this view alone
            "sailing": None if sail is None else {
                "ship": SHIPS[sail.ship], "space": sail.order[sail.index] + 1 if sail.index < len(sail.order) else None,
                "picks": sail.picks, "captain": sail.seat},
            "pending": None if state.extra is None else figure_label(state.crews[state.turn], state.extra),
            "auction": None if auc is None else {
                "bar": list(auc.bar), "cards_under": [len(u) for u in auc.under], "opener": auc.opener,
                "stool": None if auc.stool is None else auc.stool + 1, "bid": auc.bid, "bidder": auc.bidder,
                "active": list(auc.active)},
        }

    def parse_move(self, text: str) -> Any:
        return parse_move(text)

    def describe_move(self, move: Any, lang: str = "en") -> str:
        """A move as a sentence for menus, in ``lang``."""
        if isinstance(move, Draw):
            src = translate("pirats.source.deck", lang) if move.source == "deck" else \
                translate(f"pirats.ship.{move.source}", lang)
            return translate("pirats.describe.draw", lang, source=src)
        if isinstance(move, MovePirat):
            key = "pirats.describe.move_peek" if move.peek else "pirats.describe.move"
            return translate(key, lang, figure=_label_text(move.figure, lang),
                             ship=translate(f"pirats.ship.{move.ship}", lang), steps=move.steps)
        if isinstance(move, BecomeCaptain):
            return translate("pirats.describe.captain", lang, figure=_label_text(move.figure, lang),
                             ship=translate(f"pirats.ship.{move.ship}", lang))
        if isinstance(move, SetSail):
            return translate("pirats.describe.sail", lang, ship=translate(f"pirats.ship.{move.ship}", lang))
        if isinstance(move, TakeLoot):
            return translate("pirats.describe.take", lang, token=move.token.text(lang))
        if isinstance(move, (Discard, Pay)):
            cards = [translate(f"pirats.card.{SHIPS[i]}", lang) for i in range(3) for _ in range(move.cards[i])]
            key = "pirats.describe.discard" if isinstance(move, Discard) else "pirats.describe.pay"
            return translate(key, lang, cards=cards)
        if isinstance(move, OpenAuction):
            return translate("pirats.describe.auction", lang, stool=move.stool, bid=move.bid)
        if isinstance(move, Bid):
            return translate("pirats.describe.bid", lang, bid=move.amount)
        if isinstance(move, Stay):
            return translate("pirats.describe.stay", lang)
        if isinstance(move, SnailStep):
            return translate("pirats.describe.step", lang)
        return translate("pirats.describe.pass", lang)

    def validate_state(self, state: PiratsState) -> None:
        n = state.players
        fail = InvalidStateError
        if not MIN_PLAYERS <= n <= MAX_PLAYERS:
            raise fail(f"state.players: {n} is not 2-5")
        if state.variant not in VARIANTS:
            raise fail(f"state.variant: unknown variant {state.variant!r}")
        if state.phase not in PHASES:
            raise fail(f"state.phase: unknown phase {state.phase!r}")
        for name in ("crews", "hands", "treasure"):
            if len(getattr(state, name)) != n:
                raise fail(f"state.{name}: expected {n} entries, one per seat")
        for seat, crew in enumerate(state.crews):
            if len(crew) > CREW_SIZE or not set(crew) <= set(SPECIES):
                raise fail(f"state.crews[{seat}]: a crew is up to {CREW_SIZE} figures of {', '.join(SPECIES)}")
            if state.phase not in ("auction", "bid", "pay") and len(crew) != CREW_SIZE:
                raise fail(f"state.crews[{seat}]: a crew has {CREW_SIZE} figures once play begins")
        if not 0 <= state.turn < n or not 0 <= state.start_player < n:
            raise fail("state.turn: not a seat")
        if len(state.ships) != len(SHIPS):
            raise fail("state.ships: there are three ships (rule pirats.setup.ships)")
        seen: set[Pirat] = set()
        captains: list[int] = []
        for s, ship in enumerate(state.ships):
            if len(ship.spaces) != 4:
                raise fail(f"state.ships[{s}].spaces: a ship has spaces 1-3 and the captain space")
            for i, p in enumerate(ship.spaces):
                if p is None:
                    continue
                if not 0 <= p.seat < n or not 0 <= p.figure < len(state.crews[p.seat]):
                    raise fail(f"state.ships[{s}].spaces[{i}]: no figure {p.figure} of seat {p.seat}")
                if p in seen:
                    raise fail(f"state.ships[{s}].spaces[{i}]: figure {p.figure} of seat {p.seat} is in two places")
                seen.add(p)
                if i == CAPTAIN:
                    captains.append(p.seat)
            for g, group in enumerate(ship.flotsam):
                if len(group.loot) > 3 or any(not t.is_loot for t in group.loot) or (
                        group.bonus is not None and not group.bonus.is_bonus):
                    raise fail(f"state.ships[{s}].flotsam[{g}]: a group is up to 3 loot and one bonus token "
                               "(rule pirats.setup.flotsam)")
        if len(captains) != len(set(captains)):
            raise fail("state.ships: a player has two captains (one captain per player)")
        cards = len(state.deck) + len(state.row) + len(state.discard) + sum(sum(h) for h in state.hands)
        if state.auction is not None:
            cards += sum(len(u) for u in state.auction.under)
        if any(c not in SHIPS for c in state.deck + state.row + state.discard):
            raise fail("state.deck/row/discard: charm cards are cat, bird or fish")
        if any(x < 0 for h in state.hands for x in h):
            raise fail("state.hands: negative card count")
        if cards != TOTAL_CARDS:
            raise fail(f"state: {cards} charm cards in play; the game has {TOTAL_CARDS} (rule pirats.setup.charms)")
        if len(state.row) > ROW_SIZE:
            raise fail("state.row: at most 4 face-up cards")
        if state.phase == "sail" and state.sailing is None:
            raise fail("state.sailing: a sailing phase needs the sailing's details")
        if state.phase in ("auction", "bid", "pay") and state.auction is None:
            raise fail("state.auction: an auction phase needs the bar")
        if state.phase == "snail":
            fig = state.extra
            here = None if fig is None or not 0 <= fig < len(state.crews[state.turn]) else state.where(state.turn, fig)
            if here is None or here[1] >= CAPTAIN or state.crews[state.turn][fig] != "snail":  # type: ignore[index]
                raise fail("state.extra: the snail phase needs the mover's snail on a crew space")

    def token_count(self, state: PiratsState) -> int:
        """Every token in the game, wherever it is (stocks, flotsam, piles, the box): conserved."""
        on_table = sum(len(g.loot) + (g.bonus is not None) for sh in state.ships for g in sh.flotsam)
        return (len(state.loot_stock) + len(state.bonus_stock) + on_table
                + sum(len(t) for t in state.treasure) + len(state.boxed))

    def card_count(self, state: PiratsState) -> int:
        """Every charm card, wherever it is: conserved at 54."""
        under = sum(len(u) for u in state.auction.under) if state.auction else 0
        return len(state.deck) + len(state.row) + len(state.discard) + sum(sum(h) for h in state.hands) + under

    def score_sheet(self, state: PiratsState, seat: int):
        check_int("seat", seat, 0, state.players - 1)
        return score_sheet(state.treasure[seat])


# ---------------------------------------------------------------------------------------------------------
# helpers

_EXACT_MOVE_TYPES = frozenset(MOVE_TYPES)


def _move_kind(move: Any) -> type:
    """The move class ``move`` is an instance of (its own class, or the move class it derives from)."""
    kind = type(move)
    if kind in _EXACT_MOVE_TYPES:
        return kind
    return next(t for t in MOVE_TYPES if isinstance(move, t))


# Moves are immutable values: legal-move generation hands out shared instances instead of re-validating.
_DRAW = {src: Draw(src) for src in ("deck",) + SHIPS}
_SAIL = tuple(SetSail(s) for s in SHIPS)
_MOVES: dict[tuple[str, str, int, bool], MovePirat] = {}
_CAPTAINS: dict[tuple[str, str], BecomeCaptain] = {}


_PASS = Pass()
_STAY = Stay()
_STEP = SnailStep()
_SHARED: dict[tuple[Any, ...], Any] = {}
_CACHE_LIMIT = 20_000  # entries per cache below; beyond it a cache starts afresh (memory stays bounded)


def _shared(kind: type, *args: Any) -> Any:
    """The one ``kind(*args)`` instance legal-move lists hand out (built and validated once)."""
    key = (kind, *args)
    mv = _SHARED.get(key)
    if mv is None:
        if len(_SHARED) > _CACHE_LIMIT:
            _SHARED.clear()
        mv = _SHARED[key] = kind(*args)
    return mv


_CARD_MOVES: dict[tuple[type, tuple[int, int, int], int], tuple[Any, ...]] = {}


def _card_moves(kind: type, hand: tuple[int, int, int], total: int) -> tuple[Any, ...]:
    """Every ``Discard`` / ``Pay`` of ``total`` cards from ``hand``, in :func:`_compositions` order."""
    key = (kind, tuple(hand), total)  # tuple(): a hand-built state may hold a list
    moves = _CARD_MOVES.get(key)
    if moves is None:
        if len(_CARD_MOVES) > _CACHE_LIMIT:
            _CARD_MOVES.clear()
        moves = _CARD_MOVES[key] = tuple(_shared(kind, c) for c in _compositions(hand, total))
    return moves


_TAKES: dict[tuple[Token, ...], tuple[TakeLoot, ...]] = {}


def _takes(loot: tuple[Token, ...]) -> tuple[TakeLoot, ...]:
    """One ``TakeLoot`` per distinct token of a flotsam group, in token order."""
    loot = tuple(loot)  # a hand-built group may hold a list
    moves = _TAKES.get(loot)
    if moves is None:
        if len(_TAKES) > _CACHE_LIMIT:
            _TAKES.clear()
        moves = _TAKES[loot] = tuple(_shared(TakeLoot, t) for t in sorted(set(loot), key=Token.sort_key))
    return moves


_RESOLVED: dict[tuple[tuple[str, ...], str], int | None] = {}


def _resolve(crew: tuple[str, ...], label: str) -> int | None:
    """:func:`resolve_figure`, remembered: a handful of crews and labels recur in every game."""
    key = (crew, label)
    try:
        return _RESOLVED[key]
    except KeyError:
        if len(_RESOLVED) > _CACHE_LIMIT:
            _RESOLVED.clear()
        fig = _RESOLVED[key] = resolve_figure(crew, label)
        return fig


_PATHS: dict[tuple[bool, bool, bool, int, int], tuple[int, tuple[int, ...]]] = {}  # at most 96 walks


_LABELS: dict[tuple[str, ...], tuple[str, ...]] = {}


def _labels(crew: tuple[str, ...]) -> tuple[str, ...]:
    labels = _LABELS.get(crew)
    if labels is None:
        labels = _LABELS[crew] = tuple(figure_label(crew, i) for i in range(len(crew)))
    return labels


_TABLES: dict[str, tuple[tuple[Any, ...], ...]] = {}


def _move_table(label: str) -> tuple[tuple[Any, ...], ...]:
    """Per ship: ((move 1, move 1 peek), (2, 2 peek), (3, 3 peek), captain) for one figure label."""
    table = _TABLES.get(label)
    if table is None:
        table = _TABLES[label] = tuple(
            tuple((_move(label, ship, n, False), _move(label, ship, n, True)) for n in (1, 2, 3))
            + (_captain(label, ship),) for ship in SHIPS)
    return table


def _affordable(spaces: tuple[Pirat | None, ...], start: int, seat: int, crews: tuple[tuple[str, ...], ...],
                powers: bool, held: int, may_captain: bool) -> tuple[int, bool, int, bool]:
    """How far ``seat``'s figure can go from space index ``start`` (-1 = the area) along a ship with ``held``
    cards of its symbol: (crew spaces 0-3 reachable, captaincy affordable) without and with the cockroach's
    one-card discount. Each space costs a card plus a toll per other player's raccoon jumped, so the cost
    only grows with the distance. The same walk as :func:`crew_path` and :meth:`_plan_captain`."""
    n0 = n1 = 0
    pos, toll = start, 0
    for steps in (1, 2, 3):
        nxt = pos + 1
        while nxt < CAPTAIN and spaces[nxt] is not None:
            p = spaces[nxt]
            if powers and p.seat != seat and crews[p.seat][p.figure] == "raccoon":  # type: ignore[union-attr]
                toll += 1
            nxt += 1
        if nxt >= CAPTAIN:
            break
        pos = nxt
        cost = steps + toll
        if cost > held + 1:
            break
        n1 = steps
        if cost <= held:
            n0 = steps
    c0 = c1 = False
    if may_captain and spaces[CAPTAIN] is None:
        toll = 0
        for i in range(start + 1, CAPTAIN):
            p = spaces[i]
            if p is None:
                return n0, False, n1, False  # a gap before the captain space
            if powers and p.seat != seat and crews[p.seat][p.figure] == "raccoon":
                toll += 1
        cost = (3 if start < 0 else 1) + toll
        c0, c1 = cost <= held, cost <= held + 1
    return n0, c0, n1, c1


_FIGURE_TABLES: dict[tuple[tuple[str, ...], bool], tuple[tuple[int, Any], ...]] = {}


def _figure_tables(crew: tuple[str, ...], powers: bool) -> tuple[tuple[int, Any], ...]:
    """Per figure of ``crew``: (cockroach discount 0/1, its :func:`_prefix_table`), made once per crew."""
    key = (crew, powers)
    tables = _FIGURE_TABLES.get(key)
    if tables is None:
        labels = _labels(crew)
        tables = _FIGURE_TABLES[key] = tuple(
            (1 if powers and species == "cockroach" else 0, _prefix_table(labels[i], powers and species == "snail"))
            for i, species in enumerate(crew))
    return tables


_PREFIXES: dict[tuple[str, bool], tuple[tuple[tuple[tuple[Any, ...], ...], ...], ...]] = {}


def _prefix_table(label: str, peek: bool) -> tuple[tuple[tuple[tuple[Any, ...], ...], ...], ...]:
    """``[ship][n][captain]``: the legal-move list for one figure on one ship when it can afford ``n``
    spaces (each move followed by its snail peek when ``peek``) and, if ``captain``, becoming captain —
    the order :meth:`PiratsEngine._action_moves` promises. Built once per figure label."""
    table = _PREFIXES.get((label, peek))
    if table is None:
        per_ship = []
        for ship in _move_table(label):
            rows = []
            for n in range(4):
                moves: list[Any] = []
                for plain, peeking in ship[:n]:
                    moves.append(plain)
                    if peek:
                        moves.append(peeking)
                rows.append((tuple(moves), tuple(moves) + (ship[3],)))
            per_ship.append(tuple(rows))
        table = _PREFIXES[(label, peek)] = tuple(per_ship)
    return table


def _move(label: str, ship: str, steps: int, peek: bool) -> MovePirat:
    key = (label, ship, steps, peek)
    mv = _MOVES.get(key)
    if mv is None:
        mv = _MOVES[key] = MovePirat(label, ship, steps, peek)
    return mv


def _captain(label: str, ship: str) -> BecomeCaptain:
    key = (label, ship)
    mv = _CAPTAINS.get(key)
    if mv is None:
        mv = _CAPTAINS[key] = BecomeCaptain(label, ship)
    return mv

def _label_text(label: str, lang: str) -> str:
    """A figure as people read it: ``rat#2`` is "rat (2)" / "ネズミ(2)" (the internal label is for move
    texts and codes only)."""
    species, hash_, number = label.partition("#")
    name = translate(f"pirats.species.{species}", lang)
    if not hash_:
        return name
    return f"{name}({number})" if lang == "ja" else f"{name} ({number})"


def _next_pirat(sail: Sailing, outcome: str) -> Sailing:
    return Sailing(sail.ship, sail.seat, sail.order, sail.index + 1, 0, sail.outcomes + (outcome,), sail.weasel)


def _next_in(ring: tuple[int, ...], seat: int) -> int:
    """The next seat of ``ring`` clockwise after ``seat`` (``seat`` need not be in it)."""
    ordered = sorted(ring)
    for s in ordered:
        if s > seat:
            return s
    return ordered[0]


def _replace_auction(auc: Auction, **changes: Any) -> Auction:
    fields = dict(bar=auc.bar, under=auc.under, opener=auc.opener, stool=auc.stool, bid=auc.bid,
                  bidder=auc.bidder, active=auc.active, last_hirer=auc.last_hirer)
    fields.update(changes)
    return Auction(**fields)


def _compositions(hand: tuple[int, int, int], total: int) -> list[tuple[int, int, int]]:
    """Every way to give ``total`` cards from ``hand`` (counts per symbol)."""
    out = []
    for a in range(min(hand[0], total) + 1):
        for b in range(min(hand[1], total - a) + 1):
            c = total - a - b
            if c <= hand[2]:
                out.append((a, b, c))
    return out


ENGINE = PiratsEngine()
