"""Bytes a visitor may make the server hold, bounded before Gradio sees the request.

Two pure ASGI middlewares, installed by app/ui.py's launch() (FastAPI's `middleware=`):
- BodyLimit: every request body is counted as it arrives (Content-Length first, then the
  chunks themselves: a chunked body has no length) and refused with 413 once it passes the
  route's limit, before Gradio parses it. A refused body is never held whole: Gradio kept a
  parsed 40 MB prompt in memory until its session was pushed out.
- UploadQuota: Gradio's upload route (`/gradio_api/upload`) writes files that stay an hour
  (delete_cache). Each visitor may upload `visitor_bytes` per `window_s` (429 past it, saying
  why), and the uploads held on disk stay under `folder_bytes`: the oldest go first.
- NoRemoteFiles: a file input given as a URL would make Gradio download it into its cache (of
  any size, past the quota): refused, files come through the upload route only.

A visitor is the last address of X-Forwarded-For (the hop the Space's proxy appends), else the
TCP peer. A visitor can forge the header off a proxy; the folder cap holds all the same.
"""
from __future__ import annotations

import json
import threading
import time
from collections import OrderedDict, deque
from pathlib import Path

from wedlm.analysis import MAX_TEXT_CHARS
from wedlm.config import max_prompt_chars

MB = 1024 * 1024
JSON_BYTES_PER_CHAR = 12      # worst case: an astral character escaped as two \\uXXXX
REQUEST_OVERHEAD = 64 * 1024  # session hash, event data, the knobs
MULTIPART_OVERHEAD = 64 * 1024
UPLOAD_WINDOW_S = 600         # a visitor's upload quota counts the last 10 minutes ...
VISITOR_UPLOADS = 4           # ... and is this many largest uploads
UPLOAD_FOLDER_BYTES = 48 * MB  # uploads held on disk at once, all visitors
MAX_VISITORS = 4096           # visitors remembered (the oldest forgotten first)


def request_limit(max_context: int) -> int:
    """The largest body any event needs: the longest prompt the model takes, or the lens's four
    texts (two prompts, two continuations), JSON-escaped at worst, plus the request's own fields."""
    chars = max(max_prompt_chars(max_context), 4 * MAX_TEXT_CHARS)
    return REQUEST_OVERHEAD + JSON_BYTES_PER_CHAR * chars


def is_upload(path: str) -> bool:
    return path.rstrip("/").endswith("/upload")


async def _answer(send, status: int, text: str) -> None:
    body = text.encode()
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"text/plain; charset=utf-8"),
                            (b"content-length", str(len(body)).encode()), (b"connection", b"close")]})
    await send({"type": "http.response.body", "body": body})


def _header(scope, name: bytes) -> str | None:
    for key, value in scope.get("headers", ()):
        if key.lower() == name:
            return value.decode("latin-1")
    return None


def visitor(scope) -> str:
    forwarded = _header(scope, b"x-forwarded-for")
    if forwarded and forwarded.split(",")[-1].strip():
        return forwarded.split(",")[-1].strip()[:64]
    client = scope.get("client")
    return client[0] if client else "unknown"


class BodyLimit:
    """413 for a body over `request_bytes` (or `upload_bytes` on the upload route)."""

    def __init__(self, app, request_bytes: int, upload_bytes: int):
        self.app, self.request_bytes, self.upload_bytes = app, request_bytes, upload_bytes

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        limit = self.upload_bytes if is_upload(scope["path"]) else self.request_bytes
        refusal = (f"request refused: its body is over {limit:,} bytes, the most this server "
                   f"accepts on {scope['path'][:80]}")
        declared = _header(scope, b"content-length")
        if declared is not None and (not declared.strip().isdigit() or int(declared) > limit):
            return await _answer(send, 413, refusal)
        received, started, refused = 0, False, False

        async def counted():  # past the limit: answer 413 now, and the app sees a disconnect
            nonlocal received, refused
            if refused:
                return {"type": "http.disconnect"}
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > limit:
                    refused = True
                    if not started:
                        await _answer(send, 413, refusal)
                    return {"type": "http.disconnect"}
            return message

        async def tracked(message):
            nonlocal started
            if refused:  # the 413 is the answer
                return
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            await self.app(scope, counted, tracked)
        except Exception:
            if not refused:  # the app's own failure, not the body we cut
                raise


