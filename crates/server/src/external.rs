//! External engines the server's operator configured (`boyi serve --engine
//! NAME=cmd:"<command line>"@<protocol>`). A table seats one as the computer player
//! `engine:NAME`; the command line itself never comes from a client, so nobody on the network
//! can make the server run a program of their choosing. Each seat starts its own engine
//! process, driven over the protocol by `boyi_protocol` as `boyi match` does.

use boyi_core::Game;
use boyi_engines::Player;
use boyi_protocol::PlayerSpec;
use boyi_protocol::Protocol;
use boyi_protocol::driver::ExternalOptions;
use serde_json::{Value, json};
use std::collections::BTreeMap;

/// The prefix of a configured engine's player spec.
pub const PREFIX: &str = "engine:";

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Engine {
    pub command: String,
    pub protocol: Protocol,
}

/// The configured engines by name.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Engines(BTreeMap<String, Engine>);

fn check_engine_name(name: &str) -> Result<(), String> {
    let ok = !name.is_empty()
        && name.len() <= 32
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"-_.".contains(&b));
    if ok {
        Ok(())
    } else {
        Err(format!(
            "engine name {name:?} must be 1 to 32 letters, digits, '-', '_' or '.'"
        ))
    }
}

impl Engines {
    /// Parses `NAME=cmd:"<command line>"@<protocol>` entries.
    pub fn parse<S: AsRef<str>>(entries: &[S]) -> Result<Engines, String> {
        let mut map = BTreeMap::new();
        for entry in entries {
            let entry = entry.as_ref();
            let (name, spec) = entry
                .split_once('=')
                .ok_or_else(|| format!("engine {entry:?} must be NAME=cmd:\"...\"@protocol"))?;
            check_engine_name(name)?;
            let engine = match PlayerSpec::parse(spec).map_err(|e| format!("engine {name}: {e}"))? {
                PlayerSpec::External { command, protocol } => Engine { command, protocol },
                PlayerSpec::Builtin(_) => {
                    return Err(format!(
                        "engine {name}: built-in players need no configuring; give cmd:\"...\"@protocol"
                    ));
                }
            };
            if map.insert(name.to_string(), engine).is_some() {
                return Err(format!("engine {name} is configured twice"));
            }
        }
        Ok(Engines(map))
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The engine `spec` (`engine:NAME`) names, if it can play game `G`.
    pub fn get<G: Game>(&self, spec: &str) -> Result<&Engine, String> {
        let name = spec.strip_prefix(PREFIX).unwrap_or(spec);
        let engine = self
            .0
            .get(name)
            .ok_or_else(|| format!("no engine {name:?} is configured on this server"))?;
        if !engine.protocol.supports(G::NAME) {
            return Err(format!(
                "engine {name} speaks {}, which does not carry {} moves",
                engine.protocol,
                G::NAME
            ));
        }
        Ok(engine)
    }

    /// Starts engine `spec` (`engine:NAME`) as a player of game `G`.
    pub fn start<G: Game>(&self, spec: &str) -> Result<Box<dyn Player<G>>, String> {
        let e = self.get::<G>(spec)?;
        boyi_protocol::external::<G>(&e.command, e.protocol, ExternalOptions::default())
            .map_err(|e| e.to_string())
    }

    /// The engines that can play game `G`, for the new-game form (no command lines).
    pub fn listed<G: Game>(&self) -> Vec<Value> {
        self.0
            .iter()
            .filter(|(_, e)| e.protocol.supports(G::NAME))
            .map(|(n, e)| {
                json!({"name": format!("{PREFIX}{n}"),
                       "help": format!("external engine ({})", e.protocol)})
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use boyi_games::gomoku::Gomoku;
    use boyi_games::xiangqi::Xiangqi;

    #[test]
    fn engines_are_configured_by_name() {
        let e =
            Engines::parse(&[r#"pisq=cmd:"./pbrain -x"@gomocup"#, "fsf=cmd:fsf@uci-fsf"]).unwrap();
        assert_eq!(
            e.get::<Gomoku>("engine:pisq").unwrap().command,
            "./pbrain -x"
        );
        assert!(
            e.get::<Xiangqi>("engine:pisq")
                .unwrap_err()
                .contains("does not carry")
        );
        assert!(
            e.get::<Gomoku>("engine:nope")
                .unwrap_err()
                .contains("no engine")
        );
        assert_eq!(e.listed::<Xiangqi>().len(), 1);
        assert_eq!(e.listed::<Gomoku>()[0]["name"], "engine:pisq");
        for bad in [
            "x",
            "=cmd:a@uci",
            "a b=cmd:a@uci",
            "a=boyi:random",
            "a=cmd:a@morse",
        ] {
            assert!(Engines::parse(&[bad]).is_err(), "{bad}");
        }
        assert!(Engines::parse(&["a=cmd:a@uci", "a=cmd:b@uci"]).is_err());
    }
}
