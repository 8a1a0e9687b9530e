"""katro as an OpenSpiel game, judged by OpenSpiel's own checks."""

import pickle

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

import katro  # noqa: E402
import katro.openspiel  # noqa: E402
from open_spiel.python.algorithms import evaluate_bots, mcts  # noqa: E402

katro.openspiel.register()


@pytest.mark.parametrize("preset", katro.presets())
def test_random_sim_test_passes_on_every_preset(preset):
    game = pyspiel.load_game(f"katro(variant={preset})")
    assert game.num_distinct_actions() == katro.Variant(preset).num_actions
    pyspiel.random_sim_test(game, num_sims=3, serialize=True, verbose=False)


def test_register_twice_is_harmless():
    katro.openspiel.register()
    assert "katro" in pyspiel.registered_names()


def test_max_game_length_is_the_ply_limit_or_twice_it_for_paused_turns():
    plain = pyspiel.load_game("katro(variant=katro-6x6)")
    assert plain.max_game_length() == katro.Variant("katro-6x6").ply_limit
    ludii = pyspiel.load_game("katro(variant=katro-ludii)")
    assert ludii.max_game_length() == 2 * katro.Variant("katro-ludii").ply_limit


def test_a_game_stops_at_the_ply_limit_with_zero_returns():
    text = katro.Variant("katro-6x6").toml.replace("ply_limit = 5000", "ply_limit = 7")
    game = pyspiel.load_game("katro", {"variant": text})
    assert game.max_game_length() == 7
    state = game.new_initial_state()
    while not state.is_terminal():
        state.apply_action(state.legal_actions()[0])
    assert state.katro.plies <= 7
    if state.katro.status == "ply-limit":
        assert state.katro.plies == 7
        assert state.returns() == [0.0, 0.0]
    else:
        assert state.katro.status == "won"
        assert sorted(state.returns()) == [-1.0, 1.0]


def test_toml_text_parameter_and_its_errors():
    text = katro.Variant("katro-4x4").toml.replace('name = "katro-4x4"', 'name = "mine"')
    game = pyspiel.load_game("katro", {"variant": text})
    assert game.num_distinct_actions() == 16 * 19
    assert game.variant.name == "mine"
    # The game's string, full of the text's commas and parentheses as
    # TOML, loads the same game again.
    again = pyspiel.load_game(str(game))
    assert again.variant.name == "mine"
    assert again.variant.rules_string == katro.Variant("katro-4x4").rules_string
    state = game.new_initial_state()
    state.apply_action(state.legal_actions()[1])
    g2, s2 = pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, state))
    assert str(s2) == str(state) and g2.variant.name == "mine"
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)
    with pytest.raises(Exception, match="board.rows"):
        pyspiel.load_game("katro", {"variant": text.replace("rows = 4", "rows = 3")})
    with pytest.raises(Exception, match="unknown preset"):
        pyspiel.load_game("katro(variant=katro-9x9)")
    with pytest.raises(Exception, match="not base64"):
        pyspiel.load_game("katro(variant=toml-base64:@@@)")


def test_observation_tensor_is_seeds_player_pending_and_directions():
    game = pyspiel.load_game("katro(variant=katro-4x4)")
    state = game.new_initial_state()
    obs = np.array(state.observation_tensor(0))
    assert obs.shape == (2 * 16 + 6,)
    assert list(obs[:16]) == [2.0] * 16
    assert list(obs[16:18]) == [1.0, 0.0]
    assert obs[18:].sum() == 0
    assert state.observation_tensor(0) == state.observation_tensor(1)
    state.apply_action(state.legal_actions()[0])
    obs = np.array(state.observation_tensor(0))
    board = [seeds for row in state.katro.board() for seeds in row]
    assert list(obs[:16]) == board
    assert list(obs[16:18]) == [0.0, 1.0]


def test_state_pickles_and_clones_exactly():
    game = pyspiel.load_game("katro(variant=katro-6x6)")
    state = game.new_initial_state()
    for _ in range(5):
        state.apply_action(state.legal_actions()[-1])
    clone = state.clone()
    clone.apply_action(clone.legal_actions()[0])
    assert len(state.history()) == 5
    back = pickle.loads(pickle.dumps(state.katro))
    assert back.board() == state.katro.board()
    assert back.history == state.katro.history


def test_openspiel_mcts_plays_full_games_against_katro_greedy():
    game = pyspiel.load_game("katro(variant=katro-4x4)")
    rng = np.random.RandomState(7)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    results = []
    for seat in (0, 1):
        bot = mcts.MCTSBot(game, 2.0, 50, evaluator, random_state=rng)
        greedy = katro.openspiel.KatroAgentBot("greedy", seed=seat)
        bots = [bot, greedy] if seat == 0 else [greedy, bot]
        state = game.new_initial_state()
        returns = evaluate_bots.evaluate_bots(state, bots, rng)
        assert state.is_terminal()
        assert sum(returns) == 0
        assert returns[seat] in (-1.0, 0.0, 1.0)
        results.append(returns[seat])
    assert len(results) == 2
