"""A tour of katro from Python: play a game, run an experiment into a
DataFrame, and pit OpenSpiel's MCTS against katro's greedy agent.

    python python/examples/tour.py [OUTPUT_FOLDER]

The experiment writes its results into OUTPUT_FOLDER (default: a new
temporary folder). python/tests/test_examples.py runs this script.
"""

import random
import sys
import tempfile

import katro

# 1. A game through the state API: katro's greedy agent against random moves.
variant = katro.Variant("katro-4x4")
state = variant.start()
greedy = katro.Agent("greedy")
rng = random.Random(1)
while not state.is_over:
    if state.to_move == 1:
        move = greedy.choose(state, rng.getrandbits(64))
    else:
        move = rng.choice(state.legal_moves())
    report = state.apply(move)
print(state)
print("moves:", " ".join(state.history))
print("last move:", report.move, "laps", report.laps, "captures", report.captures)
print("status:", state.status, "winner:", state.winner)

# 2. An experiment, given as a dict (a path to an experiment file works
# too); the summary comes back as a pandas DataFrame when pandas is there.
out = sys.argv[1] if len(sys.argv) > 1 else tempfile.mkdtemp(prefix="katro-tour-")
summary = katro.run_experiment(
    {
        "name": "tour",
        "seed": 1,
        "variants": ["katro-4x4", "katro-6x6"],
        "games": 200,
        "matchups": [{"p1": "greedy", "p2": "random"}],
    },
    out=out,
)
print(summary[["variant", "p1", "p2", "games", "p1_win_rate", "advantage_p1"]])

# 3. OpenSpiel's MCTS against katro's greedy agent (needs open_spiel).
try:
    import numpy as np
    import pyspiel
    from open_spiel.python.algorithms import evaluate_bots, mcts
except ImportError:
    print("open_spiel is not installed: skipping the OpenSpiel part")
else:
    import katro.openspiel

    katro.openspiel.register()
    game = pyspiel.load_game("katro(variant=katro-4x4)")
    np_rng = np.random.RandomState(2)
    mcts_bot = mcts.MCTSBot(
        game, 2.0, 100, mcts.RandomRolloutEvaluator(1, np_rng), random_state=np_rng
    )
    greedy_bot = katro.openspiel.KatroAgentBot("greedy", seed=3)
    returns = evaluate_bots.evaluate_bots(
        game.new_initial_state(), [mcts_bot, greedy_bot], np_rng
    )
    print("MCTS (player 1) against katro greedy (player 2): returns", returns)
