"""Chapter 7: entropy and speed, how many masks fill at once. Mean entropy is not enough: a decode
is fast when many masks fall under τ at once, and τ is held to each mask's own score, never to a mean
(so the mean-entropy chart draws no τ line: τ is drawn on the score charts, where it judges). Every
forward but the last fills a slot and no fill is undone, so a forward that commits nothing (its front
slot a mask) delays its fills, it does not lose them; what is lost is the fills past the stop token.
The entropy -> tokens per forward plot of the suite (dots) with the chapter's three recorded decodes
(diamonds, named by prompt and number in the words), one step at each extreme and one of code's
(every mask above τ, its unsure front slot stays a mask while the lowest behind it fills), why code
is slow (one fill per forward; its hard front token held the commits back) and a table of what each
forward of those decodes committed."""
from __future__ import annotations

import math
from html import escape

import gradio as gr

from ... import i18n
from ...serving.context import make_config
from ...views import entropy
from . import figs
from .data import LAW_MAX_NEW
from .frame import body, live_bar, live_decode, pool, prompt_words, try_box
from .glossary import terms
from .words import colour, gap, narration, term, tok

TITLE = i18n.text(i18n.DEFAULT, "ch7.title")
LAW_HEIGHT = 385  # px (the explorer draws it entropy.LAW_HEIGHT tall; 430 presents ch7 at 1920x1080 below 20 px, and so
# did 400 once the code row of the table below wrapped to two lines)


def class_mean(rows: list[dict], cls: str, key: str) -> float:
    vals = [r[key] for r in rows if r["class"] == cls]
    return sum(vals) / len(vals) if vals else float("nan")


def named(row: dict) -> str:
    """A suite row named by its prompt (entropy.prompt_name), marked as the model's words."""
    return f'<code translate="no">{escape(entropy.prompt_name(row))}</code>'


def decode_named(trace) -> str:
    """A recorded decode (a diamond) named in a sentence as its table row names it (short_prompt),
    marked as the model's words."""
    return f'<code translate="no">{escape(short_prompt(trace.prompt))}</code>'


def short_prompt(prompt: str) -> str:
    """A decode's prompt in a table row's name: its first line up to a colon or bracket ('ROMEO',
    'def sum_list', 'Count from 1 to 20')."""
    first = (prompt.strip().splitlines() or [""])[0]
    return first.split("(")[0].split(":")[0].strip() or first


def table_decodes(decodes, lang: str = i18n.DEFAULT) -> list[tuple[str, object]]:
    """The table's rows named by kind and by their decode's prompt: one decode of each kind, which a
    reader does not take for the chart's prompts the text names (a walker read 'a play' beside
    JULIET and GLOUCESTER and found the ROMEO decode)."""
    return [(i18n.text(lang, "ch7.table_name", name=name, prompt=short_prompt(tl.trace.prompt)), tl)
            for name, tl in decodes]


def slowest_row(rows: list[dict]) -> dict:
    """The suite row with the fewest tokens per forward (the chapter names it; so does the recap)."""
    return min(rows, key=lambda r: r["tokens_per_forward"])


def row_ids(rows: list[dict], cls: str, lang: str = i18n.DEFAULT) -> str:
    """The suite's prompts of a class, by name (its points on the plot): never taken for another
    chapter's prompt."""
    return i18n.text(lang, "tour.list_sep").join(named(r) for r in rows if r["class"] == cls)


def title(lang: str = i18n.DEFAULT) -> str:
    return i18n.text(lang, "ch7.title")


