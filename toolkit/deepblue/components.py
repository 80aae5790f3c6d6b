"""Deep Blue's components as validated, user-editable data.

Known facts (bag and supply counts, gem values, spot kinds, tile and card counts, the three known
scenarios) come from ``shared/data/README.md``. Everything the sources leave out — the board map, each
wreck tile's leader bonus and scouting spots, the 50 crew cards' icons, four scenarios — ships as
*illustrative defaults* in ``toolkit/deepblue/data/*.json`` (each entry carries ``"illustrative": true``).
Replace them with your own box's values::

    comps = load_components()                                  # the defaults
    comps = load_components(wrecks=my_wreck_list)              # your tiles, validated
    comps = load_components_file("my_box.json")                # {"wrecks": [...], "cards": [...], ...}

Invalid data raises :class:`toolkit.core.DataError` naming the field path, e.g.
``wrecks[3].spots[1]: unknown scouting spot 'pink' (use silver, gold, red, black, blue, any)``.
"""

from __future__ import annotations

import json
from collections import deque
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any, Mapping, Sequence

from toolkit.core.errors import DataError
from toolkit.deepblue.gems import COLOURS, HAZARDS, SETUP_BAG, SETUP_SUPPLY, SPOT_KINDS

#: starter bonus tokens by seat (start player 0, seats 2-3 one, seats 4-5 two)
STARTER_TOKENS: tuple[int, ...] = (0, 1, 1, 2, 2)
MARKET_SLOTS = 4            # prices $1..$4, slot i costs i + 1
SUNKEN_CITY_DIVES_TO_END = 4


@dataclass(frozen=True)
class Site:
    id: int
    name: Mapping[str, str]
    x: float
    y: float
    harbour: bool = False


@dataclass(frozen=True)
class Board:
    sites: tuple[Site, ...]
    edges: tuple[tuple[int, int], ...]
    start_sites: tuple[int, ...]
    advanced_sites: tuple[int, ...]

    @property
    def harbour(self) -> int:
        return next(s.id for s in self.sites if s.harbour)

    def neighbours(self, site: int) -> tuple[int, ...]:
        return self._adjacency().get(site, ())

    @lru_cache(maxsize=None)
    def _adjacency(self) -> dict[int, tuple[int, ...]]:
        adj: dict[int, list[int]] = {s.id: [] for s in self.sites}
        for a, b in self.edges:
            adj[a].append(b)
            adj[b].append(a)
        return {k: tuple(sorted(v)) for k, v in adj.items()}

    @lru_cache(maxsize=None)
    def distances(self, site: int) -> dict[int, int]:
        """Steps from ``site`` to every site (breadth-first; each propeller is one step)."""
        dist = {site: 0}
        queue = deque([site])
        while queue:
            here = queue.popleft()
            for n in self.neighbours(here):
                if n not in dist:
                    dist[n] = dist[here] + 1
                    queue.append(n)
        return dist

    def __hash__(self) -> int:
        return id(self)


@dataclass(frozen=True)
class WreckTile:
    id: str
    name: Mapping[str, str]
    deck: str                       # "start" or "advanced"
    empty: bool
    sunken_city: bool
    leader_bonus: int
    spots: tuple[str, ...]
    illustrative: bool = True


@dataclass(frozen=True)
class CrewCard:
    id: int
    name: Mapping[str, str]
    starter: str | None             # player colour of a starting card, None for market cards
    cash: int
    propellers: int
    protection: str | None          # "black" (harpoon) / "blue" (oxygen tank)
    score_requires: tuple[tuple[str, int], ...]   # gems the dive must show before the card can score
    score_vp: int
    adds_gem: str | None
    illustrative: bool = True

    @property
    def scores(self) -> bool:
        return self.score_vp > 0


@dataclass(frozen=True)
class Scenario:
    id: str
    name: Mapping[str, str]
    text: Mapping[str, str]
    gems_per_draw: int
    card_vp_bonus: int
    scattered_wealth: bool
    illustrative: bool = False


