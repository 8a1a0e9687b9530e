//! The report and the game viewer in a real browser: Debian's chromium,
//! driven through chromedriver's W3C WebDriver protocol (JSON over HTTP,
//! spoken here with the blocking `ureq` client).
//!
//! Ignored by a plain `cargo test`, which must pass on a machine without a
//! browser; `.ci/run` installs chromium and chromium-driver and runs it
//! with `cargo test --release --test it browser:: -- --ignored`, where a missing
//! browser is a failure. Screenshots go to target/browser-artifacts/.

use std::fs;
use std::io::Read;
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use assert_cmd::cargo::cargo_bin_cmd;
use base64::Engine;
use serde_json::{Value, json};

fn katro(args: &[&str]) -> String {
    let out = cargo_bin_cmd!("katro").args(args).output().unwrap();
    assert!(
        out.status.success(),
        "katro {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// chromedriver, stopped when dropped.
struct Driver {
    child: Child,
    base: String,
    agent: ureq::Agent,
}

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Driver {
    fn start() -> Driver {
        let port = TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let child = Command::new("chromedriver")
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect(
                "chromedriver is not installed: apt-get install chromium chromium-driver \
                 (.ci/run does this)",
            );
        let agent: ureq::Agent = ureq::Agent::config_builder()
            .http_status_as_error(false)
            .timeout_global(Some(Duration::from_secs(60)))
            .build()
            .into();
        let d = Driver {
            child,
            base: format!("http://127.0.0.1:{port}"),
            agent,
        };
        let t = Instant::now();
        loop {
            if let Ok(mut r) = d.agent.get(format!("{}/status", d.base)).call() {
                let v: Value =
                    serde_json::from_str(&r.body_mut().read_to_string().unwrap()).unwrap();
                if v["value"]["ready"] == true {
                    break;
                }
            }
            assert!(
                t.elapsed() < Duration::from_secs(20),
                "chromedriver did not start"
            );
            std::thread::sleep(Duration::from_millis(100));
        }
        d
    }

    fn send(&self, method: &str, path: &str, body: Option<Value>) -> Value {
        let url = format!("{}{path}", self.base);
        let mut resp = match body {
            Some(b) => self
                .agent
                .post(&url)
                .header("Content-Type", "application/json")
                .send(b.to_string())
                .unwrap(),
            None if method == "DELETE" => self.agent.delete(&url).call().unwrap(),
            None => self.agent.get(&url).call().unwrap(),
        };
        let status = resp.status();
        let text = resp.body_mut().read_to_string().unwrap();
        let v: Value = serde_json::from_str(&text).unwrap_or(Value::Null);
        assert!(status.is_success(), "{method} {path}: {status}: {text}");
        v["value"].clone()
    }
}

struct Session<'a> {
    d: &'a Driver,
    id: String,
}

impl Session<'_> {
    fn new(d: &Driver) -> Session<'_> {
        let profile = tempfile::tempdir().unwrap().keep();
        let mut opts = json!({
            "args": [
                "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                "--no-first-run", "--disable-background-networking",
                "--disable-component-update", "--disable-sync",
                "--window-size=1200,1000",
                format!("--user-data-dir={}", profile.display()),
            ]
        });
        if Path::new("/usr/bin/chromium").exists() {
            opts["binary"] = json!("/usr/bin/chromium");
        }
        let v = d.send(
            "POST",
            "/session",
            Some(json!({"capabilities": {"alwaysMatch": {
                "browserName": "chrome",
                "goog:chromeOptions": opts,
                "goog:loggingPrefs": {"browser": "ALL"}
            }}})),
        );
        Session {
            d,
            id: v["sessionId"].as_str().unwrap().to_string(),
        }
    }

    fn cmd(&self, method: &str, path: &str, body: Option<Value>) -> Value {
        self.d
            .send(method, &format!("/session/{}{path}", self.id), body)
    }

    fn open(&self, file: &Path) {
        self.open_at(file, "");
    }

    /// Opens `file` with `fragment` (`#ply=3`) after its address.
    fn open_at(&self, file: &Path, fragment: &str) {
        let url = format!(
            "file://{}{fragment}",
            file.canonicalize().unwrap().display()
        );
        self.cmd("POST", "/url", Some(json!({ "url": url })));
        // chromedriver's "normal" page-load strategy should return once the
        // page has loaded, but in CI it has twice returned while a large
        // file:// page was still being parsed (a report without its last
        // sections, a viewer without its game), so wait for the new
        // document, parsed and loaded (the viewer writes its ply into the
        // fragment, so only what comes before it is compared).
        let t = Instant::now();
        let loaded = json!({
            "script": "return document.readyState === 'complete' \
                       && decodeURI(location.href).split('#')[0] === arguments[0].split('#')[0];",
            "args": [url],
        });
        while self.cmd("POST", "/execute/sync", Some(loaded.clone())) != true {
            assert!(
                t.elapsed() < Duration::from_secs(60),
                "{url} did not finish loading in 60 s"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    fn script(&self, js: &str) -> Value {
        self.cmd(
            "POST",
            "/execute/sync",
            Some(json!({"script": js, "args": []})),
        )
    }

    fn click(&self, css: &str) {
        let e = self.cmd(
            "POST",
            "/element",
            Some(json!({"using": "css selector", "value": css})),
        );
        let id = e
            .as_object()
            .and_then(|o| o.values().next())
            .and_then(|v| v.as_str())
            .unwrap()
            .to_string();
        self.cmd("POST", &format!("/element/{id}/click"), Some(json!({})));
    }

    fn key(&self, key: &str) {
        self.cmd(
            "POST",
            "/actions",
            Some(
                json!({"actions": [{"type": "key", "id": "keyboard", "actions": [
                    {"type": "keyDown", "value": key}, {"type": "keyUp", "value": key}
                ]}]}),
            ),
        );
    }

    /// Console messages at level SEVERE (errors) since the last call.
    fn console_errors(&self) -> Vec<String> {
        let logs = self.cmd("POST", "/se/log", Some(json!({"type": "browser"})));
        logs.as_array()
            .unwrap()
            .iter()
            .filter(|l| l["level"] == "SEVERE")
            .map(|l| l["message"].to_string())
            .collect()
    }

    fn screenshot(&self, name: &str) -> PathBuf {
        let b64 = self.cmd("GET", "/screenshot", None);
        let png = base64::engine::general_purpose::STANDARD
            .decode(b64.as_str().unwrap())
            .unwrap();
        assert!(png.starts_with(b"\x89PNG"));
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/browser-artifacts");
        let path = dir.join(name);
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(&path, png).unwrap();
        path
    }

    /// The seed counts the viewer shows, by hole index.
    fn counts(&self) -> Vec<u64> {
        let v = self.script(
            "const n = document.querySelectorAll('[id^=\"count-\"]').length; \
             const out = []; for (let h = 0; h < n; h++) \
             out.push(Number(document.getElementById('count-' + h).textContent)); return out;",
        );
        v.as_array()
            .unwrap()
            .iter()
            .map(|x| x.as_u64().unwrap())
            .collect()
    }

    fn ply(&self) -> u64 {
        self.script("return Number(document.body.dataset.ply);")
            .as_u64()
            .unwrap()
    }
}

impl Drop for Session<'_> {
    fn drop(&mut self) {
        let _ = self
            .d
            .agent
            .delete(format!("{}/session/{}", self.d.base, self.id))
            .call();
    }
}

const ARROW_LEFT: &str = "\u{E012}";
const ARROW_UP: &str = "\u{E013}";
const ARROW_RIGHT: &str = "\u{E014}";
const ARROW_DOWN: &str = "\u{E015}";

#[test]
#[ignore = "needs chromium and chromedriver; .ci/run runs it with --ignored"]
fn report_and_viewer_in_chromium() {
    let started = Instant::now();
    let tmp = tempfile::tempdir().unwrap();
    // A small study with moves in games.csv, and its report.
    let exp = tmp.path().join("browser.toml");
    fs::write(
        &exp,
        "name = \"browser\"\nseed = 9\nvariants = [\"katro-4x4\", \"katro-ludii\"]\ngames = 40\n\
         per_game_rows = true\nmoves_in_rows = true\n\n[[matchups]]\np1 = \"greedy\"\np2 = \"random\"\n",
    )
    .unwrap();
    let out = tmp.path().join("out");
    katro(&[
        "run",
        exp.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--threads",
        "1",
    ]);
    // A Ludii game (directions, lone-seed steps) for the viewer.
    let page = tmp.path().join("game.html");
    katro(&[
        "replay",
        "--from-csv",
        out.join("games.csv").to_str().unwrap(),
        "--row",
        "41",
        "--html",
        page.to_str().unwrap(),
    ]);
    let mut rd = csv::Reader::from_path(out.join("games.csv")).unwrap();
    let headers = rd.headers().unwrap().clone();
    let col = headers.iter().position(|h| h == "moves").unwrap();
    let rec = rd.records().nth(40).unwrap().unwrap();
    let moves: Vec<&str> = rec[col].split_whitespace().collect();
    // What `katro replay` prints for every ply.
    let mut args = vec!["replay", "katro-ludii", "--trace"];
    args.extend(&moves);
    let trace: Value = serde_json::from_str(&katro(&args)).unwrap();
    let flat = |b: &Value| -> Vec<u64> {
        b.as_array()
            .unwrap()
            .iter()
            .flat_map(|r| r.as_array().unwrap().iter().map(|v| v.as_u64().unwrap()))
            .collect()
    };
    let start =
        flat(&serde_json::from_str::<Value>(&katro(&["replay", "katro-ludii"])).unwrap()["board"]);
    let mut boards = vec![start];
    for t in trace["trace"].as_array().unwrap() {
        boards.push(flat(&t["board"]));
    }
    let plies = moves.len() as u64;
    assert!(plies >= 3, "a game of {plies} plies is too short to test");

    let driver = Driver::start();
    let s = Session::new(&driver);

    // The report: every chart drawn with a non-zero size, no console error.
    s.open(&out.join("report.html"));
    let sizes = s.script(
        "return Array.from(document.querySelectorAll('figure')).map(f => { \
           const svg = f.querySelector('svg'); const r = svg.getBoundingClientRect(); \
           return [f.id, r.width, r.height]; });",
    );
    let sizes = sizes.as_array().unwrap();
    let ids: Vec<&str> = sizes.iter().map(|v| v[0].as_str().unwrap()).collect();
    assert_eq!(ids, ["win-rate", "lengths", "comparison"]);
    for v in sizes {
        assert!(
            v[1].as_f64().unwrap() > 100.0 && v[2].as_f64().unwrap() > 100.0,
            "{v}"
        );
    }
    let shot = s.screenshot("report.png");
    assert_eq!(s.console_errors(), Vec::<String>::new(), "report console");

    // The viewer: buttons and keys, checked against `katro replay` at every ply.
    s.open(&page);
    assert_eq!(s.counts(), boards[0]);
    for k in 1..=plies {
        s.click("#next-ply");
        assert_eq!(s.ply(), k);
        assert_eq!(s.counts(), boards[k as usize], "next, ply {k}");
    }
    s.screenshot("viewer-end.png");
    // One capturing row shown a player, the inner one under Ludii's rules.
    let shown = s.script(
        "return Array.from(document.querySelectorAll('g.capturing')) \
         .filter(g => g.getAttribute('display') !== 'none').map(g => g.id);",
    );
    assert_eq!(shown, json!(["capturing-1-2", "capturing-2-3"]));
    for k in (0..plies).rev() {
        s.click("#prev-ply");
        assert_eq!(s.counts(), boards[k as usize], "previous, ply {k}");
    }
    for k in 1..=plies {
        s.key(ARROW_RIGHT);
        assert_eq!(s.counts(), boards[k as usize], "right arrow, ply {k}");
    }
    for k in (0..plies).rev() {
        s.key(ARROW_LEFT);
        assert_eq!(s.counts(), boards[k as usize], "left arrow, ply {k}");
    }
    // Lap by lap with the down arrow: at each move's last lap the board is
    // the ply's; the up arrow walks back to the start.
    let frames = s
        .script("return JSON.parse(document.getElementById('game').textContent).frames.length;")
        .as_u64()
        .unwrap();
    let mut ends = 0;
    for _ in 1..frames {
        s.key(ARROW_DOWN);
        if s.script("return document.body.dataset.end;") == "true" {
            ends += 1;
            assert_eq!(
                s.counts(),
                boards[s.ply() as usize],
                "down arrow, ply {}",
                s.ply()
            );
        }
    }
    assert_eq!(ends, plies);
    s.click("#prev-lap");
    s.key(ARROW_UP);
    s.screenshot("viewer-laps.png");
    s.click("#first");
    assert_eq!(s.counts(), boards[0]);
    // A link to a ply opens the viewer there, and the address follows the
    // ply on show.
    let at = plies.min(3);
    s.open_at(&page, &format!("#ply={at}"));
    assert_eq!(s.ply(), at);
    assert_eq!(s.counts(), boards[at as usize], "#ply={at}");
    s.click("#next-ply");
    let shown = s.script("return location.hash;");
    assert_eq!(shown, json!(format!("#ply={}", (at + 1).min(plies))));
    assert_eq!(s.console_errors(), Vec::<String>::new(), "viewer console");
    // No request went out: the pages are self-contained.
    let mut html = String::new();
    fs::File::open(&page)
        .unwrap()
        .read_to_string(&mut html)
        .unwrap();
    assert!(!html.contains("<script src"));
    eprintln!(
        "browser test: {} plies, {frames} frames, screenshots in {}, {:.1} s",
        plies,
        shot.parent().unwrap().display(),
        started.elapsed().as_secs_f64()
    );
}

/// Every text of every SVG on the open page, as problems: a text whose box
/// leaves its SVG, or two texts whose boxes overlap (by more than half a
/// pixel each way, so that boxes that merely touch pass).
const TEXT_CHECK: &str = "const out = []; \
  document.querySelectorAll('svg').forEach((svg, si) => { \
    const sb = svg.getBoundingClientRect(); \
    const ts = Array.from(svg.querySelectorAll('text')) \
      .map(t => [t.textContent.trim(), t.getBoundingClientRect()]) \
      .filter(([s, b]) => s !== '' && b.width > 0 && b.height > 0); \
    for (const [s, b] of ts) { \
      if (b.left < sb.left - 0.5 || b.right > sb.right + 0.5 || \
          b.top < sb.top - 0.5 || b.bottom > sb.bottom + 0.5) \
        out.push(`svg ${si}: \"${s}\" leaves the SVG`); } \
    for (let i = 0; i < ts.length; i++) for (let j = i + 1; j < ts.length; j++) { \
      const [a, p] = ts[i], [b, q] = ts[j]; \
      const w = Math.min(p.right, q.right) - Math.max(p.left, q.left); \
      const h = Math.min(p.bottom, q.bottom) - Math.max(p.top, q.top); \
      if (w > 0.5 && h > 0.5) out.push(`svg ${si}: \"${a}\" overlaps \"${b}\"`); } \
  }); return out;";

/// Every axis of every SVG on the open page whose ticks carry two labels
/// alike. An axis is a straight two-point polyline at least 40 px long
/// (plotters draws each axis so); its ticks are the short polylines
/// across it with an end on it, and a tick's label the text nearest its
/// other end. Returns [axes with two or more labels, problems].
const TICK_CHECK: &str = "const out = []; let axes = 0; \
  document.querySelectorAll('svg').forEach((svg, si) => { \
    const two = Array.from(svg.querySelectorAll('polyline')) \
      .map(p => p.getAttribute('points').trim().split(/\\s+/).map(q => q.split(',').map(Number))) \
      .filter(p => p.length === 2); \
    const len = p => Math.hypot(p[0][0] - p[1][0], p[0][1] - p[1][1]); \
    const hor = p => Math.abs(p[0][1] - p[1][1]) < 0.5, ver = p => Math.abs(p[0][0] - p[1][0]) < 0.5; \
    const texts = Array.from(svg.querySelectorAll('text')) \
      .filter(t => t.textContent.trim() !== '').map(t => [t, t.getBBox()]); \
    const ticks = two.filter(p => len(p) > 0 && len(p) <= 10 && (hor(p) || ver(p))); \
    for (const a of two.filter(p => len(p) >= 40 && (hor(p) || ver(p)))) { \
      const labels = new Map(); \
      for (const t of ticks) { \
        let end = null; \
        if (hor(a) && ver(t)) { \
          const y = a[0][1], x = t[0][0]; \
          if (x < Math.min(a[0][0], a[1][0]) - 1 || x > Math.max(a[0][0], a[1][0]) + 1) continue; \
          if (Math.abs(t[0][1] - y) <= 1) end = t[1]; else if (Math.abs(t[1][1] - y) <= 1) end = t[0]; \
        } else if (ver(a) && hor(t)) { \
          const x = a[0][0], y = t[0][1]; \
          if (y < Math.min(a[0][1], a[1][1]) - 1 || y > Math.max(a[0][1], a[1][1]) + 1) continue; \
          if (Math.abs(t[0][0] - x) <= 1) end = t[1]; else if (Math.abs(t[1][0] - x) <= 1) end = t[0]; \
        } \
        if (!end) continue; \
        let best = null, bd = 15; \
        for (const [el, b] of texts) { \
          const dx = Math.max(b.x - end[0], 0, end[0] - b.x - b.width); \
          const dy = Math.max(b.y - end[1], 0, end[1] - b.y - b.height); \
          const d = Math.hypot(dx, dy); \
          if (d < bd) { bd = d; best = el; } } \
        if (best) labels.set(best, best.textContent.trim()); } \
      if (labels.size >= 2) { \
        axes++; const seen = new Set(); \
        for (const s of labels.values()) { \
          if (seen.has(s)) out.push(`svg ${si}: two ticks of an axis read \"${s}\": ${Array.from(labels.values()).join(', ')}`); \
          seen.add(s); } } } \
  }); return [axes, out];";

/// Every text of every SVG on the open page drawn over a mark: a line
/// (gridlines, axes, curves, whiskers), a dot, or the edge of a filled
/// box (a text wholly inside a box, a matrix's number in its cell, is on
/// a clear band). The page's white background is no mark. Boxes are the
/// texts' own, shrunk by a pixel so that a text merely touching passes.
/// Returns [texts checked, problems].
const PLOT_CHECK: &str = "const out = []; let n = 0; \
  const segBox = (x1, y1, x2, y2, b) => { \
    let t0 = 0, t1 = 1; const dx = x2 - x1, dy = y2 - y1; \
    for (const [p, q] of [[-dx, x1 - b[0]], [dx, b[2] - x1], [-dy, y1 - b[1]], [dy, b[3] - y1]]) { \
      if (p === 0) { if (q < 0) return false; } \
      else { const r = q / p; if (p < 0) { if (r > t1) return false; if (r > t0) t0 = r; } \
             else { if (r < t0) return false; if (r < t1) t1 = r; } } } \
    return true; }; \
  document.querySelectorAll('svg').forEach((svg, si) => { \
    const num = (e, a) => Number(e.getAttribute(a)); \
    const visible = e => e.getAttribute('opacity') !== '0' && e.getAttribute('stroke') !== 'none'; \
    const segs = []; \
    svg.querySelectorAll('line').forEach(l => { if (visible(l)) segs.push([num(l, 'x1'), num(l, 'y1'), num(l, 'x2'), num(l, 'y2')]); }); \
    svg.querySelectorAll('polyline').forEach(p => { if (!visible(p)) return; \
      const q = p.getAttribute('points').trim().split(/\\s+/).map(s => s.split(',').map(Number)); \
      for (let i = 1; i < q.length; i++) segs.push([q[i - 1][0], q[i - 1][1], q[i][0], q[i][1]]); }); \
    const dots = Array.from(svg.querySelectorAll('circle')).filter(c => c.getAttribute('opacity') !== '0') \
      .map(c => [num(c, 'cx'), num(c, 'cy'), num(c, 'r')]); \
    const boxes = Array.from(svg.querySelectorAll('rect')) \
      .filter(r => r.getAttribute('opacity') !== '0' && (r.getAttribute('fill') || '').toUpperCase() !== '#FFFFFF') \
      .map(r => [num(r, 'x'), num(r, 'y'), num(r, 'x') + num(r, 'width'), num(r, 'y') + num(r, 'height')]); \
    for (const t of svg.querySelectorAll('text')) { \
      const s = t.textContent.trim(); if (s === '') continue; \
      const g = t.getBBox(); if (g.width === 0) continue; n++; \
      const b = [g.x + 1, g.y + 1, g.x + g.width - 1, g.y + g.height - 1]; \
      let what = null; \
      for (const l of segs) if (segBox(l[0], l[1], l[2], l[3], b)) { what = `a line from (${l[0]}, ${l[1]}) to (${l[2]}, ${l[3]})`; break; } \
      if (!what) for (const [cx, cy, r] of dots) { \
        const dx = Math.max(b[0] - cx, 0, cx - b[2]), dy = Math.max(b[1] - cy, 0, cy - b[3]); \
        if (Math.hypot(dx, dy) < r) { what = `a dot at (${cx}, ${cy})`; break; } } \
      if (!what) for (const r of boxes) { \
        const meets = b[0] < r[2] && r[0] < b[2] && b[1] < r[3] && r[1] < b[3]; \
        const inside = b[0] >= r[0] && b[2] <= r[2] && b[1] >= r[1] && b[3] <= r[3]; \
        if (meets && !inside) { what = `the edge of a box at (${r[0]}, ${r[1]})`; break; } } \
      if (what) out.push(`svg ${si}: \"${s}\" lies over ${what}`); } \
  }); return [n, out];";

/// Every line break of the open page that cuts a word: in its HTML text
/// as Chromium lays it out (a break is a character on a lower line than
/// the one before it, in the same block, with no space between them and
/// none of , ( + / - ; : before the break; a `<br>` is a break the page
/// asks for, so it counts as a space), and between the lines of an
/// SVG label wrapped by katro (texts one after the other, aligned, 20 to
/// 22 px apart), a letter or digit on both sides of the break.
/// Returns [breaks seen, problems].
const BREAK_CHECK: &str = "const out = []; let breaks = 0; \
  const walker = document.createTreeWalker(document.body || document.documentElement, NodeFilter.SHOW_TEXT | NodeFilter.SHOW_ELEMENT, \
    { acceptNode: n => (n.nodeType === 1 ? n : n.parentElement).closest('svg, script, style') ? NodeFilter.FILTER_REJECT : NodeFilter.FILTER_ACCEPT }); \
  const blockOf = n => n.parentElement.closest('p, li, td, th, figcaption, h1, h2, summary, nav, section, figure, body'); \
  let prev = null, space = false; \
  for (let node; (node = walker.nextNode()); ) { \
    if (node.nodeType === 1) { if (node.tagName === 'BR') space = true; continue; } \
    const text = node.textContent, blk = blockOf(node); \
    if (prev && prev.blk !== blk) { prev = null; space = false; } \
    for (let i = 0; i < text.length; i++) { \
      const c = text[i]; \
      if (/\\s/.test(c)) { space = true; continue; } \
      const r = document.createRange(); r.setStart(node, i); r.setEnd(node, i + 1); \
      const rects = r.getClientRects(); if (rects.length === 0) continue; \
      const rc = rects[0]; \
      if (prev && rc.top >= prev.bottom - 1) { \
        breaks++; \
        if (!space && !/[,(+\\/\\-;:]/.test(prev.c)) { \
          const ctx = (prev.ctx + '|' + text.slice(i, i + 12)); \
          out.push(`a word cut at a line break: \"${ctx}\"`); } } \
      prev = { c, bottom: rc.bottom, blk, ctx: text.slice(Math.max(0, i - 11), i + 1) }; space = false; } } \
  document.querySelectorAll('svg').forEach((svg, si) => { \
    const ts = Array.from(svg.querySelectorAll('text')); \
    for (let i = 1; i < ts.length; i++) { \
      const a = ts[i - 1], b = ts[i]; \
      if (a.getAttribute('x') !== b.getAttribute('x') || a.getAttribute('text-anchor') !== b.getAttribute('text-anchor')) continue; \
      const gap = Number(b.getAttribute('y')) - Number(a.getAttribute('y')); \
      if (gap < 20 || gap > 22) continue; \
      const up = a.textContent.replace(/^\\n/, '').replace(/\\n$/, ''), down = b.textContent.trim(); \
      if (up === '' || down === '') continue; \
      breaks++; \
      if (/[A-Za-z0-9]$/.test(up) && /^[A-Za-z0-9]/.test(down)) \
        out.push(`svg ${si}: a label cut inside a word: \"${up}|${down}\"`); } \
  }); return [breaks, out];";

/// Every chart of the committed reports (each plots/*.svg and the copies
/// inlined in report.html), of a 50-variant sweep made here and the proved
/// family's chart of a small family: no text
/// leaves its chart, no two texts overlap, no two ticks of an axis read
/// alike, no text lies over a chart's marks and no line break cuts a
/// word, as Chromium lays them out.
#[test]
#[ignore = "needs chromium and chromedriver; .ci/run runs it with --ignored"]
fn chart_texts_neither_overlap_nor_leave_their_chart() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let tmp = tempfile::tempdir().unwrap();
    // 5 × 10 = 50 variants with long names, three matchups of which two
    // differ only in their opening plies, a low ply limit for a spike.
    let exp = tmp.path().join("sweep50.toml");
    fs::write(
        &exp,
        "name = \"sweep50\"\nseed = 3\ngames = 12\nply_limit = 120\n\n[[sweep]]\n\
         base = \"katro-4x4\"\nseeds = { from = 1, to = 10 }\n\
         min_victim_seeds_after_empty = { from = 1, to = 5 }\n\n\
         [[matchups]]\np1 = \"random\"\np2 = \"random\"\n\n\
         [[matchups]]\np1 = \"greedy\"\np2 = \"greedy\"\n\n\
         [[matchups]]\np1 = \"greedy\"\np2 = \"greedy\"\nopening_plies = 4\n",
    )
    .unwrap();
    let out = tmp.path().join("sweep50");
    katro(&["run", exp.to_str().unwrap(), "--out", out.to_str().unwrap()]);
    let summary = fs::read_to_string(out.join("summary.csv")).unwrap();
    assert_eq!(
        summary.lines().count(),
        1 + 50 * 3,
        "50 variants × 3 matchups"
    );
    let mut folders: Vec<PathBuf> = fs::read_dir(root.join("results"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.join("report.html").exists())
        .collect();
    folders.sort();
    folders.push(out);
    let mut pages = Vec::new();
    for f in &folders {
        pages.push(f.join("report.html"));
        let mut svgs: Vec<PathBuf> = fs::read_dir(f.join("plots"))
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|x| x == "svg"))
            .collect();
        svgs.sort();
        pages.extend(svgs);
    }
    // The proved family's chart, of every set at shallow depth (all its
    // kinds of cell, label and panel).
    let proved = tmp.path().join("proved");
    katro(&[
        "prove-family",
        "--out",
        proved.to_str().unwrap(),
        "--sets",
        "boards,readings-6x6,readings-4x4,solved-family",
        "--max-depth",
        "6",
        "--max-nodes",
        "20000",
        "--max-memory",
        "0.01",
    ]);
    pages.push(proved.join("proved.svg"));
    let driver = Driver::start();
    let s = Session::new(&driver);
    let mut problems = Vec::new();
    let mut charts = 0;
    let (mut axes, mut texts, mut breaks) = (0u64, 0u64, 0u64);
    for p in &pages {
        s.open(p);
        charts += s
            .script("return document.querySelectorAll('svg').length;")
            .as_u64()
            .unwrap();
        for v in s.script(TEXT_CHECK).as_array().unwrap() {
            problems.push(format!("{}: {}", p.display(), v.as_str().unwrap()));
        }
        for (check, seen) in [
            (TICK_CHECK, &mut axes),
            (PLOT_CHECK, &mut texts),
            (BREAK_CHECK, &mut breaks),
        ] {
            let v = s.script(check);
            *seen += v[0].as_u64().unwrap();
            for p2 in v[1].as_array().unwrap() {
                problems.push(format!("{}: {}", p.display(), p2.as_str().unwrap()));
            }
        }
    }
    s.open(&folders[folders.len() - 1].join("plots/lengths.svg"));
    let shot = s.screenshot("sweep50-lengths.png");
    fs::write(
        shot.with_file_name("chart-text-problems.txt"),
        problems.join("\n"),
    )
    .unwrap();
    eprintln!(
        "{} pages, {charts} SVGs, {axes} axes with labelled ticks, {texts} texts checked \
         against the marks, {breaks} line breaks, {} problems",
        pages.len(),
        problems.len()
    );
    // The checks saw what they check: a check that finds no axis, text
    // or line break would pass whatever the charts look like.
    assert!(
        axes > 100 && texts > 1000 && breaks > 100,
        "{axes} {texts} {breaks}"
    );
    assert!(
        problems.is_empty(),
        "{} text problems in {} pages, e.g.:\n{}",
        problems.len(),
        pages.len(),
        problems
            .iter()
            .take(40)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );
}

