// Bottle Bats Vindinium starter bot (C++17, standard library only).
//
// Before each of our moves the arbiter writes one line of JSON on stdin, the game as
// our hero sees it, and we answer one line on stdout: Stay, North, South, East or
// West. This bot walks to the nearest mine it does not own and takes it; when its
// life is low it walks to the nearest tavern and drinks. `json.hpp` reads the JSON.
//
// Build: c++ -O2 -std=gnu++17 -o bot bot.cpp      Run: ./bot NAME
// Copy it, then make it smarter: see README.md for ideas.

#include <deque>
#include <functional>
#include <iostream>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "json.hpp"

using namespace std;

// The four directions: answer, row change, column change. `x` is the row: North is
// x - 1.
struct Dir {
    const char *name;
    int dx, dy;
};
const Dir DIRS[] = {{"North", -1, 0}, {"South", 1, 0}, {"East", 0, 1}, {"West", 0, -1}};
const long MINE_LIFE = 20; // taking a mine costs 20 life; with 20 or less, the hero dies
const long LOW_LIFE = 30;  // at or below this, go and drink
const long BEER_GOLD = 2;  // a beer costs 2 gold, for 50 life

// A way to a tile: the first step, and the steps including the final bump.
struct Way {
    string first;
    long steps;
};

// Breadth-first search over open ground ("  ") from (x, y) to a square next to a tile
// that `wanted` accepts; nothing when no such tile can be reached. Heroes, wood, mines
// and taverns cannot be walked through: walking into a mine or a tavern is how you
// use it.
optional<Way> nearest(const vector<string> &tiles, int size, int x0, int y0,
                      const function<bool(const string &)> &wanted) {
    struct Step {
        int x, y;
        string first;
        long dist;
    };
    vector<bool> seen(size * size, false);
    seen[x0 * size + y0] = true;
    deque<Step> queue{{x0, y0, "", 0}};
    while (!queue.empty()) {
        Step s = queue.front();
        queue.pop_front();
        for (const Dir &d : DIRS) {
            int nx = s.x + d.dx, ny = s.y + d.dy;
            if (nx < 0 || nx >= size || ny < 0 || ny >= size || seen[nx * size + ny]) continue;
            seen[nx * size + ny] = true;
            const string &tile = tiles[nx * size + ny];
            string first = s.first.empty() ? d.name : s.first;
            if (wanted(tile)) return Way{first, s.dist + 1};
            if (tile == "  ") queue.push_back({nx, ny, first, s.dist + 1});
        }
    }
    return nullopt;
}

// Our move for one state: {"game": {...}, "hero": {...}}.
string decide(const json::Value &state) {
    const json::Value &game = state["game"], &hero = state["hero"];
    int size = game["board"]["size"].num();
    const string &text = game["board"]["tiles"].str();
    // Two characters a square, row by row: "  " open, "##" wood, "[]" tavern,
    // "$-" neutral mine, "$1".."$4" a hero's mine, "@1".."@4" a hero.
    vector<string> tiles;
    for (size_t i = 0; i + 1 < text.size(); i += 2) tiles.push_back(text.substr(i, 2));
    int x = hero["pos"]["x"].num(), y = hero["pos"]["y"].num();
    string own = "$" + to_string(hero["id"].num());
    auto mine = nearest(tiles, size, x, y, [&](const string &t) { return t[0] == '$' && t != own; });
    auto tavern = nearest(tiles, size, x, y, [](const string &t) { return t == "[]"; });
    long life = hero["life"].num();
    // Thirst costs 1 life a move, so the walk to the mine costs its length too.
    bool thirsty = life <= LOW_LIFE || (mine && life - mine->steps <= MINE_LIFE);
    if (tavern && hero["gold"].num() >= BEER_GOLD && (thirsty || !mine)) return tavern->first;
    return mine ? mine->first : "Stay";
}

int main(int argc, char **argv) {
    // argv[1] is our hero's name; the state tells us our hero's id as well.
    (void)argc;
    (void)argv;
    string line;
    while (getline(cin, line)) {
        if (line.find_first_not_of(" \t\r") == string::npos) continue;
        cout << decide(json::parse(line)) << '\n';
        // Flush, or the arbiter waits for our answer until we time out.
        cout << flush;
    }
    return 0;
}
