//! Engine protocols, in both directions: the same parsers and formatters serve Boyi players
//! to engine managers ([`serve`]) and drive external engines as Players ([`external`]).
//!
//! - [`gomocup`]: Gomocup/Piskvork (Gomoku);
//! - [`sau`]: the SAU platform protocol (Connect6, Jiu, Gomoku);
//! - [`uci`]: UCI as Pikafish speaks it, the Fairy-Stockfish dialect `uci-fsf`, and UCCI
//!   (Xiangqi);
//! - [`xboard`]: CECP (xboard/WinBoard), driven only (Xiangqi engines such as HoiXiangqi).
//! - [`cloudict`]: the Connect6 program Cloudict's own protocol (driving only);
//! - [`spec`]: players named on the command line (`boyi:…`, `cmd:"…"@protocol`), built as
//!   either.
//!
//! Moves cross the protocol boundary as canonical move text ([`codec`]), so no protocol
//! depends on a game's move type.

#[macro_use]
extern crate boyi_core;

pub mod cloudict;
pub mod codec;
pub mod driver;
pub mod gomocup;
pub mod lines;
pub mod process;
pub mod sau;
pub mod server;
pub mod spec;
pub mod uci;
pub mod xboard;

pub use server::Configure;
pub use spec::PlayerSpec;

use boyi_core::{Game, TextError};
use boyi_engines::{Limits, Player};
use driver::{Driver, ExternalOptions, ExternalPlayer};
use std::fmt;
use std::io::{BufRead, Write};
use std::str::FromStr;
use uci::Dialect;

/// The protocols, by their command-line names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Protocol {
    Gomocup,
    Sau,
    Uci,
    UciFsf,
    Ucci,
    Cloudict,
    Xboard,
}

impl Protocol {
    pub const ALL: [Protocol; 7] = [
        Protocol::Gomocup,
        Protocol::Sau,
        Protocol::Uci,
        Protocol::UciFsf,
        Protocol::Ucci,
        Protocol::Cloudict,
        Protocol::Xboard,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Protocol::Gomocup => "gomocup",
            Protocol::Sau => "sau",
            Protocol::Uci => "uci",
            Protocol::UciFsf => "uci-fsf",
            Protocol::Ucci => "ucci",
            Protocol::Cloudict => "cloudict",
            Protocol::Xboard => "xboard",
        }
    }

    /// Whether this protocol can carry game `name`'s moves. The coordinate protocols (UCI,
    /// UCCI) take any game whose moves are one word; Gomocup takes one-point moves; SAU has
    /// encodings for Connect6, Jiu and one-point games.
    pub fn supports(self, name: &str) -> bool {
        match self {
            Protocol::Gomocup => !matches!(name, "connect6" | "jiu" | "xiangqi"),
            Protocol::Sau => name != "xiangqi",
            Protocol::UciFsf | Protocol::Xboard => name == "xiangqi",
            Protocol::Uci | Protocol::Ucci => !matches!(name, "connect6" | "jiu"),
            Protocol::Cloudict => name == "connect6",
        }
    }

    fn check<G: Game>(self) -> Result<(), TextError> {
        if self.supports(G::NAME) {
            Ok(())
        } else {
            Err(text_err!(
                "the {self} protocol does not carry {} moves",
                G::NAME
            ))
        }
    }
}

impl FromStr for Protocol {
    type Err = TextError;
    fn from_str(s: &str) -> Result<Self, TextError> {
        Protocol::ALL
            .into_iter()
            .find(|p| p.name() == s.to_ascii_lowercase())
            .ok_or_else(|| {
                text_err!(
                    "unknown protocol {s:?} (expected gomocup, sau, uci, uci-fsf, ucci, xboard or cloudict)"
                )
            })
    }
}

impl fmt::Display for Protocol {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// How a served engine presents itself.
pub struct ServeOptions<G: Game> {
    /// The start position of new games (SAU) and the variant of every protocol.
    pub start: G,
    /// Limits for searches the protocol does not bound (SAU, Gomocup without `INFO`).
    pub default_limits: Limits,
    pub name: String,
    pub version: String,
    /// The player's options an engine manager may set (UCI `setoption`, Gomocup `INFO`);
    /// `None` offers none.
    pub configure: Option<server::Configure<G>>,
}

/// Serves `player` over `protocol`, reading commands from `input` and answering on `output`
/// until the protocol's quit command or the end of the input.
pub fn serve<G: Game>(
    protocol: Protocol,
    player: Box<dyn Player<G>>,
    opts: ServeOptions<G>,
    input: impl BufRead + Send + 'static,
    output: impl Write + 'static,
) -> Result<(), TextError> {
    protocol.check::<G>()?;
    let variant = opts.start.variant().clone();
    let limits = opts.default_limits.clone();
    let full_name = format!("{} {}", opts.name, opts.version);
    match protocol {
        Protocol::Gomocup => {
            let about = format!(
                "name=\"{}\", version=\"{}\", author=\"the Boyi developers\", country=\"CN\"",
                opts.name, opts.version
            );
            let fe = gomocup::GomocupServer::<G>::new(variant, about);
            server::run(fe, player, opts.configure, limits, input, output);
        }
        Protocol::Sau => {
            let fe = sau::SauServer::new(opts.start, full_name);
            server::run(fe, player, opts.configure, limits, input, output);
        }
        Protocol::Uci | Protocol::UciFsf | Protocol::Ucci => {
            let dialect = match protocol {
                Protocol::Uci => Dialect::Uci,
                Protocol::UciFsf => Dialect::Fsf,
                _ => Dialect::Ucci,
            };
            let fe = uci::UciServer::<G>::new(dialect, variant, full_name);
            server::run(fe, player, opts.configure, limits, input, output);
        }
        Protocol::Cloudict => {
            return Err(text_err!(
                "Boyi drives Cloudict engines but does not serve its protocol"
            ));
        }
        Protocol::Xboard => {
            return Err(text_err!(
                "Boyi drives xboard engines but does not serve the xboard protocol"
            ));
        }
    }
    Ok(())
}

/// An external engine, started from `command`, as a Player over `protocol`.
pub fn external<G: Game>(
    command: &str,
    protocol: Protocol,
    opts: ExternalOptions,
) -> Result<Box<dyn Player<G>>, TextError> {
    protocol.check::<G>()?;
    let process = process::EngineProcess::spawn(command)?;
    let driver: Box<dyn Driver<G>> = match protocol {
        Protocol::Gomocup => Box::new(gomocup::GomocupDriver::new()),
        Protocol::Sau => Box::new(sau::SauDriver::new()),
        Protocol::Uci => Box::new(uci::UciDriver::new(Dialect::Uci)),
        Protocol::UciFsf => Box::new(uci::UciDriver::new(Dialect::Fsf)),
        Protocol::Ucci => Box::new(uci::UciDriver::new(Dialect::Ucci)),
        Protocol::Cloudict => Box::new(cloudict::CloudictDriver::new()),
        Protocol::Xboard => Box::new(xboard::XboardDriver::new()),
    };
    let name = format!("cmd:\"{command}\"@{protocol}");
    Ok(Box::new(ExternalPlayer::new(process, driver, name, opts)))
}
