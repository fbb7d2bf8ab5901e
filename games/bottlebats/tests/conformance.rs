//! Bottle Bats passes the registry's conformance suite (`game_interface::conformance`):
//! random and fuzzed answers on generated maps of every size, to the end.

#[test]
fn bottlebats_conforms_to_the_game_interface() {
    let report = game_interface::conformance::check(&bottlebats::plugin::BottleBats, 28, 2016)
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(report.matches, 28);
}
