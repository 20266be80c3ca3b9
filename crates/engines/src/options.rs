//! Players' options, declared. Each built-in player has one table: every option's name, kind,
//! range, default and one line of help. Parsing and validation of a spec, `boyi players`, the
//! web page's player list and the options a served engine offers (UCI `option`, Gomocup
//! `INFO`) all come from it, so they cannot disagree.
//!
//! Earlier names of an option stay accepted as its aliases, and options of retired code as
//! ignored names: specs are stored in game databases and docs.
//!
//! A spec is `boyi:<name>` with optional options after `?`, comma-separated `key=value`
//! pairs: `boyi:alphabeta?depth=3,width=8`.

use boyi_core::TextError;
use std::fmt::Write as _;

/// A parsed `boyi:` spec.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BuiltinSpec {
    pub name: String,
    pub options: Vec<(String, String)>,
}

impl BuiltinSpec {
    /// Parses the part after `boyi:`.
    pub fn parse(text: &str) -> Result<BuiltinSpec, TextError> {
        let (name, opts) = text.split_once('?').unwrap_or((text, ""));
        if name.is_empty() {
            return Err(text_err!("player spec {text:?} has no name"));
        }
        let mut options = Vec::new();
        for pair in opts.split(',').filter(|p| !p.is_empty()) {
            let (k, v) = pair
                .split_once('=')
                .ok_or_else(|| text_err!("player option {pair:?} must be key=value"))?;
            options.push((k.trim().to_string(), v.trim().to_string()));
        }
        Ok(BuiltinSpec {
            name: name.to_string(),
            options,
        })
    }

    /// The text of option `key` as last given, if given.
    pub fn text(&self, key: &str) -> Option<&str> {
        self.options
            .iter()
            .rev()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }
}

/// The spec's text after `boyi:`, as [`BuiltinSpec::parse`] reads it.
impl std::fmt::Display for BuiltinSpec {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.name)?;
        for (i, (k, v)) in self.options.iter().enumerate() {
            write!(f, "{}{k}={v}", if i == 0 { '?' } else { ',' })?;
        }
        Ok(())
    }
}

/// What values an option takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// An integer in `min..=max`.
    Int { min: i64, max: i64, default: i64 },
    /// Off or on: `0`/`1` (`false`/`true`, `off`/`on` too).
    Switch { default: bool },
    /// One of the words.
    Choice {
        choices: &'static [&'static str],
        default: &'static str,
    },
    /// Text the player checks itself (a path, a list of values).
    Text { default: &'static str },
    /// A seed of randomness (any 64-bit number); by default the caller's (each game of a
    /// match has its own).
    Seed,
}

/// One option of a player.
#[derive(Debug, Clone, Copy)]
pub struct OptionDef {
    pub name: &'static str,
    /// Earlier names, still accepted.
    pub aliases: &'static [&'static str],
    pub kind: Kind,
    pub help: &'static str,
    /// A tuning knob (an evaluation weight, an experiment's margin): parsed like the others,
    /// listed apart and not offered to engine managers.
    pub tuning: bool,
}

impl OptionDef {
    /// An integer option.
    pub const fn int(
        name: &'static str,
        min: i64,
        max: i64,
        default: i64,
        help: &'static str,
    ) -> Self {
        OptionDef {
            name,
            aliases: &[],
            kind: Kind::Int { min, max, default },
            help,
            tuning: false,
        }
    }

