-- wrk script for scripts/load.sh: posts the bodies listed in $LOAD_DIR/manifest.tsv in turn,
-- each with the header announcing its conversation's bytes, and counts non-200 answers.
local dir = os.getenv("LOAD_DIR")
local reqs = {}
local bad = 0

function init(args)
  for line in io.lines(dir .. "/manifest.tsv") do
    local path, expect, file = line:match("([^\t]+)\t([^\t]+)\t([^\t]+)")
    local f = assert(io.open(dir .. "/" .. file, "rb"))
    local body = f:read("*a")
    f:close()
    reqs[#reqs + 1] = wrk.format("POST", path, {
      ["Content-Type"] = "application/json",
      ["x-expect-conversation"] = expect,
    }, body)
  end
  -- Each thread starts at a different body.
  counter = math.random(#reqs)
end

function request()
  counter = counter % #reqs + 1
  return reqs[counter]
end

function response(status, headers, body)
  if status ~= 200 then
    bad = bad + 1
    if bad <= 5 then
      io.stderr:write("non-200: " .. status .. " " .. (body or ""):sub(1, 200) .. "\n")
    end
  end
end

function done(summary, latency, requests)
  local e = summary.errors
  io.write(string.format(
    "load: requests=%d bytes=%d duration_s=%.1f rps=%.0f errors connect=%d read=%d write=%d status=%d timeout=%d\n",
    summary.requests, summary.bytes, summary.duration / 1e6,
    summary.requests / (summary.duration / 1e6),
    e.connect, e.read, e.write, e.status, e.timeout))
  io.write(string.format("load: latency p50=%.2fms p99=%.2fms max=%.2fms\n",
    latency:percentile(50) / 1000, latency:percentile(99) / 1000, latency.max / 1000))
end
