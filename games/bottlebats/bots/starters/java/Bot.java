// Bottle Bats starter bot (Java 11 or later, standard library only).
//
// Each turn the arbiter writes the state we can see on stdin (forts, roads, marches)
// and we answer with our commands on stdout. This bot:
//   * remembers every fort and road it has ever seen (a state only shows what is next
//     to our own forts),
//   * attacks from each fort the neighbour that is cheapest to take, sending just
//     enough soldiers to win when they arrive,
//   * moves the soldiers of forts surrounded by our own forts toward the frontier.
//
// Build: javac Bot.java      Run: java Bot NAME
// Copy it, then make it smarter: see README.md for ideas.

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

public class Bot {
    /** Soldiers sent on top of the exact number needed, in case the defender gets help. */
    static final long SAFETY = 2;

    /**
     * What we know about a fort: where it is, and its owner and garrison when we last saw it
     * ({@code seen} is the turn; forts far from ours are not in every state).
     */
    static class Fort {
        long x, y, garrison, seen;
        String owner;
    }

    /** A march on a road: {@code size} soldiers of {@code owner}, arriving in {@code steps}. */
    static class March {
        String origin, destination, owner;
        long size, steps;
    }

    /** One command: send {@code size} soldiers from {@code origin} to {@code destination}. */
    static class Order {
        final String origin, destination;
        final long size;

        Order(String origin, String destination, long size) {
            this.origin = origin;
            this.destination = destination;
            this.size = size;
        }
    }

    // -------------------------------------------------------------- reading a state

    static BufferedReader in = new BufferedReader(new InputStreamReader(System.in));

    /** The next line that is not blank or a comment; null at the end of input. */
    static String readLine() throws IOException {
        String line;
        while ((line = in.readLine()) != null) {
            line = line.trim();
            if (!line.isEmpty() && !line.startsWith("#")) return line;
        }
        return null;
    }