    /// One of `choices`.
    pub const fn choice(
        name: &'static str,
        choices: &'static [&'static str],
        default: &'static str,
        help: &'static str,
    ) -> Self {
        OptionDef {
            name,
            aliases: &[],
            kind: Kind::Choice { choices, default },
            help,
            tuning: false,
        }
    }

    /// Text the player checks itself.
    pub const fn text(name: &'static str, default: &'static str, help: &'static str) -> Self {
        OptionDef {
            name,
            aliases: &[],
            kind: Kind::Text { default },
            help,
            tuning: false,
        }
    }

    /// The seed of a player's randomness.
    pub const fn seed(help: &'static str) -> Self {
        OptionDef {
            name: "seed",
            aliases: &[],
            kind: Kind::Seed,
            help,
            tuning: false,
        }
    }

    /// A switch.
    pub const fn switch(name: &'static str, default: bool, help: &'static str) -> Self {
        OptionDef {
            name,
            aliases: &[],
            kind: Kind::Switch { default },
            help,
            tuning: false,
        }
    }

    /// The same option, also accepted under its earlier names.
    pub const fn alias(mut self, aliases: &'static [&'static str]) -> Self {
        self.aliases = aliases;
        self
    }

    /// The same option, as a tuning knob.
    pub const fn tuning(mut self) -> Self {
        self.tuning = true;
        self
    }

    /// Whether `key` names this option (its name or an alias; case matters in specs).
    pub fn answers_to(&self, key: &str) -> bool {
        self.name == key || self.aliases.contains(&key)
    }

    /// Checks `text` as a value of this option; the canonical text of the value.
    pub fn check(&self, text: &str) -> Result<String, TextError> {
        let name = self.name;
        let number = || {
            text.parse::<i64>()
                .map_err(|_| text_err!("player option {name}={text:?} is not a valid number"))
        };
        match self.kind {
            Kind::Int { min, max, .. } => {
                let v = number()?;
                if !(min..=max).contains(&v) {
                    return Err(text_err!(
                        "player option {name}={v}: expected {min} to {max}"
                    ));
                }
                Ok(v.to_string())
            }
            Kind::Switch { .. } => match text.to_ascii_lowercase().as_str() {
                "0" | "false" | "off" => Ok("0".into()),
                "1" | "true" | "on" => Ok("1".into()),
                _ => Err(text_err!("player option {name}={text:?}: expected 0 or 1")),
            },
            Kind::Choice { choices, .. } => {
                match choices.iter().find(|c| c.eq_ignore_ascii_case(text)) {
                    Some(c) => Ok(c.to_string()),
                    None => Err(text_err!(
                        "player option {name}={text:?}: expected {}",
                        choices.join(" or ")
                    )),
                }
            }
            Kind::Text { .. } => Ok(text.to_string()),
            Kind::Seed => text
                .parse::<u64>()
                .map(|v| v.to_string())
                .map_err(|_| text_err!("player option {name}={text:?} is not a valid number")),
        }
    }

    /// The default as text (`None` for a seed: the caller's).
    pub fn default_text(&self) -> Option<String> {
        match self.kind {
            Kind::Int { default, .. } => Some(default.to_string()),
            Kind::Switch { default } => Some(u8::from(default).to_string()),
            Kind::Choice { default, .. } | Kind::Text { default } => Some(default.to_string()),
            Kind::Seed => None,
        }
    }

    /// One line: name, values, default and help.
    pub fn describe(&self) -> String {
        let values = match self.kind {
            Kind::Int { min, max, .. } => format!("{min} to {max}"),
            Kind::Switch { .. } => "0/1".into(),
            Kind::Choice { choices, .. } => choices.join("/"),
            Kind::Text { .. } => "text".into(),
            Kind::Seed => "number".into(),
        };
        let default = match self.default_text() {
            Some(d) if d.is_empty() => "default none".to_string(),
            Some(d) => format!("default {d}"),
            None => "default the caller's".into(),
        };
        let mut line = format!("{} ({values}, {default}): {}", self.name, self.help);
        if !self.aliases.is_empty() {
            let _ = write!(line, " [also: {}]", self.aliases.join(", "));
        }
        line
    }
}

/// A built-in player: its name, what it is, and its options.
#[derive(Debug, Clone, Copy)]
pub struct PlayerDef {
    pub name: &'static str,
    pub summary: &'static str,
    pub options: &'static [OptionDef],
    /// Options of retired code: accepted and ignored.
    pub retired: &'static [&'static str],
}

impl PlayerDef {
    pub const fn new(
        name: &'static str,
        summary: &'static str,
        options: &'static [OptionDef],
    ) -> Self {
        PlayerDef {
            name,
            summary,
            options,
            retired: &[],
        }
    }

