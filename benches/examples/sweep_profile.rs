//! Runs the sweep bench's sweep once on one thread, for profilers.
//!
//! ```sh
//! cargo build --profile bench -p skirmish-benches --example sweep_profile
//! valgrind --tool=callgrind target/release/examples/sweep_profile
//! ```

use skirmish_benches::battle::sweep_spec;
use skirmish_sim::sweep::{SweepOptions, sweep};

fn main() {
    let spec = sweep_spec().expect("the parity battle is valid");
    let options = SweepOptions {
        threads: Some(1),
        ..SweepOptions::default()
    };
    let table = sweep(&spec, &options).expect("a valid sweep");
    println!("{} cells x {} battles", table.axes().len(), spec.battles);
}
