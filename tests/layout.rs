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

/// The engine's files (`src/engine/*.rs`) that each engine file's code
/// (tests and comments left out) names as `super::X` or
/// `crate::engine::X`.
fn engine_imports() -> BTreeMap<String, BTreeSet<String>> {
    let mut siblings = BTreeMap::new();
    for entry in fs::read_dir("src/engine").unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "rs") {
            let stem = path.file_stem().unwrap().to_str().unwrap().to_string();
            siblings.insert(stem, fs::read_to_string(&path).unwrap());
        }
    }
    let mut graph = BTreeMap::new();
    for (module, text) in &siblings {
        let code = code_of(text);
        let mut named = BTreeSet::new();
        for prefix in ["super::", "crate::engine::"] {
            for (i, _) in code.match_indices(prefix) {
                let rest = &code[i + prefix.len()..];
                let parts: Vec<&str> = match rest.strip_prefix('{') {
                    Some(group) => group[..group.find('}').unwrap_or(group.len())]
                        .split(',')
                        .collect(),
                    None => vec![rest],
                };
                for part in parts {
                    let part = part.trim();
                    let end = part
                        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                        .unwrap_or(part.len());
                    let name = &part[..end];
                    if name != module && siblings.contains_key(name) {
                        named.insert(name.to_string());
                    }
                }
            }
        }
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
fn engine_submodules_import_each_other_without_a_circle() {
    let graph = engine_imports();
    assert!(
        graph.get("sowing").is_some_and(|s| !s.is_empty()),
        "the source scan found no import between engine files: {graph:?}"
    );
    let mut done = BTreeSet::new();
    for module in graph.keys() {
        if let Some(circle) = circle_from(&graph, module, &mut Vec::new(), &mut done) {
            panic!(
                "src/engine/ files import each other in a circle: {}",
                circle.join(" → ")
            );
        }
    }
}
