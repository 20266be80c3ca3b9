//! A served player's options: announced to the manager from the player's table (UCI `option`),
//! set by it (UCI and UCCI `setoption`, Gomocup `INFO`), checked, and in force for the next
//! search.

mod support;

use boyi_core::Game;
use boyi_games::gomoku::{Gomoku, Variant};
use boyi_games::xiangqi::Xiangqi;
use boyi_protocol::Protocol;
use support::held_configured;

fn xiangqi(protocol: Protocol, input: &str, answered: &'static str) -> Vec<String> {
    let start = Xiangqi::start(&Default::default(), None).unwrap();
    held_configured(protocol, "strong", start, input, move |out| {
        out.contains(answered)
    })
    .lines()
    .map(str::to_string)
    .collect()
}

#[test]
fn uci_announces_the_players_options_from_its_table() {
    let out = xiangqi(Protocol::Uci, "uci\n", "uciok");
    let options: Vec<&str> = out
        .iter()
        .filter(|l| l.starts_with("option"))
        .map(|l| l.as_str())
        .collect();
    assert_eq!(
        options,
        [
            "option name Hash type spin default 64 min 1 max 16384",
            "option name Threads type spin default 1 min 1 max 256",
            "option name level type spin default 20 min 0 max 20",
            "option name depth type spin default 12 min 1 max 100",
            "option name contempt type spin default 20 min -500 max 500",
        ],
        "{out:#?}"
    );
    assert_eq!(out.last().map(String::as_str), Some("uciok"));
}

#[test]
fn a_set_option_is_checked_and_rules_the_next_search() {
    // Depth 3 when the manager gives no limit: the search's last line is depth 3.
    let out = xiangqi(
        Protocol::Uci,
        "uci\nsetoption name LEVEL value 21\nsetoption name Hash value 1\nsetoption name depth value 3\nsetoption name nothing value 1\nposition startpos\ngo\n",
        "bestmove",
    );
    let errors: Vec<&String> = out.iter().filter(|l| l.contains("error")).collect();
    assert_eq!(errors.len(), 2, "{out:#?}");
    assert!(errors[0].contains("level=21: expected 0 to 20"), "{out:#?}");
    assert!(errors[1].contains("no such option \"nothing\""), "{out:#?}");
    let depths: Vec<&str> = out
        .iter()
        .filter_map(|l| l.strip_prefix("info depth "))
        .map(|l| l.split(' ').next().unwrap())
        .collect();
    assert_eq!(depths.last(), Some(&"3"), "{out:#?}");
    assert!(out.iter().any(|l| l.starts_with("bestmove ")), "{out:#?}");
}

#[test]
fn ucci_sets_options_by_its_own_names() {
    let out = xiangqi(
        Protocol::Ucci,
        "ucci\nsetoption hashsize 0\nsetoption hashsize 99999\nsetoption depth 2\nsetoption idle none\nposition startpos\ngo\n",
        "bestmove",
    );
    assert!(
        out.contains(&"option hash type spin default 64 min 1 max 16384".to_string()),
        "{out:#?}"
    );
    let errors: Vec<&String> = out.iter().filter(|l| l.contains("error")).collect();
    assert_eq!(errors.len(), 1, "{out:#?}");
    assert!(
        errors[0].contains("hash=99999: expected 1 to 16384"),
        "{out:#?}"
    );
    let last_depth = out
        .iter()
        .rev()
        .find_map(|l| l.strip_prefix("info depth "))
        .unwrap();
    assert!(last_depth.starts_with("2 "), "{out:#?}");
}

#[test]
fn gomocup_info_sets_the_players_options() {
    let start = Gomoku::start(&Variant::Freestyle, Some(15)).unwrap();
    let out = held_configured(
        Protocol::Gomocup,
        "strong",
        start,
        "START 15\nINFO hash 0\nINFO hash 2\nINFO vct 0\nINFO folder x\nBEGIN\n",
        |out| {
            out.lines()
                .any(|l| l.contains(',') && !l.starts_with("MESSAGE"))
        },
    );
    let errors: Vec<&str> = out.lines().filter(|l| l.starts_with("ERROR")).collect();
    assert_eq!(
        errors,
        ["ERROR INFO hash 0: player option hash=0: expected 1 to 4096"],
        "{out}"
    );
    assert!(out.lines().any(|l| l == "OK"), "{out}");
}
