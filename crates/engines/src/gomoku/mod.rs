//! Gomoku players beyond the generic ones.

use crate::registry::GamePlayers;
use boyi_games::gomoku::Gomoku;

impl GamePlayers for Gomoku {}
