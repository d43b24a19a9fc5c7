# Pages a console job list to its end by its "next" links, as an operator's browser would, and prints the node's heap
# after a full GC at the start and every 500 pages: memory must stay flat however deep the pages go.
#   AX_CONSOLE_USER=… AX_CONSOLE_PASSWORD=… python3 console-paging.py <port> <node pid> <path>
import html, http.client, re, subprocess, sys, time
from console_session import console_session
port, pid, path = int(sys.argv[1]), sys.argv[2], sys.argv[3]
conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
session = console_session(conn)
def heap_mb():
    subprocess.run(["jcmd", pid, "GC.run"], capture_output=True)
    out = subprocess.run(["jcmd", pid, "GC.heap_info"], capture_output=True, text=True).stdout
    return int(re.search(r"used (\d+)K", out).group(1)) / 1024
pages, rows, start = 0, 0, time.time()
print(f"pages {pages:6} rows {rows:8} heap after GC {heap_mb():7.1f} MB", flush=True)
while path:
    conn.request("GET", path, headers=session); r = conn.getresponse(); body = r.read().decode()
    if r.status != 200: raise SystemExit(f"{path}: {r.status}")
    pages += 1; rows += body.count('data-testid="job-row"')
    m = re.search(r'data-testid="next-page"\s+href="([^"]+)"', body)
    path = html.unescape(m.group(1)) if m else None
    if pages % 500 == 0: print(f"pages {pages:6} rows {rows:8} heap after GC {heap_mb():7.1f} MB", flush=True)
print(f"pages {pages:6} rows {rows:8} heap after GC {heap_mb():7.1f} MB; {time.time() - start:.0f} s", flush=True)
