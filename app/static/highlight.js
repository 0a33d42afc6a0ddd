// Linked highlighting: pointing at (or tapping) a token marks the same logical position in every
// view: the canvas, both order rows, both attention grids (row and column), the entropy bars and
// the heatmap. Views mark positions with data-pos; Plotly bars carry the position as x. An
// attention grid (SVG) marks its row and its column with outlines that carry data-pos.
// A tap (a click) pins a position and shows its story (the tooltip's text) in a caption under
// the view: touch screens and a projector's audience see no tooltips. The pin belongs to the view
// it was tapped in: a new decode or step set there (stepper.js's "wedlm-bundle"), or that view
// hidden (another chapter or tab), clears it. Hover is the mouse's only: a touch's emulated
// mouseover would outline a token nobody pointed at.
(() => {
  let pinned = null, hovered = null, pinView = null;
  const PLOTS = ["entropy-bars", "entropy-heatmap"];

  function clear() {
    document.querySelectorAll(".hl").forEach(e => e.classList.remove("hl"));
    document.querySelectorAll(".heat-hl").forEach(e => e.remove());
    document.querySelectorAll("path[data-hl]").forEach(p => {
      p.style.stroke = p.dataset.hl; p.style.strokeWidth = ""; p.removeAttribute("data-hl"); });
  }

  function markBars(el, pos) {
    (el.data || []).forEach((trace, t) => {
      if (trace.type !== "bar" || !trace.x) return;
      const i = trace.x.map(String).indexOf(String(pos));
      const layer = el.querySelectorAll(".barlayer .trace")[t];
      const point = layer && layer.querySelectorAll(".point path")[i];
      if (i < 0 || !point) return;
      point.dataset.hl = point.style.stroke || ""; point.style.stroke = "#111827"; point.style.strokeWidth = "3px";
    });
  }

  function markHeatmap(el, pos) {
    const trace = (el.data || [])[0], full = el._fullLayout;
    if (!trace || trace.type !== "heatmap" || !full || !full.xaxis) return;
    if (!trace.x.map(String).includes(String(pos))) return;
    const xa = full.xaxis, ya = full.yaxis, p = Number(pos);
    const left = xa._offset + Math.min(xa.l2p(p - 0.5), xa.l2p(p + 0.5));
    const box = document.createElement("div");
    box.className = "heat-hl";
    Object.assign(box.style, { left: left + "px", top: ya._offset + "px",
      width: Math.max(3, Math.abs(xa.l2p(p + 0.5) - xa.l2p(p - 0.5))) + "px", height: ya._length + "px" });
    el.style.position = "relative";
    el.appendChild(box);
  }

  function apply() {
    clear();
    const pos = pinned ?? hovered;
    if (pos === null || pos === undefined) return;
    document.querySelectorAll(`[data-pos="${CSS.escape(String(pos))}"]`).forEach(e => e.classList.add("hl"));
    PLOTS.forEach(id => document.querySelectorAll(`#${id} .js-plotly-plot`).forEach(el => {
      markBars(el, pos); markHeatmap(el, pos); }));
  }

  const posOf = target => { const e = target.closest && target.closest("[data-pos]"); return e ? e.dataset.pos : null; };
  const mouse = ev => ev.pointerType === "mouse" || ev.pointerType === "pen";
  // still: after a drop (presenting moved on) a resting pointer is not pointing; new content
  // drawn under it fires pointerover with no move, so hover waits for the mouse to move again
  let still = false;
  const hover = ev => { const p = posOf(ev.target); if (p !== null) { hovered = p; apply(); } };
  document.addEventListener("pointerover", ev => { if (mouse(ev) && !still) hover(ev); });
  document.addEventListener("pointermove", ev => { if (mouse(ev) && still) { still = false; hover(ev); } });
  document.addEventListener("pointerout", ev => { if (mouse(ev) && posOf(ev.target) !== null) { hovered = null; apply(); } });

  // The caption: the tapped element's tooltip (its title, the stepper's story of the position,
  // or an SVG <title>), drawn by the server in the page's language.
  function story(el) {
    if (!el) return "";
    const view = el.closest(".wedlm-view[data-stepper]");
    const drawn = view && window.wedlmStepper ? window.wedlmStepper.tip(view.dataset.stepper, el.dataset.pos) : "";
    const svgTitle = el.querySelector && el.querySelector(":scope > title");
    const told = el.getAttribute("title") || drawn || (svgTitle ? svgTitle.textContent : "") || "";
    // where a chapter shows two decodes side by side, the story says whose it is (chapter 5's panels)
    const named = told && el.closest("[data-story-name]");
    return named ? `${named.dataset.storyName}: ${told}` : told;
  }
  function caption(text) {
    document.querySelectorAll(".tap-caption").forEach(c => c.remove());
    if (!text || !pinView || !pinView.parentNode) return;
    const c = document.createElement("div");
    c.className = "tap-caption";
    c.setAttribute("role", "status");
    c.textContent = text;
    pinView.after(c);   // under the view, outside what the stepper redraws
    // a caption under a tall view can land below the screen (1000 px under the tapped token at
    // 1024x768): brought into sight, the least scroll that shows it; not while presenting (the
    // chapter is fitted to the screen, present.js fits it again with the caption in it)
    const r = c.getBoundingClientRect();
    const presenting = document.body.classList.contains("tour-present");
    if (!presenting && (r.bottom > window.innerHeight || r.top < 0)) c.scrollIntoView({ block: "nearest" });
  }
  function pin(p, el, view) {
    pinned = p; pinView = p === null ? null : view;
    caption(p === null ? "" : story(el));
    apply();
  }
  const unpin = () => { if (pinned !== null) pin(null); };
  document.addEventListener("click", ev => {   // a tap pins (touch screens have no hover); again unpins
    const el = ev.target.closest && ev.target.closest("[data-pos]");
    if (!el) return;
    const p = el.dataset.pos;
    if (pinned === p) { pin(null); return; }
    // the view, not its step's drawing inside it (a .tour-step), which every step replaces: the pin
    // follows the token from step to step (walk 31 lost it at each step)
    pin(p, el, el.closest(".wedlm-view") || el.closest(".tour-step, .gr-html, .block") || el.parentElement);
  });
  document.addEventListener("wedlm-bundle", ev => {   // a new decode or step set: its positions are new
    if (pinned === null) return;
    const view = pinView && pinView.closest(".wedlm-view[data-stepper]");
    if (!view || view.dataset.stepper === ev.detail.key) unpin();
  });

  // Plotly plots: hovering or tapping a bar or heatmap cell highlights that position elsewhere.
  function linkPlots() {
    PLOTS.forEach(id => document.querySelectorAll(`#${id} .js-plotly-plot`).forEach(el => {
      if (el.__wedlmLinked || typeof el.on !== "function") return;
      el.__wedlmLinked = true;
      const pick = e => e && e.points && e.points[0] ? String(e.points[0].customdata ?? e.points[0].x) : null;
      el.on("plotly_hover", e => { hovered = pick(e); apply(); });
      el.on("plotly_unhover", () => { hovered = null; apply(); });
      el.on("plotly_click", e => { const p = pick(e); if (pinned === p) pin(null); else pin(p, null, el); });
    }));
  }
  // Views re-render while stepping: every half second, link new plots and restore a pinned mark
  // (a timer, not a MutationObserver: plots make thousands of mutations while they draw).
  setInterval(() => {
    linkPlots();
    // the view the pin was tapped in is gone or hidden (another chapter, another tab): unpin
    if (pinned !== null && pinView && (!document.contains(pinView) || pinView.offsetParent === null)) unpin();
    if (pinned !== null && !document.querySelector(".hl")) apply();
  }, 500);
  // refresh: the stepper swapped a view's content; mark the followed position in it again
  // drop: the pin and a mouse's hover mark both (presenting moved on: the pointer still resting on
  // the tapped token would keep its outline until the mouse moved)
  const drop = () => { hovered = null; still = true; pin(null); };
  window.wedlmHighlight = { pin: p => pin(p === null ? null : String(p), null, null), unpin, drop,
                            pinned: () => pinned, refresh: () => apply() };
})();
