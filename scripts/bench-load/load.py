#!/usr/bin/env python3
"""scripts/bench load, driven by wrk (Debian's HTTP load tool, C and epoll: the load generator
costs little of the two cores the servers also run on).

  load.py setup URL USERS TOKENS_FILE      registers USERS accounts and writes one token per line
  load.py verify URL[,URL] RESULT...       reads every user's records back and compares counts
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


def stored(url, token):
    count, since = 0, None
    while True:
        status, page = call(url, "POST", "/v1/sync", {"since": since, "changes": []}, token)
        if status != 200:
            sys.exit(f"load: reading back failed with {status}")
        count += sum(1 for change in page["changes"] if change["dataset"] == "donation")
        since = page["cursor"]
        if not page["has_more"]:
            return count


def verify(url, results):
    pushed = {}
    for path in results:
        for line in open(path):
            parts = line.split()
            if parts[0] == "pushed":
                pushed[parts[1]] = pushed.get(parts[1], 0) + int(parts[2])
    lost = duplicated = 0
    for token, count in pushed.items():
        have = stored(url, token)
        lost += max(0, count - have)
        duplicated += max(0, have - count)
    print(f"records {sum(pushed.values())} lost {lost} duplicated {duplicated}")


if __name__ == "__main__":
    if sys.argv[1] == "setup":
        setup(sys.argv[2], int(sys.argv[3]), sys.argv[4], sys.argv[5])
    elif sys.argv[1] == "verify":
        verify(sys.argv[2].split(",")[0], sys.argv[3:])