/// The shortest of the random games from seeds 0 to 39 whose end has
/// status `status` (short, so that stepping through every frame of a page
/// takes seconds), played by the library: its moves and the board after
/// each.
fn finished_game(rules: &katro_core::Rules, status: &str) -> (Vec<String>, Vec<Vec<u64>>) {
    let mut best: Option<(Vec<String>, Vec<Vec<u64>>)> = None;
    for seed in 0..40 {
        let mut rng = katro_core::rng::rng_from_seed(seed);
        let mut pos = rules.start();
        let board = |pos: &katro_core::Position| -> Vec<u64> {
            (0..rules.hole_count())
                .map(|h| pos.seeds(h) as u64)
                .collect()
        };
        let (mut moves, mut boards) = (vec![], vec![board(&pos)]);
        while !rules.status(&pos).is_over() {
            let mv = rules.random_move(&pos, &mut rng).unwrap();
            rules.play(&mut pos, mv).unwrap();
            moves.push(katro_core::engine::notation::move_name(rules, mv));
            boards.push(board(&pos));
        }
        if rules.status(&pos).name() == status
            && best.as_ref().is_none_or(|b| moves.len() < b.0.len())
        {
            best = Some((moves, boards));
        }
    }
    best.unwrap_or_else(|| panic!("{}: no random game ends {status}", rules.name()))
}

