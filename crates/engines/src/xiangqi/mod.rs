//! Xiangqi players beyond the generic ones.

use crate::registry::GamePlayers;
use boyi_games::xiangqi::Xiangqi;

impl GamePlayers for Xiangqi {}
