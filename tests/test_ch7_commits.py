"""Chapter 7's table of forwards by the tokens each committed, and its sentence on decodes under
1 token per forward: every number checked against the recorded step records, counted here another
way (the KV cache's growth at each forward, the decode's own token list)."""
from __future__ import annotations

import re
from html import unescape

import pytest

from app import i18n
from app.tabs import tour
from app.tabs.tour import ch7_entropy, figs
from app.views import entropy

PICKS = ("entropy_low", "entropy_high", "entropy_code")   # counting, a play, code: the decodes ch7 names


@pytest.fixture(scope="module")
def data():
    return tour.load_tour()


def kept_per_forward(trace) -> list[int]:
    """Tokens each forward committed, read as the KV cache's growth (not from `committed`)."""
    return [s.cache_after - s.cache_before for s in trace.steps]


def bucket(n: int) -> str:
    return str(n) if n < 3 else "3+"


def chapter(data, lang="en"):
    return ch7_entropy.view(data.law_rows, data.at("entropy_low"), data.at("entropy_high"),
                            code=data.at("entropy_code"), lang=lang)


def table_rows(html: str) -> list[dict]:
    """The table as a reader gets it: per row, its tokens and the count in each column."""
    rows = []
    for tr in re.findall(r"<tr data-decode=.*?</tr>", html, re.S):
        rows.append({"tokens": int(re.search(r'data-tokens="(\d+)"', tr).group(1)),
                     "label": unescape(re.sub(r"<[^>]+>", " ", re.search(r"<th.*?</th>", tr, re.S).group(0))),
                     "counts": {b: int(n) for b, n in re.findall(r'data-commits="([^"]+)" data-forwards="(\d+)"', tr)},
                     "shown": [int(n) for n in re.findall(r"<b>(\d+)</b>", tr)]})
    return rows


def test_the_table_counts_each_decodes_forwards_by_what_they_committed(data):
    table = chapter(data)[5]
    rows = table_rows(table)
    assert len(rows) == len(PICKS)
    for row, pick in zip(rows, PICKS):
        trace = data.at(pick)[0].trace
        kept = kept_per_forward(trace)
        expected = {b: sum(1 for k in kept if bucket(k) == b) for b in ("0", "1", "2", "3+")}
        assert row["counts"] == expected, pick
        assert row["shown"] == list(expected.values())          # the numbers a reader sees
        assert sum(row["counts"].values()) == len(trace.steps) == trace.stats()["forwards"]
        # every committed token is counted once: the sum over forwards is the decode's output
        assert sum(kept) == len(trace.token_ids) == row["tokens"]
        # the row's sum a reader checks at a glance: tokens ÷ forwards = its tokens per forward
        tpf = f"{round(len(trace.token_ids) / len(trace.steps), 2):.2f}"
        assert f"{len(trace.token_ids)} tokens ÷ {len(trace.steps)} forwards = {tpf}" in row["label"].replace("\u00a0", " ")
    # what the class must see: counting's forwards commit many, the slow ones mostly nothing
    counting, play = rows[0]["counts"], rows[1]["counts"]
    assert counting["3+"] > counting["0"] and play["0"] > play["3+"] + play["2"] + play["1"]


def test_a_forward_that_commits_nothing_is_painted_in_the_mask_colour_the_words_name(data):
    text, *_, table = chapter(data)
    for cell in re.findall(r"<td[^>]*>.*?</td>", table, re.S):
        zero = 'data-commits="0"' in cell
        role = "mask" if zero else "committed"
        assert f'data-state="{role}"' in cell and entropy.palette.STATE_COLOURS[role] in cell
    assert 'data-role="state-mask"' in text and 'data-role="state-committed"' in text


def test_the_sentence_states_the_records_idle_share_under_one_token_per_forward(data):
    slow = {}
    for pick in PICKS:
        trace = data.at(pick)[0].trace
        kept = kept_per_forward(trace)
        if len(trace.token_ids) < len(trace.steps):   # under 1 token per forward
            slow[pick] = int(100 * kept.count(0) / len(kept) + 0.5)   # rounded half up
            # why: a forward that committed nothing was fed a mask in its front slot
            for k, s in enumerate(trace.steps):
                if not kept[k]:
                    assert s.window[0] is None
    assert list(slow) == ["entropy_high", "entropy_code"]          # the play and the code decode
    assert all(x > 0 for x in slow.values())  # below 1 means some forwards commit nothing
    play, code = slow.values()
    counting = data.at("entropy_low")[0].trace
    most = max(kept_per_forward(counting))
    en = unescape(re.sub(r"<[^>]+>", "", chapter(data)[0]))
    # each decode's share said for that decode (a walker could not parse "63–91 % of the forwards in
    # each decode here under 1 (a play, code; grey in the table)")
    assert (f"commits nothing ({play} % of a play’s and {code} % of code’s: grey in the table) but loses "
            f"nothing: its fills commit later, together (green: up to {most} at once in counting)") in en
    zh = unescape(re.sub(r"<[^>]+>", "", chapter(data, "zh")[0]))
    assert f"什么都不提交（剧本的 {play}%、代码的 {code}%：表中灰色），但也没有损失" in zh
    assert f"绿色：计数一次最多提交 {most} 个" in zh


