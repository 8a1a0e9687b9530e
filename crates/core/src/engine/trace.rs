//! A move told lap by lap: an [`Observer`] that writes each lap as a
//! sentence, in the words of RULES.md §13's examples, and the record of one
//! traced move that `katro replay --trace` prints.

use serde::Serialize;

use super::notation::hole_name;
use super::{LapKind, MoveEnd, Observer};
use crate::rules::Rules;

/// One move of a traced replay.
#[derive(Serialize)]
pub struct MoveTrace {
    pub ply: u32,
    pub player: u8,
    #[serde(rename = "move")]
    pub mv: String,
    pub laps: u64,
    pub captures: u32,
    pub seeds_captured: u64,
    pub seeds_sown: u64,
    pub end: &'static str,
    pub events: Vec<String>,
    pub board: Vec<Vec<u16>>,
}

/// Writes each lap as a sentence, in the words of RULES.md §13's examples.
pub struct TraceWriter<'a> {
    rules: &'a Rules,
    pub events: Vec<String>,
}

impl<'a> TraceWriter<'a> {
    pub fn new(rules: &'a Rules) -> TraceWriter<'a> {
        TraceWriter {
            rules,
            events: Vec::new(),
        }
    }
}

impl Observer for TraceWriter<'_> {
    fn lap(&mut self, kind: LapKind, from: usize, seeds: u64) {
        let from = hole_name(self.rules, from);
        self.events.push(match kind {
            LapKind::Start => format!("lift {seeds} from {from}"),
            LapKind::Relay => format!("relay {seeds} from {from}"),
            LapKind::Capture => format!("sow {seeds} on from {from}"),
        });
    }
    fn landed(&mut self, hole: usize, was_empty: bool) {
        let what = if was_empty {
            "was empty"
        } else {
            "was occupied"
        };
        self.events.push(format!(
            "last seed in {} ({what})",
            hole_name(self.rules, hole)
        ));
    }
    fn capture(&mut self, landing: usize, landing_seeds: u64, victims: &[(usize, u16)]) {
        let v: Vec<String> = victims
            .iter()
            .map(|&(h, s)| format!("{s} from {}", hole_name(self.rules, h)))
            .collect();
        let taken: u64 = victims.iter().map(|&(_, s)| s as u64).sum();
        self.events.push(format!(
            "capture {} with the {landing_seeds} in {}: {} seeds",
            v.join(" and "),
            hole_name(self.rules, landing),
            taken + landing_seeds
        ));
    }
    fn step(&mut self, from: usize, to: usize) {
        self.events.push(format!(
            "lone seed steps from {} to {}",
            hole_name(self.rules, from),
            hole_name(self.rules, to)
        ));
    }
    fn end(&mut self, end: MoveEnd) {
        self.events.push(format!("move ends: {}", end.name()));
    }
}
