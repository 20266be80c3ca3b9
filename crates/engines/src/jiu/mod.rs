//! Jiu players beyond the generic ones.

use crate::registry::GamePlayers;
use boyi_games::jiu::Jiu;

impl GamePlayers for Jiu {}
