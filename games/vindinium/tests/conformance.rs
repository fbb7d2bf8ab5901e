//! Vindinium passes the registry's conformance suite (`game_interface::conformance`):
//! random and fuzzed answers on generated maps, to the end.

#[test]
fn vindinium_conforms_to_the_game_interface() {
    let report = game_interface::conformance::check(&vindinium::plugin::Vindinium, 12, 2014)
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(report.matches, 12);
}
