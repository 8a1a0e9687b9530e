//! The workspace's crates keep the layers between them: katro-core cannot
//! name katro-lab, nor either the binary, because their Cargo.toml files
//! say so and the compiler holds it. Inside a crate only a text scan can:
//! README.md's "## Layout" lists each crate's modules bottom up and says
//! each imports only modules listed before it (issue 9: no import cycles
//! between modules). This reads the sources and holds both to that.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

/// The library crates whose modules README.md's layout orders: the
/// crate's folder, and the words that open and close its list there.
const CRATES: [(&str, &str, &str); 2] = [
    (
        "crates/core",
        "`crates/core/` (katro-core",
        "`crates/lab/` (katro-lab",
    ),
    (
        "crates/lab",
        "`crates/lab/` (katro-lab",
        "`crates/reference/`",
    ),
];

/// A crate's top-level modules, as its `src/lib.rs` declares them.
fn library_modules(krate: &str) -> Vec<String> {
    let lib = fs::read_to_string(format!("{krate}/src/lib.rs")).unwrap();
    lib.lines()
        .filter_map(|l| l.trim().strip_prefix("pub mod "))
        .map(|m| m.trim_end_matches(';').to_string())
        .collect()
}

/// Every `.rs` file under `dir`.
fn rust_files(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    for entry in fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// A source file's code: its tests and comment lines left out, so a
/// module named only there is not an import.
fn code_of(text: &str) -> String {
    let code = text.split("#[cfg(test)]\nmod tests").next().unwrap();
    code.lines()
        .filter(|l| !l.trim_start().starts_with("//"))
        .collect::<Vec<_>>()
        .join("\n")
}

/// Which other top-level modules each module's code (tests and comments
/// left out) names through `crate::`, in the crate whose sources are
/// under `src`.
fn imports(src: &Path, modules: &[String]) -> BTreeMap<String, BTreeSet<String>> {
    let mut files = Vec::new();
    rust_files(src, &mut files);
    let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for path in files {
        let rel = path.strip_prefix(src).unwrap();
        let first = rel.components().next().unwrap().as_os_str();
        let module = first.to_str().unwrap().trim_end_matches(".rs").to_string();
        if !modules.contains(&module) {
            continue;
        }
        // A module's tests in a file of their own (`mod tests;`) are
        // tests too.
        if path.file_name().is_some_and(|n| n == "tests.rs") {
            continue;
        }
        let code = code_of(&fs::read_to_string(&path).unwrap());
        let mut named = BTreeSet::new();
        for (i, _) in code.match_indices("crate::") {
            let rest = &code[i + "crate::".len()..];
            if let Some(group) = rest.strip_prefix('{') {
                let group = &group[..group.find('}').unwrap_or(group.len())];
                for part in group.split(',') {
                    named.insert(part.trim().split("::").next().unwrap().to_string());
                }
            } else {
                let end = rest
                    .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                    .unwrap_or(rest.len());
                named.insert(rest[..end].to_string());
            }
        }
        let entry = graph.entry(module.clone()).or_default();
        entry.extend(
            named
                .into_iter()
                .filter(|m| m != &module && modules.contains(m)),
        );
    }
    graph
}

/// The modules README.md's layout list of a crate names, in its order:
/// the list between `open` and `close`.
fn readme_order(modules: &[String], open: &str, close: &str) -> Vec<String> {
    let readme = fs::read_to_string("README.md").unwrap();
    let start = readme
        .find(open)
        .unwrap_or_else(|| panic!("README.md's layout has no {open}"));
    let end = start + readme[start..].find(close).unwrap();
    let mut order: Vec<String> = Vec::new();
    for quoted in readme[start..end].split('`').skip(1).step_by(2) {
        let name = quoted.trim_end_matches(".rs").trim_end_matches('/');
        if modules.iter().any(|m| m == name) && !order.iter().any(|m| m == name) {
            order.push(name.to_string());
        }
    }
    order
}

#[test]
fn modules_import_only_those_listed_before_them_in_the_readme() {
    for (krate, open, close) in CRATES {
        let modules = library_modules(krate);
        assert!(modules.len() >= 5, "read {krate}/src/lib.rs: {modules:?}");
        let order = readme_order(&modules, open, close);
        let missing: Vec<_> = modules.iter().filter(|m| !order.contains(m)).collect();
        assert!(
            missing.is_empty(),
            "README.md's layout of {krate} leaves out {missing:?}"
        );
        let graph = imports(&Path::new(krate).join("src"), &modules);
        let (a, b) = if krate == "crates/core" {
            ("engine", "rules")
        } else {
            ("jobs", "experiment")
        };
        assert!(
            graph[a].contains(b),
            "the source scan of {krate} found no import"
        );
        for (i, module) in order.iter().enumerate() {
            let later: Vec<_> = graph
                .get(module)
                .into_iter()
                .flatten()
                .filter(|m| !order[..i].contains(m))
                .collect();
            assert!(
                later.is_empty(),
                "{krate}: {module} imports {later:?}, listed after it in README.md's \
                 layout: a cycle, or the list's order is wrong"
            );
        }
    }
}

/// A folder of modules under a crate's `src/`: its path, and the path its
/// modules are named by from anywhere in the crate (`crate::experiment::`;
/// the binary's folder is its own crate, so `crate::`).
struct Folder {
    dir: PathBuf,
    prefix: String,
}

/// Every folder under a crate's `src/` that holds modules, the binary's
/// included, with the `src` it is under.
fn folders() -> Vec<Folder> {
    let mut dirs = Vec::new();
    let srcs = [
        "src",
        "crates/core/src",
        "crates/lab/src",
        "crates/reference/src",
    ];
    let mut stack: Vec<PathBuf> = srcs.iter().map(PathBuf::from).collect();
    while let Some(dir) = stack.pop() {
        for entry in fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path.clone());
                dirs.push(path);
            }
        }
    }
    dirs.sort();
    dirs.into_iter()
        .filter(|d| d != Path::new("src/bin"))
        .map(|dir| {
            let under = srcs.iter().filter(|s| dir.starts_with(s));
            let src = under.max_by_key(|s| s.len()).unwrap();
            let rel = dir.strip_prefix(src).unwrap();
            let prefix = if rel.starts_with("bin") {
                "crate::".to_string()
            } else {
                let names: Vec<&str> = rel.iter().map(|c| c.to_str().unwrap()).collect();
                format!("crate::{}::", names.join("::"))
            };
            Folder { dir, prefix }
        })
        .collect()
}