def test_the_sentence_follows_the_record_not_a_fixed_number(data):
    """Drop the play's first idle forward's record: the share the sentence states moves with it."""
    from dataclasses import replace
    from app.views.timeline import Timeline
    tl, step = data.at("entropy_high")
    trace = tl.trace
    first_idle = next(k for k, s in enumerate(trace.steps) if not s.committed)
    fewer = replace(trace, steps=trace.steps[:first_idle] + trace.steps[first_idle + 1:])
    words = ch7_entropy.idle_paragraph(ch7_entropy.named_decodes(data.at("entropy_low"), (Timeline(fewer), step),
                                                                 data.at("entropy_code")))
    said, before = (f"{ch7_entropy.share_range([entropy.idle_share(t)])} % of a play’s" for t in (fewer, trace))
    assert said in words and said != before


def test_shares_round_half_up_as_a_reader_does():
    """Walk 9: 5/8 = 62.5 % was written 62 while 29/32 = 90.6 % was written 91."""
    assert ch7_entropy.share_range([5 / 8, 29 / 32]) == "63–91"
    assert ch7_entropy.share_range([0.125, 0.125]) == "13"


def code_example(trace) -> dict:
    """The code decode recounted from its step records, not by entropy.front_wait: the code tokens it
    commits before its stop token, its fills at or behind the stop token's slot (end-of-text), and how
    many forwards fed its hardest front fill's slot as a mask before the one that filled it."""
    ids = trace.token_ids
    written = next(i for i, t in enumerate(ids) if t in trace.stop_ids)
    first = min(s.cache_before for s in trace.steps)        # the first generated slot
    fills = [(k, f) for k, s in enumerate(trace.steps) for f in s.filled]
    end = sum(1 for _, f in fills if f.pos >= first + written)
    k, hard = max(((k, f) for k, f in fills if f.pos == trace.steps[k].start), key=lambda e: e[1].entropy)
    held = sum(1 for s in trace.steps[:k] if hard.pos in {m.pos for m in s.masks})
    return {"written": written, "end": end, "held": held}


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_code_example_writes_code_and_says_how_long_its_hard_slot_held(data, lang):
    """A student said the code example 'shows padding, not code': 14 of its 17 fills were end-of-text,
    3 code tokens. The recorded code decode now writes code before its stop token (more code tokens
    than end-of-text fills; with its prompt, Python that parses), and the words say how many code
    tokens it writes, how many fills are end-of-text, and how many forwards the unsure token's slot
    stayed a mask, each recounted here."""
    import ast
    trace = data.at("entropy_code")[0].trace
    n = code_example(trace)
    assert n["written"] > n["end"] and n["held"] > 1     # mostly code, not padding; a long hold
    body = ast.parse(trace.prompt + trace.text).body[-1].body   # real code: the function parses as Python
    assert len(body) > 2           # its docstring and statements the model wrote
    words = plain(chapter(data, lang)[0])
    said = {"en": [f"writes {n['written']} code tokens, then its stop token.", f"stays a mask for {n['held']} forwards"],
            "zh": [f"写出 {n['written']} 个代码词元，然后是停止词元。", f"连续 {n['held']} 次前向计算都还是掩码"]}[lang]
    for phrase in said:
        assert phrase in words, (lang, phrase)


NUMBER = re.compile(r"\d+(?:\.\d+)?")


def plain(html: str) -> str:
    return unescape(re.sub(r"<[^>]+>", "", html))


def pictured(law, bars, table) -> set[str]:
    """Every number a reader can read on the chapter's pictures: each point's entropy and tokens per
    forward as its hover writes them (2 decimals), the numbers in its name, the marks beside the
    diamonds, the table's cells and row sums, the score charts' titles and the slots their bars stand
    on (each bar's hover names its slot)."""
    out = set()
    for t in law.data:
        # a dot's hover writes its own entropy (customdata[1]; entropy.spread_x may draw it beside it)
        xs = [c[1] for c in t.customdata] if t.customdata is not None and "customdata[1]" in t.hovertemplate else t.x
        for x, y in zip(xs or (), t.y or ()):
            if x is not None:
                out |= {f"{x:.2f}", f"{y:.2f}"}
        for name in t.text or ():
            out |= set(NUMBER.findall(unescape(str(name))))
    for a in law.layout.annotations:
        out |= set(NUMBER.findall(a.text))
    for fig in bars:
        out |= set(NUMBER.findall(fig.layout.title.text))
        out |= {str(x) for t in fig.data if t.type == "bar" for x in t.x}
    return out | set(NUMBER.findall(plain(table)))


