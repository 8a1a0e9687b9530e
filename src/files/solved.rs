//! solved.csv and the manifest.json beside it, as `katro solve-family`
//! writes them (docs/SOLVED.md, docs/OUTPUTS.md): the header of today's
//! and earlier builds, and the manifest's shape.

use serde::{Deserialize, Serialize};

/// solved.csv's header; `OLD_HEADERS` are those of earlier katro builds,
/// files this command wrote and may replace.
pub const HEADER: &str = "reading,rules,rows,holes,seeds,status,value,start_distance,longest_win,\
                      positions,moves,upper_bound,memory_bytes,positions_reached,\
                      positions_settled,memory_bytes_at_least,not_tried_because\n";
pub const OLD_HEADERS: [&str; 1] = [
    "reading,rules,rows,holes,seeds,status,value,start_distance,longest_win,\
     positions,moves,upper_bound,memory_bytes\n",
];

#[derive(Serialize, Deserialize)]
pub struct FamilyManifest {
    pub command: String,
    pub katro_build: String,
    pub max_memory_gib: f64,
    pub max_seconds: Option<f64>,
    /// False while the run is under way (or was killed): solved.csv then
    /// holds only the boards done so far.
    pub complete: bool,
    pub boards_total: usize,
    pub boards_done: usize,
    pub solved: usize,
    pub refused_memory: usize,
    pub stopped_time: usize,
    /// Boards whose seeds and holes do not fit a position key (absent
    /// from the manifests of builds before it, which resume as 0).
    #[serde(default)]
    pub refused_key: usize,
    pub not_tried: usize,
    /// Rows taken over from an earlier run of the same rules, memory and cap.
    pub resumed: usize,
    /// Threads exploring each board (they change the times, never a row;
    /// absent from the manifests of builds before it, which read as 0).
    #[serde(default)]
    pub threads: usize,
    /// Wall seconds of this invocation.
    pub seconds: f64,
    pub peak_rss_bytes: Option<u64>,
    pub boards: Vec<BoardTime>,
}

impl FamilyManifest {
    /// The boards by status, as the command reports them.
    pub fn tally(&self) -> String {
        format!(
            "{} solved, {} refused by memory, {} stopped at the time cap, {} not tried",
            self.solved, self.refused_memory, self.stopped_time, self.not_tried
        )
    }
}

#[derive(Clone, Serialize, Deserialize)]
pub struct BoardTime {
    pub reading: String,
    pub rows: usize,
    pub holes: usize,
    pub seeds: u16,
    pub status: String,
    pub seconds: f64,
}