    /// The option `key` names (by name or alias).
    pub fn option(&self, key: &str) -> Option<&'static OptionDef> {
        self.options.iter().find(|o| o.answers_to(key))
    }

    /// Reads the options of a spec's text after `boyi:` ([`PlayerDef::parse`]).
    pub fn parse_text(&self, text: &str) -> Result<Options, TextError> {
        self.parse(&BuiltinSpec::parse(text)?)
    }

    /// Reads the options of `spec`: every one known (or retired) and in range. A later
    /// occurrence of an option overrides an earlier one.
    pub fn parse(&self, spec: &BuiltinSpec) -> Result<Options, TextError> {
        let mut values: Vec<(&'static str, String)> = Vec::new();
        for (key, text) in &spec.options {
            let Some(def) = self.option(key) else {
                if self.retired.iter().any(|r| r.eq_ignore_ascii_case(key)) {
                    continue;
                }
                return Err(text_err!(
                    "player {} has no option {key:?} (options: {})",
                    self.name,
                    self.names()
                ));
            };
            let value = def.check(text)?;
            values.retain(|(n, _)| *n != def.name);
            values.push((def.name, value));
        }
        Ok(Options { def: *self, values })
    }

    /// The options' names, the everyday ones first.
    fn names(&self) -> String {
        let everyday = self.options.iter().filter(|o| !o.tuning).map(|o| o.name);
        let tuning = self.options.iter().filter(|o| o.tuning).map(|o| o.name);
        let names: Vec<&str> = everyday.chain(tuning).collect();
        if names.is_empty() {
            "none".into()
        } else {
            names.join(", ")
        }
    }

    /// The summary and the options' names in one line (the web page's list).
    pub fn help_line(&self) -> String {
        let everyday: Vec<&str> = self
            .options
            .iter()
            .filter(|o| !o.tuning)
            .map(|o| o.name)
            .collect();
        if everyday.is_empty() {
            self.summary.to_string()
        } else {
            format!("{}; options: {}", self.summary, everyday.join(", "))
        }
    }

    /// The full help: the summary, then one line an option (`boyi players`).
    pub fn help(&self) -> String {
        let mut text = format!("boyi:{}\n  {}\n", self.name, self.summary);
        for o in self.options.iter().filter(|o| !o.tuning) {
            let _ = writeln!(text, "    {}", o.describe());
        }
        if self.options.iter().any(|o| o.tuning) {
            text.push_str("  tuning (experiments and weights):\n");
            for o in self.options.iter().filter(|o| o.tuning) {
                let _ = writeln!(text, "    {}", o.describe());
            }
        }
        if !self.retired.is_empty() {
            let _ = writeln!(
                text,
                "  retired, accepted and ignored: {}",
                self.retired.join(", ")
            );
        }
        text
    }
}

/// The options of one spec, checked: each read by its name gives the value set, or the
/// default.
#[derive(Debug, Clone)]
pub struct Options {
    def: PlayerDef,
    values: Vec<(&'static str, String)>,
}

impl Options {
    fn def(&self, name: &str) -> &'static OptionDef {
        // The names a player reads are its own table's: a miss is a slip in Boyi, caught by
        // the test that builds every player.
        self.def
            .options
            .iter()
            .find(|o| o.name == name)
            .unwrap_or_else(|| panic!("boyi:{} reads an undeclared option {name}", self.def.name))
    }

    /// The text set for `name`, if any.
    pub fn given(&self, name: &str) -> Option<&str> {
        let def = self.def(name);
        self.values
            .iter()
            .find(|(n, _)| *n == def.name)
            .map(|(_, v)| v.as_str())
    }

    /// An integer option's value.
    pub fn int(&self, name: &str) -> i64 {
        let def = self.def(name);
        match (self.given(name), def.kind) {
            (Some(v), _) => v.parse().unwrap_or_default(),
            (None, Kind::Int { default, .. }) => default,
            (None, _) => 0,
        }
    }

    /// An integer option's value as `T` (its range fits `T`).
    pub fn get<T: TryFrom<i64>>(&self, name: &str) -> T {
        // Ranges are chosen to fit the fields they set: a misfit is a slip in Boyi, caught by
        // the test that builds every player with every option.
        T::try_from(self.int(name)).unwrap_or_else(|_| {
            panic!(
                "boyi:{} option {name} does not fit its field",
                self.def.name
            )
        })
    }

