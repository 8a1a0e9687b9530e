//! The files a run writes and reads back: the results' CSV files and
//! manifest (`export`), and the shards and checkpoints of a run in parts
//! (`partial`). docs/OUTPUTS.md documents every one.

pub mod export;
pub mod partial;
pub mod solved;
