// Bottle Bats Vindinium starter bot (JavaScript for Node, no packages).
//
// Before each of our moves the arbiter writes one line of JSON on stdin, the game as
// our hero sees it, and we answer one line on stdout: Stay, North, South, East or
// West. This bot walks to the nearest mine it does not own and takes it; when its
// life is low it walks to the nearest tavern and drinks.
//
// Run: node bot.js NAME
// Copy it, then make it smarter: see README.md for ideas.
'use strict';

const readline = require('readline');

// The four directions, as [answer, row change, column change]. `x` is the row:
// North is x - 1.
const DIRS = [['North', -1, 0], ['South', 1, 0], ['East', 0, 1], ['West', 0, -1]];
const MINE_LIFE = 20; // taking a mine costs 20 life; with 20 or less, the hero dies
const LOW_LIFE = 30; // at or below this, go and drink
const BEER_GOLD = 2; // a beer costs 2 gold, for 50 life

// Breadth-first search over open ground ('  ') from `start` to a square next to a
// tile that `wanted` accepts. Returns [first step, steps including the final bump],
// or null when no such tile can be reached. Heroes, wood, mines and taverns cannot be
// walked through: walking into a mine or a tavern is how you use it.
function nearest(tiles, size, start, wanted) {
    const seen = new Set([start[0] * size + start[1]]);
    const queue = [[start[0], start[1], null, 0]];
    for (let head = 0; head < queue.length; head++) {
        const [x, y, first, dist] = queue[head];
        for (const [name, dx, dy] of DIRS) {
            const nx = x + dx;
            const ny = y + dy;
            if (nx < 0 || nx >= size || ny < 0 || ny >= size || seen.has(nx * size + ny)) {
                continue;
            }
            seen.add(nx * size + ny);
            const tile = tiles[nx * size + ny];
            if (wanted(tile)) {
                return [first || name, dist + 1];
            }
            if (tile === '  ') {
                queue.push([nx, ny, first || name, dist + 1]);
            }
        }
    }
    return null;
}

// Our move for one state: {game: {...}, hero: {...}}.
function decide(state) {
    const { game, hero } = state;
    const size = game.board.size;
    const text = game.board.tiles;
    // Two characters a square, row by row: '  ' open, '##' wood, '[]' tavern,
    // '$-' neutral mine, '$1'..'$4' a hero's mine, '@1'..'@4' a hero.
    const tiles = [];
    for (let i = 0; i < text.length; i += 2) {
        tiles.push(text.slice(i, i + 2));
    }
    const start = [hero.pos.x, hero.pos.y];
    const own = '$' + hero.id;
    const mine = nearest(tiles, size, start, (t) => t[0] === '$' && t !== own);
    const tavern = nearest(tiles, size, start, (t) => t === '[]');
    const life = hero.life;
    // Thirst costs 1 life a move, so the walk to the mine costs its length too.
    const thirsty = life <= LOW_LIFE || (mine !== null && life - mine[1] <= MINE_LIFE);
    if (tavern !== null && hero.gold >= BEER_GOLD && (thirsty || mine === null)) {
        return tavern[0];
    }
    return mine !== null ? mine[0] : 'Stay';
}

// process.argv[2] is our hero's name; the state tells us our hero's id as well.
const input = readline.createInterface({ input: process.stdin });
input.on('line', (line) => {
    if (line.trim() === '') {
        return;
    }
    // One write per answer: Node sends it at once, nothing to flush.
    process.stdout.write(decide(JSON.parse(line)) + '\n');
});
