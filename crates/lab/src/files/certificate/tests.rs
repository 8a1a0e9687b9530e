//! Certificates written, read back and checked: real proofs of small
//! boards found here by a plain search (not the prover's, not
//! `crate::solve`), hand-made ones, and each defect made by mutating a
//! valid certificate.

use std::collections::{HashMap, HashSet, VecDeque};

use super::*;
use crate::engine::notation::{hole_name, move_name, parse_hole, parse_move};
use crate::engine::{Ended, Move, Player, Position};
use crate::rules::{EndlessMove, MAX_PLY_LIMIT, Rules, Settings, preset};

/// A preset's rules on a smaller board, named for it.
fn small(preset_name: &str, rows: usize, holes: usize, seeds: u16) -> Rules {
    let mut s = preset(preset_name).unwrap().settings().clone();
    s.rows = rows;
    s.holes = holes;
    s.seeds = Some(seeds);
    s.layout = None;
    let name = format!("{preset_name}-{rows}x{holes}-{seeds}");
    Rules::new(name, String::new(), String::new(), s).expect("valid settings")
}

/// [`small`] with its settings changed by `change`.
fn small_with(
    preset_name: &str,
    rows: usize,
    holes: usize,
    seeds: u16,
    change: impl FnOnce(&mut Settings),
) -> Rules {
    let rules = small(preset_name, rows, holes, seeds);
    let mut s = rules.settings().clone();
    change(&mut s);
    rules.with_settings(s).expect("valid settings")
}

/// Where a move leads.
#[derive(Clone, Copy, Debug)]
enum Next {
    Node(usize),
    /// The game is over: its winner, or none.
    End(Option<Player>),
}

/// The positions reachable from a root and their moves, found breadth
/// first with the ply limit lifted.
struct Graph {
    rules: Rules,
    root_moves: Vec<Move>,
    nodes: Vec<Position>,
    edges: Vec<Vec<(Move, Next)>>,
}

impl Graph {
    fn new(rules: &Rules, root_moves: &[Move]) -> Graph {
        let rules = rules.with_limits(Some(MAX_PLY_LIMIT), None).unwrap();
        let mut root = rules.start();
        for &m in root_moves {
            rules.play(&mut root, m).unwrap();
        }
        let mut g = Graph {
            rules,
            root_moves: root_moves.to_vec(),
            nodes: vec![root],
            edges: vec![Vec::new()],
        };
        let mut ids: HashMap<String, usize> = HashMap::new();
        ids.insert(position_text(&g.rules, &root), 0);
        let mut todo = VecDeque::from([0]);
        while let Some(i) = todo.pop_front() {
            assert!(g.nodes.len() < 200_000, "a board too big for this test");
            let pos = g.nodes[i];
            for &m in g.rules.legal_moves(&pos).iter() {
                let mut after = pos;
                g.rules.play(&mut after, m).unwrap();
                let next = match after.ended() {
                    Some(Ended::EndlessMoveLost(w)) => Next::End(Some(w)),
                    Some(_) => Next::End(None),
                    None if g.rules.legal_moves(&after).is_empty() => {
                        Next::End(Some(after.to_move().other()))
                    }
                    None => {
                        let key = position_text(&g.rules, &after);
                        let j = *ids.entry(key).or_insert_with(|| {
                            g.nodes.push(after);
                            g.edges.push(Vec::new());
                            todo.push_back(g.nodes.len() - 1);
                            g.nodes.len() - 1
                        });
                        Next::Node(j)
                    }
                };
                g.edges[i].push((m, next));
            }
        }
        g
    }