/// The names `code` reaches through `prefix` (the whole prefix, not the
/// tail of a longer path): the first name after it, or of each part of a
/// `{...}` group.
fn named_after(code: &str, prefix: &str) -> BTreeSet<String> {
    let mut named = BTreeSet::new();
    for (i, _) in code.match_indices(prefix) {
        let before = code[..i].chars().next_back();
        if before.is_some_and(|c| c == ':' || c.is_ascii_alphanumeric() || c == '_') {
            continue;
        }
        let rest = &code[i + prefix.len()..];
        if rest.starts_with("super::") {
            continue;
        }
        let parts = match rest.strip_prefix('{') {
            Some(group) => top_level_parts(group),
            None => vec![rest],
        };
        for part in parts {
            let part = part.trim_start();
            let end = part
                .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                .unwrap_or(part.len());
            named.insert(part[..end].to_string());
        }
    }
    named
}

/// The comma-separated parts of a `{...}` group up to its closing brace,
/// nested groups kept whole.
fn top_level_parts(group: &str) -> Vec<&str> {
    let (mut depth, mut start, mut parts) = (0, 0, Vec::new());
    for (i, c) in group.char_indices() {
        match c {
            '{' => depth += 1,
            '}' if depth == 0 => {
                parts.push(&group[start..i]);
                return parts;
            }
            '}' => depth -= 1,
            ',' if depth == 0 => {
                parts.push(&group[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    parts.push(&group[start..]);
    parts
}

/// Every `.rs` file of the module `stem` of `dir` (`stem.rs` and the
/// files under `stem/`), each with how deep below `dir` it sits (0 for
/// `stem.rs`); test files left out.
fn module_files(dir: &Path, stem: &str) -> Vec<(PathBuf, usize)> {
    let mut files = Vec::new();
    let file = dir.join(format!("{stem}.rs"));
    if file.is_file() {
        files.push((file, 0));
    }
    let sub = dir.join(stem);
    if sub.is_dir() {
        let mut under = Vec::new();
        rust_files(&sub, &mut under);
        for path in under {
            let depth = path.strip_prefix(dir).unwrap().components().count() - 1;
            files.push((path, depth));
        }
    }
    files.retain(|(p, _)| p.file_name().is_some_and(|n| n != "tests.rs"));
    files
}

/// For each module of `folder` (a file `x.rs` there, or a folder `x/`, or
/// both), the other modules of the same folder its code (tests and
/// comments left out) names: through the folder's path
/// (`crate::experiment::plan`) or through `super::` up to the folder.
fn folder_imports(folder: &Folder) -> BTreeMap<String, BTreeSet<String>> {
    let mut modules = BTreeSet::new();
    for entry in fs::read_dir(&folder.dir).unwrap() {
        let path = entry.unwrap().path();
        let stem = path.file_stem().unwrap().to_str().unwrap().to_string();
        // The binary's `main.rs` is its crate root, the folder's parent.
        let module = path.is_dir() || path.extension().is_some_and(|e| e == "rs");
        if module && stem != "tests" && stem != "main" {
            modules.insert(stem);
        }
    }
    let mut graph = BTreeMap::new();
    for module in &modules {
        let mut named = BTreeSet::new();
        for (path, depth) in module_files(&folder.dir, module) {
            let code = code_of(&fs::read_to_string(&path).unwrap());
            named.extend(named_after(&code, &folder.prefix));
            named.extend(named_after(&code, &"super::".repeat(depth + 1)));
        }
        named.retain(|m| m != module && modules.contains(m));
        graph.insert(module.clone(), named);
    }
    graph
}

/// A circle in `graph` reached from `at`, as the path round it.
fn circle_from(
    graph: &BTreeMap<String, BTreeSet<String>>,
    at: &str,
    path: &mut Vec<String>,
    done: &mut BTreeSet<String>,
) -> Option<Vec<String>> {
    if let Some(i) = path.iter().position(|m| m == at) {
        let mut circle = path[i..].to_vec();
        circle.push(at.to_string());
        return Some(circle);
    }
    if done.contains(at) {
        return None;
    }
    path.push(at.to_string());
    for next in graph.get(at).into_iter().flatten() {
        if let Some(circle) = circle_from(graph, next, path, done) {
            return Some(circle);
        }
    }
    path.pop();
    done.insert(at.to_string());
    None
}

#[test]
fn no_folder_s_modules_import_each_other_in_a_circle() {
    let folders = folders();
    let graphs: BTreeMap<String, BTreeMap<String, BTreeSet<String>>> = folders
        .iter()
        .map(|f| (f.dir.display().to_string(), folder_imports(f)))
        .collect();
    // The scan finds imports it must: through `super::` (the engine's
    // sowing), through the folder's path (the runner's plan), from a file
    // deeper down (the metrics' plan is `metrics` in crates/lab/src/experiment/), and
    // in the binary.
    for (dir, module, imported) in [
        ("crates/core/src/engine", "sowing", "lap"),
        ("crates/lab/src/experiment", "runner", "plan"),
        ("crates/lab/src/experiment", "plan", "metrics"),
        ("src/bin/katro", "commands", "args"),
    ] {
        assert!(
            graphs[dir]
                .get(module)
                .is_some_and(|m| m.contains(imported)),
            "the source scan found no import of {imported} by {dir}/{module}: {:?}",
            graphs[dir]
        );
    }
    for (dir, graph) in &graphs {
        let mut done = BTreeSet::new();
        for module in graph.keys() {
            if let Some(circle) = circle_from(graph, module, &mut Vec::new(), &mut done) {
                panic!(
                    "{dir}/ modules import each other in a circle: {}",
                    circle.join(" → ")
                );
            }
        }
    }
}

/// The layers the compiler keeps are those the manifests draw: katro-core
/// names no crate for files, CSV, plots or the command line, and no katro
/// crate; katro-lab names katro-core but none of the binary's crates; the
/// reference model is only ever a dev-dependency, or the fuzzers'.
#[test]
fn each_crate_depends_only_on_the_crates_below_it() {
    let deps = |manifest: &str, table: &str| -> BTreeSet<String> {
        let text = fs::read_to_string(manifest).unwrap();
        let doc: toml::Table = text.parse().unwrap();
        (doc.get(table).and_then(|t| t.as_table()))
            .map(|t| t.keys().cloned().collect())
            .unwrap_or_default()
    };
    let cli = ["clap", "ctrlc", "indicatif"];
    let core = deps("crates/core/Cargo.toml", "dependencies");
    assert!(core.contains("rand_xoshiro"), "read the manifest: {core:?}");
    for banned in cli.iter().chain(&["csv", "plotters", "flate2", "libm"]) {
        assert!(!core.contains(*banned), "katro-core depends on {banned}");
    }
    assert!(
        !core.iter().any(|d| d.starts_with("katro")),
        "katro-core depends on {core:?}"
    );
    let lab = deps("crates/lab/Cargo.toml", "dependencies");
    assert!(lab.contains("katro-core") && lab.contains("csv"), "{lab:?}");
    for banned in cli.iter().chain(&["katro-reference", "katro"]) {
        assert!(!lab.contains(*banned), "katro-lab depends on {banned}");
    }
    let reference = deps("crates/reference/Cargo.toml", "dependencies");
    assert_eq!(
        reference
            .iter()
            .filter(|d| d.starts_with("katro"))
            .collect::<Vec<_>>(),
        ["katro-core"]
    );
    for (manifest, table) in [
        ("Cargo.toml", "dependencies"),
        ("crates/lab/Cargo.toml", "dev-dependencies"),
        ("crates/core/Cargo.toml", "dev-dependencies"),
        ("python/Cargo.toml", "dependencies"),
    ] {
        assert!(
            !deps(manifest, table).contains("katro-reference"),
            "{manifest} [{table}] reaches the reference model"
        );
    }
    assert!(deps("Cargo.toml", "dev-dependencies").contains("katro-reference"));
}

/// A file's name says its job across the workspace: two crates never hold
/// files of one name for different things. A name may recur where it is
/// the same thing a layer up (the prover in core and its command's job in
/// lab, a result's computation and its file format), listed here.
#[test]
fn no_file_name_means_two_things_across_the_crates() {
    // The same thing at another layer: the computation in core, its
    // command or its file format in katro-lab, its flags in the binary.
    let same_thing = [
        "agents.rs",   // the players; `katro agents`, the strength levels
        "openings.rs", // the exact openings; openings.csv
        "prove.rs",    // the prover; `katro prove`
        "solve.rs",    // the solver; `katro solve`
        "bench.rs",    // `katro bench`'s job; its flags
    ];
    let mut by_name: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for krate in [
        "crates/core/src",
        "crates/lab/src",
        "crates/reference/src",
        "src/bin/katro",
    ] {
        let mut files = Vec::new();
        rust_files(Path::new(krate), &mut files);
        for f in files {
            let name = f.file_name().unwrap().to_str().unwrap().to_string();
            if !["lib.rs", "main.rs", "tests.rs"].contains(&name.as_str()) {
                by_name.entry(name).or_default().insert(krate.to_string());
            }
        }
    }
    assert!(
        by_name["engine.rs"].contains("crates/core/src"),
        "{by_name:?}"
    );
    let twice: Vec<_> = (by_name.iter())
        .filter(|(name, crates)| crates.len() > 1 && !same_thing.contains(&name.as_str()))
        .collect();
    assert!(twice.is_empty(), "one name in two crates: {twice:?}");
}
