// Projector mode for the tour (app/tabs/tour/present.py): a "presenting" class on <body> hides
// everything but the chapter; the open chapter is zoomed to fill the screen without scrolling;
// the keyboard moves through chapters (←/→, Space, PageUp/PageDown, Home/End) and through the
// open chapter's steps (↓/↑ or . and ,), never while a text box or slider has focus; Esc leaves
// (and drops ?present=1 from the address). On a narrow or 4:3 screen (a 1024×768 projector) the
// chapter's picture and its narration take the whole width one at a time (each zoomed to fill the
// screen, the picture first): W or the pane switch (bottom right) switches. Space is the next chapter here, never play: the tour's
// stepper buttons and the badge say so (app/views/stepper.py keys="present", tour.presenting_*). Also the
// glossary panel, which term links in the narration open.
// Words: none here. The button's labels come from the page's CSS (--wedlm-words, JSON in the
// page's language: app/views/script_words.py); without them the button keeps the server's label
// (the pane switch, which only this script makes, is then left out).
(() => {
  let serverLabel = null;
  function words() {
    const raw = getComputedStyle(document.documentElement).getPropertyValue("--wedlm-words").trim();
    try { return JSON.parse(raw.slice(1, -1)) || {}; } catch (e) { return {}; }
  }
  // (1.15, 1.05 and 0.96: a chapter a few pixels too tall for a step kept the next, 8% smaller)
  const ZOOMS = [2.2, 2.0, 1.8, 1.6, 1.45, 1.3, 1.2, 1.15, 1.1, 1.05, 1.0, 0.96, 0.92, 0.85, 0.78, 0.72, 0.66, 0.6];
  const KEYS = { ArrowRight: "#tour-next", PageDown: "#tour-next", " ": "#tour-next",
                 ArrowLeft: "#tour-back", PageUp: "#tour-back", Home: "#tour-first", End: "#tour-last" };
  // the open chapter's own step controls (its stepper): ↓ / . the next step, ↑ / , the previous
  const STEP_KEYS = { ArrowDown: "next", ".": "next", ArrowUp: "prev", ",": "prev" };
  let ownFullscreen = false;
  // side by side the picture got 60-72% of a 1024 px screen and was zoomed to 0.66-0.85 to fit the
  // narration's height beside it: tokens 10-13 px, grid labels 10 px. Below this width, or on a
  // screen near 4:3, each gets the whole screen in turn.
  const FLIP_WIDTH = 1280, FLIP_ASPECT = 1.5;
  const PANE_KEYS = { w: 1, W: 1 };
  const WORDS_ZOOM = 1.6;   // the narration alone: large type, not a poster
  // the least zoom a picture is shown at (tokens 16 px -> 14 on screen): a picture whose views fit
  // only smaller is shown a few views at a time (pictures 1, 2, …), the stepper over each
  const MIN_ZOOM = 0.875;

  const presenting = () => document.body.classList.contains("tour-present");
  const typing = el => !!el && (el.isContentEditable ||
    !!(el.closest && el.closest("input, textarea, select, [contenteditable]:not([contenteditable=false])")));
  const openChapter = () => [...document.querySelectorAll(".tour-chapter")].find(c => c.offsetParent !== null);
  // panes flip on a narrow screen, in a chapter that has a picture beside its words (chapter 11's
  // cards are words only: one pane)
  const flipping = () => presenting() && (window.innerWidth < FLIP_WIDTH || window.innerWidth / window.innerHeight < FLIP_ASPECT)
    && !!(openChapter() || document).querySelector(".tour-body > .tour-view");
  let paneChapter = null;   // the chapter the shown pane belongs to: a new chapter opens on its picture
  // a pane: "0", "1", … (the picture's groups of views) or "words"
  const pane = chapter => (chapter && chapter.id === paneChapter && chapter.dataset.pane) || "0";
  const groupCount = chapter => Number((chapter && chapter.dataset.groups) || 1);
  // the picture's views (the column's blocks), the stepper's own controls left out: they show with every group
  const viewParts = chapter => [...chapter.querySelectorAll(".tour-body > .tour-view > *")]
    .filter(e => !e.querySelector(".wedlm-stepper"));

  function label() {
    const b = document.querySelector("#tour-present-btn");
    if (!b) return;
    if (serverLabel === null) serverLabel = b.textContent;
    const w = words();
    // a laptop or a 1024 px projector (.present-compact): the short label, one line (the long one wrapped to two)
    const stop = document.body.classList.contains("present-compact") ? (w.stop_short || w.stop_presenting) : w.stop_presenting;
    b.textContent = presenting() ? (stop || serverLabel) : (w.present || serverLabel);
    const chapter = openChapter(), shown = pane(chapter), groups = groupCount(chapter);
    const switcher = document.querySelector("#present-pane");
    if (!switcher) return;
    // one button per group of the picture, then the narration's
    const names = [...Array(groups).keys()].map(String).concat(["words"]);
    if (switcher.dataset.panes !== names.join()) {
      switcher.querySelectorAll("button").forEach(b => b.remove());
      for (const name of names) {
        const b = document.createElement("button");
        b.type = "button";
        b.dataset.pane = name;
        b.textContent = name === "words" ? w.pane_words : w.pane_picture + (groups > 1 ? ` ${Number(name) + 1}` : "");
        b.addEventListener("click", () => { b.blur(); flip(name); });
        switcher.insertBefore(b, switcher.querySelector("kbd"));
      }
      switcher.dataset.panes = names.join();
    }
    switcher.querySelectorAll("button").forEach(b => b.setAttribute("aria-pressed", String(b.dataset.pane === shown)));
  }

  function flip(to) {
    // the next pane of the open chapter (or `to`): picture 1, picture 2, …, the narration, round again
    const chapter = openChapter();
    if (!chapter || !flipping()) return;
    const now = pane(chapter), last = groupCount(chapter) - 1;
    chapter.dataset.pane = to || (now === "words" ? "0" : Number(now) >= last ? "words" : String(Number(now) + 1));
    paneChapter = chapter.id;
    fit();
  }

  // the share of the chapter's width its pictures get (the narration has the rest): fit() tries
  // each and keeps the one whose smallest text is largest on screen
  const SPLITS_COMPACT = [0.6, 0.66, 0.72, 0.78], SPLITS_WIDE = [0.64, 0.7, 0.76, 0.82];
  // the text a reader must read: the narration, the tokens and labels of the pictures, the grids' labels
  const READ = ".tour-text p, .tour-text li, .tour-view .slot .tokt, .tour-view .slot .pid, .tour-view .tok, svg.grid text.rowt";

  function reset(chapter) {
    const body = chapter.querySelector(".tour-body");
    Object.assign(chapter.style, { height: "", overflow: "" });
    if (body) { Object.assign(body.style, { transform: "", transformOrigin: "", width: "", maxWidth: "" }); body.style.removeProperty("--read-px"); }
    chapter.querySelectorAll(".tour-body > .tour-view, .tour-body > .tour-words").forEach(c => c.style.removeProperty("flex"));
    delete chapter.dataset.zoom;
    delete chapter.dataset.split;
    chapter.querySelectorAll("[data-pane-hidden]").forEach(e => { e.style.removeProperty("display"); delete e.dataset.paneHidden; });
    if (!flipping()) { delete chapter.dataset.pane; delete chapter.dataset.groups; }
  }

  function split(chapter, share) {
    // share 1: one pane at a time (style.css hides the other), the whole width
    const view = chapter.querySelector(".tour-body > .tour-view"), words = chapter.querySelector(".tour-body > .tour-words");
    if (view) view.style.setProperty("flex", share === 1 ? "1 1 100%" : `${share} 1 0%`, "important");
    if (words) words.style.setProperty("flex", share === 1 ? "1 1 100%" : `${1 - share} 1 0%`, "important");
  }

  // the picture's small text (step captions, colour keys, row labels, position ids, titles, chapter
  // 7's table: style.css) reads at least READ_PX on screen whatever the zoom: its CSS size is
  // READ_PX / zoom, set with the zoom, so each zoom fit() tries measures the height it will have
  const READ_PX = 16, READ_PX_FLIP = 14;
  function scale(body, z) {
    Object.assign(body.style, { transformOrigin: "0 0", transform: `scale(${z})`, width: `${100 / z}%`, maxWidth: "none" });
    body.style.setProperty("--read-px", `${((flipping() ? READ_PX_FLIP : READ_PX) / z).toFixed(2)}px`);
  }

  function chartText(chapter) {
    // an SVG chart's labels: READ_PX (flipping: READ_PX_FLIP) on screen over its scale there (its box
    // over its viewBox, "meet": the smaller of the two ratios), as --chart-read-px (style.css caps it)
    const want = flipping() ? READ_PX_FLIP : READ_PX;
    chapter.querySelectorAll("svg.chart").forEach(svg => {
      const r = svg.getBoundingClientRect(), vb = svg.viewBox && svg.viewBox.baseVal;
      if (!r.width || !vb || !vb.width) return;
      const s = svgScale(svg);
      svg.style.setProperty("--chart-read-px", `${(want / s).toFixed(2)}px`);
    });
  }

  // the scale an SVG's user units have on screen: its box over its viewBox, the smaller of the two
  // ratios ("meet": an SVG capped by its height draws smaller than its width says, and smallestText
  // measured grids by their width alone), the zoom included; an SVG without a viewBox (Plotly's) by
  // its box over its own width
  function svgScale(svg) {
    const r = svg.getBoundingClientRect(), vb = svg.viewBox && svg.viewBox.baseVal;
    if (vb && vb.width && vb.height) return Math.min(r.width / vb.width, r.height / vb.height);
    const w = svg.width && svg.width.baseVal && svg.width.baseVal.value;
    return w ? r.width / w : 1;
  }

  function smallestText(chapter, z) {
    // px on screen: HTML text is scaled by the zoom; an SVG's by its scale on screen (svgScale)
    let least = Infinity;
    chapter.querySelectorAll(READ).forEach(el => {
      if (!el.getClientRects().length) return;
      let px = parseFloat(getComputedStyle(el).fontSize);
      const svg = el.ownerSVGElement;
      px *= svg ? svgScale(svg) : z;
      least = Math.min(least, px);
    });
    return least;
  }

  function showOnly(chapter, parts) {
    // the picture's views in `parts` (all: null), the others hidden until reset()
    viewParts(chapter).forEach(e => {
      if (!parts || parts.includes(e)) { e.style.removeProperty("display"); delete e.dataset.paneHidden; }
      else { e.style.setProperty("display", "none", "important"); e.dataset.paneHidden = "1"; }
    });
  }

  function pictureGroups(chapter, body, room) {
    // the picture's views in groups shown one at a time: all together if they fit at MIN_ZOOM,
    // else as many neighbours as fit (a view alone may still need less: fit() shrinks it)
    // a view marked pane-alone (chapter 3's worked example's end) never shares a pane: beside the
    // example's table the pane's zoom would read the table's 12 px type under 14 (empty, at another step: no pane)
    const parts = viewParts(chapter).filter(e => e.getClientRects().length || e.dataset.paneHidden);
    const alone = e => e.classList.contains("pane-alone") && !!e.textContent.trim();
    const fits = group => { showOnly(chapter, group); return largestZoom(body, room) >= MIN_ZOOM; };
    const groups = [];
    let current = [];
    if (!parts.length || (!parts.some(alone) && fits(parts))) { showOnly(chapter, null); return [parts]; }
    for (const part of parts) {
      if (current.length && (alone(part) || alone(current[0]) || !fits(current.concat([part])))) { groups.push(current); current = []; }
      current.push(part);
    }
    if (current.length) groups.push(current);
    showOnly(chapter, null);
    return groups;
  }

  function largestZoom(body, room) {
    // the largest zoom at which the chapter fits (ZOOMS runs large to small; a binary search)
    let lo = 0, hi = ZOOMS.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      scale(body, ZOOMS[mid]);
      if (body.offsetHeight * ZOOMS[mid] <= room()) hi = mid; else lo = mid + 1;
    }
    return ZOOMS[lo];
  }

  // ---- Plotly's text while presenting ----
  // A figure's fonts are sized for a page (11-14 px); zoomed to fit a projector they read at
  // 11-16 px. While presenting, each of the open chapter's figures gets every font scaled so its
  // smallest text reads PLOT_PX on screen (axes grow their margins to keep their labels whole);
  // leaving, or another chapter, puts the figure's own sizes back. A figure Gradio draws anew
  // (a live run) is scaled again by the next check.
  // an attention grid (chapter 9's heatmap) reads GRID_PX, as chapter 3's SVG grids do (19.7 px at
  // 1920x1080): at 16.5 its 2L row labels were the smallest text of the tour's pictures there
  const PLOT_PX = 16.5, GRID_PX = 19.5;
  const plotState = new WeakMap();   // figure -> {orig: its layout's own values, applied, z}
  const at = (obj, path) => path.split(".").reduce((o, k) => (o == null ? undefined : o[k]), obj);
  function fontPaths(gd) {
    const full = gd._fullLayout || {};
    const axes = Object.keys(full).filter(k => /^[xy]axis\d*$/.test(k));
    const paths = ["font.size", "title.font.size", "legend.font.size"];
    axes.forEach(a => paths.push(`${a}.tickfont.size`, `${a}.title.font.size`));
    (full.annotations || []).forEach((_, i) => paths.push(`annotations[${i}].font.size`));
    return { paths, axes };
  }
  const layoutAt = (layout, path) => at(layout, path.replace(/\[(\d+)\]/g, ".$1"));

  function plotFonts() {
    if (!window.Plotly) return;
    const chapter = presenting() ? openChapter() : null;
    const z = chapter ? Number(chapter.dataset.zoom || 0) : 0;
    document.querySelectorAll(".tour-chapter .js-plotly-plot").forEach(gd => {
      if (!gd._fullLayout || !gd.layout) return;
      let state = plotState.get(gd);
      // drawn anew since (Gradio's new figure): its own sizes are the layout's now
      if (state && layoutAt(gd.layout, "font.size") !== state.applied["font.size"]) { plotState.delete(gd); state = null; }
      const want = !!(z && chapter.contains(gd));
      if (!want) {
        if (state) {
          plotState.delete(gd);
          window.Plotly.relayout(gd, state.orig);
        }
        return;
      }
      if (state && state.z === z) return;
      const { paths, axes } = fontPaths(gd);
      if (!state) {
        const orig = {}, resolved = {};
        paths.forEach(p => { const v = layoutAt(gd.layout, p); orig[p] = v === undefined ? null : v; resolved[p] = layoutAt(gd._fullLayout, p); });
        axes.forEach(a => { const v = layoutAt(gd.layout, `${a}.automargin`); orig[`${a}.automargin`] = v === undefined ? null : v; });
        state = { orig, resolved };
      }
      const sizes = paths.map(p => state.resolved[p]).filter(v => typeof v === "number" && v > 0);
      const grid = (gd.data || []).some(trace => trace.type === "heatmap");
      const factor = Math.max(1, (grid ? GRID_PX : PLOT_PX) / (Math.min(...sizes) * z));
      const applied = {};
      paths.forEach(p => { if (typeof state.resolved[p] === "number") applied[p] = Math.ceil(state.resolved[p] * factor * 10) / 10; });
      if (factor > 1) axes.forEach(a => { applied[`${a}.automargin`] = true; });
      plotState.set(gd, { orig: state.orig, resolved: state.resolved, applied, z });
      window.Plotly.relayout(gd, applied);
    });
  }

  function fit() {
    // (the chapter clips, "clip" not "hidden": a chapter scaled below 1 kept its unscaled height as
    // scrollable overflow, scrollHeight 705 over 649 px in chapter 3's narration, and a hidden box
    // still scrolls to a focused element)
    // Scale the chapter (a transform, so the page's height is the scaled height: CSS zoom leaves
    // the unscaled height scrollable in Chromium) to the largest size at which it fits the screen,
    // at the split of its width that makes its smallest text the largest (a grid's labels want a
    // wide picture; a long narration a wide column), never at a smaller zoom than the first split's
    document.querySelectorAll(".tour-chapter").forEach(reset);
    // a laptop or a 1024 px projector: the compact nav and the larger narration (style.css)
    document.body.classList.toggle("present-compact", presenting() && window.innerWidth <= 1366);
    document.body.classList.toggle("present-flip", flipping());
    const chapter = openChapter();
    // the badge names ↓/↑ only where they step something (chapters 7, 8, 9, 11 have no stepper)
    document.body.classList.toggle("present-steps", presenting() && !!chapter
      && !!chapter.querySelector('.wedlm-stepper button[data-act="next"]'));
    const body = chapter && chapter.querySelector(".tour-body");
    if (chapter && flipping()) { chapter.dataset.pane = pane(chapter); paneChapter = chapter.id; }
    label();
    if (!presenting() || !body) { plotFonts(); return; }
    const switcher = document.querySelector("#present-pane");
    // the bottom strip: the pane switch (right) and the keys (left)
    const keys = document.querySelector("#present-keys");
    if (keys && switcher && flipping()) {   // a phone's width has no room for both: the switch stays
      keys.style.visibility = "";
      keys.style.visibility = keys.getBoundingClientRect().right + 8 > switcher.getBoundingClientRect().left ? "hidden" : "";
    }
    const below = flipping() ? Math.max(switcher ? switcher.offsetHeight : 0, keys ? keys.offsetHeight : 0) + 8 : 0;
    const room = () => window.innerHeight - chapter.getBoundingClientRect().top - 2 - below;
    if (flipping()) {   // one pane, the whole width: the largest zoom that fits (the words' capped)
      split(chapter, 1);
      if (chapter.dataset.pane !== "words") {   // (the narration keeps the picture's groups: its views are hidden)
        const groups = pictureGroups(chapter, body, room);
        chapter.dataset.groups = String(groups.length);
        if (Number(chapter.dataset.pane) >= groups.length) chapter.dataset.pane = "0";
        showOnly(chapter, groups[Number(chapter.dataset.pane)]);
      }
      label();
      const z = Math.min(largestZoom(body, room), chapter.dataset.pane === "words" ? WORDS_ZOOM : Infinity);
      scale(body, z);
      Object.assign(chapter.style, { height: `${Math.ceil(body.offsetHeight * z)}px`, overflow: "clip" });
      chapter.dataset.zoom = String(z);
      chartText(chapter);
      plotFonts();
      window.dispatchEvent(new Event("resize"));
      settle();
      return;
    }
    let best = null;
    for (const share of (window.innerWidth <= 1366 ? SPLITS_COMPACT : SPLITS_WIDE)) {
      split(chapter, share);
      const z = largestZoom(body, room);
      if (best && z < best.z0) continue;   // the narration never gets smaller than at the first split
      scale(body, z);
      const least = smallestText(chapter, z);
      // a quarter pixel is no difference to the eye: then the wider picture
      if (!best || least > best.least + 0.25 || (least > best.least - 0.25 && share > best.share)) {
        best = { share, z, least, z0: best ? best.z0 : z };
      }
    }
    split(chapter, best.share);
    scale(body, best.z);
    Object.assign(chapter.style, { height: `${Math.ceil(body.offsetHeight * best.z)}px`, overflow: "clip" });
    chapter.dataset.zoom = String(best.z);
    chapter.dataset.split = String(best.share);
    chartText(chapter);
    plotFonts();
    window.dispatchEvent(new Event("resize"));   // plots re-measure their width
    settle();
  }

  function place() {
    // the glossary floats over the page (Gradio's boxes would clip it); the badge sits in the nav row
    const panel = document.querySelector("#glossary"), badge = document.querySelector("#presenting-badge");
    const nav = document.querySelector("#tour-nav");
    if (panel && panel.parentElement !== document.body) document.body.appendChild(panel);
    if (badge && nav && badge.parentElement !== nav) nav.prepend(badge);
    const keys = document.querySelector("#present-keys");   // fixed: out of the boxes (and their transforms)
    if (keys && keys.parentElement !== document.body) document.body.appendChild(keys);
    // the pane switch (picture | narration, W), fixed at the bottom right (the nav row has no
    // room left at 1024 px); style.css shows it while flipping, and fit() leaves it its height
    const w = words();
    if (!document.querySelector("#present-pane") && w.pane_words) {
      const group = document.createElement("div");
      group.id = "present-pane";
      group.className = "present-pane";
      group.setAttribute("role", "group");
      group.title = w.pane_title || "";
      const key = document.createElement("kbd");
      key.textContent = "W";
      group.appendChild(key);
      document.body.appendChild(group);
      label();
    }
  }

  // A tapped token's outline and caption (app/static/highlight.js) are the page's: presenting
  // starts without them, and moving to another chapter drops them (on a projector an outline left
  // on chapter 4's slot 80 had no key saying why it was there). A step keeps them: a token tapped
  // while presenting is followed from step to step, as on the page (walk 31 lost it at each step)
  const dropTap = () => { if (window.wedlmHighlight) window.wedlmHighlight.drop(); };

  function start(fullscreen) {
    place();
    dropTap();
    document.body.classList.add("tour-present");
    label();
    if (fullscreen && !document.fullscreenElement && document.documentElement.requestFullscreen) {
      document.documentElement.requestFullscreen().then(() => { ownFullscreen = true; fit(); }, () => {});
    }
    fit();
    setTimeout(fit, 700);   // plots finish drawing
  }

  function forgetPresentLink() {
    // ?present=1 opened presenting: leaving drops it, so a reload or a copied address opens the
    // page as a page; the rest of the address (?chapter=N, #chapter-N, a step) stays
    const query = new URLSearchParams(location.search);
    if (!query.has("present")) return;
    query.delete("present");
    const rest = query.toString();
    history.replaceState(history.state, "", location.pathname + (rest ? "?" + rest : "") + location.hash);
  }

  function stop() {
    forgetPresentLink();
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
    // the term at the panel's top, its definition below it (scrolled "nearest", the term sat at the
    // panel's foot with its definition out of sight); the panel scrolls, never the page
    if (dt) { dt.classList.add("current"); g.scrollTop = dt.offsetTop - 8; }
  }
  document.addEventListener("click", ev => {
    const link = ev.target.closest && ev.target.closest("a.gloss");
    if (link) { ev.preventDefault(); glossary(link.dataset.term); return; }
    if (ev.target.closest && ev.target.closest(".glossary-close")) { panel().hidden = true; }
  });

  // A chapter the keys move to opens at its moment (each stepper's data-start), not where it was
  // left earlier: in front of a class a chapter starts where its narration begins.
  function atMoment(from) {
    let tries = 0;
    const wait = setInterval(() => {
      const chapter = openChapter();
      if (++tries > 100) { clearInterval(wait); return; }
      if (!chapter || chapter === from) return;
      const steppers = [...chapter.querySelectorAll(".wedlm-stepper[data-stepper][data-start]")];
      if (!window.wedlmStepper || steppers.some(el => !window.wedlmStepper.ready(el.dataset.stepper))) return;
      clearInterval(wait);
      steppers.forEach(el => {
        if (window.wedlmStepper.current(el.dataset.stepper) !== Number(el.dataset.start))
          window.wedlmStepper.show(el.dataset.stepper, Number(el.dataset.start));
      });
    }, 100);
  }
  document.addEventListener("keydown", ev => {
    if (ev.key === "Escape" && panel() && !panel().hidden) { panel().hidden = true; ev.preventDefault(); return; }
    if (!presenting() || typing(ev.target) || ev.altKey || ev.ctrlKey || ev.metaKey) return;
    if (ev.key === "Escape") { ev.preventDefault(); stop(); return; }
    if (PANE_KEYS[ev.key]) {   // picture ⇄ narration (only where they show one at a time)
      if (flipping()) { ev.preventDefault(); flip(); }
      return;
    }
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
    const from = openChapter();
    dropTap();
    button.click();
    atMoment(from);
  });
  document.addEventListener("fullscreenchange", () => {   // the browser's own Esc left fullscreen
    if (!document.fullscreenElement && ownFullscreen) { ownFullscreen = false; if (presenting()) stop(); }
  });
  let lastSize = "";
  function drifted(chapter) {
    // the open chapter's content changed height since its fit: grown by any part of a pixel (chapter
    // 4 at 1024x768 grew 1.6 px after its fit, under the 2 px allowed before, and its last line was
    // cut), or shrunk by more than 2 px
    const body = chapter && chapter.querySelector(".tour-body");
    if (!body) return false;
    if (!chapter.dataset.zoom) return true;
    const over = body.offsetHeight * Number(chapter.dataset.zoom) - chapter.offsetHeight;
    return over > 0.5 || over < -2;
  }
  let settling = 0;
  function settle() {
    // a frame or two after a fit the chapter can still grow (chapter 4's first picture, shown again
    // after its narration at 1024x768, by 2 px): check then, not only at the next 400 ms tick (a W
    // press showed the cut line meanwhile); at most twice in a row, never a loop
    requestAnimationFrame(() => requestAnimationFrame(() => {
      const chapter = openChapter();
      if (presenting() && settling < 2 && drifted(chapter)) { settling++; fit(); } else settling = 0;
    }));
  }
  setInterval(() => {   // a window resized, or the chapter's content changed height: fit again
    // the badge and the glossary float over the page: move them out of Gradio's boxes, which clip
    place();
    plotFonts();   // a figure drawn anew (a live run), or one left behind by leaving
    if (!presenting()) return;
    const size = `${window.innerWidth}x${window.innerHeight}`;
    const chapter = openChapter();
    if (size !== lastSize || drifted(chapter)) { lastSize = size; fit(); }
  }, 400);
  document.addEventListener("wedlm-step", () => { if (presenting()) fit(); });   // a step button clicked too
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
  // Chapter 11's cards while presenting: questions only; a click on one shows its answer (the
  // teacher asks first) and hides the one shown before (five answers at once shrank the type to
  // 8 px at 1024x768), and the chapter fits again
  document.addEventListener("click", ev => {
    const question = ev.target.closest && ev.target.closest(".recap-card > summary");
    if (!question || !presenting()) return;
    ev.preventDefault();
    const card = question.parentElement, showing = !card.classList.contains("shown");
    card.parentElement.querySelectorAll(".recap-card.shown").forEach(c => c.classList.remove("shown"));
    card.classList.toggle("shown", showing);
    fit();
  });
  window.wedlmPresent = { start, stop, toggle, fit, glossary, presenting, flip, flipping, plotFonts };
})();
