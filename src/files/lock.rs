//! The lock file a run holds in the output folder it writes
//! (`.katro-lock`, `.katro-lock-shard-I-of-N`, docs/CLUSTER.md): who holds
//! it, so that a second run into the folder is refused naming the first.

use serde::{Deserialize, Serialize};

/// A lock's owner, as its file holds it. The fields are in the order the
/// file has always had them (the keys sorted).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LockOwner {
    pub command: Vec<String>,
    pub host: String,
    pub pid: u32,
    /// UTC, as the manifest's `start_time`.
    pub start_time: String,
}

/// A lock file as read back: every field may be missing, so that a lock
/// of another shape is still told in words.
#[derive(Deserialize)]
struct LockRead {
    #[serde(default)]
    command: Vec<String>,
    host: Option<String>,
    pid: Option<u64>,
    start_time: Option<String>,
}

impl LockOwner {
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).expect("plain data")
    }

    /// The owner of a lock in words, from the text of its file.
    pub fn words(text: &str) -> String {
        let Ok(o) = serde_json::from_str::<LockRead>(text) else {
            return format!("a process whose lock file reads {:?}", text.trim());
        };
        format!(
            "pid {} on host {}, started {}: {}",
            o.pid.map_or("null".to_string(), |p| p.to_string()),
            o.host.as_deref().unwrap_or("?"),
            o.start_time.as_deref().unwrap_or("?"),
            o.command.join(" ")
        )
    }
}
