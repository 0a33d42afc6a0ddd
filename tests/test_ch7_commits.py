"""Chapter 7's table of forwards by the tokens each committed, and its sentence on decodes under
1 token per forward: every number checked against the recorded step records, counted here another
way (the KV cache's growth at each forward, the decode's own token list)."""
from __future__ import annotations

import re
from html import unescape

import pytest

from app.tabs import tour
from app.tabs.tour import ch7_entropy
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
    table = chapter(data)[4]
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
    slow = []
    for pick in PICKS:
        trace = data.at(pick)[0].trace
        kept = kept_per_forward(trace)
        if len(trace.token_ids) < len(trace.steps):   # under 1 token per forward
            slow.append(int(100 * kept.count(0) / len(kept) + 0.5))   # rounded half up
            # why: a forward that committed nothing was fed a mask in its front slot
            for k, s in enumerate(trace.steps):
                if not kept[k]:
                    assert s.window[0] is None
    assert len(slow) >= 2          # the play and the code decode
    lo, hi = min(slow), max(slow)
    share = f"{lo}–{hi}" if lo != hi else f"{lo}"
    assert all(x > 0 for x in slow)  # below 1 means some forwards commit nothing
    counting = data.at("entropy_low")[0].trace
    most = max(kept_per_forward(counting))
    en = unescape(re.sub(r"<[^>]+>", "", chapter(data)[0]))
    assert f"in each decode here under 1 (a play, code), {share} % of the forwards commit nothing" in en
    # green names the forwards that commit, in every row (a walker read it as counting's colour)
    assert f"green: a forward that commits, up to {most} tokens in counting" in en
    zh = unescape(re.sub(r"<[^>]+>", "", chapter(data, "zh")[0]))
    assert f"（剧本、代码）里，都有 {share}% 的前向计算什么也没提交" in zh
    assert f"有提交的前向计算，计数一次最多提交 {most} 个词元" in zh


def test_the_sentence_follows_the_record_not_a_fixed_number(data):
    """Drop the play's first idle forward's record: the share the sentence states moves with it."""
    from dataclasses import replace
    from app.views.timeline import Timeline
    tl, step = data.at("entropy_high")
    trace = tl.trace
    first_idle = next(k for k, s in enumerate(trace.steps) if not s.committed)
    fewer = replace(trace, steps=trace.steps[:first_idle] + trace.steps[first_idle + 1:])
    shares = [entropy.idle_share(fewer), entropy.idle_share(data.at("entropy_code")[0].trace)]
    words = ch7_entropy.idle_paragraph(ch7_entropy.named_decodes(data.at("entropy_low"), (Timeline(fewer), step),
                                                                 data.at("entropy_code")))
    assert ch7_entropy.share_range(shares) in words
    assert ch7_entropy.share_range(shares) != ch7_entropy.share_range(
        [entropy.idle_share(trace), entropy.idle_share(data.at("entropy_code")[0].trace)])


def test_shares_round_half_up_as_a_reader_does():
    """Walk 9: 5/8 = 62.5 % was written 62 while 29/32 = 90.6 % was written 91."""
    assert ch7_entropy.share_range([5 / 8, 29 / 32]) == "63–91"
    assert ch7_entropy.share_range([0.125, 0.125]) == "13"