    /// Each position's fastest forced win for `w`, in decisions (`None`:
    /// no forced win), by rounds of minimax from the ends: after round
    /// k, every win within k is found.
    fn wins(&self, w: Player) -> Vec<Option<u32>> {
        let mut dist: Vec<Option<u32>> = vec![None; self.nodes.len()];
        loop {
            let value = |next: &Next, dist: &[Option<u32>]| match *next {
                Next::Node(j) => dist[j],
                Next::End(Some(p)) if p == w => Some(0),
                Next::End(_) => None,
            };
            let round: Vec<Option<u32>> = (0..self.nodes.len())
                .map(|i| {
                    let values = self.edges[i].iter().map(|(_, n)| value(n, &dist));
                    let best = if self.nodes[i].to_move() == w {
                        values.flatten().min()
                    } else {
                        values
                            .collect::<Option<Vec<u32>>>()
                            .and_then(|v| v.into_iter().max())
                    };
                    best.map(|d| d + 1)
                })
                .collect();
            if round == dist {
                return dist;
            }
            dist = round;
        }
    }
}

/// A proof as the checker follows it: the certificate, and for each of
/// its decision lines the line in force when the walk first reaches it
/// (the line before it on the line of play, or the root's line).
struct Proof {
    cert: Certificate,
    reached_under: Vec<usize>,
    /// Node of each decision line.
    nodes: Vec<usize>,
}

/// The fastest win's certificate for whoever wins from `g`'s root, the
/// decisions in the order the checker meets them (depth first, moves in
/// the engine's order); `None` when neither player forces a win.
fn prove(rules: &Rules, g: &Graph) -> Option<Proof> {
    let (winner, dist) = [Player::South, Player::North]
        .into_iter()
        .map(|w| (w, g.wins(w)))
        .find(|(_, d)| d[0].is_some())?;
    let mut proof = Proof {
        cert: Certificate {
            variant: rules.name().to_string(),
            rules: rules.canonical_string(),
            root_moves: g.root_moves.clone(),
            winner,
            distance: dist[0].unwrap(),
            decisions: Vec::new(),
        },
        reached_under: Vec::new(),
        nodes: Vec::new(),
    };
    let mut seen = HashSet::new();
    visit(g, &dist, 0, ROOT_LINE, &mut seen, &mut proof);
    Some(proof)
}

fn visit(
    g: &Graph,
    dist: &[Option<u32>],
    i: usize,
    in_force: usize,
    seen: &mut HashSet<usize>,
    proof: &mut Proof,
) {
    if !seen.insert(i) {
        return;
    }
    let winner = proof.cert.winner;
    let pos = g.nodes[i];
    if pos.to_move() == winner {
        let want = dist[i].unwrap() - 1;
        let &(m, next) = g.edges[i]
            .iter()
            .find(|(_, n)| match *n {
                Next::Node(j) => dist[j] == Some(want),
                Next::End(w) => w == Some(winner) && want == 0,
            })
            .expect("a move keeps the win");
        let line = FIRST_DECISION_LINE + proof.cert.decisions.len();
        proof.cert.decisions.push((pos, m));
        proof.reached_under.push(in_force);
        proof.nodes.push(i);
        if let Next::Node(j) = next {
            visit(g, dist, j, line, seen, proof);
        }
    } else {
        for &(_, next) in &g.edges[i] {
            if let Next::Node(j) = next {
                visit(g, dist, j, in_force, seen, proof);
            }
        }
    }
}

/// `rules`'s proof from `root_moves`, written.
fn proof_text(rules: &Rules, root_moves: &[Move]) -> (Proof, String) {
    let g = Graph::new(rules, root_moves);
    let proof = prove(rules, &g).expect("a forced win");
    let text = write_certificate(rules, &proof.cert);
    (proof, text)
}

/// What checking `text` against `rules` gives.
fn check(rules: &Rules, text: &str) -> Result<Checked, Defect> {
    let parsed = parse_certificate(text).expect("the text parses");
    check_certificate(rules, &parsed)
}

/// The text with line `n` (from 1) replaced by `with`, or removed.
fn edit(text: &str, n: usize, with: Option<&str>) -> String {
    let mut lines: Vec<&str> = text.lines().collect();
    match with {
        Some(w) => lines[n - 1] = w,
        None => {
            lines.remove(n - 1);
        }
    }
    lines.join("\n") + "\n"
}

/// Line `n` of `text` (from 1).
fn line(text: &str, n: usize) -> &str {
    text.lines().nth(n - 1).unwrap()
}

