# Sends half of every garrison above 1 to the first neighbour of each owned fort.
# Run as: awk -f bot.awk NAME (the name arrives as ARGV[1] and is taken out of the files).
BEGIN { me = ARGV[1]; ARGV[1] = ""; section = 0; left = -1 }
left <= 0 && /^[0-9?]+ [a-z]+:$/ {
    section++; left = $1; nf = 0; nr = 0
    if (section == 1) { delete name; delete owner; delete garrison; delete ra; delete rb; forts = 0; roads = 0 }
    if (left == 0) finish()
    next
}
{
    if (section == 1) { forts++; name[forts] = $1; owner[forts] = $4; garrison[forts] = $5 }
    if (section == 2) { roads++; ra[roads] = $1; rb[roads] = $2 }
    left--
    if (left == 0) finish()
}
function finish(   i, r, to, out, count) {
    if (section < 3) return
    section = 0; out = ""; count = 0
    for (i = 1; i <= forts; i++) {
        if (owner[i] != me || garrison[i] < 2) continue
        for (r = 1; r <= roads; r++) {
            to = ""
            if (ra[r] == name[i]) to = rb[r]
            else if (rb[r] == name[i]) to = ra[r]
            if (to != "") { out = out name[i] " " to " " int(garrison[i] / 2) "\n"; count++; break }
        }
    }
    printf "%d commands:\n%s", count, out
    fflush()
}
