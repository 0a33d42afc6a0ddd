"""Chapter 8: what τ trades: held-out arithmetic questions (never drawn for training) decoded at
every τ of the sweep (recorded by tools/record_tour.py): tokens per forward against right answers
and against outputs that differ from the model's own greedy (one token at a time) text, and the
answers a high τ gets wrong."""
from __future__ import annotations

import re
from html import escape
from typing import NamedTuple

import gradio as gr

from wedlm import DecodeConfig
from wedlm.training.corpus import ARITHMETIC_FORMS, final_answer, held_out_questions

from ... import i18n
from ...serving import gpu
from ...serving.context import make_config
from . import figs
from .data import TAU_CLASS, TAU_MAX_NEW
from .frame import body, live_bar, pool, tau_lambda_words, try_box
from .words import colour, gap, narration, term

TITLE = i18n.text(i18n.DEFAULT, "ch8.title")


QUESTIONS_PER_FORM = 10   # × the 3 forms: 30 questions (15 were doubted as a sample: walk 20)


def questions() -> list[dict]:
    """The sweep's questions: QUESTIONS_PER_FORM held-out questions of each arithmetic form (never in
    the training stream; wedlm.training.corpus.held_out_questions, built from rules, no data files)."""
    return [{"id": f"held-{form}-{k}", "prompt": prompt, "answer": value}
            for form in ARITHMETIC_FORMS
            for k, (prompt, _, value) in enumerate(held_out_questions(form, QUESTIONS_PER_FORM))]


def answer_row(threshold: float, outputs: list[dict]) -> dict:
    """One τ of the sweep from its decodes' outputs: mean tokens per forward, right answers and,
    when every output was compared with the greedy text, how many differ from it."""
    row = {"threshold": threshold, "total": len(outputs), "right": sum(o["right"] for o in outputs),
           "tokens_per_forward": round(sum(o["tokens_per_forward"] for o in outputs) / max(len(outputs), 1), 2)}
    if outputs and all("differs" in o for o in outputs):
        row["differs"] = sum(o["differs"] for o in outputs)
    return row | {"outputs": outputs}


def greedy_all(lm, prompts: list[dict], config) -> dict[str, str]:
    """Each question decoded one token at a time, greedily, by the same model (the library's AR
    decoder): the text a lossless decoder would write, id -> text."""
    from wedlm import decode
    return {p["id"]: decode(lm, p["prompt"], "ar", config).text for p in prompts}


def answer_all(lm, prompts: list[dict], config, time_limit_s: float | None = None,
               greedy: dict[str, str] | None = None) -> list[dict]:
    """Decode each question at `config` (inside the GPU call; tools/record_tour.py runs it too);
    with `greedy` (id -> the greedy text), each output says whether its text differs from it."""
    import time

    from wedlm import decode
    deadline = None if time_limit_s is None else time.perf_counter() + time_limit_s
    out = []
    for p in prompts:
        left = None if deadline is None else max(0.0, deadline - time.perf_counter())
        trace = decode(lm, p["prompt"], "streaming", config, time_limit_s=left)
        got = final_answer(trace.text)
        out.append({"id": p["id"], "question": p["prompt"].removeprefix("Question: ").split("\n")[0],
                    "answer": str(p["answer"]), "got": got, "right": got == str(p["answer"]),
                    "tokens_per_forward": round(trace.stats()["tokens_per_forward"], 2)})
        if greedy and p["id"] in greedy:   # the text kept too: the record shows what differs
            out[-1] |= {"text": trace.text, "differs": trace.text != greedy[p["id"]]}
    return out


def greedy_right(sweep: dict) -> int | None:
    """How many of the sweep's questions the model's own greedy text answers right (the yardstick:
    a wrong answer there is the model's, not τ's), or None if the record has no greedy texts."""
    greedy, rows = sweep.get("greedy"), sweep.get("rows")
    if not greedy or not rows:
        return None
    answers = {o["id"]: o["answer"] for o in rows[0]["outputs"]}
    return sum(final_answer(greedy[i]) == a for i, a in answers.items() if i in greedy)


def title(lang: str = i18n.DEFAULT) -> str:
    return i18n.text(lang, "ch8.title")


def parts(text: str) -> list[str]:
    """An arithmetic text's steps ("3 * 11 + 5 = 38"), as the model wrote them, in order."""
    return [p.strip(" .") for p in re.split(r",|\.\s|\n", text or "") if p.strip(" .")]