def table_points(decodes, lang: str = i18n.DEFAULT) -> list[dict]:
    """The table's decodes (table_decodes: its rows' names, their timelines) as points of the
    chapter's chart: a diamond in its kind's colour, named as its table row, marked beside it with
    its kind and its tokens per forward (the row's "= 12.00"), so the table's counting decode at 12
    and the chart's counting prompts at 13.7 sit on one picture."""
    out = []
    for (name, tl), cls, key in zip(decodes, POINT_CLASSES, POINT_NAMES):
        trace = tl.trace
        # its first written line (the code prompt opens with blank lines, as HumanEval's does)
        first = trace.prompt.strip().splitlines()[0] + ("…" if "\n" in trace.prompt.strip() else "")
        point = entropy.trace_point(trace, name)
        mark = i18n.text(lang, "ch7.point_mark", name=i18n.text(lang, key), tpf=f"{point['tokens_per_forward']:.2f}")
        out.append({**point, "text": f"{escape(first)} ({escape(name)})", "mark": mark, "legend": False,
                    "mark_side": MARK_SIDES[cls], "symbol": "diamond", "colour": entropy.CLASS_COLOURS[cls]})
    return out


POINT_CLASSES = ("counting", "plays", "code")   # named_decodes' order: counting, a play, code
# where each diamond's mark sits (entropy.MARK_SIDES), clear of its neighbours down to a phone: right
# of counting's (the counting dots are above and below it), above-right of code's (centred above, it
# lay on the sequence dots left of it at 390 px)
MARK_SIDES = {"counting": "right", "plays": "above", "code": "above_right"}
POINT_NAMES = ("ch7.name_low", "ch7.name_high", "ch7.name_code")


def points_key(lang: str = i18n.DEFAULT) -> dict:
    """The legend's one entry for the table's diamonds (each is marked on the chart by its name)."""
    return dict(type="scatter", x=[None], y=[None], mode="markers", name=i18n.text(lang, "ch7.table_points"),
                marker=dict(size=14, symbol="diamond", color="white", line=dict(width=1.5, color="#111827")),
                hoverinfo="skip")


def dots_said(n: int, lang: str = i18n.DEFAULT) -> str:
    """"14 dots", "1 dot": a count of the chart's dots as a sentence says it."""
    return i18n.text(lang, "ch7.dot") if n == 1 else i18n.text(lang, "ch7.dots", n=n)


def tpf_range(lo: float, hi: float) -> str:
    """Tokens per forward from lo to hi as a sentence says them: "0.36–0.98", or one number."""
    return f"{lo:.2f}" if f"{lo:.2f}" == f"{hi:.2f}" else f"{lo:.2f}–{hi:.2f}"


def split_sentence(rows: list[dict], tau: float, lang: str = i18n.DEFAULT, link: bool = True) -> str:
    """How the chart's dots' means lie about τ's value, in one sentence from the record
    (entropy.tau_split; an observation, never the rule: the chart draws no τ line): each side's bound
    when every dot with a mean under τ is faster than every other dot, each side's range when they
    overlap, the one side's range when all lie on one side; "" with no dots. link: "tokens per forward"
    linked to the glossary (chapter 7's first use), else plain (the recap's)."""
    sp = entropy.tau_split(rows, tau)
    tpf = term("tpf", lang=lang) if link else escape(terms(lang)["tpf"][0])
    if sp["clean"]:
        return i18n.text(lang, "ch7.split", tau=tau, tpf=tpf, left_dots=dots_said(sp["left"], lang), left_lo=sp["left_lo"],
                         right=sp["right"], right_hi=sp["right_hi"])
    if sp["left"] and sp["right"]:
        return i18n.text(lang, "ch7.split_mixed", tau=tau, tpf=tpf, left_range=tpf_range(sp["left_lo"], sp["left_hi"]),
                         right_range=tpf_range(sp["right_lo"], sp["right_hi"]),
                         left_dots=dots_said(sp["left"], lang), right_dots=dots_said(sp["right"], lang))
    side = "left" if sp["left"] else "right" if sp["right"] else None
    if side is None:
        return ""
    return i18n.text(lang, f"ch7.split_{side}", tau=tau, tpf=tpf, n=sp[side],
                     range=tpf_range(sp[f"{side}_lo"], sp[f"{side}_hi"]))


