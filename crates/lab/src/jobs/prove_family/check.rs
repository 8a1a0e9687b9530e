//! `katro prove-family --check-solved`: proved.csv against solve-family's
//! solved.csv, the start of every board it solved and, where the board
//! solves again, every first move.

use std::path::{Path, PathBuf};

use crate::engine::notation::move_name;
use crate::files::proved::{PROVED_CSV, ProvedRow};
use crate::files::solved::SolvedStart;
use crate::jobs::solve::{max_bytes, solve_unstopped};
use crate::jobs::{Error, Failure, Progress, Refusal, read_optional};
use crate::rules::Rules;
use crate::solve::prove::Outcome;
use crate::solve::{SolvedTable, Value};
use crate::store::Store;

use super::boards::{Board, SETS, family, read_solved};
use super::read_csv;

/// Whether a proved value is the solver's: the same win or loss at the
/// same distance, or for a draw no win proven for either side. A value
/// left unknown within a bound below the solver's distance is not
/// proven, which is no disagreement.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Agreement {
    Agree,
    Unproven,
    Disagree,
}

pub fn agreement(solved: Value, proved: Outcome) -> Agreement {
    match (solved, proved) {
        (Value::Win(a), Outcome::Win(b)) | (Value::Loss(a), Outcome::Loss(b)) if a == b => {
            Agreement::Agree
        }
        (Value::Draw, Outcome::Unknown(_) | Outcome::Ended) => Agreement::Agree,
        (Value::Win(a) | Value::Loss(a), Outcome::Unknown(d)) if a > d => Agreement::Unproven,
        _ => Agreement::Disagree,
    }
}

/// What `katro prove-family --check-solved` is asked to do.
pub struct CheckOptions {
    /// The folder whose proved.csv is checked.
    pub out: String,
    /// solve-family's solved.csv.
    pub solved: String,
    /// The memory a board may be solved again in, for its first moves'
    /// values, in GiB.
    pub resolve_gib: f64,
}

/// Tallies of a check.
#[derive(Default)]
struct Tally {
    boards: usize,
    starts_agree: usize,
    starts_unproven: usize,
    moves_board: usize,
    moves_agree: usize,
    moves_unproven: usize,
    disagree: Vec<String>,
}

/// `katro prove-family --check-solved --out DIR --solved FILE`: each row of
/// DIR/proved.csv whose board (by its rules string) FILE says is solved,
/// compared on the start's value and distance and, where the board solves
/// again within `resolve_gib` (by FILE's `memory_bytes`), on every first
/// move's. The tally to print, or [`Failure::ProverDisagrees`] naming each
/// disagreement.
pub fn check_solved(
    o: &CheckOptions,
    store: &dyn Store,
    progress: &dyn Progress,
) -> Result<String, Error> {
    let max = max_bytes(o.resolve_gib)?;
    let solved = read_solved(store, &o.solved)?;
    let path = Path::new(&o.out).join(PROVED_CSV);
    let Some(bytes) = read_optional(store, &path)? else {
        return Err(Refusal::NotFound {
            path,
            needs: "`katro prove-family --check-solved` needs the proved.csv a `katro \
                    prove-family` run wrote there"
                .into(),
        }
        .into());
    };
    let rows = read_csv(&path, bytes)?;
    // The rules of every board this build knows, to play the first moves.
    let all_sets: Vec<&str> = SETS.to_vec();
    let boards = family(&all_sets, &[], Some(&solved))?;
    let mut t = Tally::default();
    for row in &rows {
        let Some(s) = solved.iter().find(|s| s.rules == row.key.rules) else {
            continue;
        };
        check_row(row, s, &boards, max, &mut t, progress);
    }
    let text = format!(
        "{} boards of {} compared with {}: the start agrees on {}, unproven within its bound \
         on {}; first moves compared on {} boards: {} agree, {} unproven within their bound\n",
        t.boards,
        path.display(),
        o.solved,
        t.starts_agree,
        t.starts_unproven,
        t.moves_board,
        t.moves_agree,
        t.moves_unproven
    );
    if !t.disagree.is_empty() {
        return Err(Failure::ProverDisagrees {
            solved: PathBuf::from(&o.solved),
            compared: t.boards,
            disagreements: t.disagree,
        }
        .into());
    }
    Ok(text)
}

/// Checks one row against its solved board `s`: the start, then the
/// first moves when the board solves again within `max` bytes.
fn check_row(
    row: &ProvedRow,
    s: &SolvedStart,
    boards: &[Board],
    max: u64,
    t: &mut Tally,
    progress: &dyn Progress,
) {
    let k = &row.key;
    let name = format!(
        "{} {}×{}, {} a hole ({})",
        k.set, k.rows, k.holes, k.seeds, k.reading
    );
    t.boards += 1;
    match agreement(s.value, row.value) {
        Agreement::Agree => t.starts_agree += 1,
        Agreement::Unproven => t.starts_unproven += 1,
        Agreement::Disagree => t.disagree.push(format!(
            "  {name}: the start: solved {}, proved {}",
            s.value, row.value
        )),
    }
    let Some(board) = boards
        .iter()
        .find(|b| b.rules.canonical_string() == k.rules)
    else {
        return;
    };
    if s.memory_bytes > max {
        return;
    }
    let Ok((table, _)) = solve_unstopped(&board.rules, max) else {
        return;
    };
    progress.note(&format!(
        "prove-family --check-solved: {name}: solved again"
    ));
    t.moves_board += 1;
    check_moves(row, &board.rules, &table, &name, t);
}

/// Checks every first move of `row` against the solved `table` of its
/// `rules`, and that it has every legal first move.
fn check_moves(row: &ProvedRow, rules: &Rules, table: &SolvedTable, name: &str, t: &mut Tally) {
    let start = rules.start();
    let legal = rules.legal_moves(&start);
    for m in &row.moves {
        let mv = legal.iter().find(|&&mv| move_name(rules, mv) == m.name);
        let Some(v) = mv.and_then(|&mv| table.move_value(rules, &start, mv)) else {
            t.disagree
                .push(format!("  {name}: first move {}: no such move", m.name));
            continue;
        };
        match agreement(v, m.value) {
            Agreement::Agree => t.moves_agree += 1,
            Agreement::Unproven => t.moves_unproven += 1,
            Agreement::Disagree => t.disagree.push(format!(
                "  {name}: first move {}: solved {v}, proved {}",
                m.name, m.value
            )),
        }
    }
    if row.moves.len() != legal.len() {
        t.disagree.push(format!(
            "  {name}: {} first moves proved, {} legal",
            row.moves.len(),
            legal.len()
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn agreement_allows_an_unproven_bound_below_the_distance() {
        use Agreement::*;
        assert_eq!(agreement(Value::Win(5), Outcome::Win(5)), Agree);
        assert_eq!(agreement(Value::Win(5), Outcome::Win(7)), Disagree);
        assert_eq!(agreement(Value::Loss(5), Outcome::Win(5)), Disagree);
        assert_eq!(agreement(Value::Draw, Outcome::Unknown(40)), Agree);
        assert_eq!(agreement(Value::Draw, Outcome::Ended), Agree);
        assert_eq!(agreement(Value::Draw, Outcome::Loss(3)), Disagree);
        assert_eq!(agreement(Value::Loss(9), Outcome::Unknown(8)), Unproven);
        assert_eq!(agreement(Value::Loss(9), Outcome::Unknown(9)), Disagree);
    }
}