def first_difference(text: str, greedy: str) -> tuple[str, str] | None:
    """The first step where a text parts from the greedy text: (its step, greedy's), or None."""
    return next(((a, b) for a, b in zip(parts(text), parts(greedy)) if a != b), None)


def short_question(question: str, limit: int = 30) -> str:
    """A question short enough to quote in a sentence on a projector (cut at a word, with …)."""
    if len(question) <= limit:
        return question
    return question[:limit].rsplit(" ", 1)[0] + "…"


def low_why(sweep: dict, lang: str = i18n.DEFAULT) -> str:
    """Why the smallest τ gets fewer answers right than the model's own greedy text: each of its texts
    that differ from greedy's, from the record (the step where it parts, whether greedy is wrong too);
    "" when it gets as many right or the record did not compare texts."""
    rows, greedy = sweep.get("rows") or [], sweep.get("greedy") or {}
    baseline = greedy_right(sweep)
    if not rows or baseline is None or not all("text" in o for o in rows[0]["outputs"]):
        return ""
    low = min(rows, key=lambda r: r["threshold"])
    if low["right"] >= baseline:
        return ""
    tr = i18n.Texts(lang)
    items = []
    for o in low["outputs"]:
        if not o.get("differs") or o["id"] not in greedy:
            continue
        own_got = final_answer(greedy[o["id"]])
        question = tr("ch8.quote", q=escape(short_question(o["question"])))
        got = escape(o["got"] or tr("ch8.no_answer"))
        cut = first_difference(o["text"], greedy[o["id"]])
        if own_got == o["answer"] and not o["right"] and cut:
            items.append(tr("ch8.low_lost", question=question, line=escape(cut[0]), own=escape(cut[1]), got=got,
                            answer=escape(o["answer"]), tau=low["threshold"]))
        elif own_got == o["got"] and not o["right"]:   # the same wrong answer: the count does not move
            items.append(tr("ch8.low_same", question=question, got=got, answer=escape(o["answer"])))
        elif own_got != o["answer"] and not o["right"]:
            items.append(tr("ch8.low_both", question=question, own=escape(own_got or tr("ch8.no_answer")), got=got,
                            answer=escape(o["answer"])))
        else:
            items.append(tr("ch8.low_kept", question=question, got=got))
    return tr("ch8.low_why", right=low["right"], greedy=baseline, tau=low["threshold"], n=len(items),
              items=tr("tour.clause_sep").join(items))


def wrong_answers_html(row: dict, lang: str = i18n.DEFAULT) -> str:
    tr = i18n.Texts(lang)
    wrong = [o for o in row["outputs"] if not o["right"]]
    if not wrong:
        return f'<div class="tour-wrong">{tr("ch8.all_right", tau=row["threshold"])}</div>'
    items = "".join(tr("ch8.wrong_item", question=escape(o["question"]), got=escape(o["got"] or tr("ch8.no_answer")),
                       answer=escape(o["answer"])) for o in wrong)
    return f'<div class="tour-wrong">{tr("ch8.wrong", tau=row["threshold"], items=items)}</div>'


def _last_while(rows: list[dict], holds) -> dict | None:
    """The row of the largest τ up to which (from the smallest τ on) `holds` is true of every row, or None."""
    last = None
    for r in sorted(rows, key=lambda r: r["threshold"]):
        if not holds(r):
            break
        last = r
    return last


def last_all_right(rows: list[dict]) -> dict | None:
    """The largest τ up to which (from the smallest τ on) every answer is right, or None."""
    return _last_while(rows, lambda r: r["right"] == r["total"])


def last_as_right(rows: list[dict]) -> dict | None:
    """The largest τ up to which (from the smallest τ on) as many answers stay right as at the smallest
    τ, when that is a larger τ; None otherwise."""
    if not rows:
        return None
    first = min(rows, key=lambda r: r["threshold"])
    last = _last_while(rows, lambda r: r["right"] >= first["right"])
    return None if last is first else last


def kept_words(rows: list[dict], tr, total: int) -> str:
    """Where speed came free: up to which τ as many answers stay right as at the smallest, and what
    the tour's own τ (DecodeConfig's default) makes there ("" when no larger τ keeps them)."""
    kept = last_as_right(rows)
    if kept is None:
        return ""
    default = DecodeConfig().threshold
    at = next((r for r in rows if r["threshold"] == default), None)
    words = tr("ch8.kept", tau=kept["threshold"], right=kept["right"], total=total, tpf=kept["tokens_per_forward"])
    if at is not None and at["threshold"] <= kept["threshold"]:
        words += tr("ch8.kept_default", tau=default, tpf=at["tokens_per_forward"])
    return words + tr("ch8.kept_end")


