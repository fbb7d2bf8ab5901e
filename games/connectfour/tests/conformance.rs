//! Connect Four passes the registry's conformance suite (`game_interface::conformance`):
//! random and fuzzed answers on its one board, to the end.

#[test]
fn connectfour_conforms_to_the_game_interface() {
    let report = game_interface::conformance::check(&connectfour::plugin::ConnectFour, 200, 1974)
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(report.matches, 200);
    // Fuzzed answers forfeit early, random columns play on: some games are long.
    assert!(report.turns > 200 * 3, "{report:?}");
}
