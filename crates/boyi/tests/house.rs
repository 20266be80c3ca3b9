//! The shape of the source tree: no source file over 800 lines outside tests, and no import
//! circle between the files of a crate.
//!
//! A file's imports are the `crate::…` and `super::…` paths it names outside its tests,
//! each resolved to the deepest module file it reaches. A module and the modules inside it
//! count as one place (a parent naming its children and children naming their parent is
//! how a module is split into files), so a circle is one that passes through two places
//! neither of which contains the other.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The workspace's crates folder.
fn crates_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("crates/")
        .to_path_buf()
}

/// Every `.rs` file under `dir`, recursively.
fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The module path of a file of `src`: `lib.rs` and `main.rs` are the root, `a/mod.rs` and
/// `a.rs` are `a`.
fn module_of(src: &Path, file: &Path) -> Vec<String> {
    let rel = file.strip_prefix(src).expect("under src");
    let mut parts: Vec<String> = rel
        .iter()
        .map(|p| p.to_string_lossy().trim_end_matches(".rs").to_string())
        .collect();
    if matches!(
        parts.last().map(String::as_str),
        Some("mod" | "lib" | "main")
    ) {
        parts.pop();
    }
    parts
}

/// A file's text before its test module, if it has one.
fn code_of(text: &str) -> &str {
    match text.find("\n#[cfg(test)]\nmod ") {
        Some(i) => &text[..i],
        None => text,
    }
}

/// Code without its comments (a doc link names a module without importing it).
fn without_comments(code: &str) -> String {
    code.lines()
        .map(|l| l.find("//").map_or(l, |i| &l[..i]))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The module paths a piece of code names with `crate::` or `super::` (from module `at`).
fn named_paths(code: &str, at: &[String]) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    let words: Vec<(usize, &str)> = code
        .match_indices(|c: char| !(c.is_alphanumeric() || c == '_' || c == ':'))
        .scan(0, |start, (i, sep)| {
            let word = (*start, &code[*start..i]);
            *start = i + sep.len();
            Some(word)
        })
        .collect();
    for (_, word) in words {
        let segments: Vec<&str> = word.split("::").filter(|s| !s.is_empty()).collect();
        let (mut base, rest): (Vec<String>, &[&str]) = match segments.first() {
            Some(&"crate") => (Vec::new(), &segments[1..]),
            Some(&"super") => {
                let mut base = at.to_vec();
                let mut rest = &segments[..];
                while rest.first() == Some(&"super") {
                    base.pop();
                    rest = &rest[1..];
                }
                (base, rest)
            }
            _ => continue,
        };
        base.extend(rest.iter().map(|s| s.to_string()));
        out.push(base);
    }
    out
}

fn contains(outer: &[String], inner: &[String]) -> bool {
    inner.starts_with(outer)
}

#[test]
fn no_source_file_is_over_800_lines_outside_tests() {
    let mut long = Vec::new();
    let mut files = Vec::new();
    rust_files(&crates_dir(), &mut files);
    for file in files {
        let path = file.to_string_lossy();
        if path.contains("/tests/") || path.ends_with("tests.rs") || path.contains("/target/") {
            continue;
        }
        let text = std::fs::read_to_string(&file).unwrap();
        let lines = code_of(&text).lines().count();
        if lines > 800 {
            long.push(format!("{path}: {lines}"));
        }
    }
    assert!(long.is_empty(), "files over 800 lines: {long:#?}");
}

#[test]
fn no_crate_has_an_import_circle() {
    let mut circles = Vec::new();
    let Ok(crates) = std::fs::read_dir(crates_dir()) else {
        panic!("no crates folder");
    };
    for krate in crates.flatten() {
        let src = krate.path().join("src");
        let mut files = Vec::new();
        rust_files(&src, &mut files);
        let modules: BTreeMap<Vec<String>, PathBuf> = files
            .iter()
            .filter(|f| !f.to_string_lossy().ends_with("tests.rs"))
            .map(|f| (module_of(&src, f), f.clone()))
            .collect();
        // Edges between places neither of which contains the other.
        let mut edges: BTreeMap<Vec<String>, BTreeSet<Vec<String>>> = BTreeMap::new();
        for (module, file) in &modules {
            let text = std::fs::read_to_string(file).unwrap();
            for mut path in named_paths(&without_comments(code_of(&text)), module) {
                while !path.is_empty() && !modules.contains_key(&path) {
                    path.pop();
                }
                if !contains(&path, module) && !contains(module, &path) {
                    edges.entry(module.clone()).or_default().insert(path);
                }
            }
        }
        if let Some(circle) = find_circle(&edges) {
            let names: Vec<String> = circle.iter().map(|m| m.join("::")).collect();
            circles.push(format!(
                "{}: {}",
                krate.path().display(),
                names.join(" -> ")
            ));
        }
    }
    assert!(circles.is_empty(), "import circles: {circles:#?}");
}

/// One circle of `edges`, if there is any (depth-first search).
fn find_circle(edges: &BTreeMap<Vec<String>, BTreeSet<Vec<String>>>) -> Option<Vec<Vec<String>>> {
    #[derive(Clone, Copy, PartialEq)]
    enum Mark {
        Open,
        Done,
    }
    fn visit(
        node: &Vec<String>,
        edges: &BTreeMap<Vec<String>, BTreeSet<Vec<String>>>,
        marks: &mut BTreeMap<Vec<String>, Mark>,
        stack: &mut Vec<Vec<String>>,
    ) -> Option<Vec<Vec<String>>> {
        match marks.get(node) {
            Some(Mark::Done) => return None,
            Some(Mark::Open) => {
                let from = stack.iter().position(|m| m == node).unwrap_or(0);
                let mut circle = stack[from..].to_vec();
                circle.push(node.clone());
                return Some(circle);
            }
            None => {}
        }
        marks.insert(node.clone(), Mark::Open);
        stack.push(node.clone());
        for next in edges.get(node).into_iter().flatten() {
            if let Some(c) = visit(next, edges, marks, stack) {
                return Some(c);
            }
        }
        stack.pop();
        marks.insert(node.clone(), Mark::Done);
        None
    }
    let mut marks = BTreeMap::new();
    for node in edges.keys() {
        if let Some(c) = visit(node, edges, &mut marks, &mut Vec::new()) {
            return Some(c);
        }
    }
    None
}

#[test]
fn the_circle_check_sees_a_circle_between_siblings() {
    let m = |s: &str| -> Vec<String> { s.split("::").map(str::to_string).collect() };
    let code = "use crate::hub::Hub;\nfn f() { super::ws::next(); }\n/// [`crate::doc`]";
    let code = without_comments(code);
    assert_eq!(
        named_paths(&code, &m("table")),
        [m("hub::Hub"), m("ws::next")]
    );
    let mut edges = BTreeMap::new();
    edges.insert(m("a"), BTreeSet::from([m("b")]));
    edges.insert(m("b"), BTreeSet::from([m("c")]));
    assert!(find_circle(&edges).is_none());
    edges.insert(m("c"), BTreeSet::from([m("a")]));
    assert_eq!(
        find_circle(&edges).unwrap(),
        [m("a"), m("b"), m("c"), m("a")]
    );
    assert!(contains(&m("a"), &m("a::b")) && !contains(&m("a::b"), &m("a")));
}
