"""What the app keeps between requests, and how long: every store here is capped and expires.

A public Space meets thousands of sessions (Gradio keeps up to 10,000 by default, API clients
never say goodbye), so nothing may grow with the number of visitors or runs:
- a session's decode (its timeline, ~20 KB for 64 tokens) lives in a gr.State that expires
  SESSION_TTL_S after its last change, and Gradio keeps at most MAX_SESSIONS sessions
  (launch(state_session_capacity)). A session costs ~1 MB, mostly Gradio's own per-session copy
  of the page's component config (326 components), made once a handler updates a component;
  `python -m tools.memory --sessions 200` measures it, `python -m tools.probes` at its worst
  (request bodies are bounded by app/serving/guard.py: a refused 40 MB prompt used to stay);
- files we write for download live in one folder per process, created on first use (not at
  import), holding the newest MAX_DOWNLOADS entries, removed at exit; Gradio copies what it
  serves into its own cache, which deletes files older than CACHE_AGE_S (gr.Blocks(delete_cache));
- the sessions that have shown a trace of their own are remembered in an LRU of MAX_SESSIONS.
"""
from __future__ import annotations

import atexit
import shutil
import tempfile
import threading
import uuid
from collections import OrderedDict
from pathlib import Path

import gradio as gr

SESSION_TTL_S = 3600          # a session's decode is dropped an hour after its last change
MAX_SESSIONS = 32             # sessions held at once (the oldest go first): ~1.2 MB each
MAX_DOWNLOADS = 64            # newest download files/folders kept in our temp folder
CACHE_AGE_S = 3600            # Gradio's cache: delete served files older than this ...
CACHE_SWEEP_S = 600           # ... checking this often


class Downloads:
    """One temp folder per process, made on first use, keeping the newest `keep` entries."""

    def __init__(self, keep: int = MAX_DOWNLOADS):
        self.keep = keep
        self._folder: Path | None = None
        self._entries: list[Path] = []   # oldest first
        self._lock = threading.Lock()

    def _new(self, name: str) -> Path:
        with self._lock:
            if self._folder is None:
                self._folder = Path(tempfile.mkdtemp(prefix="wedlm-explorer-"))
                atexit.register(shutil.rmtree, self._folder, True)
            stem, dot, ext = name.partition(".")
            path = self._folder / f"{stem}-{uuid.uuid4().hex[:8]}{dot}{ext}"
            self._entries.append(path)
            while len(self._entries) > self.keep:
                old = self._entries.pop(0)
                shutil.rmtree(old, ignore_errors=True) if old.is_dir() else old.unlink(missing_ok=True)
            return path

    def file(self, name: str) -> Path:
        """A fresh path for a file called `name` (a fixed name: never one from user input)."""
        return self._new(name)

    def folder(self) -> Path:
        path = self._new("export")
        path.mkdir()
        return path

    def count(self) -> int:
        with self._lock:
            return sum(1 for p in self._entries if p.exists())


downloads = Downloads()


class UserTraces:
    """Sessions in which the user has run, uploaded or picked a trace (an LRU of MAX_SESSIONS)."""

    def __init__(self, capacity: int = MAX_SESSIONS):
        self.capacity = capacity
        self._sessions: OrderedDict[str, None] = OrderedDict()
        self._lock = threading.Lock()

    def add(self, request: gr.Request | None) -> None:
        if request is not None and request.session_hash:
            with self._lock:
                self._sessions[request.session_hash] = None
                self._sessions.move_to_end(request.session_hash)
                while len(self._sessions) > self.capacity:
                    self._sessions.popitem(last=False)

    def has(self, request: gr.Request | None) -> bool:
        with self._lock:
            return request is not None and request.session_hash in self._sessions

    def forget(self, request: gr.Request) -> None:  # typed: Gradio passes it by the hint
        if request is not None:
            with self._lock:
                self._sessions.pop(request.session_hash, None)

    def __len__(self) -> int:
        return len(self._sessions)
