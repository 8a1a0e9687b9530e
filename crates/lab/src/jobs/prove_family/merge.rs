//! `katro prove-family --merge`: the shards of one family, checked to
//! make it whole, into the files one unsharded run writes.

use std::path::{Path, PathBuf};

use crate::experiment::runner::Part;
use crate::files::proved::{
    PROVED_SVG, ProvedManifest, ProvedRow, ShardPart, header, shard_names, shard_of_name,
};
use crate::jobs::out_folder::lock_folder;
use crate::jobs::{Damage, Error, Progress, ProvedShardProblem, Refusal};
use crate::pictures::proved_grid::proved_svg;
use crate::store::Store;

use super::{Place, differences, read_csv};

/// A shard's files as read for the merge: its part, paths and contents.
struct ShardRead {
    part: ShardPart,
    json: PathBuf,
    csv: PathBuf,
    manifest: ProvedManifest,
    rows: Vec<ProvedRow>,
}

/// Reads shard `part`'s two files in `shards`, or says what is wrong.
fn read_shard(
    store: &dyn Store,
    shards: &Path,
    part: ShardPart,
) -> Result<ShardRead, ProvedShardProblem> {
    let (c, j) = shard_names(part);
    let (csv, json) = (shards.join(c), shards.join(j));
    let unreadable = |path: &Path, reason: String| ProvedShardProblem::Unreadable {
        path: path.to_path_buf(),
        reason,
    };
    let bytes = store
        .read(&json)
        .map_err(|e| unreadable(&json, e.to_string()))?;
    let manifest = ProvedManifest::parse(&bytes).map_err(|r| unreadable(&json, r))?;
    if manifest.shard != Some(part) {
        let says = manifest.shard.map_or("none (a whole family)".into(), |p| {
            format!("{}/{}", p.index, p.count)
        });
        return Err(ProvedShardProblem::Misnamed { path: json, says });
    }
    let bytes = store
        .read(&csv)
        .map_err(|e| unreadable(&csv, e.to_string()))?;
    let rows = read_csv(&csv, bytes).map_err(|e| unreadable(&csv, e.to_string()))?;
    if !manifest.complete {
        let (done, boards) = (manifest.boards_done, manifest.boards);
        return Err(ProvedShardProblem::Unfinished {
            path: json,
            done,
            boards,
        });
    }
    if rows.len() != manifest.boards || manifest.times.len() != manifest.boards {
        return Err(ProvedShardProblem::OtherRows {
            path: csv,
            rows: rows.len(),
            boards: manifest.boards,
        });
    }
    Ok(ShardRead {
        part,
        json,
        csv,
        manifest,
        rows,
    })
}

/// What is wrong with the shards `read` (of the `parts` found) as one
/// family: shards of another family or N than the first's, and shards
/// missing.
fn family_problems(read: &[ShardRead], parts: &[ShardPart]) -> Vec<ProvedShardProblem> {
    let Some(first) = read.first() else {
        return Vec::new();
    };
    let mut problems = Vec::new();
    for r in &read[1..] {
        let differs = if r.part.count != first.part.count {
            format!("cut for N = {}, not {}", r.part.count, first.part.count)
        } else if r.manifest.family != first.manifest.family {
            differences(&r.manifest.family, &first.manifest.family)
        } else {
            continue;
        };
        problems.push(ProvedShardProblem::OtherFamily {
            path: r.json.clone(),
            first: first.json.clone(),
            differs,
        });
    }
    let count = first.part.count;
    let missing: Vec<u64> = (1..=count)
        .filter(|i| !parts.contains(&ShardPart { index: *i, count }))
        .collect();
    if !missing.is_empty() {
        problems.push(ProvedShardProblem::Missing { missing, count });
    }
    problems
}

/// The shards of one family, each once, all complete; every problem found
/// otherwise.
fn read_proved_shards(store: &dyn Store, dir: &Path) -> Result<Vec<ShardRead>, Error> {
    let shards = dir.join("shards");
    let mut parts: Vec<ShardPart> = store
        .list(&shards)
        .unwrap_or_default()
        .iter()
        .filter_map(|e| shard_of_name(&e.name))
        .filter(|(_, json)| *json)
        .map(|(p, _)| p)
        .collect();
    parts.sort_by_key(|p| (p.count, p.index));
    if parts.is_empty() {
        return Err(Refusal::NoProvedShards {
            shards,
            dir: dir.to_path_buf(),
        }
        .into());
    }
    let mut problems = Vec::new();
    let mut read = Vec::new();
    for &p in &parts {
        match read_shard(store, &shards, p) {
            Ok(r) => read.push(r),
            Err(e) => problems.push(e),
        }
    }
    problems.extend(family_problems(&read, &parts));
    if !problems.is_empty() {
        return Err(Damage::ProvedShards {
            dir: shards,
            problems,
        }
        .into());
    }
    Ok(read)
}

/// `katro prove-family --merge --out DIR`: the shards in DIR/shards,
/// checked to make one whole family, into DIR/proved.csv, proved.svg and
/// manifest.json, the bytes of proved.csv those of one unsharded run.
pub fn merge_proved(
    out: &str,
    command: &str,
    store: &dyn Store,
    progress: &dyn Progress,
) -> Result<String, Error> {
    let dir = Path::new(out);
    if !store.is_dir(&dir.join("shards")) {
        return Err(Refusal::NoProvedShards {
            shards: dir.join("shards"),
            dir: dir.to_path_buf(),
        }
        .into());
    }
    let _lock = lock_folder(
        store,
        progress,
        dir,
        Part::Whole,
        std::slice::from_ref(&command.to_string()),
    )?;
    let shards = read_proved_shards(store, dir)?;
    let place = Place::new(store, dir, None);
    place.check_ours()?;
    let (rows, m) = merged(&shards, command);
    let mut csv = header();
    for r in &rows {
        csv.push_str(&r.line());
    }
    place.write(csv, &m, proved_svg(&rows))?;
    let read: Vec<String> = shards.iter().map(|s| s.csv.display().to_string()).collect();
    progress.note(&format!("prove-family: merged {}", read.join(", ")));
    Ok(finished_text_merged(&place, &m, shards.len()))
}

/// The rows of the whole family from its shards, board i being shard
/// (i mod N) + 1's (i div N)th, and its manifest: the shards' times in the
/// same order, their seconds summed, their largest thread count and peak
/// memory.
fn merged(shards: &[ShardRead], command: &str) -> (Vec<ProvedRow>, ProvedManifest) {
    let first = &shards[0].manifest;
    let n = shards.len();
    let total = first.family.boards_total;
    let mut m = ProvedManifest::new(command, first.family.clone(), None, total);
    let mut rows = Vec::with_capacity(total);
    for i in 0..total {
        let s = &shards[i % n];
        rows.push(s.rows[i / n].clone());
        m.times.push(s.manifest.times[i / n].clone());
        m.count(s.rows[i / n].value);
    }
    m.merged_from = Some(n as u64);
    m.complete = true;
    m.threads = shards.iter().map(|s| s.manifest.threads).max().unwrap_or(1);
    m.seconds = shards.iter().map(|s| s.manifest.seconds).sum();
    m.peak_rss_bytes = shards
        .iter()
        .filter_map(|s| s.manifest.peak_rss_bytes)
        .max();
    (rows, m)
}

fn finished_text_merged(place: &Place, m: &ProvedManifest, n: usize) -> String {
    format!(
        "merged {n} shards: wrote {}, {} and {}: {}\n",
        place.csv.display(),
        place.dir.join(PROVED_SVG).display(),
        place.json.display(),
        m.tally()
    )
}
