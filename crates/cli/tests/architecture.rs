//! The architecture's invariants, read from the sources (see ARCHITECTURE.md):
//! - the crates depend on each other one way: board <- deadlock <- push, pull <- engine <- cli,
//!   board <- optimizer <- cli, and push and pull never on each other;
//! - only the engine and the command line use threading crates, and only the command line clap;
//! - within a crate, no module uses another that uses it back, through any chain;
//! - no source file is over 800 lines.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

/// The longest a source file may be.
const MAX_LINES: usize = 800;

/// Crates of the project, each with the project crates it may depend on.
const LAYERS: &[(&str, &[&str])] = &[
    ("board", &[]),
    ("deadlock", &["bisolve-board"]),
    ("push", &["bisolve-board", "bisolve-deadlock"]),
    ("pull", &["bisolve-board", "bisolve-deadlock"]),
    ("engine", &["bisolve-board", "bisolve-deadlock", "bisolve-push", "bisolve-pull"]),
    ("optimizer", &["bisolve-board"]),
    ("cli", &["bisolve-board", "bisolve-deadlock", "bisolve-engine", "bisolve-optimizer"]),
];

const THREADING: &[&str] = &["rayon", "crossbeam", "dashmap", "parking_lot"];

fn crates_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// The names in a manifest's `[dependencies]` table (not dev- or build-dependencies).
fn dependencies(manifest: &str) -> BTreeSet<String> {
    let mut in_deps = false;
    let mut names = BTreeSet::new();
    for line in manifest.lines().map(str::trim) {
        if line.starts_with('[') {
            in_deps = line == "[dependencies]";
            continue;
        }
        if !in_deps || line.is_empty() || line.starts_with('#') {
            continue;
        }
        let name = line.split(['=', '.', ' ']).next().unwrap_or("");
        names.insert(name.trim_matches('"').to_string());
    }
    names
}

#[test]
fn crates_depend_one_way() {
    let on_disk: BTreeSet<String> = fs::read_dir(crates_dir())
        .expect("crates/")
        .filter_map(|e| e.ok())
        .filter(|e| e.path().join("Cargo.toml").is_file())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    let known: BTreeSet<String> = LAYERS.iter().map(|(c, _)| c.to_string()).collect();
    assert_eq!(on_disk, known, "every crate has a place in LAYERS");
    for (name, allowed) in LAYERS {
        let manifest = fs::read_to_string(crates_dir().join(name).join("Cargo.toml")).expect("manifest");
        let deps = dependencies(&manifest);
        for dep in deps.iter().filter(|d| d.starts_with("bisolve")) {
            assert!(allowed.contains(&dep.as_str()), "crates/{name} must not depend on {dep}");
        }
        if !matches!(*name, "engine" | "cli") {
            for t in THREADING {
                assert!(!deps.contains(*t), "crates/{name} must not depend on the threading crate {t}");
            }
        }
        if *name != "cli" {
            assert!(!deps.contains("clap"), "only the command line knows clap, not crates/{name}");
        }
    }
}

#[test]
fn the_dependency_reader_reads_only_normal_dependencies() {
    let manifest = "[package]\nname = \"x\"\n[dependencies]\nbisolve-board.workspace = true\nrayon = \"1\"\n\
                    # a comment\n[dev-dependencies]\nproptest.workspace = true\n";
    let deps = dependencies(manifest);
    assert_eq!(deps, BTreeSet::from(["bisolve-board".to_string(), "rayon".to_string()]));
}

/// Every `.rs` file under `dir`.
fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in fs::read_dir(dir).expect("source folder").filter_map(|e| e.ok()) {
        let path = entry.path();
        if path.is_dir() {
            sources(&path, out);
        } else if path.extension().is_some_and(|x| x == "rs") {
            out.push(path);
        }
    }
}

/// The crate's top-level modules (a folder's files belong to the module of its name) and the
/// other top-level modules each one names as `crate::NAME`, outside comments and unit tests.
fn module_graph(src: &Path) -> BTreeMap<String, BTreeSet<String>> {
    let mut files = Vec::new();
    sources(src, &mut files);
    let module_of = |path: &Path| -> String {
        let rel = path.strip_prefix(src).expect("under src");
        let first = rel.components().next().expect("a component").as_os_str().to_string_lossy();
        first.trim_end_matches(".rs").to_string()
    };
    let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for path in &files {
        let module = module_of(path);
        if module == "lib" || module == "main" {
            continue;
        }
        let deps = graph.entry(module.clone()).or_default();
        // A module's own tests may use anything.
        if path.file_name().is_some_and(|f| f == "tests.rs") {
            continue;
        }
        let text = fs::read_to_string(path).expect("source");
        let code = text.split("#[cfg(test)]\nmod tests {").next().unwrap_or("");
        for line in code.lines().map(str::trim).filter(|l| !l.starts_with("//")) {
            for (at, _) in line.match_indices("crate::") {
                let name: String = line[at + 7..]
                    .chars()
                    .take_while(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || *c == '_')
                    .collect();
                if !name.is_empty() && name != module {
                    deps.insert(name);
                }
            }
        }
    }
    let modules: BTreeSet<String> = graph.keys().cloned().collect();
    for deps in graph.values_mut() {
        deps.retain(|d| modules.contains(d));
    }
    graph
}

/// A cycle of the graph, if it has one (depth-first search, grey and black marks).
fn find_cycle(graph: &BTreeMap<String, BTreeSet<String>>) -> Option<Vec<String>> {
    fn visit(
        node: &str,
        graph: &BTreeMap<String, BTreeSet<String>>,
        path: &mut Vec<String>,
        done: &mut BTreeSet<String>,
    ) -> Option<Vec<String>> {
        if let Some(at) = path.iter().position(|n| n == node) {
            let mut cycle = path[at..].to_vec();
            cycle.push(node.to_string());
            return Some(cycle);
        }
        if done.contains(node) {
            return None;
        }
        path.push(node.to_string());
        for next in graph.get(node).into_iter().flatten() {
            if let Some(cycle) = visit(next, graph, path, done) {
                return Some(cycle);
            }
        }
        path.pop();
        done.insert(node.to_string());
        None
    }
    let mut done = BTreeSet::new();
    graph.keys().find_map(|n| visit(n, graph, &mut Vec::new(), &mut done))
}

#[test]
fn no_module_uses_one_that_uses_it_back() {
    for (name, _) in LAYERS {
        let graph = module_graph(&crates_dir().join(name).join("src"));
        assert!(!graph.is_empty() || *name != "engine", "the engine has modules");
        if let Some(cycle) = find_cycle(&graph) {
            panic!("crates/{name}: modules in a circle: {}", cycle.join(" -> "));
        }
    }
}

#[test]
fn the_cycle_finder_finds_a_circle_of_three() {
    let edges = [("a", "b"), ("b", "c"), ("c", "a"), ("c", "d")];
    let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (from, to) in edges {
        graph.entry(from.into()).or_default().insert(to.into());
        graph.entry(to.into()).or_default();
    }
    assert_eq!(find_cycle(&graph), Some(vec!["a".into(), "b".into(), "c".into(), "a".into()]));
    graph.get_mut("c").expect("c").remove("a");
    assert_eq!(find_cycle(&graph), None);
}

#[test]
fn no_source_file_is_over_the_limit() {
    for (name, _) in LAYERS {
        let mut files = Vec::new();
        sources(&crates_dir().join(name).join("src"), &mut files);
        for path in files {
            let lines = fs::read_to_string(&path).expect("source").lines().count();
            assert!(lines <= MAX_LINES, "{} has {lines} lines, over {MAX_LINES}", path.display());
        }
    }
}
