// Bottle Bats Vindinium starter bot (Java 11 or later, standard library only).
//
// Before each of our moves the arbiter writes one line of JSON on stdin, the game as
// our hero sees it, and we answer one line on stdout: Stay, North, South, East or
// West. This bot walks to the nearest mine it does not own and takes it; when its
// life is low it walks to the nearest tavern and drinks. `Json.java` reads the JSON.
//
// Build: javac *.java      Run: java Bot NAME
// Copy it, then make it smarter: see README.md for ideas.

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.util.ArrayDeque;
import java.util.function.Predicate;

public class Bot {
    /** The four directions: answers, row changes, column changes. `x` is the row. */
    static final String[] NAMES = {"North", "South", "East", "West"};
    static final int[] DX = {-1, 1, 0, 0};
    static final int[] DY = {0, 0, 1, -1};
    /** Taking a mine costs 20 life; with 20 or less, the hero dies. */
    static final long MINE_LIFE = 20;
    /** At or below this, go and drink. */
    static final long LOW_LIFE = 30;
    /** A beer costs 2 gold, for 50 life. */
    static final long BEER_GOLD = 2;

    /** A way to a tile: the first step, and the steps including the final bump. */
    static final class Way {
        final String first;
        final long steps;

        Way(String first, long steps) {
            this.first = first;
            this.steps = steps;
        }
    }

    /**
     * Breadth-first search over open ground ("  ") from (x0, y0) to a square next to a
     * tile that `wanted` accepts; null when no such tile can be reached. Heroes, wood,
     * mines and taverns cannot be walked through: walking into a mine or a tavern is
     * how you use it.
     */
    static Way nearest(String[] tiles, int size, int x0, int y0, Predicate<String> wanted) {
        boolean[] seen = new boolean[size * size];
        seen[x0 * size + y0] = true;
        // Each entry: x, y, first direction (-1 for none yet), distance.
        ArrayDeque<int[]> queue = new ArrayDeque<>();
        queue.add(new int[] {x0, y0, -1, 0});
        while (!queue.isEmpty()) {
            int[] s = queue.poll();
            for (int d = 0; d < 4; d++) {
                int nx = s[0] + DX[d], ny = s[1] + DY[d];
                if (nx < 0 || nx >= size || ny < 0 || ny >= size || seen[nx * size + ny]) continue;
                seen[nx * size + ny] = true;
                String tile = tiles[nx * size + ny];
                int first = s[2] < 0 ? d : s[2];
                if (wanted.test(tile)) return new Way(NAMES[first], s[3] + 1);
                if (tile.equals("  ")) queue.add(new int[] {nx, ny, first, s[3] + 1});
            }
        }
        return null;
    }

    /** Our move for one state: {"game": {...}, "hero": {...}}. */
    static String decide(Object state) {
        Object game = Json.get(state, "game");
        Object hero = Json.get(state, "hero");
        int size = (int) Json.num(game, "board", "size");
        String text = Json.str(game, "board", "tiles");
        // Two characters a square, row by row: "  " open, "##" wood, "[]" tavern,
        // "$-" neutral mine, "$1".."$4" a hero's mine, "@1".."@4" a hero.
        String[] tiles = new String[text.length() / 2];
        for (int i = 0; i < tiles.length; i++) tiles[i] = text.substring(2 * i, 2 * i + 2);
        int x = (int) Json.num(hero, "pos", "x");
        int y = (int) Json.num(hero, "pos", "y");
        String own = "$" + Json.num(hero, "id");
        Way mine = nearest(tiles, size, x, y, t -> t.charAt(0) == '$' && !t.equals(own));
        Way tavern = nearest(tiles, size, x, y, t -> t.equals("[]"));
        long life = Json.num(hero, "life");
        // Thirst costs 1 life a move, so the walk to the mine costs its length too.
        boolean thirsty = life <= LOW_LIFE || (mine != null && life - mine.steps <= MINE_LIFE);
        if (tavern != null && Json.num(hero, "gold") >= BEER_GOLD && (thirsty || mine == null)) {
            return tavern.first;
        }
        return mine != null ? mine.first : "Stay";
    }

    public static void main(String[] args) throws IOException {
        // args[0] is our hero's name; the state tells us our hero's id as well.
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, "UTF-8"));
        PrintStream out = new PrintStream(System.out, false, "UTF-8");
        String line;
        while ((line = in.readLine()) != null) {
            if (line.isBlank()) continue;
            out.print(decide(Json.parse(line)) + "\n");
            // Flush, or the arbiter waits for our answer until we time out.
            out.flush();
        }
    }
}
