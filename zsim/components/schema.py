"""Typed, frozen models of the component box, validated with pydantic.

Every component of the game is data. An *ability* is a named list of alternatives, each a list
of effect steps; tableau cards, tiles and Unification rewards refer to abilities by id, so a
designer changes what a card does by changing one id, and changes what an ability does in one
place. Each effect kind is one model here (its parameters and their allowed values), named by
its record in ``zsim.rules.effects``.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal, Union, get_args

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    field_validator,
    model_validator,
)

from zsim.components.readonly import frozen

REGIONS = ("chu", "wei", "zhao", "qi", "yan")
SUITS = ("writing", "currency", "laws")
# The player colours; Alchemist set k (numbered from 1) belongs to the k-th colour.
COLOURS = ("Blue", "Yellow", "Red", "Purple")
OFFICIALS = ("alchemist", "architect", "general")
COURT_ACTIONS = ("recruit", "hire", "elixir", "palace", "governor", "wall")

Region = Literal["chu", "wei", "zhao", "qi", "yan"]
Suit = Literal["writing", "currency", "laws"]
Official = Literal["alchemist", "architect", "general"]
CourtAction = Literal["recruit", "hire", "elixir", "palace", "governor", "wall"]
# "here" is the region the component sits in: a tableau card's region, a built Palace's region.
Here = Literal["here"]


# The largest whole number (either sign) a component may hold: far beyond any game, and well
# inside the 64-bit columns of a run's tables (a larger one played, then failed to be written).
INT_BOUND = 10**9


def _within_bound(value: Any) -> Any:
    """Refuse a whole number, in a field or in its tuple or table, of ``INT_BOUND`` or more
    either side of 0 (a bool is a flag, not a number)."""
    items = value.values() if isinstance(value, dict) else value
    for item in items if isinstance(value, dict | tuple | list) else (value,):
        if isinstance(item, dict | tuple | list):
            _within_bound(item)
        elif isinstance(item, int) and not isinstance(item, bool) and abs(item) >= INT_BOUND:
            raise ValueError(f"{item} is out of range: a whole number here must lie strictly "
                             f"between -{INT_BOUND:,} and {INT_BOUND:,}")
    return value


_NUMBERS = (int, float, int | None, float | None)  # field types a bool is refused for


class Frozen(BaseModel):
    """Base for every component model: immutable, unknown keys are errors, and no whole number
    is out of ``INT_BOUND`` (checked here once for every field of every model)."""

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    @field_validator("*", mode="after")
    @classmethod
    def _numbers_within_bound(cls, value: Any) -> Any:
        return _within_bound(value)

    @model_validator(mode="before")
    @classmethod
    def _no_flag_for_a_number(cls, data: Any) -> Any:
        """``palace_vp: true`` is a slip, not 1 VP (pydantic reads a bool as a number)."""
        if isinstance(data, dict):
            for key, value in data.items():
                field = cls.model_fields.get(key) if isinstance(key, str) else None
                if isinstance(value, bool) and field is not None and \
                        field.annotation in _NUMBERS:
                    raise ValueError(f"{key}: expected a number, not {str(value).lower()}")
        return data


class Assumable(Frozen):
    """A component whose printed value is not in the rulebook may be marked as an assumption."""

    assumed: bool = False
    reason: str | None = None

    @model_validator(mode="after")
    def _assumption_has_reason(self) -> Assumable:
        if self.assumed and not self.reason:
            raise ValueError("an item marked 'assumed: true' needs a one-line 'reason'")
        return self


class KeyedAssumptions(Frozen):
    """A section of the board whose keys are assumed one by one: ``assumed`` maps each key the
    rulebook prints nothing for to the reason it is assumed. Numbers the rulebook prints (5
    rounds, 6 VP a Palace...) stay unmarked, so a report never flags them as assumptions."""

    assumed: Annotated[dict[str, str], AfterValidator(frozen)] = {}

    @model_validator(mode="after")
    def _assumed_keys_exist(self) -> KeyedAssumptions:
        for key, reason in self.assumed.items():
            if key == "assumed" or key not in type(self).model_fields:
                raise ValueError(f"'assumed' names {key!r}, which is not a key of this section")
            if not reason.strip():
                raise ValueError(f"assumed key {key!r} needs a one-line reason")
        return self


# --- effects -------------------------------------------------------------------------------


class Recruit(Frozen):
    """Take Officials from the supply into one region (all of them into the same region)."""

    effect: Literal["recruit"]
    official: Literal["alchemist", "architect", "general", "any"]
    count: int = Field(1, ge=1)
    where: Region | Here | Literal["any"]


class Hire(Frozen):
    """Take Workers from the unlimited supply into one region; raises no Unrest by itself."""

    effect: Literal["hire"]
    count: int = Field(1, ge=1)
    where: Region | Here | Literal["any"]


class RaiseUnrest(Frozen):
    """A cost: the ability or reward is unavailable if this would push Unrest above the cap."""

    effect: Literal["raise_unrest"]
    where: Region | Here
    amount: int = Field(1, ge=1)


class ReduceUnrest(Frozen):
    """Lower Unrest by ``amount`` in ``regions`` distinct regions (or in the card's region)."""

    effect: Literal["reduce_unrest"]
    where: Here | Literal["any"]
    amount: int = Field(1, ge=1)
    regions: int = Field(1, ge=1)


class ResetUnrest(Frozen):
    """Set Unrest to 0 in up to ``regions`` regions of the owner's choice."""

    effect: Literal["reset_unrest"]
    regions: int = Field(ge=1)


class Ship(Frozen):
    """Advance the Ship; every Elixir symbol reached or passed pays its reward."""

    effect: Literal["ship"]
    steps: int = Field(ge=1)


class MoveOfficials(Frozen):
    """Up to ``count`` single moves of one Official to an adjacent region."""

    effect: Literal["move_officials"]
    count: int = Field(ge=1)


class MoveWorkers(Frozen):
    """Up to ``count`` single moves of one Worker to an adjacent region."""

    effect: Literal["move_workers"]
    count: int = Field(ge=1)


class GainTokens(Frozen):
    """Take small Unification tokens from the supply (as many as remain)."""

    effect: Literal["gain_tokens"]
    color: Suit | Literal["any", "own"]
    count: int = Field(1, ge=1)


class VpPerCards(Frozen):
    """VP for each own tableau card of a type, in the whole tableau or in this region."""

    effect: Literal["vp_per_cards"]
    suit: Suit | Literal["alchemist", "any"]
    scope: Literal["tableau", "here"]
    per: int = Field(ge=1)


class VpPerPieces(Frozen):
    """VP for each own piece on the main board."""

    effect: Literal["vp_per_pieces"]
    piece: Literal["governor", "palace", "wall", "mausoleum_soldier"]
    per: int = Field(1, ge=1)


class VpPerRegion(Frozen):
    """VP for each region meeting a condition; ``per`` is indexed by the card's slot (1st..3rd)."""

    effect: Literal["vp_per_region"]
    condition: Literal[
        "palace", "governor", "writing", "currency", "laws", "alchemist", "calm",
        "officials_ge_unrest",
    ]
    per: tuple[int, int, int]


class VpRound(Frozen):
    """VP equal to the current round number."""

    effect: Literal["vp_round"]


class UnlockSoldiers(Frozen):
    """Move Terracotta Soldiers from the player board to the Mausoleum entrance."""

    effect: Literal["unlock_soldiers"]
    count: int = Field(1, ge=1)


class PlaceAlchemistCards(Frozen):
    """Put own Alchemist cards from the supply into the tableau (no tokens, no Unrest)."""

    effect: Literal["place_alchemist_cards"]
    count: int = Field(1, ge=1)
    where: Region | Literal["any", "alchemist_official"]
    up_to: bool = False


class PlaceSoldierFree(Frozen):
    """Put an unlocked soldier on any Mausoleum tile without one of the owner's soldiers."""

    effect: Literal["place_soldier_free"]


class InstallGovernorFree(Frozen):
    """Install a Governor without returning Officials, in one of the listed regions."""

    effect: Literal["install_governor_free"]
    regions: tuple[Region, ...] | Literal["any"]


class BuildPalaceFree(Frozen):
    """Build a Palace without an Architect or Workers; scores base VP and a Palace tile."""

    effect: Literal["build_palace_free"]
    large_token: bool = False


class BuildWallFree(Frozen):
    """Build a Wall on any open slot without paying Workers; Emperor tile as usual."""

    effect: Literal["build_wall_free"]


Effect = Annotated[
    Union[  # noqa: UP007 - pydantic discriminated unions read clearest this way
        Recruit, Hire, RaiseUnrest, ReduceUnrest, ResetUnrest, Ship, MoveOfficials, MoveWorkers,
        GainTokens, VpPerCards, VpPerPieces, VpPerRegion, VpRound, UnlockSoldiers,
        PlaceAlchemistCards, PlaceSoldierFree, InstallGovernorFree, BuildPalaceFree,
        BuildWallFree,
    ],
    Field(discriminator="effect"),
]
# The effect models, one per kind; each kind's record (``zsim.rules.effects.EFFECTS``) names its
# model, and a kind without a record stops the rules' import.
EFFECT_MODELS: tuple[type[Frozen], ...] = get_args(get_args(Effect)[0])


class Ability(Assumable):
    """A named ability: one or more alternatives (a slash on the printed face), each a list of
    steps resolved in order."""

    text: str
    options: tuple[Annotated[tuple[Effect, ...], Field(min_length=1)], ...] = Field(min_length=1)


# --- cards and tiles -----------------------------------------------------------------------


class UnificationCard(Assumable):
    number: int = Field(ge=1)
    suit: Suit
    trigger: CourtAction
    ability: str


class AlchemistCard(Assumable):
    id: str
    set: int = Field(ge=1)
    trigger: CourtAction
    ability: str


class MasterAlchemistCard(Assumable):
    id: str
    trigger: CourtAction
    ability: str


class EmperorTile(Assumable):
    """A Court action on its face; its back names the Wall section it is laid on at setup
    (``section``, numbered from 1, site by site, left section first)."""

    id: str
    action: CourtAction
    section: int = Field(ge=1)


class WallScoring(Frozen):
    """What one Wall on this tile scores: ``values[tier-1]`` for each thing counted."""

    kind: Literal[
        "regions_with_official", "regions_with_workers", "regions_with_pair", "quadruplets",
        "regions_with_palace",
    ]
    official: Official | None = None
    values: tuple[int, int, int]

    @model_validator(mode="after")
    def _official_only_for_official_kind(self) -> WallScoring:
        if (self.kind == "regions_with_official") != (self.official is not None):
            raise ValueError("'official' is required for regions_with_official and only there")
        return self


class WallTile(Assumable):
    id: str
    a: WallScoring
    b: WallScoring


class GovernorTile(Assumable):
    id: str
    ability: str | None  # None: a blank tile
    copies: int = Field(1, ge=1)


class PalaceTile(Assumable):
    id: str
    ability: str
    copies: int = Field(1, ge=1)


class StartingTile(Assumable):
    id: str
    ability: str
    copies: int = Field(1, ge=1)


class AspectRewards(Frozen):
    aspect: Suit
    rewards: tuple[str, str, str, str, str]  # ability ids, round 1..5


class UnificationBoard(Assumable):
    id: str
    aspects: tuple[AspectRewards, AspectRewards, AspectRewards]

    @field_validator("aspects")
    @classmethod
    def _each_aspect_once(cls, aspects: tuple[AspectRewards, ...]) -> tuple[AspectRewards, ...]:
        if sorted(a.aspect for a in aspects) != sorted(SUITS):
            raise ValueError("a board lists writing, currency and laws once each")
        return aspects


class MausoleumTile(Assumable):
    id: str
    kind: Literal["region", "wall", "elixir"]
    condition: Literal[
        "palace", "governor", "full", "council", "workforce",
        "both_sections", "high_wall", "first_builder", "master_alchemist",
    ]

    @model_validator(mode="after")
    def _condition_fits_kind(self) -> MausoleumTile:
        allowed = {
            "region": {"palace", "governor", "full", "council", "workforce"},
            "wall": {"both_sections", "high_wall", "first_builder"},
            "elixir": {"master_alchemist"},
        }[self.kind]
        if self.condition not in allowed:
            raise ValueError(f"condition {self.condition!r} does not fit a {self.kind} tile")
        return self


# --- the board and the numbers of the rules --------------------------------------------------

# by player count; read-only, as every table of the box (zsim.components.readonly)
PerPlayerCount = Annotated[dict[Literal[2, 3, 4], int], AfterValidator(frozen)]


class ElixirRoute(KeyedAssumptions):
    vp: tuple[int, ...]  # VP value of each space, space 0 first
    elixir_spaces: tuple[int, ...]
    master_alchemist_space: int


class WallLayout(KeyedAssumptions):
    sites: int = Field(ge=1)
    sections_per_site: int = Field(ge=1)
    # Worker cost of each slot of a section, by player count
    tiers: Annotated[dict[Literal[2, 3, 4], tuple[int, ...]], AfterValidator(frozen)]


class MausoleumLayout(KeyedAssumptions):
    grid: tuple[tuple[str, ...], ...]  # spot bindings: a region, 'site1'.., or 'elixir'
    slot_values: tuple[int, ...]
    min_players_for_slot: tuple[int, ...]  # per slot: fewest players for which it is used


class Rules(KeyedAssumptions):
    """Numbers of the rules that a designer may want to vary."""

    rounds: int = Field(5, ge=1)
    cards_per_suit_per_round: int = Field(2, ge=1)
    unrest_cap: int = Field(3, ge=1)
    region_card_limit: int = Field(3, ge=1)
    tokens_per_slot: tuple[int, int, int] = (1, 2, 3)
    unrest_per_slot: tuple[int, int, int] = (0, 1, 2)
    hire_workers: int = 2
    hire_unrest: int = 1
    palace_workers_here: int = 2
    palace_workers_elsewhere: int = 1
    palace_vp: int = 6
    elixir_steps: int = 3
    small_tokens: PerPlayerCount
    small_token_keep: int = 5
    large_token_value: int = 2
    unlock_cost: int = 3
    officials_per_type: int = 4
    governors: int = 7
    palaces: int = 6
    walls: int = 6
    soldiers: int = 9
    soldiers_unlocked_at_start: int = 1
    palace_spaces: PerPlayerCount
    governor_bonus_slots: PerPlayerCount
    governor_tiles_with_bonus: PerPlayerCount
    governor_blank_tiles: PerPlayerCount
    emperor_tiles: PerPlayerCount
    starting_tiles_dealt: int = 2
    governor_majority_vp: PerPlayerCount
    mausoleum_line_vp: int = 10
    workforce_workers: int = Field(3, ge=1)  # Workers a region needs for the Workforce tile
    extra_soldier_vp: tuple[int, ...]  # VP for 0, 1, 2, 3+ soldiers left at the entrance


class Board(KeyedAssumptions):
    regions: tuple[Region, ...]
    elixir: ElixirRoute
    wall: WallLayout
    mausoleum: MausoleumLayout
    rules: Rules


# --- solo mode: Li Si ------------------------------------------------------------------------


class LiSiAction(Assumable):
    """One of Li Si's 24 action cards. ``use`` says whether it leaves the game once played.

    unification: tuck the top card of his Unification deck (one card).
    elixir: move his Ship ``steps`` spaces.
    governor: ``regions`` priority; ``pattern`` first_bonus_left (1 Governor), two_bonus_right
      (2 Governors, same region), area (1 Governor); ``fallback`` majority (card 14).
    palace: ``regions`` priority, ``tokens`` order of large tokens, ``take_tile``; ``fallback``
      first_region (cards 18-19).
    wall: ``sites`` priority (1-based), ``arrow`` left/right section, ``pattern``
      right_emperor / left_emperor / left; ``fallback`` last_section (cards 23-24).
    """

    number: int = Field(ge=1)
    kind: Literal["unification", "elixir", "governor", "palace", "wall"]
    use: Literal["one_time", "ongoing"]
    steps: int = Field(0, ge=0)
    regions: tuple[Region, ...] = ()
    pattern: Literal[
        "", "first_bonus_left", "two_bonus_right", "area", "right_emperor", "left_emperor",
        "left",
    ] = ""
    tokens: tuple[Suit, ...] = ()
    take_tile: bool = False
    sites: tuple[int, ...] = ()
    arrow: Literal["", "left", "right"] = ""
    fallback: Literal["", "majority", "first_region", "last_section"] = ""

    @model_validator(mode="after")
    def _fields_fit_kind(self) -> LiSiAction:
        needs = {
            "elixir": self.steps > 0,
            "governor": bool(self.regions) and self.pattern in (
                "first_bonus_left", "two_bonus_right", "area"),
            "palace": bool(self.regions) and bool(self.tokens),
            "wall": bool(self.sites) and bool(self.arrow) and self.pattern in (
                "right_emperor", "left_emperor", "left"),
            "unification": True,
        }[self.kind]
        if not needs:
            raise ValueError(f"a {self.kind} action card is missing its parameters "
                             "(see the LiSiAction fields)")
        return self


class ScoringCard(Assumable):
    """One face of Li Si's scoring cards: Wall VP by tier, and a Governor or an Elixir line."""

    id: Literal["A", "B", "C", "D"]
    wall: tuple[int, int, int]
    governor: Literal["", "split_ties", "wins_ties"] = ""
    elixir_bonus: int | None = None  # added to the Ship value; None: no Elixir line

    @model_validator(mode="after")
    def _one_bottom_line(self) -> ScoringCard:
        if bool(self.governor) == (self.elixir_bonus is not None):
            raise ValueError("a scoring card has either a governor line or an elixir_bonus")
        return self


class LiSiCard(Assumable):
    """One difficulty level: the 9 action cards, the scoring cards (top one whole, the bottom
    line of the other), his turn-order position, Ship start and extra unlocked soldiers."""

    level: int = Field(ge=1)
    actions: tuple[int, ...] = Field(min_length=1)
    scoring_top: Literal["A", "B", "C", "D"]
    scoring_bottom: Literal["A", "B", "C", "D"]
    turn_position: Literal[1, 2]
    ship: int = Field(0, ge=0)
    unlocked_soldiers: int = Field(0, ge=0)


RegionCondition = Literal["palace", "governor", "full", "council", "workforce"]


class LiSiCondition(Assumable):
    """How Li Si meets a region Mausoleum condition that counts pieces he never has (Officials,
    Workers; ruling 27e): for him ``condition`` is met where ``met_as`` is, in the same
    region."""

    condition: RegionCondition
    met_as: RegionCondition

    @model_validator(mode="after")
    def _another_condition(self) -> LiSiCondition:
        if self.condition == self.met_as:
            raise ValueError(f"{self.condition!r} is read as itself")
        return self


class LiSiAlchemists(Assumable):
    """Which Alchemist set Li Si's Elixir actions draw from: ``colour`` (the set of the colour
    he is dealt, as a player's) or a set number."""

    set: Literal["colour"] | int = "colour"


class Solo(Assumable):
    action_cards: tuple[LiSiAction, ...]
    scoring_cards: tuple[ScoringCard, ...]
    lisi_cards: tuple[LiSiCard, ...]
    conditions: tuple[LiSiCondition, ...] = ()
    alchemists: LiSiAlchemists = LiSiAlchemists()