/// The text with `extra` added as its last line.
fn append(text: &str, extra: &str) -> String {
    format!("{text}{extra}\n")
}

/// Canonical Katro on 4×2 with 1 seed a hole: South wins within 7.
fn four_by_two() -> Rules {
    small("katro-4x4", 4, 2, 1)
}

/// The hole of the opponent's outer row at column a: never a legal
/// start for `p`.
fn illegal_for(p: Player, rules: &Rules) -> String {
    match p {
        Player::South => format!("a{}", rules.rows()),
        Player::North => "a1".into(),
    }
}

#[test]
fn position_text_writes_every_field_of_a_position() {
    let rules = preset("katro-4x4").unwrap();
    assert_eq!(
        position_text(&rules, &rules.start()),
        "2,2,2,2/2,2,2,2/2,2,2,2/2,2,2,2 S . . ."
    );
    // Every reachable position of a board with fixed directions and one
    // with paused turns, read back field by field: nothing of a position
    // but its ply count is left out, so no two positions share a text.
    for rules in [
        small("katra-boaoaka-4x8", 2, 3, 1),
        small("katro-ludii", 4, 2, 1),
    ] {
        let g = Graph::new(&rules, &[]);
        let (mut fixed, mut pending) = (0, 0);
        for pos in &g.nodes {
            let text = position_text(&rules, pos);
            let fields: Vec<&str> = text.split(' ').collect();
            assert_eq!(fields.len(), 5, "{text}");
            let rows: Vec<&str> = fields[0].split('/').collect();
            assert_eq!(rows.len(), rules.rows());
            for (r, row) in rows.iter().enumerate() {
                let seeds: Vec<u16> = row.split(',').map(|v| v.parse().unwrap()).collect();
                let want: Vec<u16> = (0..rules.cols())
                    .map(|c| pos.seeds(rules.hole_at(r, c)))
                    .collect();
                assert_eq!(seeds, want, "{text}");
            }
            let to_move = if fields[1] == "S" {
                Player::South
            } else {
                Player::North
            };
            assert_eq!(to_move, pos.to_move());
            for (field, p) in [(fields[2], Player::South), (fields[3], Player::North)] {
                let dir = match field {
                    "+" => Some(crate::engine::Dir::Forward),
                    "-" => Some(crate::engine::Dir::Backward),
                    "." => None,
                    other => panic!("{other}"),
                };
                assert_eq!(dir, pos.fixed_dir(p));
                fixed += dir.is_some() as usize;
            }
            let hole = (fields[4] != ".").then(|| parse_hole(&rules, fields[4]).unwrap());
            assert_eq!(hole, pos.pending());
            pending += hole.is_some() as usize;
        }
        assert!(
            fixed + pending > 0,
            "{}: the fields were all empty",
            rules.name()
        );
    }
}

#[test]
fn a_certificate_written_reads_back_as_written() {
    let rules = small("katro-ludii", 4, 2, 1);
    let root = ["a1+", "a4+", "a1+", "a3-", "b1-"].map(|m| parse_move(&rules, m).unwrap());
    let (proof, text) = proof_text(&rules, &root);
    let c = &proof.cert;
    let head = format!(
        "katro-certificate 1\nvariant katro-ludii-4x2-1\nrules {}\n",
        rules.canonical_string()
    );
    assert!(text.starts_with(&head), "{text}");
    assert!(
        text.contains("\nroot moves a1+ a4+ a1+ a3- b1-\n"),
        "{text}"
    );
    assert!(text.contains(&format!(
        "\nclaim North wins within {} decisions\n",
        c.distance
    )));
    let parsed = parse_certificate(&text).unwrap();
    assert_eq!(parsed.variant, c.variant);
    assert_eq!(parsed.rules, rules.canonical_string());
    assert_eq!(parsed.root, ["a1+", "a4+", "a1+", "a3-", "b1-"]);
    assert_eq!((parsed.winner, parsed.distance), (c.winner, c.distance));
    assert_eq!(parsed.decisions.len(), c.decisions.len());
    for (i, (d, (pos, mv))) in parsed.decisions.iter().zip(&c.decisions).enumerate() {
        assert_eq!(d.line, FIRST_DECISION_LINE + i);
        assert_eq!(d.position, position_text(&rules, pos));
        assert_eq!(d.to_move, pos.to_move());
        assert_eq!(d.mv, move_name(&rules, *mv));
        assert_eq!(
            d.pending().map(str::to_string),
            pos.pending().map(|h| hole_name(&rules, h))
        );
    }
    // The start as the root, and a claim of one decision.
    let tiny = small("katro-4x4", 2, 2, 1);
    let (_, text) = proof_text(&tiny, &[]);
    assert!(
        text.contains("\nroot start\nclaim South wins within 1 decision\n"),
        "{text}"
    );
    assert!(parse_certificate(&text).unwrap().root.is_empty());
}

