#!/bin/bash
# Checks the monitoring files without running anything:
#   - prometheus.yml and alerts.yml: syntax and PromQL (promtool check config, which
#     checks the rule files it names), and the alerts' unit tests (alerts.test.yml);
#   - grafana/dashboards/bottlebats.json: valid JSON, every panel on the dashboard's
#     data source variable;
#   - every bottlebats_ metric the rules and the dashboard use is one that
#     server/src/metrics.rs registers (or one announced below).
# Needs promtool (Debian: prometheus) and python3. .ci/run runs it.
set -euo pipefail
cd "$(dirname "$0")"

promtool check config prometheus.yml
promtool test rules alerts.test.yml

python3 - <<'PY'
import json, re, sys

# Metrics the rules and the dashboard may use before server/src/metrics.rs has them.
ANNOUNCED = {"bottlebats_build_cache_bytes"}

source = open("../../server/src/metrics.rs").read()
prefix = re.search(r'Registry::with_prefix\("([a-z_]+)"\)', source).group(1)
known = {f"{prefix}_{n}" for n in re.findall(r'\.register\(\s*"([a-z_]+)"', source)}
if not known:
    sys.exit("check.sh: no metric found in server/src/metrics.rs")

def base(name):
    for suffix in ("_bucket", "_sum", "_count", "_created"):
        if name.endswith(suffix) and name[: -len(suffix)] in known:
            return name[: -len(suffix)]
    return name

problems = []
used = {}
with open("alerts.yml") as f:
    for n in re.findall(r"\bbottlebats_[a-z0-9_]+", f.read()):
        used.setdefault(base(n), set()).add("alerts.yml")

dashboard = json.load(open("grafana/dashboards/bottlebats.json"))
ids = [p["id"] for p in dashboard["panels"]]
if len(ids) != len(set(ids)):
    problems.append("dashboard: two panels share an id")
variables = {v["name"] for v in dashboard.get("templating", {}).get("list", [])}
if "datasource" not in variables:
    problems.append("dashboard: no `datasource` variable")
for p in dashboard["panels"]:
    if p["type"] == "row":
        continue
    if p.get("datasource", {}).get("uid") != "${datasource}":
        problems.append(f"dashboard: panel `{p['title']}` is not on ${{datasource}}")
    if not p.get("targets"):
        problems.append(f"dashboard: panel `{p['title']}` has no query")
    for t in p.get("targets", []):
        for n in re.findall(r"\bbottlebats_[a-z0-9_]+", t["expr"]):
            used.setdefault(base(n), set()).add(f"panel `{p['title']}`")

for name, where in sorted(used.items()):
    if name not in known and name not in ANNOUNCED:
        problems.append(f"{name} (used by {', '.join(sorted(where))}) is not in server/src/metrics.rs")
for name in sorted(ANNOUNCED - known):
    print(f"note: {name} is not in server/src/metrics.rs yet; its rule and panel stay empty until it is")
for name in sorted(known - set(used)):
    print(f"note: {name} is on /metrics but not on the dashboard or in the alerts")
if problems:
    print("\n".join(problems))
    sys.exit(1)
print(f"dashboard and alerts: {len(used)} metrics, all known")
PY