def _differing(row: dict) -> frozenset | None:
    """The ids of a row's outputs whose text differs from greedy's, or None when the row has no outputs to tell."""
    outputs = row.get("outputs")
    if not outputs or not all("differs" in o and "id" in o for o in outputs):
        return None
    return frozenset(o["id"] for o in outputs if o["differs"])


def same_words(rows: list[dict], tr, total: int, kept: dict | None = None) -> str:
    """Why the right answers hold flat: up to which τ (from the smallest on) no more texts differ from
    greedy's than at the smallest, so that many are greedy's word for word at every τ there, and the
    others filled out of order (the same questions at each τ there when the outputs say so); above it
    more differ, and answers go wrong if fewer are right there. "" when no larger τ keeps as few
    differing, or the record did not compare texts. kept: the row ch8.kept named (then "in that range")."""
    if not rows or not all("differs" in r for r in rows):
        return ""
    low = min(rows, key=lambda r: r["threshold"])
    flat = _last_while(rows, lambda r: r["differs"] <= low["differs"])
    if flat is low:
        return ""
    above = [r for r in rows if r["threshold"] > flat["threshold"]]
    wrong = tr("ch8.same_wrong") if any(r["right"] < flat["right"] for r in above) else ""
    sets = {_differing(r) for r in rows if r["threshold"] <= flat["threshold"]}
    same_ones = len(sets) == 1 and None not in sets
    differ = tr("ch8.same_differ" if same_ones else "ch8.few_differ", n=low["differs"])
    said = {"same": total - low["differs"], "total": total, "differ": differ,
            "above": tr("ch8.same_above", wrong=wrong) if above else ""}
    if kept is not None and kept["threshold"] == flat["threshold"]:
        return tr("ch8.same_there", **said)
    return tr("ch8.same", tau=flat["threshold"], **said)


def trade_words(rows: list[dict], tr) -> str:
    """What τ trades, from the record: speed against texts like greedy's and, past the largest τ that
    keeps as many right as the smallest (or from the smallest on when none does), right answers; no τ
    gives greedy's text every time (its smallest τ's texts differ). "" when the record did not compare
    texts, or some τ gives every text greedy's."""
    if not rows or not all("differs" in r for r in rows) or min(r["differs"] for r in rows) == 0:
        return ""
    kept = last_all_right(rows) or last_as_right(rows)
    drops = kept is not None and any(r["right"] < kept["right"] for r in rows if r["threshold"] > kept["threshold"])
    past = tr("ch8.trade_past", tau=kept["threshold"]) if drops else ""
    return tr("ch8.trade", past=past)


class WrongProduct(NamedTuple):
    line: str    # "7 x 10 = 60", as the model wrote it
    a: int
    b: int
    got: int
    right: int   # a·b


def wrong_products(text: str) -> list[WrongProduct]:
    """Lines "a x b = c" of a times table whose c is not a·b (the tour's one arithmetic checker
    for the times table; chapters 2 and 4 say so where its output is complete)."""
    import re
    return [WrongProduct(m.group(0), a, b, c, a * b)
            for m in re.finditer(r"(\d+) x (\d+) = (\d+)", text)
            for a, b, c in [(int(m.group(1)), int(m.group(2)), int(m.group(3)))] if a * b != c]


def greedy_product(greedy: str | None, a: int, b: int) -> int | None:
    """What the model's own greedy (one token at a time) text writes for a x b, or None."""
    import re
    m = re.search(rf"(?<!\d){a} x {b} = (\d+)", greedy or "")
    return int(m.group(1)) if m else None


