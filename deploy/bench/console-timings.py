# Times GET requests against a running node: p50 / p99 / max of N sequential requests on one keep-alive connection.
# AX_KEY: an API key sent as a bearer token (the node refuses anonymous requests).
import http.client, os, sys, time, statistics
port = int(sys.argv[1]); n = int(sys.argv[2]); paths = sys.argv[3:]
conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
# AX_CONSOLE_USER / AX_CONSOLE_PASSWORD: a console user; /console pages are then asked with its session.
headers = {"Authorization": "Bearer " + os.environ["AX_KEY"]} if os.environ.get("AX_KEY") else {}
session = {}
if os.environ.get("AX_CONSOLE_USER"):
    from console_session import console_session
    session = console_session(conn)
def get(path):
    t = time.perf_counter()
    conn.request("GET", path, headers=session if path.startswith("/console") and session else headers)
    r = conn.getresponse(); body = r.read()
    return (time.perf_counter() - t) * 1000, r.status, body
for path in paths:
    for _ in range(max(20, n // 5)): get(path)          # warm-up
    times = []
    for _ in range(n):
        ms, status, _ = get(path)
        if status != 200: raise SystemExit(f"{path}: {status}")
        times.append(ms)
    times.sort()
    p = lambda q: times[min(len(times) - 1, int(q * len(times)))]
    print(f"{p(0.5):7.1f} {p(0.99):7.1f} {times[-1]:7.1f}  {path}")