#[test]
fn a_hand_made_proof_checks() {
    // 2×2 with a seed a hole: either first move of South's leaves North
    // without a move.
    let rules = small("katro-4x4", 2, 2, 1);
    let text = format!(
        "katro-certificate 1\nvariant katro-4x4-2x2-1\nrules {}\nroot start\n\
         claim South wins within 1 decision\n1,1/1,1 S . . . a1\n",
        rules.canonical_string()
    );
    let checked = check(&rules, &text).unwrap();
    assert_eq!(
        checked,
        Checked {
            winner: Player::South,
            claim: 1,
            longest: 1,
            winner_lines: 1,
            positions: 1,
        }
    );
    // b1 wins as well; a claim above the longest line holds too.
    let other = text
        .replace(" a1\n", " b1\n")
        .replace("within 1 decision", "within 9 decisions");
    assert_eq!(check(&rules, &other).unwrap().longest, 1);
}

#[test]
fn real_proofs_of_small_boards_check() {
    let ludii = small("katro-ludii", 4, 2, 1);
    let ludii_root: Vec<Move> = ["a1+", "a4+", "a1+", "a3-", "b1-"]
        .iter()
        .map(|m| parse_move(&ludii, m).unwrap())
        .collect();
    let cases = [
        // South wins from the start, moving first.
        (four_by_two(), Vec::new(), Player::South, 7),
        // North wins: the root is the loser's to move.
        (small("katro-4x4", 2, 3, 1), Vec::new(), Player::North, 4),
        // Directions fixed once a game (`+`/`-` in the fields).
        (
            small("katra-boaoaka-4x8", 2, 3, 1),
            Vec::new(),
            Player::North,
            4,
        ),
        // Paused turns (`step_sowing = "chosen"`), from a root five
        // moves in: the winner moves twice in a row.
        (ludii.clone(), ludii_root, Player::North, 8),
    ];
    for (rules, root, winner, distance) in cases {
        let (proof, text) = proof_text(&rules, &root);
        let name = rules.name();
        assert_eq!(
            (proof.cert.winner, proof.cert.distance),
            (winner, distance),
            "{name}"
        );
        let checked = check(&rules, &text).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(checked.longest, distance, "{name}");
        assert_eq!(checked.claim, distance, "{name}");
        assert_eq!(checked.winner_lines, proof.cert.decisions.len(), "{name}");
        assert!(
            checked.positions > checked.winner_lines,
            "{name}: {checked:?}"
        );
        // A slower claim holds too; the longest line stays what it is.
        let slower = text.replace(
            &format!("within {distance} decisions"),
            &format!("within {} decisions", distance + 3),
        );
        let checked = check(&rules, &slower).unwrap();
        assert_eq!((checked.claim, checked.longest), (distance + 3, distance));
    }
    let (proof, _) = proof_text(&small("katra-boaoaka-4x8", 2, 3, 1), &[]);
    assert!(
        proof
            .cert
            .decisions
            .iter()
            .any(|(p, _)| p.fixed_dir(Player::North).is_some())
    );
    let ludii_root = ["a1+", "a4+", "a1+", "a3-", "b1-"].map(|m| parse_move(&ludii, m).unwrap());
    let (proof, _) = proof_text(&ludii, &ludii_root);
    assert!(
        proof
            .cert
            .decisions
            .iter()
            .any(|(p, _)| p.pending().is_some())
    );
}

