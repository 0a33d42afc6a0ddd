// The client-side stepper (app/views/stepper.py draws the bundles): a trace's views are drawn
// once on the server; this script switches between them in the page, with no request.
//   <div class="wedlm-stepper" data-stepper=KEY data-start=K [data-keys] [data-live] [data-autoplay]>
//     controls (buttons data-act=first|prev|play|next|last, input[type=range]), .stepper-summary,
//     a hidden div.wedlm-steps holding base64(gzip(JSON)) of the drawn views
//   (a div, not a script element: Gradio's gr.HTML warns about scripts, and base64 is inert text)
//   <div class="wedlm-view" data-stepper=KEY data-view=NAME>  (anywhere on the page)
// Every shown view gets data-step; a "wedlm-step" event {key, step} follows every step.
// API: window.wedlmStepper.show(key, step), .current(key), .toggle(key), .ready(key).
// Words: this script holds none. Every word it shows (play/pause, "copied", ...) comes from the
// page's CSS: --wedlm-words, JSON in the language of the element (app/views/script_words.py);
// the step summaries come drawn in the bundle.
(() => {
  const steppers = {};   // key -> {el, data, step, timer}

  // The words in the language of element `el` (a stepper is marked with its bundle's lang).
  function words(el) {
    const raw = getComputedStyle(el || document.documentElement).getPropertyValue("--wedlm-words").trim();
    try { return JSON.parse(raw.slice(1, -1)) || {}; } catch (e) { return {}; }
  }
  const word = (el, name) => words(el)[name] || "";

  async function unpack(text) {
    const bytes = Uint8Array.from(atob(text.trim()), c => c.charCodeAt(0));
    const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
    return JSON.parse(await new Response(stream).text());
  }

  const viewsOf = key => document.querySelectorAll(`.wedlm-view[data-stepper="${CSS.escape(key)}"]`);

  function tint(slot, s) {
    // the canvas's "colour by" switch: per-position colours drawn by the server (render.canvas_tints)
    const mode = s.colourBy || "state", colours = (s.data.tints || {})[mode];
    if (mode === "state" && !slot.__tinted) return;   // freshly drawn views carry no tint
    slot.__tinted = mode !== "state";
    slot.querySelectorAll(".canvas .tok[data-pos]").forEach(t => {
      const plain = /st-(mask|dropped)/.test(t.className);
      t.style.background = colours && !plain ? (colours[t.dataset.pos] || "") : "";
    });
    slot.querySelectorAll(".canvas .legend").forEach(l => l.classList.toggle("by-entropy", mode === "entropy"));
  }

  function fill(slot, s, step) {
    const d = s.data, i = step - d.first, name = slot.dataset.view;
    if (name in d.views) {
      slot.innerHTML = d.views[name][i];
      slot.__tinted = false;   // drawn afresh: no tint yet
    } else if (name in d.whole) {
      if (slot.__drawn !== d) { slot.innerHTML = d.whole[name]; slot.__drawn = d; }
      slot.querySelectorAll("[data-at-step].now").forEach(e => e.classList.remove("now"));
      slot.querySelectorAll(`[data-at-step="${step}"]`).forEach(e => e.classList.add("now"));
    } else {
      if (d.live) {
        const note = document.createElement("div");
        note.className = "empty";
        note.textContent = word(s.el, "waiting");
        slot.replaceChildren(note);
      } else slot.innerHTML = "";
      slot.__drawn = null;
    }
    if (name === "canvas") tint(slot, s);
    slot.classList.toggle("playing", !!s.timer);
    slot.dataset.step = String(step);
  }

  function show(key, step) {
    const s = steppers[key];
    if (!s || !s.data) return;
    const d = s.data, last = d.first + d.count - 1;
    step = Math.max(d.first, Math.min(last, Math.round(Number(step))));
    if (Number.isNaN(step)) return;
    const i = step - d.first;
    viewsOf(key).forEach(slot => fill(slot, s, step));
    s.step = step;
    const el = s.el;
    el.dataset.step = String(step);
    const range = el.querySelector('input[type="range"]');
    if (range) range.value = String(step);
    const label = el.querySelector(".stepper-label");
    if (label) label.textContent = String(step);
    const forward = el.querySelector(".stepper-forward");   // step k is forward k + 1
    if (forward) forward.textContent = String(step + 1);
    el.querySelectorAll("button[data-act]").forEach(b => {
      const act = b.dataset.act;
      b.disabled = d.live || (act === "first" || act === "prev" ? step <= d.first
                                : act === "next" || act === "last" ? step >= last : d.count < 2);
    });
    const summary = el.querySelector(".stepper-summary");
    if (summary) summary.textContent = d.summaries[i] || "";
    if (window.wedlmHighlight) window.wedlmHighlight.refresh();
    document.dispatchEvent(new CustomEvent("wedlm-step", { detail: { key, step } }));
  }

  // Moving or still, on the stepper and its views (.playing: a lane says "decoding…", not
  // "paused"); the play button's icon is drawn by the style from its data-state (no font has ⏸).
  function mark(key, s) {
    const playing = !!s.timer;
    s.el.classList.toggle("playing", playing);
    viewsOf(key).forEach(slot => slot.classList.toggle("playing", playing));
    const b = s.el.querySelector('button[data-act="play"]');
    if (!b) return;
    b.dataset.state = playing ? "pause" : "play";
    b.textContent = word(s.el, playing ? "pause" : "play") || b.textContent;
  }

  function stop(s) {
    if (s.timer) { clearInterval(s.timer); s.timer = null; }
    if (s.el) mark(s.el.dataset.stepper, s);
  }

  function toggle(key) {
    const s = steppers[key];
    if (!s || !s.data || s.data.live) return;
    if (s.timer) { stop(s); return; }
    const last = s.data.first + s.data.count - 1;
    if (s.step >= last) show(key, s.data.first);   // play from the end starts over
    s.timer = setInterval(() => {
      if (!document.contains(s.el) || s.step >= last) { stop(s); return; }
      show(key, s.step + 1);
    }, Number(s.el.dataset.playMs) || 500);
    mark(key, s);
  }

  function act(key, what) {
    const s = steppers[key];
    if (!s || !s.data) return;
    const last = s.data.first + s.data.count - 1;
    if (what === "play") { toggle(key); return; }
    stop(s);
    show(key, { first: s.data.first, last, prev: s.step - 1, next: s.step + 1 }[what]);
  }

  // A bundle appears (page load, or Gradio swapped a gr.HTML's content): unpack and show it.
  async function adopt(el) {
    // Gradio may patch a gr.HTML in place (the same elements, new text): the text is the identity
    const packed = el.querySelector(".wedlm-steps"), key = el.dataset.stepper;
    if (!packed) {   // no trace any more: empty the views
      if (steppers[key]) {
        stop(steppers[key]);
        delete steppers[key];
        viewsOf(key).forEach(slot => { slot.innerHTML = ""; delete slot.dataset.step; slot.__drawn = null; });
      }
      return;
    }
    const text = packed.textContent, old = steppers[key];
    if (old && old.el === el && old.text === text) return;
    if (old) stop(old);
    const s = { el, text, data: null, step: 0, timer: null, colourBy: old ? old.colourBy : "state" };
    steppers[key] = s;
    if (old && old.text === text && old.data) {   // the same bundle drawn again (a tab re-mounted)
      s.data = old.data;
      show(key, old.step);
      return;
    }
    s.data = await unpack(text);
    if (steppers[key] !== s) return;   // a newer bundle arrived while this one unpacked
    document.dispatchEvent(new CustomEvent("wedlm-bundle", { detail: { key } }));   // a new decode or step set
    show(key, Number(el.dataset.start));
    if (el.dataset.autoplay) toggle(key);   // a fresh bundle that plays itself out (once)
  }

  // chapter 3's worked example: its hint to scroll the table shows only while the table overflows
  // its box (a phone), so the sums in the last column are not missed; measured whenever the box's
  // size changes (a step drawn, the chapter opened, the window turned)
  const overflowWatch = new ResizeObserver(entries => entries.forEach(({ target: e }) =>
    e.classList.toggle("overflows", e.scrollWidth > e.clientWidth + 1)));
  function scan() {
    document.querySelectorAll(".attn-example:not([data-watched])").forEach(e => {
      e.dataset.watched = "1"; overflowWatch.observe(e); });
    document.querySelectorAll(".wedlm-stepper").forEach(el => { adopt(el); });
    // views that appeared after their stepper (a tab opened late) catch up
    document.querySelectorAll(".wedlm-view[data-stepper]").forEach(slot => {
      const s = steppers[slot.dataset.stepper];
      if (s && s.data && slot.dataset.step !== String(s.step)) fill(slot, s, s.step);
    });
  }
  let queued = false;
  new MutationObserver(() => {   // cheap: one scan per frame, whatever the number of mutations
    if (queued) return;
    queued = true;
    requestAnimationFrame(() => { queued = false; scan(); });
  }).observe(document.documentElement, { childList: true, subtree: true });
  document.addEventListener("DOMContentLoaded", scan);
  scan();

  const keyOf = e => { const st = e.closest(".wedlm-stepper"); return st ? st.dataset.stepper : null; };
  document.addEventListener("click", ev => {
    const b = ev.target.closest && ev.target.closest(".wedlm-stepper button[data-act]");
    if (b) act(keyOf(b), b.dataset.act);
  });
  document.addEventListener("input", ev => {
    const r = ev.target;
    if (r.matches && r.matches('.wedlm-stepper input[type="range"]')) {
      const s = steppers[keyOf(r)];
      if (s) { stop(s); show(keyOf(r), r.value); }
    }
  });
  // Tapping a position's story: the title is set when first pointed at (one copy per trace).
  document.addEventListener("mouseover", ev => {
    const t = ev.target.closest && ev.target.closest(".wedlm-view .tok[data-pos]:not([title])");
    if (!t) return;
    const s = steppers[t.closest(".wedlm-view").dataset.stepper];
    if (s && s.data && s.data.tips[t.dataset.pos]) t.title = s.data.tips[t.dataset.pos];
  });
  // a position's story (its tooltip's text) in stepper `key`'s trace, for a tap's caption
  const tip = (key, pos) => { const s = steppers[key]; return s && s.data && s.data.tips ? s.data.tips[pos] || "" : ""; };

  // The reordering, animated: every slot of the logical row travels (its position id with it)
  // to its place in the physical row, the filled ones moving in front of the masks. Web
  // Animations on transforms run on the compositor (60 fps); none under prefers-reduced-motion.
  const REORDER_MS = 1600;
  function animateReorder(orders) {
    if (window.matchMedia("(prefers-reduced-motion: reduce)").matches) return null;
    const rows = orders.querySelectorAll(".row .slots");
    if (rows.length < 2) return null;
    const physical = new Map([...rows[1].querySelectorAll(".slot[data-pos]")].map(e => [e.dataset.pos, e]));
    rows[1].animate([{ opacity: 0.15 }, { opacity: 0.15, offset: 0.85 }, { opacity: 1 }], REORDER_MS + 200);
    const moves = [...rows[0].querySelectorAll(".slot[data-pos]")].map(slot => {
      const target = physical.get(slot.dataset.pos);
      if (!target) return null;
      const a = slot.getBoundingClientRect(), b = target.getBoundingClientRect();
      const dx = b.left - a.left, dy = b.top - a.top, lift = slot.matches(".st-mask, .st-mask.fills") ? 0 : -14;
      slot.classList.add("moving");
      const anim = slot.animate([
        { transform: "translate(0, 0)" },
        { transform: `translate(0, ${lift}px)`, offset: 0.15 },
        { transform: `translate(${dx}px, ${dy + lift}px)`, offset: 0.75 },
        { transform: `translate(${dx}px, ${dy}px)` },
      ], { duration: REORDER_MS, easing: "ease-in-out" });
      anim.onfinish = () => slot.classList.remove("moving");
      return anim;
    }).filter(Boolean);
    return moves;
  }
  document.addEventListener("click", ev => {
    const b = ev.target.closest && ev.target.closest(".reorder-play");
    if (b) animateReorder(b.closest(".orders"));
  });

  // Keyboard: ←/→ step, Space play/pause, Home/End first/last, for the visible stepper that
  // asked for keys (data-keys), never while a text box, a menu or a button has the focus.
  const KEYS = { ArrowLeft: "prev", ArrowRight: "next", " ": "play", Home: "first", End: "last" };
  document.addEventListener("keydown", ev => {
    const what = KEYS[ev.key];
    if (!what || ev.altKey || ev.ctrlKey || ev.metaKey || ev.defaultPrevented) return;
    const t = ev.target;
    if (t && t.closest && t.closest('input, textarea, select, [contenteditable=""], [contenteditable="true"], [role="listbox"], [role="combobox"]')) return;
    if (what === "play" && t && t.closest && t.closest("button, a, summary, [role=button], [role=tab]")) return;
    const el = [...document.querySelectorAll(".wedlm-stepper[data-keys]")].find(e => e.offsetParent !== null);
    if (!el || !steppers[el.dataset.stepper]) return;
    ev.preventDefault();
    act(el.dataset.stepper, what);
  });

  // -- links to a moment (app/links.py reads them) --------------------------------------------
  // The URL of the page at stepper `key`'s shown step: `query` (an object) plus step=K. It is
  // always shown in `field` (a text box) and copied when the clipboard allows it.
  function copyLink(key, query, field) {
    const el = steppers[key] ? steppers[key].el : null;
    const params = new URLSearchParams();
    Object.entries(query || {}).forEach(([k, v]) => { if (v !== null && v !== undefined && v !== "") params.set(k, String(v)); });
    const step = steppers[key] ? steppers[key].step : null;
    if (step !== null && step !== undefined) params.set("step", String(step));
    const url = location.origin + location.pathname + "?" + params.toString();
    if (field) { field.hidden = false; field.value = url; field.dataset.copied = "0"; }
    const copied = () => { if (field) { field.dataset.copied = "1"; field.title = word(el, "copied"); } };
    const refused = () => { if (field) { field.title = word(el, "refused"); field.select(); } };
    try {
      if (navigator.clipboard && window.isSecureContext) navigator.clipboard.writeText(url).then(copied, refused);
      else refused();
    } catch (e) { refused(); }
    return url;
  }
  document.addEventListener("click", ev => {   // a bundle's own link button (data-link: its query)
    const b = ev.target.closest && ev.target.closest(".wedlm-stepper button[data-link]");
    if (!b) return;
    const st = b.closest(".wedlm-stepper");
    copyLink(st.dataset.stepper, Object.fromEntries(new URLSearchParams(b.dataset.link)), st.querySelector(".link-url"));
  });

  window.wedlmStepper = {
    copyLink,
    tip,
    show: (key, step) => { const s = steppers[key]; if (s) { stop(s); show(key, step); } },
    current: key => (steppers[key] ? steppers[key].step : null),
    toggle,
    ready: key => !!(steppers[key] && steppers[key].data),
    animateReorder,
    colourBy: (key, mode) => {
      const s = steppers[key];
      if (!s) return;
      s.colourBy = mode;
      viewsOf(key).forEach(slot => { if (slot.dataset.view === "canvas") tint(slot, s); });
    },
  };
})();
