//! The cargo profile a test was built in, for tests that build another target (an
//! example) in the same profile: `dev`, `release`, or a custom one such as `ci`.

/// The profile this test binary was built in, read off its own path
/// (`target/PROFILE/deps/TEST`; the dev profile's directory is `debug`).
pub fn cargo_profile() -> String {
    let test = std::env::current_exe().expect("the test's path");
    let directory = test.parent().and_then(|deps| deps.parent()).and_then(|dir| dir.file_name());
    match directory.and_then(|name| name.to_str()).expect("target/PROFILE/deps/TEST") {
        "debug" => "dev".to_owned(),
        profile => profile.to_owned(),
    }
}
