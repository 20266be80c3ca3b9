//! A table's seats: holding one by its token, taking an open one, and invitations. An
//! invitation token is good for one `join`, which gives the joiner a token of their own; a
//! new invitation for a human seat (made by the other seat's holder or the table's creator)
//! revokes the token that held it.

use super::Table;
use crate::games::ServerGame;
use crate::seat::{
    SPENT_KEPT, Seat, SeatKind, check_name, new_token, same_token, side_name, token_hash,
};
use boyi_core::Side;

/// A refused seat request: what to tell the client, with a code its page can act on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Refusal {
    pub(super) code: Option<&'static str>,
    pub(super) message: String,
}

impl From<String> for Refusal {
    fn from(message: String) -> Refusal {
        Refusal {
            code: None,
            message,
        }
    }
}

fn refuse(code: &'static str, message: &str) -> Refusal {
    Refusal {
        code: Some(code),
        message: message.to_string(),
    }
}

/// A `join` that succeeded: the side, the token that now holds it (fresh after an
/// invitation), and whether the seats changed.
pub(super) struct Joined {
    pub(super) side: Side,
    pub(super) token: String,
    pub(super) changed: bool,
}

/// Keeps the latest [`SPENT_KEPT`] of `list` after adding `token`.
fn remember(list: &mut Vec<String>, token: String) {
    list.push(token);
    let extra = list.len().saturating_sub(SPENT_KEPT);
    list.drain(..extra);
}

impl<G: ServerGame> Table<G> {
    /// The side whose seat `token` holds (an unused invitation holds none).
    pub(super) fn seat_of(&self, token: &str) -> Result<Side, Refusal> {
        Side::BOTH
            .into_iter()
            .find(|s| {
                self.seats[s.index()]
                    .holder()
                    .is_some_and(|t| same_token(t, token))
            })
            .ok_or_else(|| self.why_not(token))
    }

    /// Why `token` holds no seat: a used invitation, a revoked seat, or never one here.
    fn why_not(&self, token: &str) -> Refusal {
        for seat in &self.seats {
            if let SeatKind::Human { used, revoked, .. } = &seat.kind {
                if used.iter().any(|t| same_token(t, token)) {
                    return refuse(
                        "invitation_used",
                        "this invitation link has been used: the seat is taken (you are watching)",
                    );
                }
                if revoked.iter().any(|t| same_token(t, token)) {
                    return refuse(
                        "no_seat",
                        "your seat at this table was given to a new invitation link (you are watching)",
                    );
                }
            }
            if seat.invitation().is_some_and(|t| same_token(t, token)) {
                return refuse(
                    "invitation_unused",
                    "this is an invitation: join with it to get a seat token of your own",
                );
            }
        }
        refuse("no_seat", "this token holds no seat at this table")
    }

    /// Holds the seat of `token`: a holder's token (a reconnect, maybe renamed) or an
    /// invitation, which is spent for a fresh token. `version` is the client's protocol
    /// version: clients before 3 keep using the link's token, so they cannot join by one.
    pub(super) async fn join(
        &mut self,
        token: &str,
        name: Option<&str>,
        version: u64,
    ) -> Result<Joined, Refusal> {
        let invited = Side::BOTH.into_iter().find(|s| {
            self.seats[s.index()]
                .invitation()
                .is_some_and(|t| same_token(t, token))
        });
        let side = match invited {
            Some(s) => s,
            None => self.seat_of(token)?,
        };
        let seat = &self.seats[side.index()];
        let name = match name {
            Some(n) => check_name(Some(n), &seat.name)?,
            None => seat.name.clone(),
        };
        if invited.is_none() {
            if name == seat.name {
                return Ok(Joined {
                    side,
                    token: token.to_string(),
                    changed: false,
                });
            }
            let mut seats = self.seats.clone();
            seats[side.index()].name = name;
            self.save_seats(seats).await?;
            return Ok(Joined {
                side,
                token: token.to_string(),
                changed: true,
            });
        }
        if version < 3 {
            return Err(refuse(
                "upgrade",
                "invitation links are single-use since protocol version 3: reload the page to join",
            ));
        }
        if !self.playing() {
            return Err(refuse("game_over", "the game is over (you are watching)"));
        }
        let fresh = new_token();
        let mut seats = self.seats.clone();
        let seat = &mut seats[side.index()];
        seat.name = name;
        if let SeatKind::Human {
            token: t,
            claimed,
            reinvited,
            used,
            ..
        } = &mut seat.kind
        {
            remember(used, std::mem::replace(t, fresh.clone()));
            *claimed = true;
            *reinvited = false;
        }
        self.save_seats(seats).await?;
        Ok(Joined {
            side,
            token: fresh,
            changed: true,
        })
    }

    /// Takes an open seat (`side`, or any) from the lobby: a fresh token; the seat's unused
    /// invitation is spent.
    pub(super) async fn sit(
        &mut self,
        side: Option<Side>,
        name: Option<&str>,
    ) -> Result<(Side, String), String> {
        if !self.playing() {
            return Err("the game is over".into());
        }
        let side = match side {
            Some(s) if self.seats[s.index()].is_open() => s,
            Some(s) => return Err(format!("the {} seat is not open", side_name(s))),
            None => Side::BOTH
                .into_iter()
                .find(|s| self.seats[s.index()].is_open())
                .ok_or("this table has no open seat")?,
        };
        let mut seats = self.seats.clone();
        let token = new_token();
        let seat = &mut seats[side.index()];
        seat.name = check_name(name, &seat.name)?;
        if let SeatKind::Human {
            token: t,
            claimed,
            used,
            ..
        } = &mut seat.kind
        {
            remember(used, std::mem::replace(t, token.clone()));
            *claimed = true;
        }
        self.save_seats(seats).await?;
        Ok((side, token))
    }

    /// A new invitation for the human seat `side`, asked by the other seat's holder or the
    /// table's creator: the token that held the seat (if any) stops working, and so does
    /// any earlier invitation; the lobby does not offer the seat meanwhile.
    pub(super) async fn invite(&mut self, asker: &str, side: Side) -> Result<String, Refusal> {
        if !self.playing() {
            return Err("the game is over".to_string().into());
        }
        let other = self.seats[side.opponent().index()]
            .holder()
            .is_some_and(|t| same_token(t, asker));
        let creator = self
            .options
            .creator
            .as_ref()
            .is_some_and(|h| same_token(h, &token_hash(asker)));
        if !other && !creator {
            return Err(refuse(
                "not_allowed",
                "only the other player or the table's creator can invite someone to this seat",
            ));
        }
        let mut seats = self.seats.clone();
        let SeatKind::Human {
            token,
            claimed,
            reinvited,
            used,
            revoked,
        } = &mut seats[side.index()].kind
        else {
            return Err(format!("the {} seat is the computer's", side_name(side)).into());
        };
        let invitation = new_token();
        let old = std::mem::replace(token, invitation.clone());
        if *claimed {
            remember(revoked, old);
        } else {
            remember(used, old);
        }
        *claimed = false;
        *reinvited = true;
        self.save_seats(seats).await?;
        Ok(invitation)
    }

    pub(super) async fn save_seats(&mut self, seats: [Seat; 2]) -> Result<(), String> {
        let json = serde_json::to_value(&seats).map_err(|e| e.to_string())?;
        self.store
            .set_seats(&self.id, json, super::players(&seats))
            .await
            .map_err(|e| e.to_string())?;
        self.seats = seats;
        self.full_due = true;
        Ok(())
    }
}