MEAN_SAID = {"en": ("the {n} {kind} dots (", ") average {h:.2f} nats and {tpf:.2f}"),
             "zh": ("{n} 个{kind}圆点（", "）平均 {h:.2f} 奈特、{tpf:.2f} 个")}
KIND = {"en": {"counting": "counting", "plays": "play"}, "zh": {"counting": "计数", "plays": "剧本"}}


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_every_number_in_the_words_is_on_the_pictures_or_the_named_mean_of_the_dots(data, lang):
    """A newcomer read 13.7 tokens per forward for counting (the mean of 3 prompts) and 0.36 for code
    in the words, and 'counting: 12.00', 'code: 0.50' on the diamonds (other prompts). Now the words
    name each diamond's decode with the number its mark and table row say, and a kind's mean is said
    to be the mean of its N dots (recomputed here from the suite's rows). Every other number is on a
    picture or is a fact of the decodes the pictures show, recounted here from their step records;
    the paper's sentence (its own measurement, quoted) aside."""
    text, law, bars_low, bars_high, bars_code, table = chapter(data, lang)
    words = plain(text).replace(plain(ch7_entropy.i18n.text(lang, "ch7.paper")), "")
    allowed = pictured(law, (bars_low, bars_high, bars_code), table)
    # the diamonds: each named by its table row's prompt, with its mark's number
    diamonds = [t for t in law.data if t.marker.symbol == "diamond" and t.x[0] is not None]
    assert len(diamonds) == len(PICKS)
    for pick, point in zip(PICKS, diamonds):
        trace = data.at(pick)[0].trace
        tpf = f"{round(len(trace.token_ids) / len(trace.steps), 2):.2f}"
        assert point.y[0] == float(tpf)
        name = ch7_entropy.short_prompt(trace.prompt)
        assert name in words, (pick, name)
        sentence = re.split(r"\. |。", words[words.index(name):])[0]
        assert tpf in sentence, (pick, tpf, sentence)   # said in the sentence that names it
    said = {"en": "(the diamond) makes", "zh": "（菱形）"}[lang]
    assert words.count(said) == 2   # counting's and the play's (code's: "the diamond “code”")
    # a kind's mean: said to be the mean of its dots, each dot named, the mean recomputed
    for cls in ("counting", "plays"):
        dots = [r for r in data.law_rows if r["class"] == cls]
        head, tail = MEAN_SAID[lang]
        n, h = len(dots), sum(r["entropy"] for r in dots) / len(dots)
        tpf = sum(r["tokens_per_forward"] for r in dots) / len(dots)
        start = words.index(head.format(n=n, kind=KIND[lang][cls]))
        end = words.index(tail.format(h=h, tpf=tpf), start)
        assert all(entropy.prompt_name(r) in words[start:end] for r in dots), cls
        allowed |= {str(n), f"{h:.2f}", f"{tpf:.2f}"}
    # the facts of the pictured decodes the words tell, recounted from their step records
    code = data.at("entropy_code")[0].trace
    wait = entropy.front_wait(code)
    allowed |= {str(wait["fills"])} | {str(n) for n in code_example(code).values()}
    # its hard front slot's score at code's chart's step: the chart's first bar
    front = code.steps[bars_code.layout.meta["step"]].masks[0]
    assert front.pos == wait["pos"] and front.score == next(t for t in bars_code.data if t.type == "bar"
                                                            and str(front.pos) in t.x).y[0]
    allowed |= {str(front.pos), f"{front.score:.2f}"}
    # ch7.code's one-fill forwards, and what the forwards holding its hard slot filled after it and the
    # next forward committed; ch7.idle's fills - lost = tokens per slow decode: recounted from the steps
    k = next(k for k, s in enumerate(code.steps) if any(f.pos == wait["pos"] for f in s.filled))
    for pick in ("entropy_code", "entropy_high", "entropy_low"):   # ch7.code's forwards under τ, recounted
        scored = [s for s in data.at(pick)[0].trace.steps if s.masks]
        under = [sum(1 for m in s.masks if m.score < s.threshold) for s in scored]
        allowed |= {str(len(scored)), str(under.count(0)), str(sum(n == len(s.masks) for n, s in zip(under, scored)))}
    allowed |= {str(len(code.steps[k + 1].committed)),
                str(sum(1 for s in code.steps[:k] if wait["pos"] in {m.pos for m in s.masks}
                        for f in s.filled if f.pos > wait["pos"]))}
    # the code decode's τ, which its words hold each mask's score to: the score bars' τ line's
    tau = f"{code.steps[0].threshold:g}"
    assert any(t.name and f"τ = {tau}" in t.name for bars in (bars_low, bars_high, bars_code) for t in bars.data)
    allowed.add(tau)
    for pick in ("entropy_high", "entropy_code"):
        trace = data.at(pick)[0].trace
        fills = sum(len(s.filled) for s in trace.steps)
        allowed |= {str(fills), str(fills - len(trace.token_ids)), str(len(trace.token_ids)), str(len(trace.steps))}
    for pick in PICKS:
        kept = kept_per_forward(data.at(pick)[0].trace)
        allowed |= {str(int(100 * kept.count(0) / len(kept) + 0.5)), str(max(kept))}
    for pick in ("entropy_low", "entropy_high"):
        tl, step = data.at(pick)
        s = tl.trace.steps[step]
        allowed |= {str(len(s.filled)), str(len(s.masks) - len(s.filled))}
    # the split sentence's counts and bounds: the dots whose mean is under τ's value and the others, recounted
    left, right = split_by_hand(data.law_rows, code.config["threshold"])
    allowed |= {str(len(left)), str(len(right))} | {f"{x:.2f}" for x in left + right}
    stray = [x for x in NUMBER.findall(words) if x not in allowed]
    assert not stray, (lang, stray)