@dataclass(frozen=True)
class Components:
    board: Board
    wrecks: tuple[WreckTile, ...]
    cards: tuple[CrewCard, ...]
    player_colours: tuple[str, ...]
    scenarios: tuple[Scenario, ...]
    bag: tuple[tuple[str, int], ...] = tuple(SETUP_BAG.items())
    supply: tuple[tuple[str, int], ...] = tuple(SETUP_SUPPLY.items())

    def card(self, card_id: int) -> CrewCard:
        return self._cards()[card_id]

    @lru_cache(maxsize=None)
    def _cards(self) -> dict[int, CrewCard]:
        return {c.id: c for c in self.cards}

    def wreck(self, wreck_id: str) -> WreckTile:
        return self._wrecks()[wreck_id]

    @lru_cache(maxsize=None)
    def _wrecks(self) -> dict[str, WreckTile]:
        return {w.id: w for w in self.wrecks}

    def scenario(self, scenario_id: str) -> Scenario:
        if not isinstance(scenario_id, str):
            raise DataError(f"scenario: a scenario is named by its id, not {scenario_id!r:.60}")
        for s in self.scenarios:
            if s.id == scenario_id:
                return s
        raise DataError(f"scenario: unknown scenario {scenario_id!r} (use {', '.join(s.id for s in self.scenarios)})")

    def starters(self, colour: str) -> tuple[int, ...]:
        return tuple(c.id for c in self.cards if c.starter == colour)

    def market_deck(self) -> tuple[int, ...]:
        return tuple(c.id for c in self.cards if c.starter is None)

    def __hash__(self) -> int:
        return id(self)


# ---------------------------------------------------------------------------------------------------
# validation helpers: every failure names the field path
def _need(obj: Any, key: str, path: str) -> Any:
    if not isinstance(obj, Mapping):
        raise DataError(f"{path}: expected an object, got {type(obj).__name__}")
    if key not in obj:
        raise DataError(f"{path}.{key}: missing")
    return obj[key]


def _int(v: Any, path: str, low: int = 0, high: int | None = None) -> int:
    if isinstance(v, bool) or not isinstance(v, int):
        raise DataError(f"{path}: expected an integer, got {v!r}")
    if v < low or (high is not None and v > high):
        span = f"{low}..{high}" if high is not None else f">= {low}"
        raise DataError(f"{path}: {v} is out of range ({span})")
    return v


def _bool(v: Any, path: str) -> bool:
    if not isinstance(v, bool):
        raise DataError(f"{path}: expected true or false, got {v!r}")
    return v


def _names(v: Any, path: str) -> dict[str, str]:
    if not isinstance(v, Mapping) or not all(isinstance(v.get(lang), str) and v.get(lang).strip() for lang in ("en", "ja")):
        raise DataError(f"{path}: needs non-empty 'en' and 'ja' texts")
    return {"en": v["en"], "ja": v["ja"]}


def _list(v: Any, path: str) -> list:
    if not isinstance(v, (list, tuple)):
        raise DataError(f"{path}: expected a list, got {type(v).__name__}")
    return list(v)


def _colour(v: Any, path: str, allowed: Sequence[str] = COLOURS) -> str:
    if v not in allowed:
        raise DataError(f"{path}: unknown gem colour {v!r} (use {', '.join(allowed)})")
    return v


# ---------------------------------------------------------------------------------------------------
def parse_board(data: Any, path: str = "board") -> Board:
    sites = []
    for i, s in enumerate(_list(_need(data, "sites", path), f"{path}.sites")):
        p = f"{path}.sites[{i}]"
        x, y = _need(s, "x", p), _need(s, "y", p)
        for k, v in (("x", x), ("y", y)):
            if isinstance(v, bool) or not isinstance(v, (int, float)):
                raise DataError(f"{p}.{k}: expected a number, got {v!r}")
        sites.append(Site(_int(_need(s, "id", p), f"{p}.id"), _names(_need(s, "name", p), f"{p}.name"),
                          float(x), float(y), _bool(s.get("harbour", False), f"{p}.harbour")))
    ids = [s.id for s in sites]
    if len(set(ids)) != len(ids):
        raise DataError(f"{path}.sites: site ids must be unique, got {ids}")
    if sum(s.harbour for s in sites) != 1:
        raise DataError(f"{path}.sites: exactly one site must be the harbour")
    edges = []
    for i, e in enumerate(_list(_need(data, "edges", path), f"{path}.edges")):
        e = _list(e, f"{path}.edges[{i}]")
        if len(e) != 2 or any(v not in ids for v in e) or e[0] == e[1]:
            raise DataError(f"{path}.edges[{i}]: an edge joins two different known sites, got {e!r}")
        edges.append((e[0], e[1]))
    start = tuple(_int(v, f"{path}.start_sites[{i}]") for i, v in
                  enumerate(_list(_need(data, "start_sites", path), f"{path}.start_sites")))
    adv = tuple(_int(v, f"{path}.advanced_sites[{i}]") for i, v in
                enumerate(_list(_need(data, "advanced_sites", path), f"{path}.advanced_sites")))
    for name, group in (("start_sites", start), ("advanced_sites", adv)):
        for i, v in enumerate(group):
            if v not in ids or next(s for s in sites if s.id == v).harbour:
                raise DataError(f"{path}.{name}[{i}]: {v} is not a wreck site")
    if set(start) & set(adv) or len(set(start)) != len(start) or len(set(adv)) != len(adv):
        raise DataError(f"{path}.start_sites: start and advanced sites must be distinct")
    board = Board(tuple(sites), tuple(edges), start, adv)
    reach = board.distances(board.harbour)
    unreachable = sorted(set(ids) - set(reach))
    if unreachable:
        raise DataError(f"{path}.edges: sites {unreachable} cannot be reached from the harbour")
    return board


