// Projector mode for the tour (app/tabs/tour/present.py): a "presenting" class on <body> hides
// everything but the chapter; the open chapter is zoomed to fill the screen without scrolling;
// the keyboard moves through chapters (←/→, Space, PageUp/PageDown, Home/End) and through the
// open chapter's steps (↓/↑ or . and ,), never while a text box or slider has focus; Esc leaves. Also the
// glossary panel, which term links in the narration open.
// Words: none here. The button's labels come from the page's CSS (--wedlm-words, JSON in the
// page's language: app/views/script_words.py); without them the button keeps the server's label.
(() => {
  let serverLabel = null;
  function words() {
    const raw = getComputedStyle(document.documentElement).getPropertyValue("--wedlm-words").trim();
    try { return JSON.parse(raw.slice(1, -1)) || {}; } catch (e) { return {}; }
  }
  const ZOOMS = [2.2, 2.0, 1.8, 1.6, 1.45, 1.3, 1.2, 1.1, 1.0, 0.92, 0.85, 0.78, 0.72, 0.66, 0.6];
  const KEYS = { ArrowRight: "#tour-next", PageDown: "#tour-next", " ": "#tour-next",
                 ArrowLeft: "#tour-back", PageUp: "#tour-back", Home: "#tour-first", End: "#tour-last" };
  // the open chapter's own step controls (its stepper): ↓ / . the next step, ↑ / , the previous
  const STEP_KEYS = { ArrowDown: "next", ".": "next", ArrowUp: "prev", ",": "prev" };
  let ownFullscreen = false;

  const presenting = () => document.body.classList.contains("tour-present");
  const typing = el => !!el && (el.isContentEditable ||
    !!(el.closest && el.closest("input, textarea, select, [contenteditable]:not([contenteditable=false])")));
  const openChapter = () => [...document.querySelectorAll(".tour-chapter")].find(c => c.offsetParent !== null);

  function label() {
    const b = document.querySelector("#tour-present-btn");
    if (!b) return;
    if (serverLabel === null) serverLabel = b.textContent;
    const w = words();
    b.textContent = presenting() ? (w.stop_presenting || serverLabel) : (w.present || serverLabel);
  }

  function reset(chapter) {
    const body = chapter.querySelector(".tour-body");
    Object.assign(chapter.style, { height: "", overflow: "" });
    if (body) Object.assign(body.style, { transform: "", transformOrigin: "", width: "", maxWidth: "" });
    delete chapter.dataset.zoom;
  }

  function fit() {
    // Scale the chapter (a transform, so the page's height is the scaled height: CSS zoom leaves
    // the unscaled height scrollable in Chromium) to the largest size at which it fits the screen.
    document.querySelectorAll(".tour-chapter").forEach(reset);
    // a laptop or a 1024 px projector: the compact nav and the larger narration (style.css)
    document.body.classList.toggle("present-compact", presenting() && window.innerWidth <= 1366);
    const chapter = openChapter();
    const body = chapter && chapter.querySelector(".tour-body");
    if (!presenting() || !body) return;
    const room = () => window.innerHeight - chapter.getBoundingClientRect().top - 2;
    let chosen = ZOOMS[ZOOMS.length - 1];
    for (const z of ZOOMS) {
      Object.assign(body.style, { transformOrigin: "0 0", transform: `scale(${z})`, width: `${100 / z}%`,
                                  maxWidth: "none" });
      if (body.offsetHeight * z <= room()) { chosen = z; break; }
    }
    Object.assign(body.style, { transformOrigin: "0 0", transform: `scale(${chosen})`, width: `${100 / chosen}%`,
                                maxWidth: "none" });
    Object.assign(chapter.style, { height: `${Math.ceil(body.offsetHeight * chosen)}px`, overflow: "hidden" });
    chapter.dataset.zoom = String(chosen);
    window.dispatchEvent(new Event("resize"));   // plots re-measure their width
  }

  function place() {
    // the glossary floats over the page (Gradio's boxes would clip it); the badge sits in the nav row
    const panel = document.querySelector("#glossary"), badge = document.querySelector("#presenting-badge");
    const nav = document.querySelector("#tour-nav");
    if (panel && panel.parentElement !== document.body) document.body.appendChild(panel);
    if (badge && nav && badge.parentElement !== nav) nav.prepend(badge);
  }

  function start(fullscreen) {
    place();
    document.body.classList.add("tour-present");
    label();
    if (fullscreen && !document.fullscreenElement && document.documentElement.requestFullscreen) {
      document.documentElement.requestFullscreen().then(() => { ownFullscreen = true; fit(); }, () => {});
    }
    fit();
    setTimeout(fit, 700);   // plots finish drawing
  }

  function stop() {
    document.body.classList.remove("tour-present");
    label();
    fit();
    if (ownFullscreen && document.fullscreenElement) document.exitFullscreen().catch(() => {});
    ownFullscreen = false;
  }

  const toggle = () => (presenting() ? stop() : start(true));

  // ---- glossary ----
  const panel = () => document.querySelector("#glossary");
  function glossary(term) {
    const g = panel();
    if (!g) return;
    if (term === undefined && !g.hidden) { g.hidden = true; return; }
    g.hidden = false;
    g.querySelectorAll(".current").forEach(e => e.classList.remove("current"));
    const dt = term && g.querySelector("#glossary-" + CSS.escape(term));
    if (dt) { dt.classList.add("current"); dt.scrollIntoView({ block: "nearest" }); }
  }
  document.addEventListener("click", ev => {
    const link = ev.target.closest && ev.target.closest("a.gloss");
    if (link) { ev.preventDefault(); glossary(link.dataset.term); return; }
    if (ev.target.closest && ev.target.closest(".glossary-close")) { panel().hidden = true; }
  });

  document.addEventListener("keydown", ev => {
    if (ev.key === "Escape" && panel() && !panel().hidden) { panel().hidden = true; ev.preventDefault(); return; }
    if (!presenting() || typing(ev.target) || ev.altKey || ev.ctrlKey || ev.metaKey) return;
    if (ev.key === "Escape") { ev.preventDefault(); stop(); return; }
    const step = STEP_KEYS[ev.key], chapter = step && openChapter();
    const stepButton = chapter && chapter.querySelector(`.wedlm-stepper button[data-act="${step}"]`);
    if (step) {   // within the chapter; at its first or last step the button is disabled: nothing
      ev.preventDefault();
      if (stepButton && !stepButton.disabled) stepButton.click();
      return;
    }
    const target = ev.key === " " && ev.shiftKey ? "#tour-back" : KEYS[ev.key];
    const button = target && document.querySelector(target);
    if (!button) return;
    ev.preventDefault();
    if (document.activeElement && document.activeElement.tagName === "BUTTON") document.activeElement.blur();
    button.click();
  });
  document.addEventListener("fullscreenchange", () => {   // the browser's own Esc left fullscreen
    if (!document.fullscreenElement && ownFullscreen) { ownFullscreen = false; if (presenting()) stop(); }
  });
  let lastSize = "";
  setInterval(() => {   // a window resized, or the chapter's content changed height: fit again
    // the badge and the glossary float over the page: move them out of Gradio's boxes, which clip
    place();
    if (!presenting()) return;
    const size = `${window.innerWidth}x${window.innerHeight}`;
    const chapter = openChapter(), body = chapter && chapter.querySelector(".tour-body");
    const drift = body && chapter.dataset.zoom
      ? Math.abs(body.offsetHeight * Number(chapter.dataset.zoom) - chapter.offsetHeight) > 2 : !!body;
    if (size !== lastSize || drift) { lastSize = size; fit(); }
  }, 400);
  document.addEventListener("wedlm-step", () => { if (presenting()) fit(); });
  // The chapter in the address edited by hand (#chapter-N), or Back/Forward to such an address:
  // the page reads its chapter when it loads (present.py READ_LINK_JS), so load it again. The
  // page's own moves rewrite the address with replaceState, which fires neither event.
  function followAddress() {
    const m = location.hash.match(/^#chapter-(\d+)$/), open = openChapter();
    // (never on load: no loop; the server checks the number, as for any link)
    if (m && open && open.id !== "chapter-" + m[1]) location.reload();
  }
  window.addEventListener("hashchange", followAddress);
  window.addEventListener("popstate", followAddress);
  window.wedlmPresent = { start, stop, toggle, fit, glossary, presenting };
})();
