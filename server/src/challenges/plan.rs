//! The games of a challenge and the scenarios of an A/B test, laid out before they are
//! queued. Pure: participants and maps are indexes into the caller's lists; the
//! challenger is participant 0, the opponents 1 to n.

/// One game: the map, and the participant at each seat.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Planned {
    pub map: usize,
    pub seats: Vec<usize>,
}

/// The challenger and `players - 1` opponents taken in turn from `opponents` (the
/// `g`th group), seated by rotating the group `turn` seats.
fn game(g: usize, turn: usize, opponents: usize, players: usize, map: usize) -> Planned {
    let group: Vec<usize> = std::iter::once(0)
        .chain((0..players - 1).map(|j| (g * (players - 1) + j) % opponents + 1))
        .collect();
    let seats = (0..players).map(|s| group[(s + turn) % players]).collect();
    Planned { map, seats }
}

/// A challenge's `games` games of `players` players against `opponents` opponents on
/// `maps` maps. When every opponent plays every game, each player sits at each seat
/// equally often over every `players` games; the map changes after each such round,
/// so every map sees every seat order when the number of games allows.
pub fn challenge(opponents: usize, players: usize, maps: usize, games: usize) -> Vec<Planned> {
    assert!(opponents >= players - 1 && players >= 2 && maps >= 1);
    (0..games)
        .map(|g| game(g, g, opponents, players, (g / players) % maps))
        .collect()
}

/// An A/B test's `scenarios`: scenario `s` is on map `s mod maps` (`map_seats` gives
/// each map's seats, all at most `opponents + 1`), against the next opponents of the
/// pool in turn, the seats rotating once a round of the maps (so that a map is not
/// tied to one seat when the number of maps is a multiple of the players). Each is
/// played twice, once by each version.
pub fn abtest(opponents: usize, map_seats: &[usize], scenarios: usize) -> Vec<Planned> {
    assert!(!map_seats.is_empty() && map_seats.iter().all(|&k| k >= 2 && k <= opponents + 1));
    (0..scenarios)
        .map(|s| {
            let map = s % map_seats.len();
            game(s, s / map_seats.len(), opponents, map_seats[map], map)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seats_of(games: &[Planned], who: usize, players: usize) -> Vec<usize> {
        let mut count = vec![0; players];
        for g in games {
            count[g.seats.iter().position(|&p| p == who).unwrap()] += 1;
        }
        count
    }

    #[test]
    fn every_player_sits_at_every_seat_equally_often() {
        let games = challenge(3, 4, 2, 8);
        for who in 0..4 {
            assert_eq!(seats_of(&games, who, 4), vec![2, 2, 2, 2], "player {who}");
        }
        // Each map gets a whole round of seat orders.
        assert_eq!(
            games.iter().map(|g| g.map).collect::<Vec<_>>(),
            [0, 0, 0, 0, 1, 1, 1, 1]
        );
        assert_eq!(games[1].seats, vec![1, 2, 3, 0]);
    }

    #[test]
    fn duels_against_several_opponents_take_them_in_turn() {
        let games = challenge(3, 2, 1, 6);
        let rivals: Vec<usize> = games
            .iter()
            .map(|g| *g.seats.iter().find(|&&p| p != 0).unwrap())
            .collect();
        assert_eq!(rivals, [1, 2, 3, 1, 2, 3]);
        assert_eq!(seats_of(&games, 0, 2), vec![3, 3]);
        for g in &games {
            let mut s = g.seats.clone();
            s.dedup();
            assert_eq!(s.len(), 2, "two different players: {g:?}");
        }
    }

    #[test]
    fn an_ab_test_on_two_duel_maps_plays_each_at_both_seats() {
        let s = abtest(3, &[2, 2], 4);
        let at = |p: &Planned| (p.map, p.seats.iter().position(|&x| x == 0).unwrap());
        let mut seen: Vec<(usize, usize)> = s.iter().map(at).collect();
        seen.sort();
        assert_eq!(seen, [(0, 0), (0, 1), (1, 0), (1, 1)]);
    }

    #[test]
    fn scenarios_cycle_through_the_maps_with_their_own_sizes() {
        let s = abtest(5, &[2, 4], 4);
        assert_eq!(
            s.iter().map(|p| p.seats.len()).collect::<Vec<_>>(),
            [2, 4, 2, 4]
        );
        for p in &s {
            assert!(p.seats.contains(&0));
            let mut sorted = p.seats.clone();
            sorted.sort();
            sorted.dedup();
            assert_eq!(sorted.len(), p.seats.len(), "no player twice: {p:?}");
        }
    }
}