def parse_wrecks(data: Any, path: str = "wrecks") -> tuple[WreckTile, ...]:
    out = []
    for i, w in enumerate(_list(data, path)):
        p = f"{path}[{i}]"
        deck = _need(w, "deck", p)
        if deck not in ("start", "advanced"):
            raise DataError(f"{p}.deck: must be 'start' or 'advanced', got {deck!r}")
        empty = _bool(w.get("empty", False), f"{p}.empty")
        spots = tuple(_list(_need(w, "spots", p), f"{p}.spots"))
        for j, s in enumerate(spots):
            if s not in SPOT_KINDS:
                raise DataError(f"{p}.spots[{j}]: unknown scouting spot {s!r} (use {', '.join(SPOT_KINDS)})")
        if not empty and len(spots) != 3:
            raise DataError(f"{p}.spots: a wreck tile has 3 scouting spots, got {len(spots)}")
        wid = _need(w, "id", p)
        if not isinstance(wid, str) or not wid:
            raise DataError(f"{p}.id: expected a non-empty text id, got {wid!r}")
        out.append(WreckTile(wid, _names(_need(w, "name", p), f"{p}.name"), deck, empty,
                             _bool(w.get("sunken_city", False), f"{p}.sunken_city"),
                             _int(_need(w, "leader_bonus", p), f"{p}.leader_bonus", 0, 50), spots,
                             _bool(w.get("illustrative", True), f"{p}.illustrative")))
    ids = [w.id for w in out]
    if len(set(ids)) != len(ids):
        raise DataError(f"{path}: wreck ids must be unique")
    if sum(w.sunken_city for w in out) < SUNKEN_CITY_DIVES_TO_END:
        raise DataError(f"{path}: the game needs at least {SUNKEN_CITY_DIVES_TO_END} Sunken City tiles "
                        f"(sunken_city: true), got {sum(w.sunken_city for w in out)}")
    if any(w.sunken_city and w.deck != "advanced" for w in out):
        raise DataError(f"{path}: Sunken City tiles belong to the advanced deck")
    return tuple(out)


def parse_cards(data: Any, colours: Sequence[str], path: str = "cards") -> tuple[CrewCard, ...]:
    out = []
    for i, c in enumerate(_list(data, path)):
        p = f"{path}[{i}]"
        starter = c.get("starter") if isinstance(c, Mapping) else None
        if starter is not None and starter not in colours:
            raise DataError(f"{p}.starter: unknown player colour {starter!r} (use {', '.join(colours)} or null)")
        prot = c.get("protection") if isinstance(c, Mapping) else None
        if prot is not None:
            _colour(prot, f"{p}.protection", HAZARDS)
        score = c.get("score") if isinstance(c, Mapping) else None
        req: tuple[tuple[str, int], ...] = ()
        vp = 0
        if score is not None:
            req_data = _need(score, "requires", f"{p}.score")
            if not isinstance(req_data, Mapping) or not req_data:
                raise DataError(f"{p}.score.requires: expected gems such as {{\"purple\": 1}}")
            req = tuple((_colour(k, f"{p}.score.requires.{k}"), _int(v, f"{p}.score.requires.{k}", 1, 20))
                        for k, v in req_data.items())
            vp = _int(_need(score, "vp", f"{p}.score"), f"{p}.score.vp", 1, 50)
        adds = c.get("adds_gem") if isinstance(c, Mapping) else None
        if adds is not None:
            _colour(adds, f"{p}.adds_gem", tuple(SETUP_SUPPLY))
        out.append(CrewCard(_int(_need(c, "id", p), f"{p}.id", 1), _names(_need(c, "name", p), f"{p}.name"),
                            starter, _int(c.get("cash", 0), f"{p}.cash", 0, 10),
                            _int(c.get("propellers", 0), f"{p}.propellers", 0, 10), prot, req, vp, adds,
                            _bool(c.get("illustrative", True), f"{p}.illustrative")))
    ids = [c.id for c in out]
    if len(set(ids)) != len(ids):
        raise DataError(f"{path}: card ids must be unique")
    for colour in colours:
        if not any(c.starter == colour for c in out):
            raise DataError(f"{path}: player colour {colour!r} has no starting cards")
    if not any(c.starter is None for c in out):
        raise DataError(f"{path}: the market deck is empty (no card with starter: null)")
    return tuple(out)