def test_the_words_say_where_fills_go_as_the_decoder_does(data):
    """Walk 18: "if every fill committed, the rate would be about 1": the old words blamed forwards that
    commit nothing, which only delay their fills. The words now say where fills go and the records show
    it: every forward but the last fills a slot, no slot is filled twice, a forward commits exactly the
    leading filled run of the window it was fed (filled by earlier forwards), so a forward fed a mask in
    its front slot commits nothing but loses nothing; what is lost is the fills past the stop token:
    tokens = fills - those, said per slow decode."""
    en, zh = plain(chapter(data)[0]), plain(chapter(data, "zh")[0])
    assert "Every forward but the last fills a slot, and no fill is undone." in en
    assert "除了最后一次，每次前向计算都至少填一个槽位，填好的不会撤销" in zh
    for pick, name in (("entropy_high", "a play"), ("entropy_code", "code")):
        trace = data.at(pick)[0].trace
        assert all(s.filled for s in trace.steps[:-1]) and not trace.steps[-1].filled, pick
        positions = [f.pos for s in trace.steps for f in s.filled]
        assert len(positions) == len(set(positions)), pick                 # no fill undone or redone
        stop = next(i for i, t in enumerate(trace.token_ids) if t in trace.stop_ids)
        stop_pos = min(s.cache_before for s in trace.steps) + stop
        past = sum(1 for p in positions if p > stop_pos)
        tokens = len(trace.token_ids)
        assert len(positions) - past == tokens, pick                       # lost: only the fills past the stop token
        assert (f"{name}: {len(positions)} fills − {past} = {tokens} tokens in {len(trace.steps)} forwards") in en
    for pick in PICKS:
        trace = data.at(pick)[0].trace
        filled_at = {}
        for k, s in enumerate(trace.steps):
            run = next((i for i, t in enumerate(s.window) if t is None), len(s.window))
            assert s.committed == s.window[:len(s.committed)] and len(s.committed) <= run, (pick, k)
            if not s.finished:   # a stop token or the budget ends the run early, at the last forward only
                assert len(s.committed) == run, (pick, k)
            assert all(filled_at[s.start + i] < k for i in range(len(s.committed))), (pick, k)
            for f in s.filled:
                filled_at[f.pos] = k
            if s.window[0] is None:
                assert not s.committed and s.filled, (pick, k)   # it fills, yet commits nothing


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_counting_dots_are_drawn_apart_and_their_hover_says_where_they_are(data, lang):
    """A walker saw one counting dot where the words said 3: the suite's three counting prompts make
    the same tokens per forward at entropies 0.002 apart, one on top of another. Dots that would lie
    on top of each other are drawn side by side (each a dot's width apart on the axis), centred on
    where they are but never left of 0; each one's hover names it, says it is one of N at one place and gives its own
    entropy (not where it is drawn); the words say they are drawn side by side."""
    text, law, *_ = chapter(data, lang)
    dots = [r for r in data.law_rows if r["class"] == "counting"]
    (trace,) = [t for t in law.data if t.name == entropy.class_name("counting", lang)]
    xs = list(trace.x)
    low, high = law.layout.xaxis.range
    assert len(xs) == len(dots) == 3 and len(set(trace.y)) == 1            # one height: only x tells them apart
    gaps = [b - a for a, b in zip(sorted(xs), sorted(xs)[1:])]
    assert min(gaps) >= 0.02 * (high - low)                                 # ≥ ~12 px apart at 1024 (12 px dots)
    mean = sum(r["entropy"] for r in dots) / 3
    # centred on where they are, unless that would draw one left of 0 (a negative entropy): then from 0
    assert min(xs) >= 0.0 and (abs(sum(xs) / 3 - mean) < 1e-3 or min(xs) == 0.0)
    assert min(xs) <= min(r["entropy"] for r in dots) + 1e-9                # the stack starts at its place
    assert low < min(xs)                                                    # none under the y-axis
    for r, x, name, custom in zip(dots, xs, trace.text, trace.customdata):
        assert custom[1] == r["entropy"] and "customdata[1]" in trace.hovertemplate   # hover: its own entropy
        assert unescape(name).startswith(entropy.prompt_name(r))
        assert i18n.text(lang, "views.law.spread", n=3) in name
    # a dot alone keeps its place and says nothing of the kind
    for t in law.data:
        if t.name == entropy.class_name("plays", lang):
            assert list(t.x) == [r["entropy"] for r in data.law_rows if r["class"] == "plays"]
            assert not any(i18n.text(lang, "views.law.spread", n=2) in s for s in t.text)
    said = {"en": "drawn side by side", "zh": "并排画出"}[lang]
    assert said in plain(text)


