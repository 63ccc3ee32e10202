//! Integration tests of skirmish-benches: the inputs the benches run on.

mod battle_inputs;
mod floor;
mod queue_streams;
