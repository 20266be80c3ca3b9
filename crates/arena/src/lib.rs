//! Arena.
