#!/usr/bin/env python3
"""A Vindinium client written the way the 2014 starter kits were: form posts with
urllib, the answer to each post arriving when it is the hero's move again (long
polling), each move posted to the `playUrl` of the previous answer.

    client2014.py SERVER KEY MODE [options]

MODE is `training` or `arena`. Options: --turns N, --map NAME, --sleep-at N SECONDS
(wait before move N), --quit-at N (exit before move N), --bad-dir-at N (post `Jump`),
--twice-at N (post move N twice at once), --again-at N (before move N, start another
game of MODE with the same key, as a second client would). It prints one JSON line per event:
{"start": ANSWER-SUMMARY}, {"refused": STATUS, "body": TEXT, "at": N}, and at the end
{"end": SUMMARY} with the last answer's game."""

import json
import random
import sys
import threading
import urllib.error
import urllib.parse
import urllib.request


def post(url, fields, timeout=90):
    data = urllib.parse.urlencode(fields).encode()
    req = urllib.request.Request(url, data=data, headers={"Content-Type": "application/x-www-form-urlencoded"})
    try:
        with urllib.request.urlopen(req, timeout=timeout) as r:
            return r.status, json.loads(r.read().decode())
    except urllib.error.HTTPError as e:
        return e.code, e.read().decode()


def summary(state):
    g = state["game"]
    return {"id": g["id"], "turn": g["turn"], "maxTurns": g["maxTurns"], "finished": g["finished"],
            "hero": state["hero"]["id"], "crashed": [h["crashed"] for h in g["heroes"]],
            "size": g["board"]["size"], "viewUrl": state["viewUrl"], "playUrl": state["playUrl"],
            "token": state["token"]}


def main():
    server, key, mode = sys.argv[1], sys.argv[2], sys.argv[3]
    opts = sys.argv[4:]
    def opt(name, n=1):
        if name in opts:
            i = opts.index(name)
            return opts[i + 1:i + 1 + n]
        return None
    fields = {"key": key}
    if opt("--turns"):
        fields["turns"] = opt("--turns")[0]
    if opt("--map"):
        fields["map"] = opt("--map")[0]
    status, state = post(server + "/api/" + mode, fields)
    if status != 200:
        print(json.dumps({"refused": status, "body": state, "at": 0}), flush=True)
        return
    print(json.dumps({"start": summary(state)}), flush=True)
    sleep_at = opt("--sleep-at", 2)
    quit_at = opt("--quit-at")
    bad_at = opt("--bad-dir-at")
    twice_at = opt("--twice-at")
    again_at = opt("--again-at")
    move = 0
    rng = random.Random(7)
    while not state["game"]["finished"]:
        move += 1
        if quit_at and move == int(quit_at[0]):
            print(json.dumps({"quit": move}), flush=True)
            return
        if again_at and move == int(again_at[0]):
            s2, b2 = post(server + "/api/" + mode, fields)
            print(json.dumps({"again": s2, "body": b2 if s2 != 200 else "a game"}), flush=True)
        if sleep_at and move == int(sleep_at[0]):
            threading.Event().wait(float(sleep_at[1]))
        d = rng.choice(["Stay", "North", "South", "East", "West"])
        if bad_at and move == int(bad_at[0]):
            d = "Jump"
        if twice_at and move == int(twice_at[0]):
            got = []
            def one():
                got.append(post(state["playUrl"], {"dir": d}))
            ts = [threading.Thread(target=one) for _ in range(2)]
            for t in ts:
                t.start()
            for t in ts:
                t.join()
            for s, body in got:
                if s != 200:
                    print(json.dumps({"refused": s, "body": body, "at": move}), flush=True)
                else:
                    state = body
            continue
        status, body = post(state["playUrl"], {"dir": d})
        if status != 200:
            print(json.dumps({"refused": status, "body": body, "at": move}), flush=True)
            # Once more, as a client that retries would.
            status, body = post(state["playUrl"], {"dir": d})
            print(json.dumps({"refused": status, "body": body, "at": move}), flush=True)
            return
        state = body
    print(json.dumps({"end": summary(state), "moves": move}), flush=True)


main()
