// Sends half of every garrison above 1 to the first neighbour of each owned fort.
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.util.ArrayList;
import java.util.List;

public class Bot {
    public static void main(String[] args) throws Exception {
        String me = args[args.length - 1];
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
        String line;
        while ((line = in.readLine()) != null) {
            List<String[]> forts = new ArrayList<>();
            List<String[]> roads = new ArrayList<>();
            int n = Integer.parseInt(line.trim().split("\\s+")[0]);
            for (int i = 0; i < n; i++) forts.add(in.readLine().trim().split("\\s+"));
            n = Integer.parseInt(in.readLine().trim().split("\\s+")[0]);
            for (int i = 0; i < n; i++) roads.add(in.readLine().trim().split("\\s+"));
            n = Integer.parseInt(in.readLine().trim().split("\\s+")[0]);
            for (int i = 0; i < n; i++) in.readLine();
            List<String> out = new ArrayList<>();
            for (String[] f : forts) {
                long garrison = Long.parseLong(f[4]);
                if (!f[3].equals(me) || garrison < 2) continue;
                for (String[] r : roads) {
                    if (r[0].equals(f[0]) || r[1].equals(f[0])) {
                        String to = r[0].equals(f[0]) ? r[1] : r[0];
                        out.add(f[0] + " " + to + " " + (garrison / 2));
                        break;
                    }
                }
            }
            StringBuilder sb = new StringBuilder(out.size() + " commands:\n");
            for (String c : out) sb.append(c).append('\n');
            System.out.print(sb);
            System.out.flush();
        }
    }
}