def chapter_tau(*decodes) -> float | None:
    """The τ of the chapter's recorded decodes (their record's config): the words' split of the
    dots' means is made at its value. None when the record has no threshold."""
    taus = {tl.trace.config.get("threshold") for tl, _ in decodes if tl is not None}
    return next(iter(taus)) if len(taus) == 1 else None


def code_paragraph(code, slowest: dict, lang: str = i18n.DEFAULT, point: dict | None = None,
                   high=None, stall: dict | None = None, wait: dict | None = None, play_point: dict | None = None) -> str:
    """Why code is slow, from the recorded code decode (its pick: the hardest front fill; `point`: its
    diamond, whose numbers the words say): how little code it writes before its stop token (a reader
    said "that example shows padding, not code"), in how many forwards none of its masks scored under
    τ beside the play's (`high`), τ held to each mask's score, never to the mean (walk 25: "0.92 is
    right of the τ line" read a mean against τ), and how many forwards its hard token's slot stayed a
    mask, all behind it waiting, named as code's chart draws it at `stall` (entropy.front_stall);
    without the decode, why a decode can make fewer tokens than forwards. `wait`, `play_point`: the code
    decode's entropy.front_wait and the play's diamond, when the caller has them."""
    wait = wait or (entropy.front_wait(code[0].trace) if code else None)
    if wait is None or high is None:
        return i18n.text(lang, "ch7.p3", id=named(slowest), tpf=slowest["tokens_per_forward"], h=slowest["entropy"])
    tl = code[0]
    point = point or entropy.trace_point(tl.trace, "")
    own, play = (entropy.under_tau(t.trace) for t in (tl, high[0]))
    tau = tl.trace.config["threshold"]
    token = tok(tl, wait["token"], lang)
    front = (i18n.text(lang, "ch7.code_front", pos=stall["front"], token=token, score=stall["front_score"],
                       step=stall["step"]) if stall
             else i18n.text(lang, "ch7.code_token", token=token, h=wait["entropy"]))
    play_point = play_point or entropy.trace_point(high[0].trace, "")
    below = point["entropy"] < play_point["entropy"]   # code's mean under the play's
    return i18n.text(lang, "ch7.code", code_decode=decode_named(tl.trace), written=wait["written"],
                     mean=i18n.text(lang, "ch7.code_mean") if below else "", front=front, held=wait["held"],
                     burst=wait["burst"], after=wait["after"], tau=tau,
                     none=own["none"], scored=own["scored"], play_none=play["none"], play_scored=play["scored"],
                     code_tpf=point["tokens_per_forward"], code_h=point["entropy"], code_name=i18n.text(lang, "ch7.name_code"))


def named_decodes(low, high, code=None, lang: str = i18n.DEFAULT) -> list[tuple[str, object]]:
    """The recorded decodes the chapter names (counting, a play, code), each with its short name."""
    picks = [("ch7.name_low", low), ("ch7.name_high", high)] + ([("ch7.name_code", code)] if code else [])
    return [(i18n.text(lang, key), pick[0]) for key, pick in picks]


def share_range(shares: list[float]) -> str:
    """Percentages as the sentence writes them: "62–91", or one number when they round alike."""
    lo, hi = (str(math.floor(100 * x + 0.5)) for x in (min(shares), max(shares)))  # half up: 62.5 -> 63, as a reader rounds
    return lo if lo == hi else f"{lo}–{hi}"


def idle_shares(slow, lang: str = i18n.DEFAULT) -> str:
    """Each decode's share of forwards that committed nothing, said per decode ("91 % of a play’s
    and 63 % of code’s"; a walker could not parse one range "63–91 % of the forwards in each decode")."""
    return and_list([i18n.text(lang, "ch7.idle_share", name=escape(name), share=share_range([entropy.idle_share(tl.trace)]))
                     for name, tl in slow], lang)


