//! The solved-table file (docs/SOLVED.md, "The table file"): a text
//! header, then one fixed-size record per position in increasing key
//! order, so a reader finds a position by binary search.

use super::{SolvedTable, Value};

/// The first line of every table file; `katro solve` overwrites only
/// files that start with it.
pub const MAGIC: &[u8] = b"KATRO-SOLVED 1\n";
/// Key (16 bytes), value (1), distance (4), little-endian.
const RECORD: usize = 21;

/// A table file that cannot be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TableError(pub String);

impl std::fmt::Display for TableError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl SolvedTable {
    /// The file's bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = MAGIC.to_vec();
        out.extend_from_slice(
            format!(
                "rules {}\npositions {}\nply-limit ignored\n\
                 records key:u128le value:u8(0 loss,1 draw,2 win) distance:u32le\n\n",
                self.rules,
                self.keys.len()
            )
            .as_bytes(),
        );
        out.reserve(self.keys.len() * RECORD);
        for (k, v) in self.keys.iter().zip(&self.values) {
            out.extend_from_slice(&k.to_le_bytes());
            let (tag, d) = match *v {
                Value::Loss(d) => (0u8, d),
                Value::Draw => (1, 0),
                Value::Win(d) => (2, d),
            };
            out.push(tag);
            out.extend_from_slice(&d.to_le_bytes());
        }
        out
    }
}

/// Reads a table file's bytes, checking its header and every record.
pub fn read_table(bytes: &[u8]) -> Result<SolvedTable, TableError> {
    if !bytes.starts_with(MAGIC) {
        return Err(TableError(
            "not a katro solved table (no `KATRO-SOLVED 1` header)".into(),
        ));
    }
    let body = &bytes[MAGIC.len()..];
    let (rules, n, end) = read_header(body)?;
    let records = &body[end + 2..];
    if records.len() != n.saturating_mul(RECORD) {
        return Err(TableError(format!(
            "the header says {n} positions, but {} bytes of records follow (want {})",
            records.len(),
            n.saturating_mul(RECORD)
        )));
    }
    let mut keys = Vec::with_capacity(n);
    let mut values = Vec::with_capacity(n);
    for (i, r) in records.chunks_exact(RECORD).enumerate() {
        let (k, v) = read_record(i, r)?;
        if keys.last().is_some_and(|&last| last >= k) {
            return Err(TableError(format!("record {i} is out of key order")));
        }
        keys.push(k);
        values.push(v);
    }
    Ok(SolvedTable {
        rules,
        keys,
        values,
    })
}

/// The header after the magic line: the rules, the number of positions
/// and where the blank line ending it starts.
fn read_header(body: &[u8]) -> Result<(String, usize, usize), TableError> {
    let err = |m: &str| TableError(m.to_string());
    let end = body
        .windows(2)
        .position(|w| w == b"\n\n")
        .ok_or_else(|| err("the header has no end (a blank line)"))?;
    let header = std::str::from_utf8(&body[..end]).map_err(|_| err("the header is not text"))?;
    let mut rules = None;
    let mut positions = None;
    for line in header.lines() {
        if let Some(r) = line.strip_prefix("rules ") {
            rules = Some(r.to_string());
        } else if let Some(p) = line.strip_prefix("positions ") {
            positions = Some(
                p.parse::<usize>()
                    .map_err(|_| err("the `positions` line is not a number"))?,
            );
        }
    }
    let rules = rules.ok_or_else(|| err("the header has no `rules` line"))?;
    let n = positions.ok_or_else(|| err("the header has no `positions` line"))?;
    Ok((rules, n, end))
}

/// Record `i`, `r`: its key and value.
fn read_record(i: usize, r: &[u8]) -> Result<(u128, Value), TableError> {
    let k = u128::from_le_bytes(r[..16].try_into().expect("16 bytes"));
    let d = u32::from_le_bytes(r[17..21].try_into().expect("4 bytes"));
    let v = match r[16] {
        0 => Value::Loss(d),
        1 => Value::Draw,
        2 => Value::Win(d),
        t => {
            return Err(TableError(format!(
                "record {i} has value {t}; want 0, 1 or 2"
            )));
        }
    };
    Ok((k, v))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_table_reads_back_as_written_and_damage_is_reported() {
        let t = SolvedTable {
            rules: "katro(rows=2)".into(),
            keys: vec![3, 9, 1 << 100],
            values: vec![Value::Win(3), Value::Draw, Value::Loss(0)],
        };
        let bytes = t.to_bytes();
        assert_eq!(read_table(&bytes).unwrap(), t);
        assert!(read_table(&bytes[..bytes.len() - 1]).is_err());
        assert!(read_table(b"hello").is_err());
        let mut bad = bytes.clone();
        let at = bad.len() - 5;
        bad[at] = 7;
        assert!(read_table(&bad).unwrap_err().0.contains("value 7"));
    }
}