def test_dots_at_one_place_are_spread_and_others_stay():
    """entropy.spread_x on made-up rows: two dots at one place are drawn apart, centred; a dot of
    another class there, or of the same class at another height, stays where it is."""
    rows = [{"class": "a", "entropy": 0.010, "tokens_per_forward": 5.0},
            {"class": "a", "entropy": 0.012, "tokens_per_forward": 5.0},
            {"class": "b", "entropy": 0.011, "tokens_per_forward": 5.0},
            {"class": "a", "entropy": 0.011, "tokens_per_forward": 2.0},
            {"class": "a", "entropy": 3.0, "tokens_per_forward": 5.0}]
    drawn = entropy.spread_x(rows, 4.0)
    assert drawn[2:] == [0.011, 0.011, 3.0]
    # at about 0, centring would draw one left of 0 (a negative entropy): the stack starts at 0
    assert drawn[1] - drawn[0] == pytest.approx(entropy.SPREAD * 4.0) and drawn[0] == 0.0
    assert entropy.stack_sizes(rows, 4.0) == [2, 2, 1, 1, 1]
    # with room on both sides, the stack is centred on its dots' mean
    away = [dict(r, entropy=r["entropy"] + 1.0) for r in rows[:2]]
    far = entropy.spread_x(away, 4.0)
    assert far[1] - far[0] == pytest.approx(entropy.SPREAD * 4.0) and sum(far) / 2 == pytest.approx(1.011)
    assert min(entropy.spread_x(rows * 3, 4.0)) >= 0.0


# ---------- no τ line on the mean axis; the sentence on how the dots' means lie about τ's value ----------

def with_tau(data, tau: float):
    """The chapter's three decodes as recorded, but their config's τ (and every step's) set to `tau`
    (a record made at another τ: the words must follow it, never a constant)."""
    from wedlm import Trace
    from app.views.timeline import Timeline
    out = []
    for pick in PICKS:
        tl, step = data.at(pick)
        d = tl.trace.to_dict()
        d["config"] = {**d["config"], "threshold": tau}
        for st in d["steps"]:
            if st.get("threshold") is not None:
                st["threshold"] = tau
        out.append((Timeline(Trace.from_dict(d)), step))
    return out


def split_by_hand(rows, tau):
    """The dots each side of τ's value, recounted: left, a mean entropy under it; right, the others."""
    left = [r["tokens_per_forward"] for r in rows if r["entropy"] < tau]
    right = [r["tokens_per_forward"] for r in rows if not r["entropy"] < tau]
    return left, right


