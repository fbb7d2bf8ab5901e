// Sends half of every garrison above 1 to the first neighbour of each owned fort.
use std::io::{BufRead, Write};

fn main() {
    let me = std::env::args().last().unwrap();
    let stdin = std::io::stdin();
    let mut lines = stdin.lock().lines().map(|l| l.unwrap());
    let mut out = std::io::stdout();
    while let Some(header) = lines.next() {
        let count = |h: &str| h.split_whitespace().next().unwrap().parse::<usize>().unwrap();
        let forts: Vec<Vec<String>> = (0..count(&header))
            .map(|_| lines.next().unwrap().split_whitespace().map(String::from).collect())
            .collect();
        let n = count(&lines.next().unwrap());
        let roads: Vec<Vec<String>> = (0..n)
            .map(|_| lines.next().unwrap().split_whitespace().map(String::from).collect())
            .collect();
        let n = count(&lines.next().unwrap());
        for _ in 0..n {
            lines.next();
        }
        let mut cmds = Vec::new();
        for f in &forts {
            let garrison: u64 = f[4].parse().unwrap();
            if f[3] != me || garrison < 2 {
                continue;
            }
            if let Some(r) = roads.iter().find(|r| r[0] == f[0] || r[1] == f[0]) {
                let to = if r[0] == f[0] { &r[1] } else { &r[0] };
                cmds.push(format!("{} {} {}", f[0], to, garrison / 2));
            }
        }
        let mut text = format!("{} commands:\n", cmds.len());
        for c in cmds {
            text.push_str(&c);
            text.push('\n');
        }
        out.write_all(text.as_bytes()).unwrap();
        out.flush().unwrap();
    }
}