def parse_scenarios(data: Any, path: str = "scenarios") -> tuple[Scenario, ...]:
    out = []
    for i, s in enumerate(_list(data, path)):
        p = f"{path}[{i}]"
        sid = _need(s, "id", p)
        if not isinstance(sid, str) or not sid:
            raise DataError(f"{p}.id: expected a non-empty text id, got {sid!r}")
        out.append(Scenario(sid, _names(_need(s, "name", p), f"{p}.name"), _names(_need(s, "text", p), f"{p}.text"),
                            _int(s.get("gems_per_draw", 1), f"{p}.gems_per_draw", 1, 2),
                            _int(s.get("card_vp_bonus", 0), f"{p}.card_vp_bonus", 0, 20),
                            _bool(s.get("scattered_wealth", False), f"{p}.scattered_wealth"),
                            _bool(s.get("illustrative", False), f"{p}.illustrative")))
    if len({s.id for s in out}) != len(out):
        raise DataError(f"{path}: scenario ids must be unique")
    return tuple(out)


def _gem_table(data: Any, path: str, allowed: Sequence[str]) -> tuple[tuple[str, int], ...]:
    if not isinstance(data, Mapping):
        raise DataError(f"{path}: expected gems such as {{\"silver\": 7}}")
    return tuple((_colour(k, f"{path}.{k}", allowed), _int(v, f"{path}.{k}", 0, 60)) for k, v in data.items())


def _default(name: str) -> Any:
    return json.loads(resources.files("toolkit.deepblue").joinpath("data").joinpath(name).read_text(encoding="utf-8"))


def load_components(*, board: Any = None, wrecks: Any = None, cards: Any = None, player_colours: Any = None,
                    scenarios: Any = None, bag: Any = None, supply: Any = None) -> Components:
    """The components, defaults replaced by whatever is given; every part is validated."""
    crew_default = _default("crew.json")
    colours = player_colours if player_colours is not None else crew_default["player_colours"]
    colours = tuple(_list(colours, "player_colours"))
    if len(colours) < 2 or any(not isinstance(c, str) or not c for c in colours) or len(set(colours)) != len(colours):
        raise DataError("player_colours: need at least 2 distinct colour names")
    b = parse_board(board if board is not None else _default("board.json"))
    w = parse_wrecks(wrecks if wrecks is not None else _default("wrecks.json")["wrecks"])
    n_start = sum(1 for t in w if t.deck == "start")
    n_adv = len(w) - n_start
    if n_start != len(b.start_sites):
        raise DataError(f"wrecks: {n_start} starting tiles but the board has {len(b.start_sites)} start sites")
    if n_adv != len(b.advanced_sites):
        raise DataError(f"wrecks: {n_adv} advanced tiles but the board has {len(b.advanced_sites)} advanced sites")
    c = parse_cards(cards if cards is not None else crew_default["cards"], colours)
    s = parse_scenarios(scenarios if scenarios is not None else _default("scenarios.json")["scenarios"])
    bag_t = _gem_table(bag, "bag", COLOURS) if bag is not None else tuple(SETUP_BAG.items())
    sup_t = _gem_table(supply, "supply", COLOURS) if supply is not None else tuple(SETUP_SUPPLY.items())
    return Components(b, w, c, colours, s, bag_t, sup_t)


def load_components_file(path: str | Path) -> Components:
    """Load ``{"board": …, "wrecks": […], "cards": […], "scenarios": […]}`` (any subset) from a JSON file."""
    if not isinstance(path, (str, Path)):
        raise TypeError(f"path must be a file path, not {path!r:.60}")
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as exc:
        raise DataError(f"{path}: cannot read components: {exc}") from None
    if not isinstance(data, Mapping):
        raise DataError(f"{path}: expected an object with board / wrecks / cards / scenarios")
    unknown = sorted(set(data) - {"board", "wrecks", "cards", "player_colours", "scenarios", "bag", "supply", "_meta"})
    if unknown:
        raise DataError(f"{path}: unknown part(s) {unknown}")
    return load_components(**{k: v for k, v in data.items() if k != "_meta"})


@lru_cache(maxsize=1)
def default_components() -> Components:
    return load_components()


def components_or_default(comps: "Components | None", name: str = "comps") -> Components:
    """``comps``, or the default components when it is ``None``; anything else is a ``TypeError`` naming
    ``name`` (a bot built with a list instead of components should say so, not fail later)."""
    if comps is None:
        return default_components()
    if not isinstance(comps, Components):
        raise TypeError(f"{name} must be a Components record (or None for the defaults), not {comps!r:.60}")
    return comps