class UploadQuota:
    """Per-visitor upload bytes over a window, and a cap on the uploads held on disk."""

    def __init__(self, app, visitor_bytes: int, folder_bytes: int = UPLOAD_FOLDER_BYTES,
                 window_s: float = UPLOAD_WINDOW_S):
        self.app, self.visitor_bytes, self.folder_bytes, self.window_s = app, visitor_bytes, folder_bytes, window_s
        self._lock = threading.Lock()
        self._recent: OrderedDict[str, deque] = OrderedDict()  # visitor -> (time, bytes), oldest first
        self._held: OrderedDict[str, int] = OrderedDict()  # uploaded file -> bytes, oldest first

    def used(self, who: str, now: float) -> int:
        recent = self._recent.get(who, deque())
        while recent and recent[0][0] < now - self.window_s:
            recent.popleft()
        if not recent:
            self._recent.pop(who, None)
        return sum(size for _, size in recent)

    def held_bytes(self) -> int:
        with self._lock:
            return sum(self._held.values())

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http" or scope.get("method") != "POST" or not is_upload(scope["path"]):
            return await self.app(scope, receive, send)
        who, now = visitor(scope), time.time()
        declared = _header(scope, b"content-length")
        size = int(declared) if declared and declared.strip().isdigit() else 0
        with self._lock:
            used = self.used(who, now)
        if used + size > self.visitor_bytes:
            minutes = self.window_s / 60
            return await _answer(send, 429, (
                f"upload refused: you uploaded {used / MB:.1f} MB in the last {minutes:.0f} minutes; "
                f"this server takes at most {self.visitor_bytes / MB:.0f} MB per visitor per "
                f"{minutes:.0f} minutes (uploads are kept an hour). Try again later."))
        received, status, chunks = 0, None, []

        async def counted():
            nonlocal received
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
            return message

        async def watched(message):  # the reply names the files written
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
            elif message["type"] == "http.response.body" and status == 200:
                chunks.append(message.get("body", b""))
                if not message.get("more_body", False):  # the cap holds before the visitor hears back
                    with self._lock:
                        self._hold(b"".join(chunks), received)
            await send(message)

        try:
            await self.app(scope, counted, watched)
        finally:
            with self._lock:
                self._recent.setdefault(who, deque()).append((now, received))
                self._recent.move_to_end(who)
                while len(self._recent) > MAX_VISITORS:
                    self._recent.popitem(last=False)

    def _hold(self, reply: bytes, received: int) -> None:
        """Track the files the upload wrote; drop the oldest while over the folder cap.

        This runs as the reply goes out, before Gradio moves the file into place (a background
        task after the reply), so a path not on disk yet is held at the bytes its request
        carried; the oldest paths, long in place, are the ones removed."""
        try:
            paths = json.loads(reply)
        except ValueError:
            return
        paths = [p for p in paths if isinstance(p, str)] if isinstance(paths, list) else []
        for path in paths:
            self._held.pop(path, None)
            self._held[path] = received // len(paths)
        for path in self._held:  # what is on disk now, at its real size
            if Path(path).is_file():
                self._held[path] = Path(path).stat().st_size
        while self._held and sum(self._held.values()) > self.folder_bytes:
            old, _ = self._held.popitem(last=False)
            Path(old).unlink(missing_ok=True)
            try:
                Path(old).parent.rmdir()  # Gradio's per-file hash folder, when empty
            except OSError:
                pass


def _remote_file(value, depth: int = 0) -> bool:
    """Whether a request's data holds a file given by URL (Gradio would download it into its
    cache, of any size, outside the upload quota)."""
    if depth > 20:
        return False
    if isinstance(value, dict):
        meta = value.get("meta")
        link = value.get("path")
        if isinstance(meta, dict) and meta.get("_type") == "gradio.FileData" and isinstance(link, str) \
                and link.strip().lower().startswith(("http:", "https:")):
            return True
        return any(_remote_file(v, depth + 1) for v in value.values())
    if isinstance(value, list):
        return any(_remote_file(v, depth + 1) for v in value)
    return False


class NoRemoteFiles:
    """400 for a JSON request whose data names a file by URL: files come through the upload
    route (bounded above) only. Runs inside BodyLimit, so the body it reads is bounded."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http" or scope.get("method") != "POST" or is_upload(scope["path"]):
            return await self.app(scope, receive, send)
        messages, body = [], b""
        while True:
            message = await receive()
            messages.append(message)
            if message["type"] != "http.request":
                break
            body += message.get("body", b"")
            if not message.get("more_body"):
                break
        if b"gradio.FileData" in body:
            try:
                data = json.loads(body)
            except ValueError:
                data = None
            if _remote_file(data):
                return await _answer(send, 400, "request refused: a file given by URL; upload the file instead")

        async def replay():
            return messages.pop(0) if messages else await receive()

        await self.app(scope, replay, send)


def middleware(limits, max_context: int) -> list:
    """The FastAPI `middleware=` list for launch(): the body limit outermost."""
    from starlette.middleware import Middleware
    upload = limits.upload_bytes + MULTIPART_OVERHEAD
    return [Middleware(BodyLimit, request_bytes=request_limit(max_context), upload_bytes=upload),
            Middleware(UploadQuota, visitor_bytes=VISITOR_UPLOADS * upload),
            Middleware(NoRemoteFiles)]