    static long toLong(String s) {
        try {
            return Long.parseLong(s);
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    /**
     * Reads one section: a header {@code COUNT WORD:} then COUNT lines (or {@code ? WORD:}
     * then lines until {@code end}). Returns the lines split into fields; null at the end.
     */
    static List<String[]> readSection() throws IOException {
        String header = readLine();
        if (header == null) return null;
        String count = header.split("\\s+")[0];
        List<String[]> rows = new ArrayList<>();
        while (count.equals("?") || rows.size() < toLong(count)) {
            String line = readLine();
            if (line == null) return null;
            if (count.equals("?") && line.equals("end")) break;
            rows.add(line.split("\\s+"));
        }
        return rows;
    }

    /** Steps to walk a road: the distance rounded up (3-4-5 is exactly 5). */
    static long roadLength(Fort a, Fort b) {
        long d2 = (a.x - b.x) * (a.x - b.x) + (a.y - b.y) * (a.y - b.y);
        long root = (long) Math.sqrt((double) d2);
        while (root * root > d2) root--;
        while (root * root < d2) root++;
        return root;
    }

    // -------------------------------------------------------------- the bot

    final String me;
    long turn = 0;
    /** Everything we have ever seen, by name (a TreeMap, so we walk it in name order). */
    final TreeMap<String, Fort> forts = new TreeMap<>();
    /** Every road we have ever seen, as "a b" with a < b. */
    final TreeSet<String> roads = new TreeSet<>();
    /**
     * This turn's marches. Not used by this simple strategy, but there for you: enemy marches
     * heading to our forts are the attacks we will have to survive.
     */
    List<March> marches = new ArrayList<>();

    Bot(String me) {
        this.me = me;
    }

    List<String> neighbours(String name) {
        List<String> out = new ArrayList<>();
        for (String road : roads) {
            String[] ends = road.split(" ");
            if (ends[0].equals(name)) out.add(ends[1]);
            else if (ends[1].equals(name)) out.add(ends[0]);
        }
        return out;
    }

    /** Stores this turn's state in our memory. */
    void update(List<String[]> fortRows, List<String[]> roadRows, List<String[]> marchRows) {
        for (String[] f : fortRows) {
            if (f.length != 5) continue;
            Fort fort = new Fort();
            fort.x = toLong(f[1]);
            fort.y = toLong(f[2]);
            fort.owner = f[3];
            fort.garrison = toLong(f[4]);
            fort.seen = turn;
            forts.put(f[0], fort);
        }
        for (String[] r : roadRows) {
            if (r.length != 2) continue;
            roads.add(r[0].compareTo(r[1]) < 0 ? r[0] + " " + r[1] : r[1] + " " + r[0]);
        }
        marches = new ArrayList<>();
        for (String[] m : marchRows) {
            if (m.length != 5) continue;
            March march = new March();
            march.origin = m[0];
            march.destination = m[1];
            march.owner = m[2];
            march.size = toLong(m[3]);
            march.steps = toLong(m[4]);
            marches.add(march);
        }
    }

    /** True when we own the fort right now (it is in this turn's state). */
    boolean ours(String name) {
        Fort fort = forts.get(name);
        return fort != null && fort.owner.equals(me) && fort.seen == turn;
    }

    /**
     * How many soldiers sent now from {@code source} take {@code target}: they arrive after
     * the road's length in turns; a player's fort grows by 1 each turn meanwhile (neutral
     * forts do not grow), and we must end with more than the defender.
     */
    long soldiersNeeded(String source, String target) {
        Fort fort = forts.get(target);
        long needed = fort.garrison + 1;
        if (!fort.owner.equals("neutral")) needed += roadLength(forts.get(source), fort) - 1;
        return needed + SAFETY;
    }

    /**
     * For each of our forts, how many roads away the nearest fort we do not own is, walking
     * only through our own forts (a breadth-first search).
     */
    Map<String, Integer> distancesToFrontier() {
        Map<String, Integer> dist = new HashMap<>();
        List<String> frontier = new ArrayList<>();
        for (String name : forts.keySet()) {
            if (!ours(name)) continue;
            for (String n : neighbours(name)) {
                if (!ours(n)) {
                    dist.put(name, 1);
                    frontier.add(name);
                    break;
                }
            }
        }
        while (!frontier.isEmpty()) {
            List<String> next = new ArrayList<>();
            for (String name : frontier) {
                for (String n : neighbours(name)) {
                    if (ours(n) && !dist.containsKey(n)) {
                        dist.put(n, dist.get(name) + 1);
                        next.add(n);
                    }
                }
            }
            frontier = next;
        }
        return dist;
    }

    /** This turn's orders. */
    List<Order> commands() {
        List<Order> orders = new ArrayList<>();
        Map<String, Integer> dist = distancesToFrontier();
        for (Map.Entry<String, Fort> entry : forts.entrySet()) {
            String name = entry.getKey();
            long garrison = entry.getValue().garrison;
            if (!ours(name)) continue;
            // Attack the cheapest neighbour, but only when we can win.
            String target = null;
            long best = 0;
            for (String n : neighbours(name)) {
                if (ours(n)) continue;
                long needed = soldiersNeeded(name, n);
                if (target == null || needed < best || (needed == best && n.compareTo(target) < 0)) {
                    target = n;
                    best = needed;
                }
            }
            if (target != null) {
                if (garrison >= best) orders.add(new Order(name, target, best));
            } else if (garrison > 0) {
                // Surrounded by our own forts: walk toward the frontier.
                int here = dist.getOrDefault(name, Integer.MAX_VALUE);
                String closer = null;
                for (String n : neighbours(name)) {
                    if (dist.getOrDefault(n, Integer.MAX_VALUE) < here
                            && (closer == null || n.compareTo(closer) < 0)) {
                        closer = n;
                    }
                }
                if (closer != null) orders.add(new Order(name, closer, garrison));
            }
        }
        return orders;
    }

    public static void main(String[] args) throws IOException {
        // The arbiter appends our player name to the command.
        Bot bot = new Bot(args.length > 0 ? args[args.length - 1] : "");
        PrintStream out = new PrintStream(System.out, false);
        while (true) {
            List<String[]> fortRows = readSection();
            List<String[]> roadRows = readSection();
            List<String[]> marchRows = readSection();
            if (marchRows == null) return; // end of input: the game is over
            bot.update(fortRows, roadRows, marchRows);
            List<Order> orders = bot.commands();
            // The reply: a header with the count, then one `origin destination size` line
            // each. Flush, or the arbiter waits for our answer until we time out.
            StringBuilder reply = new StringBuilder();
            reply.append(orders.size()).append(" commands:\n");
            for (Order o : orders) {
                reply.append(o.origin).append(' ').append(o.destination).append(' ')
                        .append(o.size).append('\n');
            }
            out.print(reply);
            out.flush();
            bot.turn++;
        }
    }
}
