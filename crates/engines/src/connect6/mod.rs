//! Connect6 players beyond the generic ones.

use crate::registry::GamePlayers;
use boyi_games::connect6::Connect6;

impl GamePlayers for Connect6 {}