def slip_fill(trace, w: WrongProduct) -> dict | None:
    """How the wrong answer's first token was filled, from the trace: its position, the step that
    filled it, its entropy and score, whether its score was under τ, whether it was that step's only
    fill (`lowest`: its score not under τ and the only fill, the rule's "else the single lowest"), how
    many slots after it were already filled in that forward's input and how many before it were still
    masks, and the first stop token among those after. A walker read "the price of filling in
    parallel" as "filled while unsure", and walk 25 read "τ letting easier slots fill first" against a
    fill above τ: the steps say what happened. None when the tokens do not spell the text (then
    nothing is claimed)."""
    ids = trace.output_ids()
    pieces = [trace.tokens.get(i, "") for i in ids]
    if not "".join(pieces).startswith(trace.text):
        return None
    at = trace.text.rfind(w.line) + len(w.line) - len(str(w.got))   # the answer's first character
    end = 0
    for k, piece in enumerate(pieces):
        end += len(piece)
        if end > at:
            break
    else:
        return None
    pos = len(trace.prompt_ids) + k
    step = next((s for s in trace.steps if s.verify is None and any(f.pos == pos for f in s.filled)), None)
    if step is None:
        return None
    slot = next((m for m in step.masks if m.pos == pos), None)
    entropy = next(f.entropy for f in step.filled if f.pos == pos)
    fed = {step.start + j: t for j, t in enumerate(step.window)}
    after = sorted(p for p, t in fed.items() if p > pos and t is not None)
    before = sum(1 for p, t in fed.items() if p < pos and t is None)
    stop = next((p for p in after if fed[p] in trace.stop_ids), None)
    under = slot is not None and step.threshold is not None and slot.score < step.threshold
    only = len(step.filled) == 1
    last = not any(m.pos > pos and not m.selected for m in step.masks)   # no slot after it still open
    return {"pos": pos, "step": step.index, "entropy": round(entropy, 2),
            "score": round(slot.score, 2) if slot is not None else None,
            "distance": slot.distance if slot is not None else None, "tau": step.threshold,
            "under": under, "lowest": slot is not None and not under and only, "only": only,
            "after": len(after), "before": before, "stop": stop, "last": last}


def _slip_how(fill: dict, tr) -> str:
    """"H 1.38 nats, above τ = 0.4: the single lowest" (its score is its entropy when d = 0)."""
    h = (tr("tour.slip_h", h=fill["entropy"]) if not fill["distance"]
         else tr("tour.slip_score", score=fill["score"]))
    if fill["tau"] is None:
        return tr("tour.slip_no_tau", h=h)
    key = "tour.slip_under" if fill["under"] else "tour.slip_lowest" if fill["lowest"] else "tour.slip_above"
    return tr(key, h=h, tau=fill["tau"])


def slip_cause(fill: dict | None, got: int, lang: str = i18n.DEFAULT, detailed: bool = False) -> str:
    """Why the wrong digit differs from greedy's, as the steps say (walk 25: "τ = 0.4 letting easier
    slots fill first" blamed τ for a digit filled above τ, by the fill-the-lowest rule, after the
    stop token beyond it): filled out of order (slots after it filled first, or slots before it
    still masks), then how: under τ, or above it as the step's single lowest; named by the wrong answer
    `got` and its step (walk 27: a sentence with no subject). `detailed`: the
    step's own sentence (tour.slip_fill) follows with how, so only the order is named. "" when the
    fill is not known or was in order (then no cause is claimed)."""
    if fill is None or not (fill["after"] or fill["before"]):
        return ""
    tr = i18n.Texts(lang)
    if detailed:
        return tr("tour.slip_cause_short")
    if fill["stop"] is not None:   # a stop token among the slots after it, filled before it
        order = tr("tour.slip_order_stop", pos=fill["stop"])
    elif fill["after"]:
        order = tr("tour.slip_order_after")
    else:
        order = tr("tour.slip_order_before", n=fill["before"])
    if fill["tau"] is None:
        how = tr("tour.slip_then_none")
    elif fill["under"]:
        how = tr("tour.slip_then_under", tau=fill["tau"])
    elif fill["lowest"]:
        how = tr("tour.slip_then_lowest", tau=fill["tau"])
    else:   # not under τ yet not the step's only fill: the rule does not do that; say the order alone
        how = ""
    return tr("tour.slip_cause", got=got, step=fill["step"], order=order, how=how)


