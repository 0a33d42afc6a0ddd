"""Links and projector mode. A chapter can be linked: ?chapter=3 or #chapter-3; ?present=1 opens
the tour presenting. Presenting (app/static/present.js) hides everything but the chapter, scales
it to fill the screen without scrolling, and takes the keyboard: ←/→, Space, PageUp/PageDown,
Home/End between chapters, ↓/↑ (or . and ,) through the open chapter's steps, Esc to leave (never
while a text box or slider has focus). Leaving drops ?present=1 from the address, so a reload or a
copied link opens the tour as a page again."""
from __future__ import annotations

from ... import i18n

# the present button's two labels: the words app/static/present.js also shows (app/views/stepper.py
# js_words carries them to the page), so both come from the same catalog ids
PRESENT_LABEL = i18n.text(i18n.DEFAULT, "views.js.present")
STOP_LABEL = i18n.text(i18n.DEFAULT, "views.js.stop_presenting")

READ_LINK_JS = """() => {
  const hash = location.hash.match(/chapter-(\\d+)/);
  const query = new URLSearchParams(location.search);
  if (query.get('present') === '1' && window.wedlmPresent) window.wedlmPresent.start(false);
  return hash ? hash[1] : (query.get('chapter') || '1');
}"""
WRITE_LINK_JS = """(n) => { history.replaceState(null, '', location.pathname + location.search + '#chapter-' + n);
  if (window.wedlmPresent) window.wedlmPresent.fit(); }"""
# a chapter left from its foot (Back / Next there): the new chapter from its top, the nav in view
# (once the page shows chapter n: Gradio draws the new chapter a moment after the event; its
# pictures then grow, and the browser's scroll anchoring can carry the page down past the nav
# again: looked at again a moment later)
TO_NAV_JS = """(n) => { let tries = 0;
  const nav = () => document.querySelector('#tour-nav');
  const again = () => { if (nav() && nav().getBoundingClientRect().top < -1) nav().scrollIntoView({block: 'start'}); };
  const look = () => { const open = document.querySelector('#chapter-' + n);
    if (!open || !open.offsetParent) { if (++tries < 40) setTimeout(look, 50); return; }
    if (nav()) nav().scrollIntoView({block: 'start'});
    [300, 800, 1500].forEach(ms => setTimeout(again, ms)); };
  look(); }"""
# a move from a chapter's foot: the address, then the new chapter's top
FOOT_MOVE_JS = f"(n) => {{ ({WRITE_LINK_JS})(n); ({TO_NAV_JS})(n); }}"
FIT_JS = "() => { if (window.wedlmPresent) window.wedlmPresent.fit(); }"
# a link's step (already checked on the server) on the chapter's stepper, once its bundle is unpacked
SHOW_STEP_JS = """(n, step) => {
  if (step === null || step === undefined || step === '' || !window.wedlmStepper) return;
  const key = 'tour-' + n;
  let tries = 0;
  const timer = setInterval(() => {
    if (window.wedlmStepper.ready(key)) { clearInterval(timer); window.wedlmStepper.show(key, step); }
    else if (++tries > 150) clearInterval(timer);
  }, 100);
}"""
TOGGLE_JS = "() => { if (window.wedlmPresent) window.wedlmPresent.toggle(); }"


def present_label(lang: str = i18n.DEFAULT) -> str:
    return i18n.text(lang, "views.js.present")


def stop_label(lang: str = i18n.DEFAULT) -> str:
    return i18n.text(lang, "views.js.stop_presenting")


def badge(lang: str = i18n.DEFAULT) -> str:
    """The badge projector mode shows in the nav (keys to move and to leave); ↓/↑ (steps) and W
    (the picture ⇄ narration switch) only where they act: style.css shows the step keys while the
    open chapter has a stepper (present.js: .present-steps) and W while present.js flips the panes.
    A narrow or 4:3 screen (present.js: .present-flip) shows the short badge, one line; the keys
    are in its title (the long one wrapped to 3 lines of 12 px at 1024x768); W is on the pane switch."""
    return (f'<div id="presenting-badge" class="presenting-badge" aria-live="polite" '
            f'title="{i18n.text(lang, "tour.presenting_keys")}{i18n.text(lang, "views.present.pane_key_title")}">'
            f'<span class="badge-long">{i18n.text(lang, "tour.presenting_badge")}'
            f'<span class="badge-step-key">{i18n.text(lang, "views.present.step_keys")}</span>'
            f'<span class="badge-pane-key">{i18n.text(lang, "views.present.pane_key")}</span></span>'
            f'<span class="badge-short">{i18n.text(lang, "tour.presenting_badge_short")}</span></div>')


def keys_strip(lang: str = i18n.DEFAULT) -> str:
    """The keys on a narrow or 4:3 screen, where the badge is short (present.js: .present-flip):
    a strip at the bottom left, in the row the pane switch (and W) takes at the bottom right, so
    ←/→ and ↓/↑ are on screen and not only in the badge's tooltip. ↓/↑ only where they step."""
    return (f'<div id="present-keys" class="present-keys" aria-hidden="true">'
            f'{i18n.text(lang, "tour.presenting_keys_strip")}'
            f'<span class="badge-step-key">{i18n.text(lang, "views.present.step_keys")}</span></div>')


BADGE = badge()   # the English


def link_chapter(value, chapters: int) -> int:
    """A chapter number from the page link (untrusted): 1..chapters, else 1."""
    try:
        n = int(float(value))
    except (TypeError, ValueError, OverflowError):
        return 1
    return n if 1 <= n <= chapters else 1
