-- wrk script for scripts/bench load: one connection per thread, each thread one user (its
-- token from the file in $VITAL_LOAD_TOKENS). Every request pushes two new donation records
-- and pulls what is new since the thread's cursor; done() writes how many records each user
-- pushed with a 200, so the caller can check that the server holds exactly those.
local tokens = {}
for line in io.lines(os.getenv("VITAL_LOAD_TOKENS")) do tokens[#tokens + 1] = line end
local threads = {}
local next_index = 0

function setup(thread)
  next_index = next_index + 1
  thread:set("token", tokens[(next_index - 1) % #tokens + 1])
  thread:set("index", next_index)
  table.insert(threads, thread)
end

function init(args)
  cursor = nil
  pushed = 0
  failures = 0
  sequence = 0
  -- Requests on one connection are answered in order: the acknowledged ones are a range.
  first_acked = 0
  last_acked = 0
  node = string.format("%016x", index)
  run = os.getenv("VITAL_LOAD_RUN") or "run"
end

function request()
  sequence = sequence + 1
  local hlc = os.date("!%Y-%m-%dT%H:%M:%S") .. ".000Z-0000-" .. node
  local changes = {}
  for i = 1, 2 do
    changes[i] = string.format(
      '{"dataset":"donation","id":"%s-%d-%d-%d","fields":{"place":{"value":"Load %d","hlc":"%s"},' ..
      '"kind":{"value":"plasma","hlc":"%s"}}}', run, index, sequence, i, index, hlc, hlc)
  end
  local since = cursor and ('"' .. cursor .. '"') or "null"
  sent = sequence
  local body = '{"since":' .. since .. ',"shared_clocks":true,"changes":[' .. table.concat(changes, ",") .. ']}'
  return wrk.format("POST", "/v1/sync", {
    ["Authorization"] = "Bearer " .. token, ["Content-Type"] = "application/json" }, body)
end

function response(status, headers, body)
  if status == 200 then
    pushed = pushed + 2
    if first_acked == 0 then first_acked = sent end
    last_acked = sent
    cursor = body:match('"cursor":"([^"]+)"') or cursor
  else
    failures = failures + 1
  end
end

function done(summary, latency, requests)
  local out = io.open(os.getenv("VITAL_LOAD_RESULT"), "w")
  out:write(string.format("requests %d\nseconds %.3f\np50_ms %.2f\np99_ms %.2f\nerrors %d\n",
    summary.requests, summary.duration / 1e6, latency:percentile(50) / 1000, latency:percentile(99) / 1000,
    summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.status +
    summary.errors.timeout))
  for _, thread in ipairs(threads) do
    out:write(string.format("pushed %s %s %d %d %d %d %d\n", thread:get("token"), os.getenv("VITAL_LOAD_RUN") or "run",
      thread:get("index"), thread:get("pushed"), thread:get("failures"), thread:get("first_acked"),
      thread:get("last_acked")))
  end
  out:close()
end
