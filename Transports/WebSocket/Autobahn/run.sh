#!/usr/bin/env bash
# Autobahn|Testsuite's client cases over SalvoWebSocket, on 127.0.0.1: fuzzingserver.json's
# list (1-7, 9, 10, 12, 13), or the groups given (`Autobahn/run.sh 9 12`). Installs autobahntestsuite
# for Python 2.7 into .build-autobahn (its own PYTHONUSERBASE) once, then prints each case that is
# not OK, NON-STRICT or INFORMATIONAL, a count per group and result, and each group's time (the
# sum of the suite's own per-case durations). Run from anywhere; it works in Transports/WebSocket.
set -euo pipefail
cd "$(dirname "$0")/.."
python27=${PYTHON27:-python2.7}
# pyenv's shim answers `command -v` but may not run; its 2.7 install does.
"$python27" -c pass >/dev/null 2>&1 || python27=$(ls -d "${PYENV_ROOT:-$HOME/.pyenv}"/versions/2.7*/bin/python2.7 | head -1)
export PYTHONUSERBASE=$PWD/.build-autobahn
if ! "$python27" -c "import autobahntestsuite" >/dev/null 2>&1; then
    "$python27" -m pip install --user --quiet autobahntestsuite
fi
# AUTOBAHN_PORT (9001 unless set) lets runs of different groups go side by side; each writes its
# reports to .build-autobahn/reports/clients-PORT.
port=${AUTOBAHN_PORT:-9001}
outdir=.build-autobahn/reports/clients-$port
spec=.build-autobahn/fuzzingserver-$port.json
python3 - "$port" "$outdir" "$@" > "$spec" <<'PY'
import json, sys
config = json.load(open("Autobahn/fuzzingserver.json"))
config["url"] = "ws://127.0.0.1:" + sys.argv[1]
config["outdir"] = "./" + sys.argv[2]
if len(sys.argv) > 3:
    config["cases"] = [group + ".*" for group in sys.argv[3:]]
print(json.dumps(config, indent=4))
PY
rm -f "$outdir/index.json"
"$python27" -m autobahntestsuite.wstest -m fuzzingserver --webport 0 -s "$spec" > ".build-autobahn/fuzzingserver-$port.log" 2>&1 &
server=$!
trap 'kill $server 2>/dev/null || true' EXIT
for _ in $(seq 1 100); do
    (echo > "/dev/tcp/127.0.0.1/$port") 2>/dev/null && break
    sleep 0.1
done
started=$SECONDS
swift run salvo-autobahn "ws://127.0.0.1:$port"
echo "ran in $((SECONDS - started)) s (debug build)"
python3 - "$outdir" <<'PY'
import json, collections, sys
index = json.load(open(sys.argv[1] + "/index.json"))["Salvo"]
counts = collections.Counter()
durations = collections.Counter()
for case in sorted(index, key=lambda c: [int(p) for p in c.split(".")]):
    result = index[case]
    group = case.split(".")[0]
    counts[(group, result["behavior"], result["behaviorClose"])] += 1
    durations[group] += result.get("duration", 0)
    if result["behavior"] not in ("OK", "NON-STRICT", "INFORMATIONAL") or result["behaviorClose"] not in ("OK", "INFORMATIONAL"):
        print("case", case, result["behavior"], result["behaviorClose"])
print("| group | behavior | close | cases |")
for (group, behavior, close), count in sorted(counts.items(), key=lambda item: (int(item[0][0]), item[0][1])):
    print(f"| {group}.* | {behavior} | {close} | {count} |")
for group in sorted(durations, key=int):
    print(f"{group}.*: {durations[group] / 1000:.1f} s")
PY