/// A finished game of every preset, and games ended by the ply limit, the
/// lap limit and an endless move, stepped through frame by frame with the
/// viewer's "lap >" button to the end: every move is shown lap by lap
/// (lap 1 to its last, one gap only in a move of more than 400 laps), none
/// as one step, and each move's last frame is the engine's board.
#[test]
#[ignore = "needs chromium and chromedriver; .ci/run runs it with --ignored"]
fn viewer_steps_through_every_move_of_finished_games() {
    let tmp = tempfile::tempdir().unwrap();
    let mut games = vec![];
    for name in katro_core::rules::preset_names() {
        games.push((name.to_string(), None, None, "won"));
    }
    games.push(("katro-4x4".into(), Some(9), None, "ply-limit"));
    games.push(("katro-6x6".into(), None, Some(3), "lap-limit"));
    games.push(("katro-wikipedia".into(), None, Some(1000), "lap-limit"));
    games.push(("katro-wikipedia".into(), None, None, "endless-move"));
    let driver = Driver::start();
    let s = Session::new(&driver);
    let mut frames_seen = 0;
    for (g, (name, ply_limit, lap_limit, status)) in games.iter().enumerate() {
        let rules = katro_core::rules::preset(name)
            .unwrap()
            .with_limits(*ply_limit, *lap_limit)
            .unwrap();
        let (moves, boards) = finished_game(&rules, status);
        let page = tmp.path().join(format!("game-{g}.html"));
        let mut args: Vec<String> = vec!["replay".into(), name.clone()];
        for (flag, v) in [("--ply-limit", ply_limit), ("--lap-limit", lap_limit)] {
            if let Some(v) = v {
                args.extend([flag.to_string(), v.to_string()]);
            }
        }
        args.extend(moves.iter().cloned());
        args.extend(["--html".into(), page.display().to_string()]);
        katro(&args.iter().map(String::as_str).collect::<Vec<_>>());
        s.open(&page);
        // Every frame as the page shows it, from the start to the end, a
        // few hundred clicks a script call.
        let n = s
            .script("return JSON.parse(document.getElementById('game').textContent).frames.length;")
            .as_u64()
            .unwrap();
        let mut shown = vec![];
        for from in (0..n).step_by(250) {
            let chunk = s.script(&format!(
                "const counts = () => Array.from(document.querySelectorAll('[id^=\"count-\"]')) \
                   .map(e => [Number(e.id.slice(6)), Number(e.textContent)]) \
                   .sort((a, b) => a[0] - b[0]).map(e => e[1]); \
                 const out = []; \
                 for (let i = {from}; i < Math.min({n}, {from} + 250); i++) {{ \
                   if (i > 0) document.getElementById('next-lap').click(); \
                   out.push({{status: document.getElementById('status').textContent, \
                     what: document.getElementById('what').textContent, \
                     end: document.body.dataset.end === 'true', \
                     ply: Number(document.body.dataset.ply), \
                     frame: Number(document.body.dataset.frame), counts: counts()}}); }} \
                 return out;"
            ));
            shown.extend(chunk.as_array().unwrap().iter().cloned());
        }
        frames_seen += shown.len();
        let plies = katro_core::engine::notation::plural(moves.len() as u64, "ply", "plies");
        eprintln!("{name} ({status}): {plies}, {n} frames");
        let what = format!("{name} ({status}, {} plies)", moves.len());
        let mut laps_of_ply: Vec<u64> = vec![];
        let mut ends = 0;
        for (i, f) in shown.iter().enumerate() {
            assert_eq!(f["frame"], i, "{what}: the button did not step");
            let text = f["what"].as_str().unwrap();
            assert!(!text.contains("one step"), "{what}: {text}");
            let status_line = f["status"].as_str().unwrap();
            let lap = status_line.split(" | ").nth(1).unwrap();
            if let Some(rest) = lap.strip_prefix("lap ")
                && let Some((k, n)) = rest.split_once(" of ")
            {
                laps_of_ply.push(k.parse().unwrap());
                if f["end"] == true {
                    let n: u64 = n.parse().unwrap();
                    assert_eq!(laps_of_ply.last(), Some(&n), "{what}: {status_line}");
                }
            }
            if f["end"] == true && i > 0 {
                ends += 1;
                let ply = f["ply"].as_u64().unwrap() as usize;
                let counts: Vec<u64> = f["counts"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|v| v.as_u64().unwrap())
                    .collect();
                assert_eq!(counts, boards[ply], "{what}: ply {ply}: {text}");
                // Lap 1 first, then each lap in turn (a capture that ends
                // the move shows its lap twice); one gap past 400 laps.
                let gaps = laps_of_ply
                    .windows(2)
                    .filter(|w| w[1] != w[0] && w[1] != w[0] + 1)
                    .count();
                let n = laps_of_ply.last().copied().unwrap_or(0);
                assert_eq!(
                    gaps,
                    usize::from(n > 400),
                    "{what}: ply {ply}: {laps_of_ply:?}"
                );
                assert!(
                    laps_of_ply.first().is_none_or(|&l| l == 1),
                    "{what}: ply {ply}: {laps_of_ply:?}"
                );
                laps_of_ply.clear();
            }
        }
        assert_eq!(ends, moves.len(), "{what}");
        let last = shown.last().unwrap();
        assert_eq!(last["ply"], moves.len(), "{what}");
        assert!(
            last["status"]
                .as_str()
                .unwrap()
                .ends_with(&format!("status: {status}")),
            "{what}: {}",
            last["status"]
        );
        if g == 0 {
            s.screenshot("viewer-winning-move.png");
        }
    }
    assert_eq!(s.console_errors(), Vec::<String>::new(), "viewer console");
    eprintln!(
        "browser test: {} finished games, {frames_seen} frames stepped through",
        games.len()
    );
}

