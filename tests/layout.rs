//! README.md's "## Layout" lists the library's modules bottom up and says
//! each imports only modules listed before it (issue 9: no import cycles
//! between modules). This reads the sources and holds both to that.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::Path;

/// The library's top-level modules, as `src/lib.rs` declares them.
fn library_modules() -> Vec<String> {
    let lib = fs::read_to_string("src/lib.rs").unwrap();
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

/// Which other top-level modules each module's code (tests and comments
/// left out) names through `crate::`.
fn imports(modules: &[String]) -> BTreeMap<String, BTreeSet<String>> {
    let mut files = Vec::new();
    rust_files(Path::new("src"), &mut files);
    let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for path in files {
        let rel = path.strip_prefix("src").unwrap();
        let first = rel.components().next().unwrap().as_os_str();
        let module = first.to_str().unwrap().trim_end_matches(".rs").to_string();
        if !modules.contains(&module) {
            continue;
        }
        let text = fs::read_to_string(&path).unwrap();
        let code = text.split("#[cfg(test)]\nmod tests").next().unwrap();
        let code: String = code
            .lines()
            .filter(|l| !l.trim_start().starts_with("//"))
            .collect::<Vec<_>>()
            .join("\n");
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

/// The modules README.md's layout list names, in its order.
fn readme_order(modules: &[String]) -> Vec<String> {
    let readme = fs::read_to_string("README.md").unwrap();
    let start = readme
        .find("The library, `src/`, from the bottom up")
        .expect("README.md's layout lists the library bottom up");
    let end = start + readme[start..].find("The binary").unwrap();
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
    let modules = library_modules();
    assert!(modules.len() > 10, "read src/lib.rs: {modules:?}");
    let order = readme_order(&modules);
    let missing: Vec<_> = modules.iter().filter(|m| !order.contains(m)).collect();
    assert!(
        missing.is_empty(),
        "README.md's layout leaves out {missing:?}"
    );
    let graph = imports(&modules);
    assert!(
        graph["engine"].contains("rules"),
        "the source scan found no import"
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
            "{module} imports {later:?}, listed after it in README.md's layout: \
             a cycle, or the list's order is wrong"
        );
    }
}
