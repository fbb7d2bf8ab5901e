//! One turn, stage by stage, in the order of games/bottlebats/rules.md §3: dispatch, movement
//! (two half-steps with battles, then arrivals, road by road), sieges, recruitment and
//! defeat. Each stage is a method of [`Game`] that [`Game::step`] calls once; what a
//! stage does to one road or one fort ([`half_step`], [`arrivals`], [`siege`]) is a
//! plain function.

use crate::command::{judge, Judged};
use crate::map::{FortId, Map, Owner, Road, RoadId, Seat};

use super::{
    cut_warning, Battle, Capture, Game, March, Orders, RemovalReason, RoadMarches, TurnEvents,
    MAX_REPORTED,
};

/// A march that reached its destination this turn: (destination, owner, size).
type Arrival = (FortId, Owner, u64);

impl Game {
    /// Plays one turn: dispatch (seat order), move every road, resolve every siege,
    /// recruit, remove defeated players. `orders[i]` is player i's; orders of players
    /// that are no longer active are ignored, missing ones count as no commands.
    pub fn step(&mut self, orders: &[Orders]) -> TurnEvents {
        let mut events = TurnEvents::default();
        self.dispatch(orders, &mut events);
        advance(
            &self.map,
            &mut self.owners,
            &mut self.garrisons,
            &mut self.roads,
            &mut events,
        );
        self.remove_defeated(&mut events.removals);
        // Fatal errors (at dispatch) and defeats together, in seat order.
        events.removals.sort_by_key(|r| r.0);
        self.turn += 1;
        events
    }

    /// Dispatch (games/bottlebats/rules.md §3 stage 2): the players in seat order, each one's lines
    /// in the order written. A fatal protocol error removes the player instead, its
    /// orders dropped (§6); players no longer in the game send nothing.
    fn dispatch(&mut self, orders: &[Orders], events: &mut TurnEvents) {
        for seat in 0..self.players.len() {
            if !self.players[seat].is_active() {
                continue;
            }
            match orders.get(seat) {
                None => {}
                Some(Orders::Fatal(reason)) => {
                    let reason = RemovalReason::Fatal(reason.clone());
                    self.players[seat].removed = Some((self.turn, reason.clone()));
                    events.removals.push((Seat(seat), reason));
                }
                Some(Orders::Commands(lines)) => {
                    for line in lines {
                        self.command(Seat(seat), line, events);
                    }
                }
            }
        }
    }

    /// One command line, judged against the board as it stands (games/bottlebats/rules.md §5
    /// "Commands") and carried out: its soldiers leave the origin's garrison at once, so
    /// a later line from the same fort finds fewer.
    fn command(&mut self, seat: Seat, line: &str, events: &mut TurnEvents) {
        let cmd = match judge(&*self, seat, line) {
            Judged::Send(c) => c,
            Judged::Clamped(c, w) => {
                self.warn(seat, w, events);
                c
            }
            Judged::Ignored(w) => {
                self.warn(seat, w, events);
                return;
            }
        };
        self.garrisons[cmd.origin.0] -= cmd.size;
        let pos = 2 * self.map.roads[cmd.road.0].length;
        self.put_march(cmd.road, cmd.destination, Owner::Seat(seat), cmd.size, pos);
        let toward_b = cmd.destination == self.map.roads[cmd.road.0].b;
        events.sends.push((cmd.road, toward_b, cmd.size));
    }

    /// Counts a warning, and reports it the first time its text comes up for this
    /// player, while the player has fewer than [`MAX_REPORTED`] texts reported; a text
    /// is cut to [`MAX_WARNING_BYTES`] first (games/bottlebats/rules.md §5).
    fn warn(&mut self, seat: Seat, mut text: String, events: &mut TurnEvents) {
        let p = &mut self.players[seat.0];
        p.warnings += 1;
        cut_warning(&mut text);
        if let Some(seen) = p.reported.get_mut(&text) {
            *seen += 1;
        } else if p.reported.len() < MAX_REPORTED {
            p.reported.insert(text.clone(), 1);
            events.warnings.push((seat, text));
        } else {
            p.unreported += 1;
        }
    }

