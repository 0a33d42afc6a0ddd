"""Chapter 11: what to remember: the tour's five ideas, each a question a teacher can ask the
class, its answer, the numbers its chapter recorded and a link back to that chapter. The numbers
are read from the tour's record (assets/tour/tour.json) through the chapters' own helpers, so
the recap never says what its chapter does not show."""
from __future__ import annotations

import gradio as gr

from ... import i18n
from ...views import entropy
from .ch3_reordering import layers_agree
from .ch7_entropy import chapter_tau, class_mean, split_sentence
from .ch8_tau import last_all_right
from .glossary import LINKED
from .words import final_words, gap, link_first, narration, span, stop_kv, term

TITLE = i18n.text(i18n.DEFAULT, "ch11.title")
CHAPTER_OF = {"fill": 2, "order": 3, "commit": 4, "speed": 7, "tau": 8}   # each idea's chapter
KEYS = tuple(CHAPTER_OF)


def title(lang: str = i18n.DEFAULT) -> str:
    return i18n.text(lang, "ch11.title")


def _fill_rule(data) -> dict | None:
    tl, step = data.at("fill_rule")
    s = tl.trace.steps[step]
    if s.threshold is None:
        return None
    return {"step": step, "filled": len(s.filled), "open": len(s.masks), "tau": s.threshold, "penalty": s.penalty}


def _reorder(data, lang: str) -> dict | None:
    tl, step = data.at("reorder")
    s = tl.trace.steps[step]
    waiting = s.filled_behind_mask
    if not waiting:
        return None
    # the worked example's per-layer check, where it is this mask's: every layer, not only the first
    example = data.picks["reorder"].get("attention") or {}
    diff = layers_agree(example.get("final")) if example.get("pos") == s.first_mask_pos else None
    layers = (i18n.text(lang, "ch11.order_layers", layers=example["final"]["layers"], diff=diff)
              if diff is not None else "")
    return {"step": step, "first_mask": s.first_mask_pos, "waiting": span(waiting, lang=lang), "layers": layers}


def _commit(data, lang: str) -> dict | None:
    tl, step = data.at("commit")
    s = tl.trace.steps[step]
    n = len(s.committed)
    waiting = s.filled_behind_mask
    if not (n and waiting):
        return None
    return {"step": step, "span": span(list(range(s.start, s.start + n)), lang=lang),
            "waiting": span(waiting, lang=lang), "before": s.cache_before, "after": s.cache_after}


STOP_CHAPTERS = {2: "fill_rule", 10: "verified"}   # the recorded endings the commit card compares


def _stops(data, lang: str) -> str:
    """Whether a forward read each of chapters 2 and 10's stop tokens (words.stop_kv, as their endings
    say it), side by side; "" when a recorded decode did not end on one."""
    tr, said = i18n.Texts(lang), []
    for chapter, pick in STOP_CHAPTERS.items():
        tl = data.timelines[data.picks[pick]["trace"]] if pick in data.picks else None
        kv = tl and stop_kv(tl, tl.num_steps - 1)
        if not kv:
            return ""
        whose = tr("ch11.stop_whose_beyond" if tl.trace.decoder == "verified" else "ch11.stop_whose", chapter=chapter)
        said.append(tr("ch11.stop_read", whose=whose, read=kv.read) if kv.read is not None
                    else tr("ch11.stop_unread", whose=whose))
    return tr("ch11.stops", said=tr("tour.clause_sep").join(said))


def _speed(data, lang: str = i18n.DEFAULT) -> dict | None:
    """Chapter 7's numbers, as it rounds them: its sentence on the dots' means about τ's value (split_sentence,
    at the chapter's decodes' τ), the counting and plays dots' means (and how many dots), and in how
    many of its code decode's forwards no mask scored under τ (entropy.under_tau)."""
    rows = data.law_rows
    if not {"counting", "plays"} <= {r["class"] for r in rows} or "entropy_code" not in data.picks:
        return None
    code = entropy.under_tau(data.at("entropy_code")[0].trace)
    tau = chapter_tau(*(data.at(k) for k in ("entropy_low", "entropy_high", "entropy_code")))
    split = split_sentence(rows, tau, lang, link=False) if tau is not None else ""
    return {"split": split, "count_n": sum(r["class"] == "counting" for r in rows), "plays_n": sum(r["class"] == "plays" for r in rows),
            "count_h": class_mean(rows, "counting", "entropy"),
            "count_tpf": class_mean(rows, "counting", "tokens_per_forward"),
            "plays_h": class_mean(rows, "plays", "entropy"),
            "plays_tpf": class_mean(rows, "plays", "tokens_per_forward"),
            "none": code["none"], "scored": code["scored"]}