#[test]
fn a_missing_reply_names_the_line_it_follows() {
    for rules in [four_by_two(), small("katro-ludii", 4, 2, 1)] {
        let root: Vec<Move> = if rules.name().starts_with("katro-ludii") {
            ["a1+", "a4+", "a1+", "a3-", "b1-"]
                .iter()
                .map(|m| parse_move(&rules, m).unwrap())
                .collect()
        } else {
            Vec::new()
        };
        let (proof, text) = proof_text(&rules, &root);
        for k in 0..proof.cert.decisions.len() {
            let n = FIRST_DECISION_LINE + k;
            let deleted = edit(&text, n, None);
            let position = position_text(&rules, &proof.cert.decisions[k].0);
            let defect = check(&rules, &deleted).unwrap_err();
            if proof.nodes[k] == 0 {
                assert_eq!(
                    defect,
                    Defect::MissingRoot {
                        line: ROOT_LINE,
                        position,
                        winner: proof.cert.winner
                    }
                );
                continue;
            }
            let Defect::MissingReply {
                line,
                moves,
                position: at,
                winner,
            } = &defect
            else {
                panic!("{}: line {n} deleted: {defect}", rules.name());
            };
            assert_eq!(*line, proof.reached_under[k], "{defect}");
            assert_eq!((at, *winner), (&position, proof.cert.winner));
            assert!(!moves.is_empty());
        }
    }
}