    /// Defeat (games/bottlebats/rules.md §3 stage 6, §6): players still in the game left with no
    /// fort and no march are removed.
    fn remove_defeated(&mut self, removals: &mut Vec<(Seat, RemovalReason)>) {
        let on_board = self.seats_on_board();
        for (seat, p) in self.players.iter_mut().enumerate() {
            if p.is_active() && !on_board[seat] {
                p.removed = Some((self.turn, RemovalReason::Defeated));
                removals.push((Seat(seat), RemovalReason::Defeated));
            }
        }
    }

    /// For every seat, whether it owns a fort or a march (of any size, 0 included).
    fn seats_on_board(&self) -> Vec<bool> {
        let mut on_board = vec![false; self.players.len()];
        for o in &self.owners {
            if let Owner::Seat(s) = o {
                on_board[s.0] = true;
            }
        }
        for r in &self.roads {
            for m in r.toward_a.iter().chain(&r.toward_b) {
                if let Owner::Seat(s) = m.owner {
                    on_board[s.0] = true;
                }
            }
        }
        on_board
    }
}

/// What follows dispatch in a turn (games/bottlebats/rules.md §3 stages 3 to 5), on any board:
/// [`movement`], [`sieges`], then recruitment. The replay's reader derives each board
/// from the one before with it (`crate::replay_v2`).
pub fn advance(
    map: &Map,
    owners: &mut [Owner],
    garrisons: &mut [u64],
    roads: &mut [RoadMarches],
    events: &mut TurnEvents,
) {
    let arrivals = movement(map, roads, &mut events.battles);
    sieges(owners, garrisons, &arrivals, &mut events.captures);
    recruit(owners, garrisons);
}

/// Movement (games/bottlebats/rules.md §3 stage 3): on every road with marches, two
/// [`half_step`]s with the battles they bring, then the [`arrivals`] leave it. One
/// pass over the roads: a second pass for the arrivals cost about a tenth more CPU
/// time per turn on `maps/bottlebats/vast-2p.map`. The arrivals are sorted by fort; at one
/// fort, by road in map order, those heading to the road's first fort first.
fn movement(map: &Map, roads: &mut [RoadMarches], battles: &mut Vec<Battle>) -> Vec<Arrival> {
    let mut arrived: Vec<Arrival> = Vec::new();
    for (i, road) in roads.iter_mut().enumerate() {
        if road.toward_a.is_empty() && road.toward_b.is_empty() {
            continue;
        }
        let ends = &map.roads[i];
        for _ in 0..2 {
            half_step(road, RoadId(i), ends.length, battles);
        }
        arrivals(road, ends, &mut arrived);
    }
    arrived.sort_by_key(|a| a.0);
    arrived
}

/// Sieges (games/bottlebats/rules.md §3 stage 4, §4 "Sieges"): at every fort that marches
/// reached, the garrison and the arrivals form one army per owner and [`siege`]
/// decides who holds it. `arrivals` are sorted by fort.
fn sieges(
    owners: &mut [Owner],
    garrisons: &mut [u64],
    arrivals: &[Arrival],
    captures: &mut Vec<Capture>,
) {
    let mut armies: Vec<(Owner, u64)> = Vec::new();
    for at_fort in arrivals.chunk_by(|x, y| x.0 == y.0) {
        let fort = at_fort[0].0;
        let before = owners[fort.0];
        muster(&mut armies, (before, garrisons[fort.0]), at_fort);
        let (owner, garrison) = siege(before, &mut armies);
        if owner != before {
            captures.push(Capture {
                fort,
                from: before,
                to: owner,
            });
        }
        owners[fort.0] = owner;
        garrisons[fort.0] = garrison;
    }
}

/// Recruitment (games/bottlebats/rules.md §3 stage 5): every fort a player owns gains one
/// soldier, whether that player is still in the game or not; neutral forts never grow.
fn recruit(owners: &[Owner], garrisons: &mut [u64]) {
    for (o, g) in owners.iter().zip(garrisons.iter_mut()) {
        if o.seat().is_some() {
            *g += 1;
        }
    }
}