def and_list(items: list[str], lang: str = i18n.DEFAULT) -> str:
    """Items as a sentence lists them: "a, b and c" ("a、b、c" in Chinese)."""
    sep, last = i18n.text(lang, "tour.list_sep"), i18n.text(lang, "ch7.idle_and")
    return items[0] if len(items) == 1 else sep.join(items[:-1]) + last + items[-1]


def idle_paragraph(decodes, lang: str = i18n.DEFAULT) -> str:
    """The general rule under 1 token per forward, from the step records of every decode the
    chapter names: each slow decode's share of forwards that committed nothing; and counting's busiest forward."""
    slow = [(name, tl) for name, tl in decodes if tl.trace.stats()["tokens_per_forward"] < 1]
    if not slow:
        return ""
    most = max(len(s.committed) for s in decodes[0][1].trace.steps)
    losses = i18n.text(lang, "tour.clause_sep").join(
        i18n.text(lang, "ch7.loss", name=escape(name), **entropy.fill_account(tl.trace)) for name, tl in slow)
    return i18n.text(lang, "ch7.idle", shares=idle_shares(slow, lang), losses=losses,
                     slow=and_list([escape(name) for name, _ in slow], lang),
                     mask_colour=colour("state-mask", lang=lang), most=most,
                     committed_colour=colour("state-committed", lang=lang))


def bars_words(low, high, stall: dict | None, lang: str = i18n.DEFAULT) -> str:
    """What the small score charts show, read from their steps: counting's fills all under τ, the
    play's single lowest fill (and, with code's chart at `stall`, entropy.front_stall's forward,
    code's too; ch7.code names its front slot, which stays a mask)."""
    (ltl, lstep), (htl, hstep) = low, high
    ls, hs = ltl.trace.steps[lstep], htl.trace.steps[hstep]
    said = dict(low_step=lstep, filled=len(ls.filled), new_colour=colour("state-new", lang=lang), high_step=hstep,
                mask_colour=colour("state-mask", lang=lang))
    if stall is None:
        return i18n.text(lang, "ch7.p4", stay=len(hs.masks) - len(hs.filled), **said)
    return i18n.text(lang, "ch7.p4_code", code_step=stall["step"], **said)


def view(rows: list[dict], low, high, yours: dict | None = None, code=None, lang: str = i18n.DEFAULT):
    """`code`: (timeline, step) of the recorded code decode, for the paragraph on why code is slow
    and its score chart. Returns the words, the law plot, the score bars of counting, of the play and
    of code at entropy.front_stall's forward (None without the code decode or such a forward), and the
    commit table."""
    tr = i18n.Texts(lang)
    (ltl, lstep), (htl, hstep) = low, high
    decodes = named_decodes(low, high, code, lang)
    # every decode the words and the table name has its point: the table's rows as diamonds; the words
    # say the diamonds' numbers as their marks and rows do, and the dots' means as means
    table_rows = table_decodes(decodes, lang)
    points = table_points(table_rows, lang)
    diamond = dict(zip(POINT_CLASSES, points))
    dots = {cls: [r for r in rows if r["class"] == cls] for cls in ("counting", "plays")}
    tau = chapter_tau(low, high, *([code] if code else []))
    split = split_sentence(rows, tau, lang) if tau is not None else ""
    wait = entropy.front_wait(code[0].trace) if code else None   # code's hard front token
    stall = entropy.front_stall(code[0].trace, wait) if wait else None   # code's stall: its chart and its words
    paras = [
        tr("ch7.p1", split=split).rstrip(),
        tr("ch7.p2", count_decode=decode_named(ltl.trace), count_tpf_d=f"{diamond['counting']['tokens_per_forward']:.2f}",
           count_ids=row_ids(rows, "counting", lang), count_n=len(dots["counting"]),
           count_h=class_mean(rows, "counting", "entropy"), count_tpf=class_mean(rows, "counting", "tokens_per_forward"),
           play_decode=decode_named(htl.trace), play_tpf_d=f"{diamond['plays']['tokens_per_forward']:.2f}",
           plays_ids=row_ids(rows, "plays", lang), plays_n=len(dots["plays"]),
           plays_h=class_mean(rows, "plays", "entropy"), plays_tpf=class_mean(rows, "plays", "tokens_per_forward"))
        + gap(lang) + tr("ch7.paper"),   # the paper's measurement closes the same paragraph (presenting: no room for one more)
        code_paragraph(code, slowest_row(rows), lang, diamond.get("code"), high, stall, wait, diamond.get("plays")),
        idle_paragraph(decodes, lang),
        bars_words(low, high, stall, lang),
    ]
    if yours:
        paras.append(tr("ch7.yours", entropy=yours["entropy"], tpf=yours["tokens_per_forward"]))
    # each on its own scale, with room above the tallest bar for its ✓ (ch7.p4 says so)
    small = lambda tl, k: dict(y_max=figs.max_score(tl, k) * 1.25, height=figs.SMALL, lang=lang)  # noqa: E731
    text = narration([p for p in paras if p], lang=lang)
    points += [{**yours, "label": tr("ch7.your_prompt")}] if yours else []
    # shorter: the commit table sits below; no τ line on its mean axis (walk 25 read one there as the
    # rule): τ is drawn on the score charts, where it judges each mask
    law = entropy.law_figure(rows, None, yours=points, height=LAW_HEIGHT, lang=lang, title=tr("ch7.law_title"))
    law.add_trace(points_key(lang))
    bars_code = None if stall is None else figs.score_bars(
        code[0], stall["step"], tr("ch7.bars_code", step=stall["step"]), **small(code[0], stall["step"]))
    return (text, law, figs.score_bars(ltl, lstep, tr("ch7.bars_low", step=lstep), **small(ltl, lstep)),
            figs.score_bars(htl, hstep, tr("ch7.bars_high", step=hstep), **small(htl, hstep)), bars_code,
            figs.commit_table(table_rows, lang))


