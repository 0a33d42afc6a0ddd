"""Which language's page a visitor gets (app/i18n): English at /, Chinese at /zh.

- `?lang=zh` (or `en`) on a page link: that language's page, and the choice is remembered
  (a cookie), so the switch in the page and a shared link both stick.
- The bare root with no `lang`: the remembered choice, else the browser's own language
  (Accept-Language) on a first visit.
- A language's own path (/zh) with no `lang` is always that language: a link is explicit.
Unknown values fall back to English, silently (a link is untrusted input; see app/links.py).

Gradio's own words (an upload box, "Error", "Loading...") follow `navigator.language`, which its
bundle reads when it starts, before it runs the page's head scripts; its components keep the words
they mount with. So a page's HTML says the page's language to Gradio first (`with_language`).
"""
from __future__ import annotations

from urllib.parse import parse_qsl

from .. import i18n

COOKIE = "wedlm_lang"
COOKIE_AGE_S = 365 * 24 * 3600


def preferred(accept_language: str | None) -> str:
    """The page language the browser ranks highest among ours ('zh-CN,zh;q=0.9,en;q=0.8' -> 'zh');
    English when none of ours is listed. Equal weights: the first listed wins."""
    best, best_q = i18n.DEFAULT, 0.0
    for part in (accept_language or "")[:400].split(",")[:20]:
        code, _, params = part.partition(";")
        primary = code.strip().lower().split("-")[0]
        try:
            q = float(params.strip()[2:]) if params.strip().startswith("q=") else 1.0
        except ValueError:
            q = 0.0
        if primary in i18n.LANGS and q > best_q:
            best, best_q = primary, q
    return best


def page_lang(path: str) -> str | None:
    """The language whose page `path` is ('/' -> 'en', '/zh' -> 'zh'), None for anything else."""
    path = path.strip("/")
    return next((lang for lang, page in i18n.PAGE_PATH.items() if page == path), None)


def with_language(page: bytes, lang: str) -> bytes:
    """The page's HTML with a first script that gives Gradio the page's language as the browser's."""
    code = i18n.HTML_LANG[lang]
    script = (f'<script>try{{Object.defineProperty(navigator,"language",{{value:"{code}"}});'
              f'Object.defineProperty(navigator,"languages",{{value:["{code}"]}})}}catch(e){{}}</script>')
    head = page.find(b"<head>")
    return page if head < 0 else page[:head + 6] + script.encode() + page[head + 6:]


def cookie_lang(cookie_header: str) -> str | None:
    for part in cookie_header[:4000].split(";"):
        name, _, value = part.strip().partition("=")
        if name == COOKIE:
            return i18n.lang_of(value)
    return None


class LanguagePages:
    """An ASGI middleware in front of the page routes only; every other request passes through."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http" or scope.get("method") not in ("GET", "HEAD"):
            return await self.app(scope, receive, send)
        root = scope.get("root_path", "") or ""
        path = scope["path"][len(root):] if root and scope["path"].startswith(root) else scope["path"]
        here = page_lang(path)
        if here is None:
            return await self.app(scope, receive, send)
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope.get("headers", [])}
        query = scope.get("query_string", b"").decode("latin-1")
        asked = dict(parse_qsl(query)).get("lang")
        if asked is not None:
            wanted, remember = i18n.lang_of(asked), True
        elif path.strip("/") == "":
            wanted = cookie_lang(headers.get("cookie", "")) or preferred(headers.get("accept-language"))
            remember = False
        else:
            wanted, remember = here, False
        cookie = (f"{COOKIE}={wanted}; Max-Age={COOKIE_AGE_S}; Path=/; SameSite=Lax".encode()
                  if remember else None)
        if wanted != here:
            target = f"{root}/{i18n.PAGE_PATH[wanted]}" + (f"?{query}" if query else "")
            extra = [(b"location", target.encode("latin-1")), (b"vary", b"Accept-Language, Cookie"),
                     (b"content-length", b"0")]
            await send({"type": "http.response.start", "status": 302,
                        "headers": extra + ([(b"set-cookie", cookie)] if cookie else [])})
            return await send({"type": "http.response.body", "body": b""})

        extra = [(b"vary", b"Accept-Language, Cookie")] + ([(b"set-cookie", cookie)] if cookie else [])
        start, chunks = None, []

        async def answered(message):  # the page with its language said first (GET; HEAD sends no body)
            nonlocal start
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", [])) + extra
                named = {k.lower(): v for k, v in headers}
                if (scope["method"] == "GET" and named.get(b"content-type", b"").startswith(b"text/html")
                        and b"content-encoding" not in named):
                    start = dict(message, headers=headers)
                    return
                return await send(dict(message, headers=headers))
            if start is None:
                return await send(message)
            chunks.append(message.get("body", b""))
            if message.get("more_body"):
                return
            body = with_language(b"".join(chunks), here)
            headers = [(k, v) for k, v in start["headers"] if k.lower() != b"content-length"]
            await send(dict(start, headers=headers + [(b"content-length", str(len(body)).encode())]))
            await send({"type": "http.response.body", "body": body})
        await self.app(scope, receive, answered)


def middleware():
    from starlette.middleware import Middleware
    return Middleware(LanguagePages)
