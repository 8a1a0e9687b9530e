"""The state API: variants, moves, actions, reports, errors."""

import copy
import pickle

import pytest

import katro


def test_presets_and_variant_sources_agree(tmp_path):
    assert "katro-6x6" in katro.presets()
    by_name = katro.Variant("katro-6x6")
    path = tmp_path / "mine.toml"
    path.write_text(by_name.toml.replace('name = "katro-6x6"', 'name = "mine"'))
    from_file = katro.Variant(str(path))
    from_text = katro.Variant.from_toml(by_name.toml)
    assert from_file.name == "mine"
    assert from_text.name == "katro-6x6"
    assert by_name.rules_string == from_file.rules_string == from_text.rules_string
    assert (by_name.rows, by_name.cols, by_name.holes) == (6, 6, 36)
    assert by_name.ply_limit == 5000


def test_variant_error_carries_every_problem_with_the_cli_message():
    text = "[board]\nrows = 3\nholes = 1\nseeds = 2\n[rules]\nply_limit = 0\n"
    with pytest.raises(katro.VariantError) as info:
        katro.Variant.from_toml(text, file="bad.toml")
    e = info.value
    assert isinstance(e, ValueError)
    assert e.file == "bad.toml"
    keys = [p["key"] for p in e.problems]
    assert keys == ["board.rows", "board.holes", "rules.ply_limit"]
    assert e.problems[0]["line"] == 2
    lines = str(e).splitlines()
    assert len(lines) == 3
    assert lines[0].startswith("bad.toml:2:")
    assert "`board.rows`" in lines[0]


def test_unknown_variant_names_the_presets():
    with pytest.raises(katro.VariantError, match="katro-4x4") as info:
        katro.Variant("katro-9x9")
    assert info.value.file is None
    assert [p["message"] for p in info.value.problems] == [str(info.value)]
    with pytest.raises(katro.VariantError, match="unknown preset"):
        katro.Variant.preset("katro-6x6.toml")
    with pytest.raises(OSError, match="cannot read the variant file"):
        katro.Variant("no/such/file.toml")


def test_moves_actions_and_reports():
    v = katro.Variant("katro-6x6")
    s = v.start()
    assert s.to_move == 1 and s.status == "ongoing" and s.winner is None
    moves = s.legal_moves()
    actions = s.legal_actions()
    assert actions == sorted(actions)
    assert sorted(v.move_to_action(m) for m in moves) == actions
    assert [v.action_to_move(a) for a in actions] == sorted(
        moves, key=v.move_to_action
    )
    assert all(0 <= a < v.num_actions for a in actions)
    assert s.last_report is None
    r = s.apply("c1")
    assert r.move == "c1" and r.laps >= 1 and r.end in ("empty-hole", "no-relay")
    assert s.last_report.laps == r.laps and s.last_report.captures == r.captures
    assert s.to_move == 2 and s.plies == 1
    assert s.history == ["c1"] and s.action_history == [v.move_to_action("c1")]
    a = s.legal_actions()[0]
    s.apply(a)
    assert s.history[-1] == v.action_to_move(a)


def test_the_action_encoding_is_from_times_holes_plus_three_plus_kind():
    v = katro.Variant("katro-6x6")
    per = v.holes + 3
    assert v.move_to_action("a1") == 0
    assert v.move_to_action("b1") == per
    assert v.move_to_action("a2") == 6 * per
    assert v.move_to_action("a1+") == 1
    assert v.move_to_action("a1-") == 2
    assert v.move_to_action("a1>b2") == 3 + 7
    assert v.num_actions == v.holes * per
    for a in range(v.num_actions):
        assert v.move_to_action(v.action_to_move(a)) == a
    with pytest.raises(katro.IllegalMoveError, match="off this board"):
        v.action_to_move(v.num_actions)


def test_illegal_moves_are_refused_and_leave_the_state_alone():
    s = katro.Variant("katro-6x6").start()
    before = s.board()
    with pytest.raises(katro.IllegalMoveError, match="legal moves are"):
        s.apply("c6")
    with pytest.raises(katro.IllegalMoveError, match="not a move"):
        s.apply("z9")
    with pytest.raises(katro.IllegalMoveError):
        s.apply(-1)
    assert s.board() == before and s.history == []


def test_clone_copy_and_pickle_are_independent():
    s = katro.Variant("katro-4x4").start()
    s.apply(s.legal_moves()[0])
    for other in (s.clone(), copy.copy(s), copy.deepcopy(s), pickle.loads(pickle.dumps(s))):
        assert other.board() == s.board() and other.history == s.history
        other.apply(other.legal_moves()[0])
        assert other.plies == s.plies + 1
    assert s.plies == 1
    v = pickle.loads(pickle.dumps(s.variant))
    assert v.rules_string == s.variant.rules_string


def test_a_random_game_ends_with_a_status_and_a_board_that_keeps_its_seeds():
    import random

    v = katro.Variant("katro-4x4")
    rng = random.Random(3)
    s = v.start()
    while not s.is_over:
        s.apply(rng.choice(s.legal_actions()))
        assert sum(map(sum, s.board())) == v.total_seeds
    assert s.legal_moves() == [] and s.legal_actions() == []
    assert s.status in ("won", "ply-limit", "endless-move", "lap-limit")
    assert (s.winner in (1, 2)) == (s.status == "won")


def test_the_numpy_board_matches_the_lists():
    np = pytest.importorskip("numpy")
    s = katro.Variant("katro-6x3").start()
    arr = s.board_array()
    assert arr.shape == (6, 3)
    assert arr.tolist() == s.board()
    assert isinstance(arr, np.ndarray)


def test_katro_agents_choose_legal_moves_deterministically():
    s = katro.Variant("katro-6x6").start()
    greedy = katro.Agent("greedy")
    m = greedy.choose(s, 11)
    assert m in s.legal_moves()
    assert greedy.choose(s, 11) == m
    with pytest.raises(ValueError):
        katro.Agent("clever")


def test_a_strength_level_is_its_agent_string():
    s = katro.Variant("katro-4x4").start()
    strong = katro.Agent("strong")
    written = katro.Agent("alphabeta:depth=12,nodes=1000,eval=fitted")
    for seed in range(3):
        assert strong.choose(s, seed) == written.choose(s, seed)
    with pytest.raises(ValueError, match="strong is a level"):
        katro.Agent("strong:nodes=5")
