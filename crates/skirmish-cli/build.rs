//! Empty: it exists so that cargo considers the build dependencies of
//! Cargo.toml, which only unify the features of shared dependencies with
//! the Python wheel's build (see the comment there).

fn main() {}