/// A screen: the height of the test's window (`--window-size=1200,1000`).
const SCREEN: f64 = 1000.0;

/// The distinct values of `col` in the CSV file `path`, in order.
fn column_values(path: &Path, col: &str) -> Vec<String> {
    let mut rd = csv::Reader::from_path(path).unwrap();
    let i = rd.headers().unwrap().iter().position(|h| h == col).unwrap();
    let mut seen: Vec<String> = Vec::new();
    for rec in rd.records() {
        let v = rec.unwrap()[i].to_string();
        if !seen.contains(&v) {
            seen.push(v);
        }
    }
    seen
}

/// Every results folder with a committed report.html, in name order.
fn committed_report_folders() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut folders: Vec<PathBuf> = fs::read_dir(root.join("results"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.join("report.html").exists())
        .collect();
    folders.sort();
    folders
}

/// Every committed report as a reader finds it in Chromium (a 1,200 by
/// 1,000 px window): a contents list whose links all lead somewhere and
/// name every chart, the first chart within 1,500 px of the top, and a
/// tournament's report within four screens a variant (results/
/// strong-play's within 20,000 px; each was a screen less before the
/// tables of at most 20 rows were open under their charts), its pairings
/// in a pairwise matrix and not among the first-player chart's rows.
#[test]
#[ignore = "needs chromium and chromedriver; .ci/run runs it with --ignored"]
fn committed_reports_open_on_a_chart_and_stay_short() {
    let folders = committed_report_folders();
    assert!(folders.len() >= 10, "{folders:?}");
    let driver = Driver::start();
    let s = Session::new(&driver);
    let mut problems = Vec::new();
    for f in &folders {
        let name = f.file_name().unwrap().to_string_lossy().to_string();
        s.open(&f.join("report.html"));
        let v = s.script(
            "const svg = document.querySelector('figure svg'); \
             const links = Array.from(document.querySelectorAll('nav a')).map(a => a.getAttribute('href')); \
             const rows = Array.from(document.querySelectorAll('#win-rate tr')).slice(1).map(tr => \
               ['p1', 'p2', 'opening_plies'].map(c => (tr.querySelector(`td[data-col=${c}]`) || {}).textContent)); \
             return {height: document.documentElement.scrollHeight, \
               first: svg ? svg.getBoundingClientRect().top + window.scrollY : -1, links, \
               dangling: links.filter(h => !h.startsWith('#') || !document.getElementById(h.slice(1))), \
               figures: Array.from(document.querySelectorAll('figure')).map(f => f.id), rows};",
        );
        let height = v["height"].as_f64().unwrap();
        let first = v["first"].as_f64().unwrap();
        let links: Vec<&str> = v["links"]
            .as_array()
            .unwrap()
            .iter()
            .map(|l| l.as_str().unwrap())
            .collect();
        let figures: Vec<&str> = v["figures"]
            .as_array()
            .unwrap()
            .iter()
            .map(|l| l.as_str().unwrap())
            .collect();
        eprintln!("{name}: {height} px tall, the first chart {first} px down");
        if !(0.0..=1500.0).contains(&first) {
            problems.push(format!("{name}: the first chart is {first} px down"));
        }
        if !v["dangling"].as_array().unwrap().is_empty() {
            problems.push(format!("{name}: links to nothing: {}", v["dangling"]));
        }
        for id in figures.iter().chain(&["rules"]) {
            if !links.contains(&format!("#{id}").as_str()) {
                problems.push(format!("{name}: the contents do not link to #{id}"));
            }
        }
        if f.join("ratings.csv").exists() {
            let variants = column_values(&f.join("summary.csv"), "variant").len() as f64;
            if height > 4.0 * SCREEN * variants {
                problems.push(format!(
                    "{name}: {height} px for {variants} variant(s), over four {SCREEN} px \
                     screens a variant"
                ));
            }
            if !figures.contains(&"pairwise") {
                problems.push(format!("{name}: no pairwise win-rate matrix"));
            }
            let agents = column_values(&f.join("ratings.csv"), "agent");
            let opening = column_values(&f.join("ratings.csv"), "opening_plies");
            for row in v["rows"].as_array().unwrap() {
                let [p1, p2, op] = [0, 1, 2].map(|i| row[i].as_str().unwrap_or("0").to_string());
                let op = if op.is_empty() { "0".to_string() } else { op };
                if p1 != p2 && agents.contains(&p1) && agents.contains(&p2) && opening.contains(&op)
                {
                    problems.push(format!(
                        "{name}: the tournament's pairing {p1} vs {p2} is a row of the \
                         first-player chart"
                    ));
                }
            }
        }
        if name == "strong-play" && height > 20000.0 {
            problems.push(format!("{name}: {height} px tall, over 20,000"));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// Each report's panels as a reader sees them: for every panel with a
/// percentage axis, its tick labels, the values of its drawn dots and
/// interval bars (read off the axis by its tick labels), and whether its
/// title or axis label names player 1 (every panel of the strength-curve
/// and openings charts plots the first player's share). A panel is a
/// vertical axis with the horizontal axis that starts at its foot.
const PANELS_JS: &str = r#"
const pct = /^-?\d+(\.\d+)?%$/;
const out = [];
for (const fig of document.querySelectorAll('figure')) {
  for (const svg of fig.querySelectorAll('svg')) {
    const texts = Array.from(svg.querySelectorAll('text')).map(t => ({
      x: +t.getAttribute('x'), y: +t.getAttribute('y'), s: t.textContent.trim(),
      anchor: t.getAttribute('text-anchor')}));
    const axes = Array.from(svg.querySelectorAll('polyline'))
      .map(p => p.getAttribute('points').trim().split(/\s+/).map(q => q.split(',').map(Number)))
      .filter(ps => ps.length === 2);
    const vertical = axes.filter(([[x1, y1], [x2, y2]]) => x1 === x2 && Math.abs(y2 - y1) > 40);
    const horizontal = axes.filter(([[x1, y1], [x2, y2]]) => y1 === y2 && Math.abs(x2 - x1) > 40);
    for (const [[vx, va], [, vb]] of vertical) {
      const top = Math.min(va, vb), bottom = Math.max(va, vb);
      const h = horizontal.find(([[x1, y1]]) => Math.abs(x1 - vx) <= 2 && Math.abs(y1 - bottom) <= 2);
      if (!h) continue;
      const left = vx, right = Math.max(h[0][0], h[1][0]);
      const across = texts.filter(t => pct.test(t.s) && t.y > bottom && t.y <= bottom + 15
        && t.x >= left - 1 && t.x <= right + 1);
      const up = texts.filter(t => pct.test(t.s) && t.anchor === 'end' && t.x < left
        && t.x >= left - 20 && t.y >= top - 2 && t.y <= bottom + 2);
      const ticks = across.length >= 2 ? across.map(t => [t.x, parseFloat(t.s)])
        : up.length >= 2 ? up.map(t => [t.y, parseFloat(t.s)]) : null;
      if (!ticks) continue;
      const horizontalValues = across.length >= 2;
      const words = texts.filter(t => t.x >= left - 60 && t.x <= right + 20
        && ((t.y < top && t.y >= top - 60) || (t.y > bottom + 15 && t.y <= bottom + 70)))
        .map(t => t.s).join(' ');
      const [p1, v1] = ticks[0], [p2, v2] = ticks[ticks.length - 1];
      const value = p => v1 + (p - p1) * (v2 - v1) / (p2 - p1);
      const inside = (x, y) => x >= left - 1 && x <= right + 1 && y >= top - 1 && y <= bottom + 1;
      const marks = [];
      for (const c of svg.querySelectorAll('circle')) {
        const x = +c.getAttribute('cx'), y = +c.getAttribute('cy');
        if (inside(x, y)) marks.push(value(horizontalValues ? x : y));
      }
      for (const l of svg.querySelectorAll('line')) {
        if (+(l.getAttribute('opacity') || 1) < 0.9 || l.getAttribute('stroke-dasharray')) continue;
        for (const [x, y] of [[+l.getAttribute('x1'), +l.getAttribute('y1')], [+l.getAttribute('x2'), +l.getAttribute('y2')]]) {
          if (inside(x, y)) marks.push(value(horizontalValues ? x : y));
        }
      }
      out.push({figure: fig.id, words,
        first_player: /player 1|first player/i.test(words) || fig.id === 'strength-curve' || fig.id === 'openings',
        ticks: ticks.map(t => t[1]), low: Math.min(...marks), high: Math.max(...marks), marks: marks.length});
    }
  }
  // Hand-drawn small multiples (the strength curve): a <g class="panel">
  // each, tick labels right-aligned beside their grid lines.
  for (const g of fig.querySelectorAll('g.panel')) {
    const lines = Array.from(g.querySelectorAll('line')).map(l => ({
      x1: +l.getAttribute('x1'), x2: +l.getAttribute('x2'), y1: +l.getAttribute('y1'),
      y2: +l.getAttribute('y2'), grid: l.getAttribute('stroke') === '#e4e4e4',
      dashed: !!l.getAttribute('stroke-dasharray')}));
    const grid = lines.filter(l => l.grid && l.y1 === l.y2);
    const ticks = [];
    for (const t of g.querySelectorAll('text')) {
      const s = t.textContent.trim(), y = +t.getAttribute('y');
      if (!pct.test(s) || t.getAttribute('text-anchor') !== 'end') continue;
      const near = grid.filter(l => Math.abs(l.y1 - y) <= 8)
        .sort((a, b) => Math.abs(a.y1 - y) - Math.abs(b.y1 - y))[0];
      if (near) ticks.push([near.y1, parseFloat(s)]);
    }
    if (ticks.length < 2) continue;
    const [p1, v1] = ticks[0], [p2, v2] = ticks[ticks.length - 1];
    const value = p => v1 + (p - p1) * (v2 - v1) / (p2 - p1);
    const marks = Array.from(g.querySelectorAll('circle')).map(c => value(+c.getAttribute('cy')));
    for (const l of lines) {
      if (!l.grid && !l.dashed && l.x1 === l.x2) marks.push(value(l.y1), value(l.y2));
    }
    out.push({figure: fig.id, words: g.dataset.variant || '', first_player: fig.id === 'strength-curve',
      ticks: ticks.map(t => t[1]), low: Math.min(...marks), high: Math.max(...marks), marks: marks.length});
  }
}
const verdict = document.getElementById('verdict');
return {panels: out,
  verdict: verdict ? {top: verdict.getBoundingClientRect().top + window.scrollY,
    text: verdict.innerText.trim()} : null,
  titles: Array.from(document.querySelectorAll('figure')).map(f => [f.id,
    Array.from(f.querySelectorAll('svg text')).map(t => t.textContent.trim()).join('\n')])};
"#;

/// What every committed report must show a designer at a glance (issue
/// 46): a verdict in words within the first 800 px; no first-player axis
/// running 0–100% when every dot and interval drawn on it lies within
/// 30–70%; panels that split variants into balanced groups (no panel
/// holding a variant or two while another holds many); and the strength
/// curve as one panel per variant. The top of each report is kept as a
/// screenshot in target/browser-artifacts/reports/, which .ci/run lists.
#[test]
#[ignore = "needs chromium and chromedriver; .ci/run runs it with --ignored"]
fn committed_reports_answer_on_the_first_screen() {
    let folders = committed_report_folders();
    let driver = Driver::start();
    let s = Session::new(&driver);
    let mut problems = Vec::new();
    let mut first_player_axes = 0;
    for f in &folders {
        let name = f.file_name().unwrap().to_string_lossy().to_string();
        s.open(&f.join("report.html"));
        s.screenshot(&format!("reports/{name}.png"));
        let variants = column_values(&f.join("summary.csv"), "variant");
        let (found, axes) = first_screen_problems(&s, &name, &variants);
        problems.extend(found);
        first_player_axes += axes;
    }
    // The panels are found by their drawing; a change in how charts are
    // drawn must not quietly leave nothing to check.
    assert!(
        first_player_axes >= 40,
        "only {first_player_axes} first-player axes found"
    );
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// The same checks see what issue 46 was filed about: first-player-
/// advantage's report as committed before it (tests/browser-fixtures/),
/// with no verdict, a 0–100% axis for shares within 44–52%, and its
/// lengths split into 8 variants and 1.
#[test]
#[ignore = "needs chromium and chromedriver; .ci/run runs it with --ignored"]
fn the_first_screen_checks_refuse_the_report_issue_46_was_filed_on() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let driver = Driver::start();
    let s = Session::new(&driver);
    s.open(&root.join("tests/browser-fixtures/first-player-advantage-before-46.html"));
    let (problems, axes) = first_screen_problems(&s, "before-46", &[]);
    assert!(axes >= 1, "{problems:?}");
    let text = problems.join("\n");
    for needle in [
        "before-46: no verdict",
        "spans 0–100% for data within",
        "hold [8, 1] variants",
    ] {
        assert!(text.contains(needle), "{needle:?} not in:\n{text}");
    }
}

/// The first-screen problems of the page `s` shows, and how many
/// first-player axes it has. `variants` are the report's variants, for
/// the strength curve's one panel each.
fn first_screen_problems(s: &Session, name: &str, variants: &[String]) -> (Vec<String>, usize) {
    let mut problems = Vec::new();
    let mut first_player_axes = 0;
    let v = s.script(PANELS_JS);
    match v["verdict"].as_object() {
        None => problems.push(format!("{name}: no verdict")),
        Some(verdict) => {
            let top = verdict["top"].as_f64().unwrap();
            let text = verdict["text"].as_str().unwrap();
            if top > 800.0 || !text.contains("first player") {
                problems.push(format!(
                    "{name}: the verdict, {top} px down, reads {text:?}"
                ));
            }
        }
    }
    let mut curve_panels = Vec::new();
    for p in v["panels"].as_array().unwrap() {
        if p["figure"] == "strength-curve" {
            curve_panels.push(p["words"].as_str().unwrap().to_string());
        }
        if p["first_player"] != true {
            continue;
        }
        first_player_axes += 1;
        let ticks: Vec<f64> = p["ticks"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t.as_f64().unwrap())
            .collect();
        let lowest = ticks.iter().cloned().fold(f64::INFINITY, f64::min);
        let highest = ticks.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
        let (Some(low), Some(high)) = (p["low"].as_f64(), p["high"].as_f64()) else {
            problems.push(format!("{name}: a panel of {} draws nothing", p["figure"]));
            continue;
        };
        eprintln!(
            "{name} {}: axis {lowest}% to {highest}%, data {low:.1}% to {high:.1}%",
            p["figure"]
        );
        if lowest <= 0.0 && highest >= 100.0 && low >= 30.0 && high <= 70.0 {
            problems.push(format!(
                "{name}: a first-player panel of {} ({}) spans 0–100% for data within \
                 {low:.1}–{high:.1}%",
                p["figure"], p["words"]
            ));
        }
    }
    for pair in v["titles"].as_array().unwrap() {
        let figure = pair[0].as_str().unwrap();
        let text = pair[1].as_str().unwrap();
        for (group, sizes) in panel_groups(text) {
            let (min, max) = (sizes.iter().min().unwrap(), sizes.iter().max().unwrap());
            if max - min > 1 {
                problems.push(format!(
                    "{name}: {figure}'s panels of {group} hold {sizes:?} variants, \
                     not a balanced split"
                ));
            }
        }
    }
    let has_curve = v["titles"]
        .as_array()
        .unwrap()
        .iter()
        .any(|p| p[0] == "strength-curve");
    if has_curve {
        curve_panels.sort();
        let mut want = variants.to_vec();
        want.sort();
        if curve_panels != want {
            problems.push(format!(
                "{name}: the strength curve's panels are {curve_panels:?}, not one for each of \
                 {want:?}"
            ));
        }
    }
    (problems, first_player_axes)
}

/// The variant counts of split panels, from their titles ("(variants 1 to
/// 5 of 9)", perhaps wrapped over lines): one list for each run of panels
/// that starts at variant 1 (one chart's series), and one for each sweep
/// chart whose panels are titled "(2/3)", counting the distinct settings
/// (`holes=3, rows=4`) in the legend under each row of panels.
fn panel_groups(text: &str) -> Vec<(String, Vec<u64>)> {
    let mut groups: Vec<(String, Vec<u64>)> = Vec::new();
    let joined = text.replace('\n', " ");
    for piece in joined.split("(variants ").skip(1) {
        let Some(end) = piece.find(')') else { continue };
        let words: Vec<&str> = piece[..end].split(' ').collect();
        if let [a, "to", b, "of", n] = words[..]
            && let (Ok(a), Ok(b)) = (a.parse::<u64>(), b.parse::<u64>())
        {
            if a == 1 || groups.is_empty() {
                groups.push((format!("{n} variants"), vec![]));
            }
            groups.last_mut().unwrap().1.push(b - a + 1);
        }
    }
    // Sweep panels: a row of panels per title "... (i/n)"; its legend follows.
    let mut rows: Vec<Vec<String>> = Vec::new();
    for line in text.lines() {
        if line.starts_with("Player 1") && line.ends_with(')') && line.contains('/') {
            rows.push(vec![]);
        } else if let Some(row) = rows.last_mut() {
            let settings: Vec<&str> = line.split(", ").filter(|p| p.contains('=')).collect();
            let settings = settings.join(", ");
            if !settings.is_empty() && !row.contains(&settings) {
                row.push(settings);
            }
        }
    }
    if rows.len() > 1 {
        groups.push((
            "the swept settings".to_string(),
            rows.iter().map(|r| r.len() as u64).collect(),
        ));
    }
    groups
}
