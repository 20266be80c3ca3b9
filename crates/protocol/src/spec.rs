//! Player specs on the command line: `boyi:<name>[?options]` for a built-in player
//! (see `boyi_engines::registry`), `cmd:"<command line>"@<protocol>` for an external engine
//! (the quotes may be left out when the command has no `@`).

use crate::Protocol;
use crate::driver::ExternalOptions;
use boyi_core::TextError;
use boyi_engines::{BuildContext, Player};
use std::fmt;

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PlayerSpec {
    Builtin(String),
    External { command: String, protocol: Protocol },
}

impl PlayerSpec {
    pub fn parse(text: &str) -> Result<PlayerSpec, TextError> {
        let text = text.trim();
        if let Some(rest) = text.strip_prefix("boyi:") {
            boyi_engines::registry::BuiltinSpec::parse(rest)?;
            return Ok(PlayerSpec::Builtin(rest.to_string()));
        }
        let Some(rest) = text.strip_prefix("cmd:") else {
            return Err(text_err!(
                "player {text:?} must be boyi:<name> or cmd:\"<command>\"@<protocol>"
            ));
        };
        let (command, protocol) = if let Some(quoted) = rest.strip_prefix('"') {
            let end = quoted
                .find('"')
                .ok_or_else(|| text_err!("player {text:?}: the command's quote is not closed"))?;
            let after = &quoted[end + 1..];
            let proto = after.strip_prefix('@').ok_or_else(|| {
                text_err!("player {text:?}: expected @<protocol> after the command")
            })?;
            (&quoted[..end], proto)
        } else {
            rest.rsplit_once('@').ok_or_else(|| {
                text_err!("player {text:?}: expected @<protocol> after the command")
            })?
        };
        if command.trim().is_empty() {
            return Err(text_err!("player {text:?} has an empty command"));
        }
        Ok(PlayerSpec::External {
            command: command.to_string(),
            protocol: protocol.parse()?,
        })
    }

    /// Builds the player for game `G`: a built-in player, or a freshly started engine.
    pub fn build<G: boyi_engines::GamePlayers>(
        &self,
        seed: u64,
        ext: ExternalOptions,
    ) -> Result<Box<dyn Player<G>>, TextError> {
        match self {
            PlayerSpec::Builtin(s) => boyi_engines::build::<G>(s, BuildContext { seed }),
            PlayerSpec::External { command, protocol } => {
                crate::external::<G>(command, *protocol, ext)
            }
        }
    }
}

impl fmt::Display for PlayerSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlayerSpec::Builtin(s) => write!(f, "boyi:{s}"),
            PlayerSpec::External { command, protocol } => write!(f, "cmd:\"{command}\"@{protocol}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn specs() {
        assert_eq!(
            PlayerSpec::parse("boyi:alphabeta?depth=3").unwrap(),
            PlayerSpec::Builtin("alphabeta?depth=3".into())
        );
        let ext = PlayerSpec::parse(r#"cmd:"boyi engine gomoku --player boyi:random@x"@gomocup"#)
            .unwrap();
        assert_eq!(
            ext,
            PlayerSpec::External {
                command: "boyi engine gomoku --player boyi:random@x".into(),
                protocol: Protocol::Gomocup
            }
        );
        assert_eq!(
            ext.to_string(),
            r#"cmd:"boyi engine gomoku --player boyi:random@x"@gomocup"#
        );
        assert_eq!(
            PlayerSpec::parse("cmd:fairy-stockfish@uci-fsf").unwrap(),
            PlayerSpec::External {
                command: "fairy-stockfish".into(),
                protocol: Protocol::UciFsf
            }
        );
        for bad in [
            "random",
            "boyi:",
            "cmd:\"x\"",
            "cmd:\"x@uci",
            "cmd:x@morse",
            "cmd:@uci",
            "boyi:a?b",
        ] {
            assert!(PlayerSpec::parse(bad).is_err(), "{bad}");
        }
    }
}