PER_MASK = {"en": "Its mean is far below a play's, but τ judges each mask's own score:",
            "zh": "它的平均熵远低于剧本，但 τ 比的是每个掩码自己的得分："}


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_chapter_7_draws_tau_only_where_it_judges_each_mask_never_on_the_mean_axis(data, lang):
    """Walk 25: the chart drew τ as a dashed line on its mean-entropy axis, titled "the τ line: masks
    under it fill together", and the words said code's "0.92 is right of the τ line", while the recap
    says τ is held to each mask's own score, never to a mean. The mean chart now draws no τ line (no
    shape, no τ mark) and its title says why; every score chart draws τ at the decodes' own τ, as a
    horizontal line across its bars; the words hold τ to each mask's score, and never place a mean
    left or right of a τ line."""
    text, law, *bars, _ = chapter(data, lang)
    taus = {data.at(p)[0].trace.config["threshold"] for p in PICKS}
    assert len(taus) == 1
    (tau,) = taus
    assert not law.layout.shapes, law.layout.shapes
    assert not any("τ" in (a.text or "") for a in law.layout.annotations), [a.text for a in law.layout.annotations]
    title = plain(law.layout.title.text)
    assert {"en": "τ judges each mask, below, not a mean", "zh": "τ 判的是每个掩码，见下图，不是平均值"}[lang] in title
    assert {"en": "masks under it fill together", "zh": "低于它的掩码一起填"}[lang] not in title
    assert len(bars) == 3 and all(b is not None for b in bars)
    for fig in bars:
        (line,) = [t for t in fig.data if t.name == f"τ = {tau:g}"]
        assert list(line.y) == [tau, tau] and line.line.dash == "dash"
        assert fig.layout.yaxis.title.text == i18n.text(lang, "tour.fig.score_axis")   # a mask's score, not a mean
    words = plain(text)
    assert PER_MASK[lang] in words
    assert not any(said in words for said in ("τ line:", "τ line, yet", "τ 线右边", "τ 线左边", "τ 虚线"))
    assert "ch7.code_left" not in i18n.catalog() and "ch7.code_right" not in i18n.catalog()


def test_chapter_7s_split_follows_a_record_made_at_another_tau(data):
    """Recorded at τ = 1.0 the words count the dots' means about 1.0 and nothing of 0.4 is left; the
    chart still draws no τ line on its mean axis, and its score charts draw τ at 1.0."""
    low, high, code = with_tau(data, 1.0)
    text, law, *bars, _ = ch7_entropy.view(data.law_rows, low, high, code=code)
    assert not law.layout.shapes
    words = plain(text)
    left, right = split_by_hand(data.law_rows, 1.0)
    assert f"Mean under 1 nats: {len(left)} dots" in words and "τ = 0.4" not in words
    assert f"the other {len(right)}" in words or f"{len(right)} dots" in words
    assert PER_MASK["en"] in words
    for fig in (b for b in bars if b is not None):
        assert [list(t.y) for t in fig.data if t.name == "τ = 1"] == [[1.0, 1.0]]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_chapter_7_says_how_the_dots_means_lie_about_taus_value_in_the_records_numbers(data, lang):
    """One sentence says how many dots have a mean under τ's value and the slowest of them, how many
    not and the fastest of them, recounted here from the record's dots; said once, in the first
    paragraph, as an observation of means (no τ line)."""
    text = chapter(data, lang)[0]
    words = plain(text)
    tau = data.at("entropy_code")[0].trace.config["threshold"]
    left, right = split_by_hand(data.law_rows, tau)
    assert left and right
    first = plain(re.findall(r"<p[^>]*>(.*?)</p>", text, re.S)[0])
    if min(left) > max(right):   # the record splits at τ's value: each side's bound
        said = {"en": f"Mean under {tau:g} nats: {len(left)} dots, each ≥\u00a0{min(left):.2f} tokens "
                      f"per forward; the other {len(right)}, each ≤\u00a0{max(right):.2f}.",
                "zh": f"平均熵低于 {tau:g} 奈特：{len(left)} 个圆点，每次前向计算的词元数都 ≥\u00a0{min(left):.2f}；"
                      f"其余 {len(right)} 个圆点，都 ≤\u00a0{max(right):.2f}。"}[lang]
    else:                        # it does not: each side's range
        said = {"en": f"{len(left)} dots, {min(left):.2f}–{max(left):.2f} tokens per forward; the other "
                      f"{len(right)} dots, {min(right):.2f}–{max(right):.2f}; the mean does not sort them.",
                "zh": f"{min(right):.2f}–{max(right):.2f}；平均熵并没有把它们分开。"}[lang]
    assert said in first and words.count(said) == 1, (said, first)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_split_sentence_says_what_the_dots_do_never_a_split_it_assumes(lang):
    """Made-up dots: a clean split gives each side's bound; overlapping sides each side's range and
    that the mean does not sort them; all on one side, that side's range; one dot is "1 dot"; no dots,
    nothing. A dot whose mean is τ's value itself counts with the others (the rule fills a score under τ)."""
    def row(h, tpf):
        return {"class": "x", "entropy": h, "tokens_per_forward": tpf}
    clean = [row(0.1, 5.0), row(0.2, 3.5), row(0.9, 0.8), row(0.4, 1.2)]
    sp = entropy.tau_split(clean, 0.4)
    assert (sp["left"], sp["left_lo"], sp["right"], sp["right_hi"], sp["clean"]) == (2, 3.5, 2, 1.2, True)
    said = plain(ch7_entropy.split_sentence(clean, 0.4, lang))
    assert ("3.50" in said and "1.20" in said and ("each ≥" in said or "都 ≥" in said)
            and "5.00" not in said and "0.80" not in said)
    mixed = [row(0.1, 0.9), row(0.2, 3.5), row(0.9, 2.0)]
    assert not entropy.tau_split(mixed, 0.4)["clean"]
    said = plain(ch7_entropy.split_sentence(mixed, 0.4, lang))
    assert "0.90–3.50" in said and "2.00" in said and "2.00–" not in said and "≥" not in said and "≤" not in said
    assert said.endswith({"en": "the mean does not sort them.", "zh": "平均熵并没有把它们分开。"}[lang])
    assert {"en": "1 dot,", "zh": "1 个圆点"}[lang] in said
    left_only = plain(ch7_entropy.split_sentence([row(0.1, 4.0), row(0.3, 0.7)], 0.4, lang))
    assert ({"en": "Every dot (2) has a mean under 0.4", "zh": "全部 2 个圆点的平均熵都低于 0.4"}[lang] in left_only
            and "0.70–4.00" in left_only and "or more" not in left_only)
    right_only = plain(ch7_entropy.split_sentence([row(1.1, 0.5), row(0.9, 0.9)], 0.4, lang))
    assert ({"en": "Every dot (2) has a mean of 0.4 nats or more", "zh": "全部 2 个圆点的平均熵都不低于 0.4"}[lang]
            in right_only and "0.50–0.90" in right_only)
    assert ch7_entropy.split_sentence([], 0.4, lang) == ""


