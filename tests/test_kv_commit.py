"""Which tokens become final, and when a token's KV enters the cache (the recap's Q3), said the same
way in every chapter and drawn the same way in every view, from the recorded traces: a walker
answered it right but unsure, after chapter 2's stop token "kept its KV" and chapter 10's "got
none", after the input's leading run was called "committed (in the KV cache)" before the forward
that caches it, and after chapter 10 committed "by another rule" it never stated."""
import re
from html import unescape

import pytest

from app import i18n
from app.tabs import tour
from app.tabs.tour import ch2_fill_rule, ch3_reordering, ch4_commit, ch10_verified
from app.views import palette, render

LANGS = ("en", "zh")


@pytest.fixture(scope="module")
def data():
    return tour.load_tour()


def squash(html: str) -> str:
    return " ".join(unescape(re.sub(r"<[^>]+>", " ", html)).split())


def joined(html: str, lang: str) -> str:
    """The words as a reader reads them (Chinese without the spaces tags leave)."""
    text = squash(html)
    return text.replace(" ", "") if lang == "zh" else text


def stop_facts(tl):
    """Where the decode's stop token is, the step that wrote it, and whether its KV is in the cache at
    the end, read from the record alone: the cache holds positions below the last step's cache_after."""
    last = tl.trace.steps[-1]
    stops = tl.trace.stop_ids
    pos = next((last.start + i for i, t in enumerate(last.committed) if t in stops), None)
    if pos is None:
        pos = min(f.pos for f in last.filled if f.token in stops)
    wrote = max(s.index for s in tl.trace.steps for f in s.filled if f.pos == pos and f.token in stops)
    return pos, wrote, pos < last.cache_after


CHAPTERS = {2: ("fill_rule", ch2_fill_rule), 3: ("reorder", ch3_reordering), 4: ("commit", ch4_commit),
            10: ("verified", ch10_verified)}


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("chapter", sorted(CHAPTERS))
def test_each_chapters_stop_token_sentence_says_why_from_its_own_trace(data, chapter, lang):
    """After the shared rule, each chapter's last step says why its stop token has a KV or none, in
    the same words: a later forward read it (its KV is in the cache at the end) or none did."""
    pick, module = CHAPTERS[chapter]
    tl, moment = data.at(pick)
    last = tl.num_steps - 1
    assert tl.trace.steps[last].stop_reason == "stop_token"
    pos, wrote, cached = stop_facts(tl)
    said = joined(module.text(tl, last, moment, lang=lang), lang)
    assert joined(i18n.text(lang, "tour.ending.kv_rule"), lang) in said
    read_step = next((s.index for s in tl.trace.steps[wrote + 1:]
                      if 0 <= pos - s.start < len(s.committed) and s.window[pos - s.start] in tl.trace.stop_ids), None)
    assert (read_step is not None) == cached      # a forward read it with no mask before it iff its KV is cached
    read = i18n.text(lang, "tour.ending.kv_read", read=read_step, wrote=wrote) if cached else None
    unread = i18n.text(lang, "tour.ending.kv_unread", wrote=wrote, after=tl.trace.steps[last].cache_after)
    if cached:
        assert joined(read, lang) in said and joined(unread, lang) not in said
    else:
        assert joined(unread, lang) in said
        assert not any(joined(i18n.text(lang, "tour.ending.kv_read", read=k, wrote=wrote), lang) in said
                       for k in range(tl.num_steps))


def test_chapter_10s_aside_on_chapters_2_to_4_holds_for_their_traces(data):
    """Chapter 10's ending says chapters 2–4's stop token was read by a later forward and cached:
    true of each of their recorded traces, and chapter 10's own was not."""
    for pick in ("fill_rule", "reorder", "commit"):
        assert stop_facts(data.at(pick)[0])[2], pick
    tl, moment = data.at("verified")
    assert not stop_facts(tl)[2]
    said = squash(ch10_verified.text(tl, tl.num_steps - 1, moment))
    assert "(In chapters 2–4 a later forward read it, so its KV entered the cache.)" in said


def _classes(html: str, cls: str) -> list[int]:
    """data-pos of every element whose class list holds `cls`."""
    return [int(m.group(2)) for m in re.finditer(r'class="([^"]*)"[^>]*?data-pos="(\d+)"', html)
            if cls in m.group(1).split()]


