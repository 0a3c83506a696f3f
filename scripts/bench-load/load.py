#!/usr/bin/env python3
"""scripts/bench load, driven by wrk (Debian's HTTP load tool, C and epoll: the load generator
costs little of the two cores the servers also run on).

  load.py setup URL USERS TOKENS_FILE RUN   registers USERS accounts, one token per line
  load.py report LABEL URL RESULT...        one line: requests/s, latency, and the check that
                                            every acknowledged record is stored exactly once
  load.py storm URL N PID                   N logins at once against the server process PID:
                                            how they were answered and its peak memory
"""
import json
import sys
import urllib.request


def call(url, method, path, body=None, token=None):
    request = urllib.request.Request(url.rstrip("/") + path, method=method)
    request.add_header("Content-Type", "application/json")
    if token:
        request.add_header("Authorization", "Bearer " + token)
    data = json.dumps(body).encode() if body is not None else None
    try:
        with urllib.request.urlopen(request, data, timeout=120) as answer:
            return answer.status, json.loads(answer.read() or b"{}")
    except urllib.error.HTTPError as error:
        return error.code, {}


def setup(url, users, path, run):
    tokens = []
    for i in range(users):
        credentials = {"email": f"wrk-{run}-{i}@example.org", "password": f"load test passphrase {i}"}
        call(url, "POST", "/v1/accounts", credentials)
        status, answer = call(url, "POST", "/v1/sessions", credentials)
        if status != 201:
            sys.exit(f"load: login failed with {status}")
        tokens.append(answer["token"])
    with open(path, "w") as out:
        out.write("\n".join(tokens) + "\n")


def stored_ids(url, token):
    """Every donation id the server returns for the user, with repeats."""
    ids, since = [], None
    while True:
        status, page = call(url, "POST", "/v1/sync", {"since": since, "changes": []}, token)
        if status != 200:
            sys.exit(f"load: reading back failed with {status}")
        ids += [change["id"] for change in page["changes"] if change["dataset"] == "donation"]
        since = page["cursor"]
        if not page["has_more"]:
            return ids


def report(label, url, results):
    requests = seconds = p50_weighted = p99 = errors = 0
    users = []
    for path in results:
        values = {}
        for line in open(path):
            parts = line.split()
            if parts[0] == "pushed":
                users.append((parts[1], parts[2], *map(int, parts[3:8])))
            else:
                values[parts[0]] = float(parts[1])
        requests += values["requests"]
        seconds = max(seconds, values["seconds"])
        p50_weighted += values["p50_ms"] * values["requests"]
        p99 = max(p99, values["p99_ms"])
        errors += values["errors"]
    acknowledged = lost = duplicated = unacknowledged = 0
    for token, run, index, pushed, failures, first, last in users:
        ids = [i for i in stored_ids(url, token) if i.startswith(run + "-")]
        duplicated += len(ids) - len(set(ids))
        stored = set(ids)
        acknowledged += pushed
        if failures == 0:
            # Requests of one connection are answered in order: first..last were answered 200.
            expected = {f"{run}-{index}-{s}-{i}" for s in range(first, last + 1) for i in (1, 2)} if pushed else set()
            lost += len(expected - stored)
            unacknowledged += len(stored - expected)
        else:
            lost += max(0, pushed - len(stored))
    print(
        f"load   {label}: {requests / seconds:.0f} requests/s (goal >= 2000), p50 {p50_weighted / requests:.1f} ms, "
        f"p99 {p99:.1f} ms (goal < 100 ms); {acknowledged} records acknowledged: {lost} lost, {duplicated} duplicated "
        f"(goal: none); {unacknowledged} more stored from requests cut off at the end; {int(errors)} errors"
    )


def storm(url, count, pid):
    import threading
    import time

    credentials = {"email": "storm@example.org", "password": "storm test passphrase"}
    call(url, "POST", "/v1/accounts", credentials)
    answers = []
    lock = threading.Lock()

    def login(i):
        # Half with the right password, half with a wrong one: both cost a hash.
        body = dict(credentials, password=credentials["password"] + ("" if i % 2 else " wrong"))
        request = urllib.request.Request(url.rstrip("/") + "/v1/sessions", method="POST")
        request.add_header("Content-Type", "application/json")
        try:
            with urllib.request.urlopen(request, json.dumps(body).encode(), timeout=300) as answer:
                status, retry = answer.status, None
        except urllib.error.HTTPError as error:
            status, retry = error.code, error.headers.get("Retry-After")
        except Exception:
            status, retry = "failed", None
        with lock:
            answers.append((status, retry))

    start = time.time()
    threads = [threading.Thread(target=login, args=(i,)) for i in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    seconds = time.time() - start
    peak = next(line.split()[1] for line in open(f"/proc/{pid}/status") if line.startswith("VmHWM"))
    counts = {}
    for status, _ in answers:
        counts[status] = counts.get(status, 0) + 1
    busy = [retry for status, retry in answers if status == 503]
    print(
        f"storm  {count} logins at once: {counts.get(201, 0)} logged in, {counts.get(401, 0)} refused, "
        f"{counts.get(429, 0)} held back (429: the account's lockout and the per-address limit), "
        f"{len(busy)} turned away with 503 (Retry-After on {sum(1 for r in busy if r)}), "
        f"{counts.get('failed', 0)} failed, in {seconds:.1f} s; server peak RSS {int(peak) // 1024} MB "
        f"(bound: 2 hashes of 128 MiB at once)"
    )


if __name__ == "__main__":
    if sys.argv[1] == "setup":
        setup(sys.argv[2], int(sys.argv[3]), sys.argv[4], sys.argv[5])
    elif sys.argv[1] == "report":
        report(sys.argv[2], sys.argv[3], sys.argv[4:])
    elif sys.argv[1] == "storm":
        storm(sys.argv[2], int(sys.argv[3]), sys.argv[4])