def _tau(rows: list[dict]) -> dict | None:
    if not rows:
        return None
    rows = sorted(rows, key=lambda r: r["threshold"])
    low, high, safe = rows[0], rows[-1], last_all_right(rows)
    return {"total": low["total"], "lo_tau": low["threshold"], "lo_tpf": low["tokens_per_forward"],
            "lo_right": low["right"], "hi_tau": high["threshold"], "hi_tpf": high["tokens_per_forward"],
            "hi_right": high["right"], "safe": safe}


def cards(data, lang: str = i18n.DEFAULT) -> list[dict]:
    """The five ideas: {chapter, question, answer, numbers} in the page's language; `numbers` is
    "" where the record lacks the moment (a re-recorded tour without it)."""
    tr = i18n.Texts(lang)
    fill, order, commit = _fill_rule(data), _reorder(data, lang), _commit(data, lang)
    speed, tau = _speed(data, lang), _tau(data.tau_sweep.get("rows", []))
    safe = ""
    if tau and tau["safe"]:
        safe = tr("ch11.tau_safe", tau=tau["safe"]["threshold"], tpf=tau["safe"]["tokens_per_forward"])
    numbers = (
        tr("ch11.fill_numbers", **fill) if fill else "",
        tr("ch11.order_numbers", **order) if order else "",
        gap(lang).join(p for p in (tr("ch11.commit_numbers", **commit) if commit else "", _stops(data, lang)) if p),
        tr("ch11.speed_numbers", **speed).rstrip() if speed else "",
        tr("ch11.tau_numbers", **{**tau, "safe": safe}) if tau else "",
    )
    links = {"entropy": term("entropy", tr("tour.link.entropy"), lang=lang),
             "position_id": term("position-id", tr("tour.link.position_id"), lang=lang),
             "kv_cache": term("kv-cache", lang=lang),
             "kv_waits": tr("tour.kv_waits"),   # chapter 4's words for a waiting slot's KV
             "final": final_words(lang)}   # and for "final", in its two senses
    answers = [tr(f"ch11.{key}_a", **links) for key in KEYS]   # str.format: a template takes the links it names
    return [{"chapter": chapter, "question": tr(f"ch11.{key}_q"), "answer": answer,
             "numbers": link_first(said, "nats", lang) if said else ""}
            for key, chapter, answer, said in zip(KEYS, CHAPTER_OF.values(), answers, numbers)]


def cards_html(data, lang: str = i18n.DEFAULT) -> str:
    """Each idea a <details> card, open: a teacher closes one to ask its question first."""
    tr = i18n.Texts(lang)
    items = "".join(
        f'<details class="recap-card" data-chapter="{c["chapter"]}" open>'
        f'<summary><span class="recap-n">{i}</span> {c["question"]}</summary>'
        f'<p>{c["answer"]}</p>'
        + (f'<p class="recap-numbers">{c["numbers"]}</p>' if c["numbers"] else "")
        + f'<a class="recap-link" href="#chapter-{c["chapter"]}">{tr("ch11.see", chapter=c["chapter"])}</a>'
        f'</details>' for i, c in enumerate(cards(data, lang), 1))
    for key in LINKED:   # the window, the leading run…: linked where the cards first write them
        items = link_first(items, key, lang)
    return f'<div class="recap">{items}</div>'


def lead_html(lang: str = i18n.DEFAULT) -> str:
    tr = i18n.Texts(lang)
    tabs = tr("tour.list_sep").join(tr(f"tab.{k}") for k in ("decode", "race", "entropy", "lessons"))
    return narration([tr("ch11.p1") + " " * (lang != "zh") + tr("ch11.p2", tabs=tabs)], lang=lang)


def view(data, lang: str = i18n.DEFAULT) -> tuple[str, str]:
    """(the chapter's words: its lead and its cards, which are words too; the cards alone)."""
    cards = cards_html(data, lang)
    return lead_html(lang) + cards, cards


def build(ctx, data, lang: str = i18n.DEFAULT):
    # one column, words first: the cards are the chapter's words, so they take the whole width
    with gr.Column(elem_classes=["tour-body", "recap-body"]):
        gr.HTML(lead_html(lang), elem_id="tour-text-11")
        gr.HTML(cards_html(data, lang), elem_id="tour-viz-11", elem_classes=["tour-viz"])
