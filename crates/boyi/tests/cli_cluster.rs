//! Three `boyi serve` instances on PostgreSQL behind HAProxy, one killed in the middle
//! (slow tier: it needs PostgreSQL and HAProxy installed, and never installs them; the
//! failure names the install command). Runs scripts/cluster-test.sh with the binaries this
//! test run built and the cluster test client.

use std::path::Path;
use std::process::Command;

#[test]
#[ignore = "slow tier: needs PostgreSQL and HAProxy"]
fn three_instances_behind_a_balancer_lose_nothing_when_one_is_killed() {
    let bin = Path::new(env!("CARGO_BIN_EXE_boyi")).parent().unwrap();
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    // The client is an example of the server crate, in the profile of this test's binaries.
    let profile = if bin.ends_with("release") {
        "release"
    } else {
        "test"
    };
    let built = Command::new(env!("CARGO"))
        .args(["build", "--profile", profile, "-p", "boyi-server"])
        .args(["--example", "cluster_test"])
        .current_dir(&root)
        .status()
        .unwrap();
    assert!(built.success() && bin.join("examples/cluster_test").exists());
    let out = Command::new("sh")
        .arg("scripts/cluster-test.sh")
        .args(["60", "5", "100"])
        .env("BOYI_NO_INSTALL", "1")
        .env("BOYI_BIN_DIR", bin)
        .current_dir(&root)
        .output()
        .unwrap();
    let (stdout, stderr) = (
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr),
    );
    assert!(out.status.success(), "{stdout}\n{stderr}");
    assert_eq!(
        stdout
            .matches("database check: 60 games, 0 lost, doubled or corrupted")
            .count(),
        2,
        "{stdout}"
    );
}
