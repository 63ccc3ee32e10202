//! Simultaneous Combat (Relativity, "Simultaneous Combat"; docs/rules.md §1.1).
//!
//! No ordering: every combatant able to act acts once per **exchange**, all
//! at the same instant, and the effects apply together ("then anyone left
//! alive after that all do whatever comes next at the same instant"). There
//! is no use for initiative, Time Taken or Rate of Fire.
//!
//! On the event queue an exchange is a round one tick long:
//! [`Moment::round`](super::Moment::round) and
//! [`Moment::display`](super::Moment::display) are the exchange number.
