//! Generates the Kotlin and Swift bindings of `bindings/uniffi` (see scripts/test-mobile).
fn main() {
    uniffi::uniffi_bindgen_main()
}