# ---------- code's stall, drawn per mask: its third score chart ----------

def stall_by_hand(trace):
    """Code's stall recounted from the step records, not by entropy.front_stall: the hardest fill of a
    front slot (the slot the window starts at), then every earlier forward whose window started at that
    slot, still a mask, with no mask scoring under τ and one fill; of those, the ones where that slot
    scores highest, then the most masks."""
    fills = [(k, f) for k, s in enumerate(trace.steps) for f in s.filled if f.pos == s.start]
    k_hard, hard = max(fills, key=lambda e: (e[1].entropy, -e[0]))
    found = []
    for k, s in enumerate(trace.steps[:k_hard]):
        if s.start != hard.pos or s.window[0] is not None or not s.masks:
            continue
        if any(m.score < s.threshold for m in s.masks) or len(s.filled) != 1:
            continue
        front = next(m for m in s.masks if m.pos == hard.pos)
        found.append((front.score >= max(m.score for m in s.masks), len(s.masks), -k, k))
    return hard, (max(found)[-1] if found else None)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_codes_stall_is_drawn_per_mask_at_a_forward_where_none_is_under_tau(data, lang):
    """Walk 25: code's stall could only be read ("none scored under τ", "stays a mask for 16 forwards"),
    never seen. A third score chart draws code at a forward whose window starts at its unsure token's
    slot, still a mask: every mask scores at or above τ, so the rule fills the single lowest, which is
    not the front slot, and that forward commits nothing. The chart draws that forward's masks, its ✓
    on the one fill, its τ line; the words name that step, the front slot and its token, as the chart."""
    tl, _ = data.at("entropy_code")
    trace = tl.trace
    hard, k = stall_by_hand(trace)
    assert k is not None
    s = trace.steps[k]
    tau = s.threshold
    assert tau == trace.config["threshold"]
    assert all(m.score >= tau for m in s.masks)                           # none under τ
    lowest = min(s.masks, key=lambda m: m.score)
    assert [f.pos for f in s.filled] == [lowest.pos] != [hard.pos]          # the single lowest, not the front
    assert s.masks[0].pos == s.start == hard.pos and not s.committed        # the front a mask: nothing commits
    assert hard.pos in {m.pos for m in s.masks if not m.selected}
    text, law, low_fig, high_fig, code_fig, table = chapter(data, lang)
    assert code_fig.layout.meta["step"] == k
    assert f"{k}" in code_fig.layout.title.text and i18n.text(lang, "ch7.bars_code", step=k) == code_fig.layout.title.text
    bars = {t.name: t for t in code_fig.data if t.type == "bar"}
    filled, stays = bars[i18n.text(lang, "views.bars.key_filled")], bars[i18n.text(lang, "views.bars.key_mask")]
    assert list(filled.x) == [str(lowest.pos)] and filled.y[0] == lowest.score
    assert list(stays.x) == [str(m.pos) for m in s.masks if m.pos != lowest.pos]
    assert list(code_fig.layout.xaxis.categoryarray)[0] == str(hard.pos)   # the front slot: the first bar
    (ticks,) = [t for t in code_fig.data if t.type == "scatter" and t.mode == "text"]
    assert list(ticks.x) == [str(lowest.pos)]
    # the one fill is labelled under the axis (walk 26: 113 sat unlabelled between 110 and 114), and the
    # front slot unless the fill is its neighbour among the masks (two 3-digit labels ran together)
    labels = list(code_fig.layout.xaxis.ticktext)
    order = [str(m.pos) for m in s.masks]
    assert list(code_fig.layout.xaxis.tickvals) == labels and str(lowest.pos) in labels
    assert (str(hard.pos) in labels) == (order.index(str(lowest.pos)) != 1)
    assert all(order.index(b) - order.index(a) > 1 for a, b in zip(labels, labels[1:])), labels   # none side by side
    assert sum(map(len, labels)) <= figs.SLOT_DIGITS + len(str(hard.pos))   # room: the regular ones, and the fill
    (line,) = [t for t in code_fig.data if t.name == f"τ = {tau:g}"]
    assert min(stays.y) >= line.y[0] and filled.y[0] >= line.y[0]         # every bar at or above the line
    words = plain(text)
    token = plain(ch7_entropy.tok(tl, hard.token, lang))
    # the colour is the masks that stay (walk 30 read "the lowest (grey: …)" against its orange bar)
    said = {"en": f"code’s step {k} fill only the lowest (the rest grey: above τ).",
            "zh": f"代码的第 {k} 步都只填得分最低的那个（其余灰色：高于 τ）。"}[lang]
    assert said in words, (said, words)
    # its front slot named as the chart marks it (walk 27: 110 had no label while the words named it)
    front = {"en": f"Its front slot {hard.pos} ({token}: {s.masks[0].score:.2f} nats at step {k}, the chart’s first bar)",
             "zh": f"最前面的槽位 {hard.pos}（{token}：第 {k} 步得分 {s.masks[0].score:.2f} 奈特，即图中第一根柱）"}[lang]
    assert front in words, (front, words)
    # and marked over its bar where the axis leaves it unlabelled
    marks = [a for a in code_fig.layout.annotations if a.name == "front"]
    assert len(marks) == (str(hard.pos) not in labels)
    assert all(a.x == 0 and a.y == s.masks[0].score and a.text == i18n.text(lang, "tour.fig.front", pos=hard.pos)
               for a in marks)