    /// A switch's value.
    pub fn on(&self, name: &str) -> bool {
        match (self.given(name), self.def(name).kind) {
            (Some(v), _) => v == "1",
            (None, Kind::Switch { default }) => default,
            (None, _) => false,
        }
    }

    /// A choice's or a text option's value.
    pub fn text(&self, name: &str) -> &str {
        match (self.given(name), self.def(name).kind) {
            (Some(v), _) => v,
            (None, Kind::Choice { default, .. } | Kind::Text { default }) => default,
            (None, _) => "",
        }
    }

    /// A seed: the one set, or `fallback` (the caller's).
    pub fn seed(&self, name: &str, fallback: u64) -> u64 {
        self.given(name)
            .and_then(|v| v.parse().ok())
            .unwrap_or(fallback)
    }
}

/// `hash`, the same in every game: megabytes of the transposition table, up to `max` (what
/// the game's table supports; the whole table is allocated when the player is built).
pub const fn hash(default: i64, max: i64) -> OptionDef {
    OptionDef::int(
        "hash",
        1,
        max,
        default,
        "megabytes of the transposition table",
    )
}

/// `threads`, the same in every game: search threads (`max` 1 where the engine searches on
/// one).
pub const fn threads(max: i64) -> OptionDef {
    OptionDef::int("threads", 1, max, 1, "search threads")
}

#[cfg(test)]
mod tests {
    use super::*;

    const OPTIONS: &[OptionDef] = &[
        OptionDef::int("depth", 1, 64, 8, "plies").alias(&["d"]),
        OptionDef::switch("vct", true, "threat search"),
        OptionDef::choice("placement", &["tuned", "hand"], "tuned", "plan values"),
        OptionDef::int("rook", -999, 999, 500, "weight").tuning(),
    ];
    const PLAYER: PlayerDef = PlayerDef {
        name: "strong",
        summary: "a test player",
        options: OPTIONS,
        retired: &["algo"],
    };

    fn parse(text: &str) -> Result<Options, TextError> {
        PLAYER.parse(&BuiltinSpec::parse(text)?)
    }

    #[test]
    fn values_and_defaults() {
        let o = parse("strong?d=3,vct=off,placement=HAND,algo=1,rook=-20").unwrap();
        assert_eq!(o.int("depth"), 3);
        assert!(!o.on("vct"));
        assert_eq!(o.text("placement"), "hand");
        assert_eq!(o.get::<i32>("rook"), -20);
        let o = parse("strong?depth=5,depth=6").unwrap();
        assert_eq!(o.get::<u32>("depth"), 6);
        let o = parse("strong").unwrap();
        assert_eq!(
            (o.int("depth"), o.on("vct"), o.text("placement")),
            (8, true, "tuned")
        );
        assert_eq!(o.given("depth"), None);
        assert_eq!(o.seed("depth", 9), 9);
    }

    #[test]
    fn errors_name_the_option_and_what_is_valid() {
        let err = |t| parse(t).err().unwrap().to_string();
        let unknown = err("strong?dpeth=3");
        assert!(unknown.contains("no option \"dpeth\""), "{unknown}");
        assert!(
            unknown.contains("options: depth, vct, placement, rook"),
            "{unknown}"
        );
        assert!(err("strong?depth=0").contains("depth=0: expected 1 to 64"));
        assert!(err("strong?depth=65").contains("depth=65: expected 1 to 64"));
        assert!(err("strong?depth=x").contains("not a valid number"));
        assert!(err("strong?vct=2").contains("vct=\"2\": expected 0 or 1"));
        assert!(err("strong?placement=auto").contains("expected tuned or hand"));
    }

    #[test]
    fn help_lists_every_option() {
        let help = PLAYER.help();
        let expected = "boyi:strong
  a test player
    depth (1 to 64, default 8): plies [also: d]
    vct (0/1, default 1): threat search
    placement (tuned/hand, default tuned): plan values
  tuning (experiments and weights):
    rook (-999 to 999, default 500): weight
  retired, accepted and ignored: algo
";
        assert_eq!(help, expected);
        assert_eq!(
            PLAYER.help_line(),
            "a test player; options: depth, vct, placement"
        );
    }
}
