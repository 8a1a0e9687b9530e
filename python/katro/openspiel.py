"""katro as an OpenSpiel game.

    import pyspiel
    import katro.openspiel
    katro.openspiel.register()
    game = pyspiel.load_game("katro(variant=katro-6x6)")

The one parameter, `variant`, is a preset name (`katro.presets()`) or the
text of a variant file. Every move of a game is a katro engine call; the
mapping to OpenSpiel is documented in python/README.md ("OpenSpiel"):

- players 0 and 1 are katro's players 1 (South, moves first) and 2;
- actions are katro's action encoding (`Variant.num_actions` of them);
- a won game returns +1 to the winner and -1 to the loser; a game that
  ends undecided (ply limit, endless move, lap limit) returns 0 to both;
- `max_game_length` is the variant's ply limit, twice it under
  `step_sowing = "chosen"` (a capturing lone-seed step pauses the turn for
  a second decision of the same ply): katro ends every game at the ply
  limit, so no game is longer;
- the observation tensor is `State.observation()`: seed counts per hole,
  the player to move, the hole a paused turn sows on from, fixed directions.
"""

import base64

import numpy as np
import pyspiel
from open_spiel.python.observation import IIGObserverForPublicInfoGame

import katro

SHORT_NAME = "katro"
DEFAULT_VARIANT = "katro-6x6"

_PARAMS = {"variant": DEFAULT_VARIANT}

_GAME_TYPE = pyspiel.GameType(
    short_name=SHORT_NAME,
    long_name="Katro (katro's Rust engine)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.DETERMINISTIC,
    information=pyspiel.GameType.Information.PERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=2,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=False,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=_PARAMS,
)


# OpenSpiel writes a game as `katro(variant=...)` and splits that text at
# commas and parentheses, which TOML text is full of: the game keeps TOML
# text in this form instead, so that the game's string loads it again.
_ENCODED = "toml-base64:"


def _is_toml(spec):
    return "\n" in spec or "=" in spec


def encode_parameter(spec):
    """The `variant` parameter as the game keeps it: a preset name as it
    is, TOML text as `toml-base64:` and its URL-safe base64 (no padding)."""
    if spec.startswith(_ENCODED) or not _is_toml(spec):
        return spec
    return _ENCODED + base64.urlsafe_b64encode(spec.encode("utf-8")).decode("ascii").rstrip("=")


def variant_from_parameter(spec):
    """The katro.Variant a `variant` parameter names: TOML text (anything
    with a newline or an `=`), its `toml-base64:` form, or a preset name."""
    where = "the OpenSpiel parameter `variant`"
    if spec.startswith(_ENCODED):
        data = spec[len(_ENCODED) :]
        try:
            raw = base64.b64decode(data + "=" * (-len(data) % 4), altchars=b"-_", validate=True)
            text = raw.decode("utf-8")
        except ValueError as e:
            raise katro.VariantError(f"{where}: not base64 of UTF-8 text after `{_ENCODED}`: {e}")
        return katro.Variant.from_toml(text, file=where)
    if _is_toml(spec):
        return katro.Variant.from_toml(spec, file=where)
    return katro.Variant.preset(spec)


class KatroGame(pyspiel.Game):
    """A Katro variant as an OpenSpiel game."""

    def __init__(self, params=None):
        params = dict(params or {})
        params["variant"] = encode_parameter(params.get("variant", DEFAULT_VARIANT))
        self.variant = variant_from_parameter(params["variant"])
        info = pyspiel.GameInfo(
            num_distinct_actions=self.variant.num_actions,
            max_chance_outcomes=0,
            num_players=2,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=self.variant.max_decisions,
        )
        super().__init__(_GAME_TYPE, info, params)

    def new_initial_state(self):
        return KatroState(self)

    def make_py_observer(self, iig_obs_type=None, params=None):
        if iig_obs_type is None or (
            iig_obs_type.public_info and not iig_obs_type.perfect_recall
        ):
            return KatroObserver(self.variant, params)
        return IIGObserverForPublicInfoGame(iig_obs_type, params)


class KatroState(pyspiel.State):
    """An OpenSpiel state over a katro.State."""

    def __init__(self, game):
        super().__init__(game)
        self.katro = game.variant.start()

    def current_player(self):
        if self.katro.is_over:
            return pyspiel.PlayerId.TERMINAL
        return self.katro.to_move - 1

    def _legal_actions(self, player):
        if player != self.katro.to_move - 1:
            return []
        return self.katro.legal_actions()

    def _apply_action(self, action):
        self.katro.apply(int(action))

    def _action_to_string(self, player, action):
        return self.katro.variant.action_to_move(int(action))

    def is_terminal(self):
        return self.katro.is_over

    def returns(self):
        winner = self.katro.winner
        if winner is None:
            return [0.0, 0.0]
        return [1.0, -1.0] if winner == 1 else [-1.0, 1.0]

    def __str__(self):
        return str(self.katro)


class KatroObserver:
    """Observation tensor and string: the board, whose turn it is and the
    rest of the position (perfect information: the same for both players)."""

    def __init__(self, variant, params):
        if params:
            raise ValueError(f"Observation parameters not supported; passed {params}")
        self.tensor = np.zeros(variant.observation_size, np.float32)
        holes = variant.holes
        self.dict = {
            "seeds": self.tensor[:holes].reshape(variant.rows, variant.cols),
            "to_move": self.tensor[holes : holes + 2],
            "pending": self.tensor[holes + 2 : 2 * holes + 2].reshape(
                variant.rows, variant.cols
            ),
            "fixed_direction": self.tensor[2 * holes + 2 :].reshape(2, 2),
        }

    def set_from(self, state, player):
        del player
        self.tensor[:] = state.katro.observation()

    def string_from(self, state, player):
        del player
        return str(state.katro)


class KatroAgentBot(pyspiel.Bot):
    """One of katro's agents (`katro.Agent`, e.g. "greedy") as an OpenSpiel
    bot. Its random choices come from `seed` and the ply alone, so a game
    between deterministic bots replays exactly."""

    def __init__(self, agent, seed=0):
        pyspiel.Bot.__init__(self)
        self.agent = agent if isinstance(agent, katro.Agent) else katro.Agent(agent)
        self.seed = seed

    def restart_at(self, state):
        pass

    def inform_action(self, state, player_id, action):
        pass

    def step(self, state):
        # Seeds stay below 2**64: the ply is mixed in, never added past it.
        seed = (self.seed * 1_000_003 + len(state.history())) % (1 << 64)
        move = self.agent.choose(state.katro, seed)
        if move is None:
            return pyspiel.INVALID_ACTION
        return state.katro.variant.move_to_action(move)


def register():
    """Registers the game `katro` with OpenSpiel (once per process; a
    second call does nothing)."""
    if SHORT_NAME not in pyspiel.registered_names():
        pyspiel.register_game(_GAME_TYPE, KatroGame)
