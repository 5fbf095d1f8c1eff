#!/usr/bin/env bash
# Autobahn|Testsuite's client cases (fuzzingserver.json's list) over SalvoWebSocket, on 127.0.0.1:9001.
# Installs autobahntestsuite for Python 2.7 into .build-autobahn (its own PYTHONUSERBASE) once,
# then prints each case's behaviour and a count per result. Run from Transports/WebSocket.
set -euo pipefail
cd "$(dirname "$0")/.."
python27=${PYTHON27:-python2.7}
# pyenv's shim answers `command -v` but may not run; its 2.7 install does.
"$python27" -c pass >/dev/null 2>&1 || python27=$(ls -d "${PYENV_ROOT:-$HOME/.pyenv}"/versions/2.7*/bin/python2.7 | head -1)
export PYTHONUSERBASE=$PWD/.build-autobahn
if ! "$python27" -c "import autobahntestsuite" >/dev/null 2>&1; then
    "$python27" -m pip install --user --quiet autobahntestsuite
fi
"$python27" -m autobahntestsuite.wstest -m fuzzingserver -s Autobahn/fuzzingserver.json > .build-autobahn/fuzzingserver.log 2>&1 &
server=$!
trap 'kill $server 2>/dev/null || true' EXIT
for _ in $(seq 1 100); do
    (echo > /dev/tcp/127.0.0.1/9001) 2>/dev/null && break
    sleep 0.1
done
swift run salvo-autobahn ws://127.0.0.1:9001
python3 - <<'PY'
import json, collections
index = json.load(open(".build-autobahn/reports/clients/index.json"))["Salvo"]
counts = collections.Counter()
for case in sorted(index, key=lambda c: [int(p) for p in c.split(".")]):
    result = index[case]
    counts[(case.split(".")[0], result["behavior"], result["behaviorClose"])] += 1
    if result["behavior"] not in ("OK", "NON-STRICT", "INFORMATIONAL"):
        print("case", case, result["behavior"], result["behaviorClose"])
for (group, behavior, close), count in sorted(counts.items(), key=lambda item: (int(item[0][0]), item[0][1])):
    print(f"| {group}.* | {behavior} | {close} | {count} |")
PY