/// One half-step on a road (games/bottlebats/rules.md §4 "Positions and timing", "Battles"): every
/// march not yet arrived moves one position, then marches heading to opposite ends at
/// the same point fight if their owners differ.
fn half_step(road: &mut RoadMarches, id: RoadId, length: u32, battles: &mut Vec<Battle>) {
    for m in road.toward_a.iter_mut().chain(road.toward_b.iter_mut()) {
        m.pos = m.pos.saturating_sub(1);
    }
    if road.toward_a.is_empty() || road.toward_b.is_empty() {
        return;
    }
    let full = 2 * length;
    let mut fought = false;
    // Both lists are sorted by pos; a march heading to b at p meets one heading to a
    // at full - p. Walk b upward and a downward to find the meeting points.
    let (b, a) = (&mut road.toward_b, &mut road.toward_a);
    let (mut i, mut j) = (0, a.len());
    while i < b.len() && j > 0 {
        let (p, q) = (b[i].pos, a[j - 1].pos);
        match (p + q).cmp(&full) {
            std::cmp::Ordering::Less => i += 1,
            std::cmp::Ordering::Greater => j -= 1,
            std::cmp::Ordering::Equal => {
                let i_end = i + b[i..].iter().take_while(|m| m.pos == p).count();
                let j_start = j - a[..j].iter().rev().take_while(|m| m.pos == q).count();
                for x in &mut b[i..i_end] {
                    for y in &mut a[j_start..j] {
                        // Marches emptied by an earlier fight at this point are gone.
                        if dead(x) || dead(y) || x.owner == y.owner {
                            continue;
                        }
                        battles.push(Battle {
                            road: id,
                            from_a: q,
                            toward_a: (y.owner, y.size),
                            toward_b: (x.owner, x.size),
                        });
                        fight(x, y);
                        fought = true;
                    }
                }
                (i, j) = (i_end, j_start);
            }
        }
    }
    if fought {
        road.toward_a.retain(|m| !dead(m));
        road.toward_b.retain(|m| !dead(m));
    }
}

/// Two marches of different owners meet (games/bottlebats/rules.md §4 "Battles"): each loses as
/// many soldiers as the smaller had, and one brought down to 0 is marked [`dead`].
fn fight(x: &mut March, y: &mut March) {
    let loss = x.size.min(y.size);
    x.size -= loss;
    y.size -= loss;
    if x.size == 0 {
        x.pos = u32::MAX;
    }
    if y.size == 0 {
        y.pos = u32::MAX;
    }
}

/// The end of movement on one road (games/bottlebats/rules.md §4 "Positions and timing"): marches
/// that reached 0 half-steps have arrived; they leave the road for `out`.
fn arrivals(road: &mut RoadMarches, ends: &Road, out: &mut Vec<Arrival>) {
    for (list, fort) in [(&mut road.toward_a, ends.a), (&mut road.toward_b, ends.b)] {
        let arrived = list.partition_point(|m| m.pos == 0);
        if arrived > 0 {
            out.extend(list.drain(..arrived).map(|m| (fort, m.owner, m.size)));
        }
    }
}

/// A march left with 0 soldiers after a fight, marked for removal.
fn dead(m: &March) -> bool {
    m.pos == u32::MAX
}

/// The armies of a siege (games/bottlebats/rules.md §4 "Sieges"): the garrison first, then every
/// arrival joining the army of its owner, in order of arrival.
fn muster(armies: &mut Vec<(Owner, u64)>, garrison: (Owner, u64), arrivals: &[Arrival]) {
    armies.clear();
    armies.push(garrison);
    for &(_, owner, size) in arrivals {
        match armies.iter_mut().find(|a| a.0 == owner) {
            Some(a) => a.1 += size,
            None => armies.push((owner, size)),
        }
    }
}

/// Resolves a siege: the largest army minus the second largest holds the fort.
/// `armies[0]` is the garrison; a tie keeps the previous owner with 0 soldiers.
pub fn siege(previous: Owner, armies: &mut [(Owner, u64)]) -> (Owner, u64) {
    if armies.len() < 2 {
        return armies.first().copied().unwrap_or((previous, 0));
    }
    armies.sort_by_key(|a| std::cmp::Reverse(a.1));
    let (top, second) = (armies[0], armies[1]);
    if top.1 == second.1 {
        (previous, 0)
    } else {
        (top.0, top.1 - second.1)
    }
}
