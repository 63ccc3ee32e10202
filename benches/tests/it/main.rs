//! Integration tests of skirmish-benches: the streams the benches run on.

mod queue_streams;