#[test]
fn each_defect_of_a_mutated_certificate_is_named_with_its_line() {
    let rules = four_by_two();
    let (proof, text) = proof_text(&rules, &[]);
    let d = proof.cert.distance;
    let last = FIRST_DECISION_LINE + proof.cert.decisions.len() - 1;
    let at = |n: usize| -> (String, String) {
        let l = line(&text, n);
        let (pos, mv) = l.rsplit_once(' ').unwrap();
        (pos.to_string(), mv.to_string())
    };
    let defect = |t: &str| check(&rules, t).unwrap_err();

    // An illegal move on any line.
    for n in FIRST_DECISION_LINE..=last {
        let (pos, mv) = at(n);
        let bad = illegal_for(Player::South, &rules);
        let e = defect(&edit(&text, n, Some(&format!("{pos} {bad}"))));
        let Defect::IllegalMove {
            line,
            text: t,
            position,
            legal,
        } = &e
        else {
            panic!("{e}")
        };
        assert_eq!(
            (*line, t.as_str(), position.as_str()),
            (n, bad.as_str(), pos.as_str())
        );
        assert!(legal.contains(&mv));
    }
    // A claim below the longest line.
    let short = text.replace(
        &format!("within {d} decisions"),
        &format!("within {} decisions", d - 1),
    );
    let e = defect(&short);
    let Defect::ClaimExceeded {
        line: n,
        claim,
        at_least,
        moves,
    } = &e
    else {
        panic!("{e}")
    };
    assert_eq!((*n, *claim), (CLAIM_LINE, d - 1));
    assert!(*at_least >= d as u64 && !moves.is_empty(), "{e}");
    assert!(e.to_string().starts_with(&format!(
        "line 5: the claim of {} decisions does not hold",
        d - 1
    )));
    // A claim of no decision: the root is not over.
    let none = text.replace(&format!("within {d} decisions"), "within 0 decisions");
    assert_eq!(
        defect(&none).to_string(),
        "line 5: the claim of 0 decisions does not hold: a line of play from the root lasts \
         at least 1 decision"
    );
    // A line no line of play reaches: a South position of the board
    // outside the proof.
    let g = Graph::new(&rules, &[]);
    let outside = (0..g.nodes.len())
        .find(|&i| g.nodes[i].to_move() == Player::South && !proof.nodes.contains(&i))
        .unwrap();
    let pos = g.nodes[outside];
    let extra = format!(
        "{} {}",
        position_text(&rules, &pos),
        move_name(&rules, rules.legal_moves(&pos)[0])
    );
    let e = defect(&append(&text, &extra));
    assert_eq!(
        e,
        Defect::Unused {
            line: last + 1,
            position: position_text(&rules, &pos)
        }
    );
    // A position given twice.
    let e = defect(&append(&text, line(&text, FIRST_DECISION_LINE + 1)));
    assert_eq!(
        e,
        Defect::Duplicate {
            line: last + 1,
            first: FIRST_DECISION_LINE + 1
        }
    );
    // A line with the loser to move.
    let (pos, mv) = at(last);
    let e = defect(&edit(
        &text,
        last,
        Some(&format!("{} {mv}", pos.replacen(" S ", " N ", 1))),
    ));
    assert_eq!(
        e,
        Defect::LoserLine {
            line: last,
            to_move: Player::North,
            winner: Player::South
        }
    );
    // A board changed: its own position is then left without a line.
    let (pos, mv) = at(last);
    let changed = format!("9{pos} {mv}");
    let e = defect(&edit(&text, last, Some(&changed)));
    assert!(
        matches!(&e, Defect::MissingReply { position, .. } if *position == pos),
        "{e}"
    );
    // ... or of another shape than the variant's.
    let (pos, mv) = at(last);
    let (board, rest) = pos.split_once(' ').unwrap();
    let shorter = format!("{} {rest} {mv}", &board[..board.rfind('/').unwrap()]);
    let e = defect(&edit(&text, last, Some(&shorter)));
    assert_eq!(e.line(), last);
    assert_eq!(
        e.to_string(),
        format!("line {last}: the board has 3 rows; the variant's has 4 rows of 2 holes")
    );
    // A move or pending hole that is no notation on this board.
    let e = defect(&edit(&text, last, Some(&format!("{pos} z1"))));
    assert!(
        matches!(e, Defect::BadMove { line, .. } if line == last),
        "{e}"
    );
    let pending = format!("{} z9 {mv}", pos.strip_suffix(" .").unwrap());
    let e = defect(&edit(&text, last, Some(&pending)));
    assert!(
        matches!(e, Defect::BadPending { line, .. } if line == last),
        "{e}"
    );
    // Another variant, other rules.
    let e = defect(&edit(&text, VARIANT_LINE, Some("variant katro-4x4")));
    assert_eq!(
        e,
        Defect::OtherVariant {
            line: VARIANT_LINE,
            found: "katro-4x4".into(),
            wanted: rules.name().into()
        }
    );
    let other = preset("katro-4x4").unwrap().canonical_string();
    let e = defect(&edit(&text, RULES_LINE, Some(&format!("rules {other}"))));
    assert!(
        matches!(&e, Defect::OtherRules { line: RULES_LINE, found, .. } if *found == other),
        "{e}"
    );
    assert!(e.to_string().contains(&rules.canonical_string()), "{e}");
    // A root move that is no notation, one that is illegal.
    let e = defect(&edit(&text, ROOT_LINE, Some("root moves a1 q")));
    assert!(
        matches!(
            e,
            Defect::BadRootMove {
                line: ROOT_LINE,
                index: 2,
                ..
            }
        ),
        "{e}"
    );
    let e = defect(&edit(&text, ROOT_LINE, Some("root moves a4")));
    assert!(
        matches!(
            e,
            Defect::IllegalRootMove {
                line: ROOT_LINE,
                index: 1,
                ..
            }
        ),
        "{e}"
    );
    // A claim past the engine's ply counter.
    let huge = text.replace(
        &format!("within {d} decisions"),
        "within 4000000000 decisions",
    );
    assert!(matches!(
        defect(&huge),
        Defect::ClaimTooLarge {
            line: CLAIM_LINE,
            ..
        }
    ));
}