def slip_words(trace, greedy: str | None, lang: str = i18n.DEFAULT, step: int | None = None) -> str:
    """A times table's wrong line and whose slip it is: the decode's (the model's own greedy text
    has it right: its cause from the steps, slip_cause), the model's (greedy is wrong too) or, with
    no greedy text (a live run), said plainly."""
    wrong = wrong_products(trace.text or "") if trace is not None else []
    if not wrong:
        return ""
    w = wrong[-1]   # the table's last wrong line
    own = greedy_product(greedy, w.a, w.b)
    line = escape(w.line)
    if own == w.right:
        fill = slip_fill(trace, w)
        shown = fill is not None and (step is None or step >= fill["step"])   # how it was filled, once it is
        said = i18n.text(lang, "tour.slip_tau", line=line, own=own, cause=slip_cause(fill, w.got, lang, detailed=shown),
                         greedy=term("greedy", i18n.text(lang, "ch8.greedy_word"), lang=lang))
        if not shown:
            return said
        tr = i18n.Texts(lang)
        stop = tr("tour.slip_stop", pos=fill["stop"]) if fill["stop"] is not None else ""
        once = tr("tour.slip_once", after=fill["after"], stop=stop) if fill["after"] else ""
        return said + tr("tour.slip_fill", pos=fill["pos"], once=once, step=fill["step"], how=_slip_how(fill, tr),
                         last=tr("tour.slip_last") if fill["last"] else "")
    if own is not None:
        return i18n.text(lang, "tour.slip_model", line=line, own=own, right=w.right,
                         greedy=term("greedy", i18n.text(lang, "ch8.greedy_word"), lang=lang))
    return i18n.text(lang, "tour.wrong_answer", got=w.got, a=w.a, b=w.b, right=w.right)


def table_note(table, lang: str = i18n.DEFAULT, greedy: str | None = None, total: int = 0) -> str:
    """Chapters 2–4's times table, when τ broke a line of it: the questions are a sample, not a
    guarantee (a walker saw '7 x 10 = 60' in chapter 2 and 'every answer right up to τ = 1' here)."""
    wrong = wrong_products(table.text) if table is not None else []
    if not wrong:
        return ""
    w = wrong[-1]
    own = greedy_product(greedy, w.a, w.b)
    key = "ch8.table_own" if own is not None else "ch8.table"
    return i18n.text(lang, key, tau=table.config["threshold"], line=escape(w.line), right=w.right, own=own, total=total)


def wrong_answer_note(trace, lang: str = i18n.DEFAULT, greedy: str | None = None, step: int | None = None,
                      finished: bool = False) -> str:
    """Where a chapter shows an arithmetic decode's output (chapter 2 from its first step, chapter 4
    at its last): the model's wrong line said plainly, checked by wrong_products, and whether the
    model's own greedy text gets it right (slip_words). A `finished` times table with every line
    right says so (walk 22: a live re-decode at τ = 1 never said whether 7 × 10 came out right);
    else ""."""
    said = slip_words(trace, greedy, lang, step)
    if said or not finished or trace is None:
        return said
    import re
    lines = re.findall(r"\d+ x \d+ = \d+", trace.text or "")
    if not lines:
        return ""
    return i18n.text(lang, "tour.table_right", n=len(lines), last=escape(lines[-1]))


def worst_row(rows: list[dict]) -> dict | None:
    """The sweep's row with the fewest right answers (the largest τ among ties): the one the
    narration's last numbers and the wrong answers under the chart show."""
    return min(rows, key=lambda r: (r["right"], -r["threshold"])) if rows else None


def try_start(sweep: dict, lang: str = i18n.DEFAULT) -> tuple[float, str]:
    """The try-it box's first τ and its label, which says where it starts and why: at the record's
    worst τ, whose wrong answers are listed under the chart (a newcomer read "at this τ" beside a
    box holding 2 as the chapter's 0.4); at the tour's τ when there is no record."""
    worst = worst_row((sweep or {}).get("rows") or [])
    if worst is None:
        tau = make_config().threshold
        return tau, i18n.text(lang, "ch8.try_tour", tau=tau)
    return worst["threshold"], i18n.text(lang, "ch8.try", tau=worst["threshold"])


def tour_tau(data) -> float | None:
    """The τ chapters 2–7 decode at (their recorded traces' one threshold, as chapter 7 finds it:
    ch7_entropy.chapter_tau), which chapter 8's chart marks; None when they differ or there is none."""
    from .ch7_entropy import chapter_tau
    picks = ("fill_rule", "commit", "stall", "entropy_low", "entropy_high", "entropy_code")
    return chapter_tau(*(data.at(k) for k in picks if "trace" in data.picks.get(k, {})))