def build(ctx, data, lang: str = i18n.DEFAULT):
    tr = i18n.Texts(lang)
    low, high, code = data.at("entropy_low"), data.at("entropy_high"), data.at("entropy_code")
    text, law, bars_low, bars_high, bars_code, commits = view(data.law_rows, low, high, code=code, lang=lang)
    with body(7) as (views, words):
        with views:
            bar = live_bar(7, lang)
            v_law = gr.Plot(law, show_label=False, elem_id="tour-viz-7", elem_classes=["tour-viz"])
            with gr.Row(elem_classes=["tour-pair"]):
                gr.Plot(bars_low, show_label=False, min_width=160)
                gr.Plot(bars_high, show_label=False, min_width=160)
                if bars_code is not None:   # code: every mask above τ, its unsure front slot stays a mask
                    gr.Plot(bars_code, show_label=False, min_width=160)
            gr.HTML(commits, elem_id="tour-commits-7")
        with words:
            v_text = gr.HTML(text, elem_id="tour-text-7")
            with try_box():
                # the prompt stays English: it is what the bundled (English) model reads
                prompt = gr.Textbox("Count by 3 from 3 to 60:", label=tr("ch7.try"), lines=2, max_length=400)
                btn = gr.Button(tr("ch7.button"), elem_id="tour-try-7")

    def run(prompt):
        trace = live_decode(ctx, prompt, "streaming", make_config(max_new_tokens=LAW_MAX_NEW)).trace
        yours = {"id": "yours", "class": tr("ch7.your_prompt"), "entropy": round(entropy.fill_entropy(trace), 3),
                 "tokens_per_forward": round(trace.stats()["tokens_per_forward"], 2)}
        out = view(data.law_rows, low, high, yours, code, lang=lang)
        return out[0], out[1]

    event = btn.click(run, [prompt], [v_text, v_law], js=bar.press_js,
                      api_name=i18n.api_name("tour_entropy", lang), **pool(ctx))
    bar.offer(event, [prompt], lambda p: prompt_words(p, lang), [v_text, v_law], (text, law), whole=False)