#[test]
fn a_root_already_over_is_refused() {
    let rules = small("katro-4x4", 2, 2, 1);
    let text = format!(
        "katro-certificate 1\nvariant katro-4x4-2x2-1\nrules {}\nroot moves a1\n\
         claim North wins within 1 decision\n",
        rules.canonical_string()
    );
    let e = check(&rules, &text).unwrap_err();
    assert_eq!(
        e.to_string(),
        "line 4: the root position is already finished: North is to move and has no legal move"
    );
}

#[test]
fn lines_that_end_undecided_or_lost_or_in_a_cycle_are_refused() {
    // 2×2 with 4 seeds a hole under Wikipedia's reading: every first
    // move is endless.
    let endless = small("katro-wikipedia", 2, 2, 4);
    let head = |rules: &Rules, claim: &str| {
        format!(
            "katro-certificate 1\nvariant {}\nrules {}\nroot start\nclaim {claim}\n",
            rules.name(),
            rules.canonical_string()
        )
    };
    let text = head(&endless, "South wins within 5 decisions") + "4,4/4,4 S . . . a1+\n";
    assert_eq!(
        check(&endless, &text).unwrap_err(),
        Defect::Undecided {
            line: 6,
            moves: vec!["a1+".into()],
            end: "an endless move",
            winner: Player::South
        }
    );
    // Where the mover loses by an endless move, North wins without a
    // decision line, and South's line loses.
    let loses = small_with("katro-wikipedia", 2, 2, 4, |s| {
        s.endless_move = EndlessMove::MoverLoses;
    });
    let none = head(&loses, "North wins within 1 decision");
    assert_eq!(
        check(&loses, &none).unwrap(),
        Checked {
            winner: Player::North,
            claim: 1,
            longest: 1,
            winner_lines: 0,
            positions: 1
        }
    );
    let text = head(&loses, "South wins within 5 decisions") + "4,4/4,4 S . . . b1-\n";
    let e = check(&loses, &text).unwrap_err();
    assert_eq!(
        e.to_string(),
        "line 6: after the move `b1-`, the game ends in a win for North"
    );
    // A move stopped at the lap limit.
    let capped = small_with("katro-4x4", 2, 2, 3, |s| s.lap_limit = 1);
    let text = head(&capped, "South wins within 5 decisions") + "3,3/3,3 S . . . a1\n";
    let e = check(&capped, &text).unwrap_err();
    assert!(
        matches!(
            e,
            Defect::Undecided {
                line: 6,
                end: "a move stopped at the lap limit",
                ..
            }
        ),
        "{e}"
    );
    // 2×2 with 3 seeds: whatever South plays, North's reply wins.
    let lost = small("katro-4x4", 2, 2, 3);
    let text = head(&lost, "South wins within 5 decisions") + "3,3/3,3 S . . . a1\n";
    assert_eq!(
        check(&lost, &text).unwrap_err(),
        Defect::OtherWins {
            line: 6,
            moves: vec!["a1".into(), "a2".into()],
            winner: Player::South
        }
    );
    // 2×2 with a seed under Wikipedia's reading: play goes round for
    // ever, through three South positions.
    let round = small("katro-wikipedia", 2, 2, 1);
    let lines = "1,1/1,1 S . . . a1+\n2,0/1,1 S . . . a1+\n0,2/1,1 S . . . b1+\n";
    let text = head(&round, "South wins within 100 decisions") + lines;
    let e = check(&round, &text).unwrap_err();
    assert_eq!(
        e,
        Defect::Cycle {
            line: 8,
            moves: vec!["b1+".into()],
            position: "2,1/1,0 N . . .".into()
        }
    );
    assert!(
        e.to_string().starts_with(
            "line 8: after the move `b1+`, the position `2,1/1,0 N . . .` comes round"
        )
    );
    // The same with a claim of 3: the fourth decision is over it first.
    let text = head(&round, "South wins within 3 decisions") + lines;
    let e = check(&round, &text).unwrap_err();
    assert_eq!(
        e,
        Defect::ClaimExceeded {
            line: 5,
            claim: 3,
            moves: vec!["a1+".into(), "a2+".into(), "a1+".into()],
            at_least: 4
        }
    );
}