def view(sweep: dict, yours: dict | None = None, lang: str = i18n.DEFAULT, table=None, greedy: str | None = None,
         tau: float | None = None):
    """table: the times table's trace (chapters 2–4), for where τ broke a line of it; tau: the tour's
    own τ (tour_tau), marked on the chart."""
    tr = i18n.Texts(lang)
    rows = sweep["rows"]
    total = rows[0]["total"] if rows else 0
    fastest_safe = last_all_right(rows)
    worst = worst_row(rows)
    low = rows[0] if rows else None
    compared = bool(rows) and all("differs" in r for r in rows)
    line, bars = colour("decoder-streaming", lang=lang), colour("right", lang=lang)
    paras = [
        tr("ch8.p1", tau=term("tau", "τ", lang=lang), greedy=term("greedy", tr("ch8.greedy_word"), lang=lang)),
        tr("ch8.p2", total=total, line_colour=line, tpf=term("tpf", lang=lang), bar_colour=bars,
           changed_colour=colour("verify-rejected", lang=lang))
        if compared else tr("ch8.p2_right", total=total, line_colour=line, tpf=term("tpf", lang=lang), bar_colour=bars),
    ]
    if low and worst:
        baseline = greedy_right(sweep)
        if baseline is not None:
            paras[-1] += gap(lang) + tr("ch8.greedy_right", right=baseline, total=total)
        safe_words = (tr("ch8.safe", tau=fastest_safe["threshold"], tpf=fastest_safe["tokens_per_forward"], total=total)
                      if fastest_safe else kept_words(rows, tr, total))
        safe_words += same_words(rows, tr, total, None if fastest_safe or not safe_words else last_as_right(rows))
        differs = {id(r): tr("ch8.differs", n=r["differs"]) if compared else "" for r in (low, worst)}
        paras.append(tr("ch8.p3", low_tau=low["threshold"], low_tpf=low["tokens_per_forward"],
                        low_right=low["right"], total=total, safe=safe_words, worst_tau=worst["threshold"],
                        worst_tpf=worst["tokens_per_forward"], worst_right=worst["right"],
                        low_differs=differs[id(low)], worst_differs=differs[id(worst)]))
        paras[-1] += trade_words(rows, tr)
    if not yours:   # the record's smallest τ against greedy (a live run's texts are not the record's)
        why = low_why(sweep, lang)
        if why:
            paras.append(why)
    note = table_note(table, lang, greedy, total)
    if note:
        paras.append(note)
    if yours:
        paras.append(tr("ch8.yours", tau=yours["threshold"], right=yours["right"], total=yours["total"],
                        tpf=yours["tokens_per_forward"]))
    shown = yours or worst
    return (narration(paras, lang=lang), figs.tau_figure(rows, yours, lang=lang, tour_tau=tau),
            wrong_answers_html(shown, lang) if shown else "")


def build(ctx, data, lang: str = i18n.DEFAULT):
    tr = i18n.Texts(lang)
    table = data.at("fill_rule")[0].trace
    greedy = (data.greedy.get(data.picks["fill_rule"]["trace"]) or {}).get("text")
    marked = tour_tau(data)
    text, fig, wrong = view(data.tau_sweep, lang=lang, table=table, greedy=greedy, tau=marked)
    with body(8) as (views, words):
        with views:
            bar = live_bar(8, lang)
            v_fig = gr.Plot(fig, show_label=False, elem_id="tour-viz-8", elem_classes=["tour-viz"])
            v_wrong = gr.HTML(wrong, elem_id="tour-wrong")
        with words:
            v_text = gr.HTML(text, elem_id="tour-text-8")
            with try_box():
                from .. import knobs
                start, label = try_start(data.tau_sweep, lang)
                tau = knobs.number("threshold", value=start, elem_id="tour8-tau", label=label, lang=lang,
                                   info=tr("ch8.try_info"))   # no "none" here: the sweep's τ are numbers
                btn = gr.Button(tr("ch8.button"), elem_id="tour-try-8")

    def run(t):
        config = make_config(threshold=t, max_new_tokens=TAU_MAX_NEW)
        prompts = questions()
        work = gpu.Work.of(config.max_new_tokens, config.window, ["streaming"] * len(prompts), ctx.limits)
        outputs = gpu.run_on_gpu(answer_all, ctx.models.wedlm, prompts, config, work.time_limit_s,
                                 data.tau_sweep.get("greedy"), work=work)
        # the times table's note is about the recording: not shown beside a live run
        return view(data.tau_sweep, answer_row(config.threshold, outputs), lang=lang, tau=marked)

    event = btn.click(run, [tau], [v_text, v_fig, v_wrong], js=bar.press_js,
                      api_name=i18n.api_name("tour_tau", lang), **pool(ctx))
    bar.offer(event, [tau], lambda t: tau_lambda_words(t, False, lang=lang), [v_text, v_fig, v_wrong],
              (text, fig, wrong), whole=False)
