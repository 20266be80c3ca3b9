//! Running the real `boyi` binary, shared by the command-line test binaries.

// Each test binary uses only some of these.
#![allow(dead_code)]

use std::path::Path;
use std::process::{Command, Output};

/// `boyi ARGS` run in `dir`.
pub fn boyi_in(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_boyi"))
        .current_dir(dir)
        .args(args)
        .output()
        .expect("boyi runs")
}

/// `boyi ARGS` run in the test's own working directory.
pub fn boyi(args: &[&str]) -> Output {
    boyi_in(Path::new("."), args)
}

/// The standard output of `boyi ARGS` in `dir`, which must succeed.
pub fn ok_in(dir: &Path, args: &[&str]) -> String {
    let out = boyi_in(dir, args);
    assert!(
        out.status.success(),
        "boyi {args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// The standard output of `boyi ARGS`, which must succeed.
pub fn ok(args: &[&str]) -> String {
    ok_in(Path::new("."), args)
}

/// Everything `boyi ARGS` in `dir` printed (output, then errors); it must fail.
pub fn fails_in(dir: &Path, args: &[&str]) -> String {
    let out = boyi_in(dir, args);
    assert!(!out.status.success(), "boyi {args:?} should fail");
    String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr)
}

/// The standard error of `boyi ARGS`, which must fail (errors go to stderr, not stdout).
pub fn stderr_of_failure(args: &[&str]) -> String {
    let out = boyi(args);
    assert!(!out.status.success(), "boyi {args:?} should fail");
    String::from_utf8(out.stderr).unwrap()
}

/// A fresh, empty working directory for one test, removed when the test ends.
pub struct WorkDir(tempfile::TempDir);

impl std::ops::Deref for WorkDir {
    type Target = Path;
    fn deref(&self) -> &Path {
        self.0.path()
    }
}

/// A fresh, empty working directory named after the test.
pub fn workdir(name: &str) -> WorkDir {
    let dir = tempfile::Builder::new()
        .prefix(&format!("boyi-cli-{name}-"))
        .tempdir()
        .expect("a temporary directory");
    WorkDir(dir)
}