#[test]
fn text_that_is_not_the_format_is_refused_naming_its_line() {
    let rules = four_by_two();
    let (_, text) = proof_text(&rules, &[]);
    let err = |t: &str| parse_certificate(t).unwrap_err();
    assert_eq!(
        err(""),
        CertificateError::MissingKey {
            line: 1,
            key: "katro-certificate",
            found: "the file ends before it".into()
        }
    );
    assert_eq!(
        err(&edit(&text, 1, Some("katro-certificate 2"))),
        CertificateError::Version { found: "2".into() }
    );
    assert!(matches!(
        err("hello\n"),
        CertificateError::NotCertificate { .. }
    ));
    assert_eq!(
        err(&edit(&text, RULES_LINE, None)).to_string(),
        "line 3: the `rules` line is missing: the line reads `root start`"
    );
    let e = err(&edit(
        &text,
        CLAIM_LINE,
        Some("claim South wins within 07 decisions"),
    ));
    assert!(
        matches!(
            e,
            CertificateError::BadHeader {
                line: 5,
                key: "claim",
                ..
            }
        ),
        "{e}"
    );
    let e = err(&edit(
        &text,
        CLAIM_LINE,
        Some("claim East wins within 7 decisions"),
    ));
    assert!(
        matches!(e, CertificateError::BadHeader { line: 5, .. }),
        "{e}"
    );
    let e = err(&edit(&text, ROOT_LINE, Some("root somewhere")));
    assert!(
        matches!(
            e,
            CertificateError::BadHeader {
                line: 4,
                key: "root",
                ..
            }
        ),
        "{e}"
    );
    let e = err(&edit(&text, ROOT_LINE, Some("root moves a1  b1")));
    assert!(
        matches!(e, CertificateError::BadHeader { line: 4, .. }),
        "{e}"
    );
    let e = err(&edit(&text, 7, Some("")));
    assert_eq!(e.to_string().split(':').next(), Some("line 7"));
    assert!(e.to_string().contains("an empty line"), "{e}");
    let (pos, mv) = line(&text, 7).rsplit_once(' ').unwrap();
    for (bad, says) in [
        (
            format!("{pos}  {mv}"),
            "six fields separated by single spaces",
        ),
        (format!("0{pos} {mv}"), "not a seed count"),
        (
            format!("{} {mv}", pos.replacen(" S ", " X ", 1)),
            "give S or N",
        ),
        (
            format!("{} {mv}", pos.replacen(" S . ", " S ! ", 1)),
            "South's fixed direction",
        ),
        (
            format!("{} C2 {mv}", pos.strip_suffix(" .").unwrap()),
            "the pending hole",
        ),
        (format!("{pos} {mv}\r"), "carriage return"),
    ] {
        let e = err(&edit(&text, 7, Some(&bad)));
        assert!(e.to_string().starts_with("line 7: "), "{e}");
        assert!(e.to_string().contains(says), "{bad}: {e}");
    }
    // Without its final LF the text reads the same.
    let parsed = parse_certificate(&text).unwrap();
    assert_eq!(
        parse_certificate(text.trim_end_matches('\n')).unwrap(),
        parsed
    );
}

#[test]
fn the_golden_certificate_is_this_search_s_proof() {
    // tests/golden/katro-4x2-1seed.cert, which tests/it/check_proof.rs
    // gives the binary and docs/OUTPUTS.md shows, is this proof.
    let variant = include_str!("../../../../../tests/golden/katro-4x2-1seed.toml");
    let rules = crate::rules::parse_variant("katro-4x2-1seed.toml", variant, "x").unwrap();
    let (_, text) = proof_text(&rules, &[]);
    if std::env::var_os("KATRO_BLESS").is_some() {
        std::fs::write("tests/golden/katro-4x2-1seed.cert", &text).unwrap();
    }
    assert_eq!(
        text,
        include_str!("../../../../../tests/golden/katro-4x2-1seed.cert")
    );
    assert_eq!(check(&rules, &text).unwrap().longest, 7);
}
