# Signs a console user in on a keep-alive connection (Spring's form login with its CSRF token and its cookie); the
# session cookie.
import os, re, urllib.parse


def console_session(conn):
    conn.request("GET", "/login"); r = conn.getresponse(); page = r.read().decode()
    cookie = named(r, "AX_CSRF")
    csrf = re.search(r'name="_csrf"[^>]*value="([^"]+)"', page).group(1)
    form = urllib.parse.urlencode({"username": os.environ["AX_CONSOLE_USER"],
                                   "password": os.environ["AX_CONSOLE_PASSWORD"], "_csrf": csrf})
    conn.request("POST", "/login", body=form,
                 headers={"Cookie": cookie, "Content-Type": "application/x-www-form-urlencoded"})
    r = conn.getresponse(); r.read()
    if r.status != 302 or "error" in (r.getheader("Location") or ""): raise SystemExit("console login failed")
    return {"Cookie": named(r, "SESSION")}


def named(response, name):
    """The cookie `name` among the response's Set-Cookie headers, as a Cookie header's part."""
    for header in response.msg.get_all("Set-Cookie") or []:
        pair = header.split(";")[0]
        if pair.startswith(name + "="): return pair
    raise SystemExit("no %s cookie in the answer" % name)