def test_no_token_is_labelled_committed_before_a_forward_wrote_its_kv(data):
    """Over every recorded trace and step: a forward's input (the order view, the mask grid) calls
    its leading run "committing now" (this forward writes their KV), never "committed (in the KV
    cache)"; a token is drawn committed only once a forward at or before the step shown wrote its
    KV (the canvas shows the output after the step's forward)."""
    committed_label = palette.state_label("committed")
    for name, tl in data.timelines.items():
        for k, s in enumerate(tl.trace.steps):
            orders = render.order_view(tl, k)
            for pos in _classes(orders, "st-committed"):
                p = tl.positions[pos]
                assert p.commit_step is not None and p.commit_step < k, (name, k, pos)
            committing = _classes(orders, "st-committing")
            for pos in committing:
                assert tl.positions[pos].commit_step == k, (name, k, pos)   # this very forward writes its KV
            legend = orders.split('class="legend"', 1)[1]
            assert (committed_label in legend) == bool(_classes(orders, "st-committed")), (name, k)
            if committing:
                assert palette.state_label("committing") in legend, (name, k)
            assert orders.count('class="kv st-committing"') == len(s.committed), (name, k)
            # the cache row's blue chips (prompt and earlier commits) have a key where they are drawn
            assert ('class="kv legend"' in legend) == ('<div class="kv" data-pos' in orders), (name, k)
            canvas = render.token_canvas(tl, k, tips=False)
            for pos in _classes(canvas, "st-committed"):
                p = tl.positions[pos]
                assert p.commit_step is not None and p.commit_step <= k, (name, k, pos)
            if tl.trace.decoder != "ar":
                grid = render.mask_grid(tl, k, logical=True)
                assert "rowlab st-committed" not in grid, (name, k)


@pytest.mark.parametrize("lang", LANGS)
def test_the_committing_state_has_its_own_words_colour_and_mark(lang):
    label = palette.state_label("committing", lang)
    assert label != palette.state_label("committed", lang)
    assert palette.STATE_COLOURS["committing"] != palette.STATE_COLOURS["committed"]
    word = palette.colour_word("state-committing", lang)
    assert word and word != palette.colour_word("state-committed", lang)
    assert palette.STATE_MARKS["committing"] != palette.STATE_MARKS["committed"]


@pytest.mark.parametrize("lang", LANGS)
def test_chapter_10_says_its_commit_rule_where_it_first_commits(data, lang):
    """One sentence, right after the step's commit: the drafts that agree, then the model's one (AR)
    token become final; the drafts' KV enters now, the AR token's at the next forward. The record
    bears it out at every verified step the decode goes on from."""
    tl, moment = data.at("verified")
    said = joined(ch10_verified.text(tl, moment, moment, lang=lang), lang)
    rule = joined(i18n.text(lang, "ch10.rule"), lang)
    grows = {"en": f"the KV cache grows {tl.trace.steps[moment].cache_before} → {tl.trace.steps[moment].cache_after}",
             "zh": f"KV缓存增长{tl.trace.steps[moment].cache_before}→{tl.trace.steps[moment].cache_after}"}[lang]
    assert rule in said and said.index(grows) < said.index(rule)
    assert len(i18n.text("en", "ch10.rule").split()) <= 40
    for s, nxt in zip(tl.trace.steps, tl.trace.steps[1:]):
        v = s.verify
        assert s.committed == s.window[:1 + v.accepted]            # slot 0, then the drafts that agreed
        assert nxt.start == v.ar_pos == s.start + len(s.committed)  # the AR token comes right after them
        assert nxt.window[0] == v.ar_token and nxt.committed[0] == v.ar_token   # its KV: the next forward's


@pytest.mark.parametrize("lang", LANGS)
def test_chapter_2s_first_commit_is_linked_and_glossed(data, lang):
    tl, moment = data.at("fill_rule")
    html = ch2_fill_rule.text(tl, moment, moment, lang=lang)
    body = html.split('class="tour-facts"', 1)[0]
    first = re.search(r'<a class="gloss"[^>]*data-term="commit"[^>]*>([^<]*)</a>', body)
    assert first, lang
    before = squash(body[:first.start()])
    assert not re.search(r"\bcommit" if lang == "en" else "提交", before), before[-80:]
    gloss = re.match(r"\s*[（(]([^)）]*)[)）]", unescape(re.sub(r"<[^>]+>", "", body[first.end():])))
    assert gloss, body[first.end():first.end() + 80]
    if lang == "en":
        assert 4 <= len(gloss.group(1).replace(";", " ").split()) <= 8 and "KV" in gloss.group(1)
    else:
        assert "KV" in gloss.group(1) and "缓存" in gloss.group(1)


def test_a_forward_with_a_mask_in_front_is_not_said_to_commit(data):
    """Walk 17 read "16 = 0 in the leading filled run … the leading filled run commits: its KV enters
    the cache now" at steps where nothing commits: a forward whose first slot is a mask says that no
    run leads and nothing commits, and its cache does not grow; one with a run still says it commits."""
    said_none = said_run = 0
    for name, tl in data.timelines.items():
        if tl.trace.decoder not in ("streaming", "reference"):
            continue
        for k, s in enumerate(tl.trace.steps):
            words = squash(render.order_view(tl, k))
            if s.window and s.window[0] is None:
                assert s.cache_after == s.cache_before and not s.committed, (name, k)
                assert "nothing commits" in words and "enters the cache now" not in words, (name, k)
                said_none += 1
            else:
                assert "nothing commits" not in words, (name, k)
                said_run += 1
    assert said_none and said_run
