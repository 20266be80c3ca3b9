//! Engine protocols.
