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
        LockHolder::read(text).to_string()
    }
}

/// Who holds a lock, as far as its file says: a refusal carries it, and
/// its words name the run in the way.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LockHolder {
    /// A lock file that reads as JSON; a field it lacks is `None`.
    Known {
        pid: Option<u64>,
        host: Option<String>,
        start_time: Option<String>,
        command: Vec<String>,
    },
    /// A lock file of another shape: its text, trimmed.
    Unreadable(String),
}

impl LockHolder {
    pub fn read(text: &str) -> LockHolder {
        match serde_json::from_str::<LockRead>(text) {
            Ok(o) => LockHolder::Known {
                pid: o.pid,
                host: o.host,
                start_time: o.start_time,
                command: o.command,
            },
            Err(_) => LockHolder::Unreadable(text.trim().to_string()),
        }
    }
}

impl std::fmt::Display for LockHolder {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            LockHolder::Known {
                pid,
                host,
                start_time,
                command,
            } => write!(
                f,
                "pid {} on host {}, started {}: {}",
                pid.map_or("null".to_string(), |p| p.to_string()),
                host.as_deref().unwrap_or("?"),
                start_time.as_deref().unwrap_or("?"),
                command.join(" ")
            ),
            LockHolder::Unreadable(text) => {
                write!(f, "a process whose lock file reads {text:?}")
            }
        }
    }
}