def test_without_a_stall_there_is_no_code_chart_and_the_words_say_none(data):
    """Recorded at a τ over every score (nothing is ever the single lowest fill alone), no forward is a
    stall: no third chart, and the words speak of counting's and the play's charts only."""
    low, high, code = with_tau(data, 100.0)
    assert entropy.front_stall(code[0].trace) is None
    text, law, low_fig, high_fig, code_fig, table = ch7_entropy.view(data.law_rows, low, high, code=code)
    assert code_fig is None and "code’s step" not in plain(text)
    # no chart to point at: the unsure token is named by its entropy at its fill
    wait = entropy.front_wait(code[0].trace)
    token = plain(ch7_entropy.tok(code[0], wait["token"], "en"))
    assert f"Its unsure token {token} ({wait['entropy']:.2f} nats at its fill) stays a mask" in plain(text)
    assert "the chart’s first bar" not in plain(text)
    text, *_, code_fig, _ = ch7_entropy.view(data.law_rows, data.at("entropy_low"), data.at("entropy_high"))
    assert code_fig is None and "stay masks" in plain(text)   # without the code decode: the pair's words


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_explorers_mean_line_is_a_reference_chapter_7_does_not_forbid(lang):
    """Walk 31: chapter 7's title said "no τ line" while the Entropy explorer drew a dashed line at
    mean = τ: one view seemed to forbid what the other drew. Chapter 7's title says what τ judges;
    the explorer's line says it is a reference, not the rule."""
    from app.views import entropy
    rows = [{"class": "counting", "entropy": 0.05, "tokens_per_forward": 9.0, "speedup_tokens_per_s": 5.0,
             "id": "a"}, {"class": "plays", "entropy": 4.0, "tokens_per_forward": 0.9,
                              "speedup_tokens_per_s": 0.6, "id": "b"}]
    fig = entropy.law_figure(rows, threshold=0.4, lang=lang)
    note = " ".join(a.text for a in fig.layout.annotations)
    assert {"en": "a reference, not the rule", "zh": "参考线，不是规则"}[lang] in note, note
    assert {"en": "no τ line", "zh": "不画 τ 线"}[lang] not in i18n.text(lang, "ch7.law_title")
