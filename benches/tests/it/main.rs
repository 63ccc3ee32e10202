//! Integration tests of skirmish-benches: the inputs the benches run on.

mod battle_inputs;
mod queue_streams;
