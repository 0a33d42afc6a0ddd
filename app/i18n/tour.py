"""The guided tour (app/tabs/tour/): its nav, glossary (gloss.…), projector mode, shared sentences
and figures (tour.…), and chapters 1–5 (ch1.… … ch5.…). Narration templates carry their numbers as
named placeholders (with their format: {h:.2f}); colour words, glossary links and tokens arrive
already drawn (words.py). Token text, symbols (τ, λ, d, H, W) and names (WeDLM, AR, KV, RoPE) stay
as they are. An English text that starts with a space joins the sentence before it; its Chinese
does not need the space."""

MESSAGES = {
    # ---------- nav ----------
    "tour.back": {"en": "◀ Back", "zh": "◀ 上一章"},
    "tour.next": {"en": "Next ▶", "zh": "下一章 ▶"},
    # the same moves at the foot of every chapter (a phone's chapter is a few screens tall; the nav is at its top)
    "tour.foot_back": {"en": "◂ Back", "zh": "◂ 上一章"},
    "tour.foot_next": {"en": "Next ▸", "zh": "下一章 ▸"},
    "tour.glossary": {"en": "Glossary", "zh": "术语表"},
    "tour.glossary_close": {"en": "Close the glossary", "zh": "关闭术语表"},
    "tour.first": {"en": "first", "zh": "第一章"},
    "tour.last": {"en": "last", "zh": "最后一章"},
    "tour.pick_label": {"en": "Chapter", "zh": "章节"},   # the chapter picker's name (a screen reader says it)

    # ---------- projector mode (present.py; the button's labels are views.js.present / .stop_presenting) ----------
    "tour.presenting_badge": {"en": "● Presenting · ←/→ Space: chapters · Home/End: first/last · Esc: leave",
                              "zh": "● 演示中 · ←/→ 空格键：切换章节 · Home/End：第一章/最后一章 · Esc：退出"},
    # the badge on a narrow or 4:3 screen (present.py badge: one line; the keys are in its tooltip)
    "tour.presenting_badge_short": {"en": "● Presenting · Esc", "zh": "● 演示中 · Esc"},
    # a narrow or 4:3 screen's key strip (present.py keys_strip, bottom left, beside the pane switch): the
    # keys a presenter needs first, on screen and not only in the badge's tooltip (walks 29, 30)
    "tour.presenting_keys_strip": {"en": "Keys: ←/→ Space: chapters", "zh": "按键：←/→ 空格键：切换章节"},
    # the badge's tooltip: every key projector mode takes (app/static/present.js KEYS, STEP_KEYS)
    "tour.presenting_keys": {
        "en": "Keys while presenting: → PageDown Space: next chapter · ← PageUp Shift+Space: previous chapter · "
              "Home/End: first/last chapter · ↓ or .: the chapter's next step · ↑ or ,: its previous step · "
              "Esc: stop presenting (not while typing in a box)",
        "zh": "演示时的按键：→、PageDown、空格键：下一章 · ←、PageUp、Shift+空格键：上一章 · Home/End：第一章/最后一章 · "
              "↓ 或 .：本章下一步 · ↑ 或 ,：本章上一步 · Esc：退出演示（在输入框里打字时无效）"},

    # ---------- shared sentences (words.py) ----------
    "tour.none": {"en": "none", "zh": "无"},
    "tour.list_sep": {"en": ", ", "zh": "、"},
    "tour.clause_sep": {"en": "; ", "zh": "；"},   # between list items that are clauses
    "tour.then": {"en": "{first} {then}", "zh": "{first}{then}"},   # two sentences (no space after 。)
    "tour.filled_none": {"en": "Nothing was filled.", "zh": "这一步没有填充任何掩码。"},
    "tour.fill_at": {"en": "{token} at {pos}", "zh": "位置 {pos} 的 {token}"},
    "tour.fills_more": {"en": " and {n} more", "zh": "，另有 {n} 个"},
    # masks this forward filled (the step line's "newly filled"), not the filled slots of its input
    "tour.filled": {"en": "This forward filled {n}: {named}{more}.", "zh": "这次前向计算填充了 {n} 个：{named}{more}。"},
    # AR (chapter 1): one token predicted, as its step summary says ("1 token predicted"), not "filled"
    "tour.ar_predicted": {"en": "This forward predicted 1 token: {token} for position {pos}.",
                          "zh": "这次前向计算预测了 1 个词元：位置 {pos} 的 {token}。"},
    "tour.ar_filled": {"en": "The model's next token {token} ({where}).", "zh": "模型的下一词元 {token}（{where}）。"},
    "tour.wrong_answer": {
        "en": "This text has a wrong line ({got}; {a} × {b} = {right}): a slip of the tiny model or of filling out of "
              "order (chapter 8 counts right answers at each τ).",
        "zh": "这段文字有一行是错的（{got}；{a} × {b} = {right}）：可能是这个小模型本身的失误，也可能是乱序填充造成的"
              "（第 8 章统计了每个 τ 下答对的题数）。",
    },
    # chapters 2 and 4 (ch8_tau.slip_words): the model's own greedy text (recorded) has the line right
    # a finished times table with no wrong line (ch8_tau.wrong_answer_note; a live run, or a record without a slip)
    "tour.table_right": {"en": "Its times table checks: all {n} lines right, up to <code translate=\"no\">{last}</code>.",
                         "zh": "它的乘法表全部核对无误：{n} 行都对，直到 <code translate=\"no\">{last}</code>。"},
    # greedy defined as everywhere (gloss.greedy.def, ch8.p1): left to right, the likeliest token each time.
    # {cause}: ch8_tau.slip_cause, from the steps (walk 25: "τ = 0.4 letting easier slots fill first" blamed
    # τ for a digit filled above τ, as the single lowest, after the stop token beyond it)
    # two sentences (walk 26 could not parse one that held greedy's definition and the cause in one parenthesis)
    "tour.slip_tau": {
        "en": "Its text has a slip: <code translate=\"no\">{line}</code>; {greedy} (WeDLM's "
              "own left-to-right text, the likeliest token each time) says {own}.{cause}",
        "zh": "它写完的文字里有一处失误：<code translate=\"no\">{line}</code>，而{greedy}（WeDLM 自己从左到右、"
              "每次取最可能的词元写出的文本）写的是 {own}。{cause}",
    },
    # what and when (walk 27: "Filled out of order: …" had no subject, and at the landing step it
    # told of a fill 9 steps later as if it had happened)
    "tour.slip_cause": {"en": " Step {step} fills its {got} out of order: {order}{how}.",
                        "zh": "第 {step} 步才乱序填上它的 {got}：{order}{how}。"},
    # the same where the step's own sentence (tour.slip_fill) follows and says how
    "tour.slip_cause_short": {"en": " The price of filling out of order (chapter 8).",
                              "zh": "这是乱序填充的代价（见第 8 章）。"},
    "tour.slip_order_after": {"en": "after later slots", "zh": "在它后面的槽位之后才填"},
    # "later than": in time (walk 28 read "after the stop token at 90" as placed after it in the text)
    "tour.slip_order_stop": {"en": "later than the stop token at {pos}", "zh": "比位置 {pos} 的停止词元还晚才填"},
    "tour.slip_order_before": {"en": "while {n} slots before it were masks", "zh": "填它时它前面还有 {n} 个槽位是掩码"},
    # said only where its score was not under τ and it was the step's only fill (the rule's "else the single lowest")
    "tour.slip_then_lowest": {"en": ", above τ, as the single lowest",
                              "zh": "，分数高于 τ，是作为分数最低的那一个填上的"},
    "tour.slip_then_under": {"en": ", under τ", "zh": "，分数低于 τ"},
    "tour.slip_then_none": {"en": ", as the single lowest (no τ)", "zh": "，作为分数最低的那一个填上（不设 τ）"},
    # ch8_tau.slip_fill: how the wrong digit's slot was filled, from the steps (appended to tour.slip_tau)
    "tour.slip_fill": {
        "en": " Step {step} filled its slot ({pos}){last} ({how}){once}.",
        "zh": "第 {step} 步才{last}填它的槽位（{pos}）（{how}）{once}。",
    },
    "tour.slip_once": {
        "en": ", once {after} slots after it were filled{stop}: it read later text, which greedy never sees",
        "zh": "，这时它后面的 {after} 个槽位已经填好{stop}：它读到了贪心解码时看不到的后文",
    },
    "tour.slip_last": {"en": " last", "zh": "最后"},
    "tour.slip_stop": {"en": ", the stop token at {pos} among them", "zh": "，其中包括位置 {pos} 的停止词元"},
    "tour.slip_h": {"en": "H {h} nats", "zh": "H = {h} 奈特"},
    "tour.slip_score": {"en": "score {score}", "zh": "分数 {score}"},
    "tour.slip_under": {"en": "{h}, under τ = {tau:g}", "zh": "{h}，低于 τ = {tau:g}"},
    "tour.slip_lowest": {"en": "{h}, above τ = {tau:g}: filled as the step's single lowest",
                         "zh": "{h}，高于 τ = {tau:g}：作为这一步分数最低的那一个填上"},
    "tour.slip_above": {"en": "{h}, above τ = {tau:g}", "zh": "{h}，高于 τ = {tau:g}"},
    "tour.slip_no_tau": {"en": "{h}: no τ, the single lowest", "zh": "{h}：不设 τ，填分数最低的那一个"},
    "tour.slip_model": {
        "en": "Its finished text has a tiny model's slip: <code translate=\"no\">{line}</code> (right: {right}); "
              "{greedy}, WeDLM's own left-to-right text, the likeliest token each time, also says {own}.",
        "zh": "它写完的文字里有一处小模型的失误：<code translate=\"no\">{line}</code>（正确：{right}）；"
              "{greedy}，即 WeDLM 自己从左到右、每次取最可能的词元写出的文本，也写成 {own}。",
    },
    "tour.committed_none": {"en": "Committed 0 tokens: the KV cache stays at {cache}.",
                            "zh": "提交了 0 个词元：KV 缓存仍是 {cache} 个。"},
    "tour.committed.one": {"en": "Committed {n} token (position {span}, {text}): the KV cache grows {before} → {after}.",
                           "zh": "提交了 {n} 个词元（位置 {span}，{text}）：KV 缓存 {before} → {after}。"},
    "tour.committed.many": {"en": "Committed {n} tokens (positions {span}, {text}): the KV cache grows {before} → "
                                  "{after}.",
                            "zh": "提交了 {n} 个词元（位置 {span}，{text}）：KV 缓存 {before} → {after}。"},
    "tour.facts": {"en": "Step {step} (forward {forward} of {forwards})",
                   "zh": "第 {step} 步（共 {forwards} 次前向计算中的第 {forward} 次）"},
    "tour.run_summary": {
        "en": "This run (τ = {tau}, λ = {penalty}) wrote {tokens} tokens in {forwards} forwards "
              "({tpf:.2f} tokens per forward): {text}.",
        "zh": "这次运行（τ = {tau}，λ = {penalty}）用 {forwards} 次前向计算写出了 {tokens} 个词元"
              "（每次前向计算 {tpf:.2f} 个）：{text}。",
    },
    # the last step of a decode: what ended it, and the masks it leaves unscored
    # the stop token's KV, said alike in chapters 2-4 (written into a mask slot, read, committed) and
    # chapter 10 (predicted, never read): one rule, one sentence (tour.ending.kv_rule), in both
    "tour.ending.kv_rule": {"en": "A token's KV enters the cache only when a forward reads it with no mask before it.",
                            "zh": "一个词元的 KV 只有在某次前向计算读入它、且它前面没有掩码时，才进入缓存。"},
    # why the rule gives this decode's stop token a KV or none (words.stop_kv reads it from the record):
    # the same words in chapters 2-4 (a later forward read it) and chapter 10 (none did)
    # in the order it happened, in the rule's words (a newcomer could not parse "a later forward (step 13)
    # read the stop token after step 8 wrote it"): stop_kv's `wrote` filled it, `read` read it in its run
    "tour.ending.kv_read": {
        "en": "Here step {wrote} filled the stop token into a mask slot; step {read}'s forward read it with no mask "
              "before it, so its KV entered the cache.",
        "zh": "这里，第 {wrote} 步把停止词元填进了一个掩码槽位；第 {read} 步的前向计算读入它时，它前面已没有掩码，"
              "所以它的 KV 进入了缓存。",
    },
    "tour.ending.kv_unread": {
        "en": "Here no forward read the stop token after step {wrote} wrote it, so it has no KV: the text is done, "
              "and the cache stops at {after}.",
        "zh": "这里，第 {wrote} 步写出停止词元之后，没有任何前向计算读入它，所以它没有 KV：文本已经写完，"
              "KV 缓存停在 {after}。",
    },
    "tour.ending.stop": {
        "en": "This forward {commits} the stop token (&lt;EOS&gt;, end of sequence) at position {pos}: the decode "
              "ends here. {rule} {why}",
        "zh": "这次前向计算{commits}了位置 {pos} 的停止词元（&lt;EOS&gt;，即序列结束）：解码就此结束。{rule}{why}",
    },
    "tour.ending.stop_found": {
        "en": "This forward predicts the stop token (&lt;EOS&gt;, end of sequence) at position {pos}: the decode "
              "ends here. {rule} {why} (In chapters 2–4 a later forward read it, so its KV entered the cache.)",
        "zh": "这次前向计算在位置 {pos} 预测出停止词元（&lt;EOS&gt;，即序列结束）：解码就此结束。{rule}{why}"
              "（第 2–4 章里，后来的一次前向计算读入了它，所以它的 KV 进入了缓存。）",
    },
    "tour.ending.budget": {
        "en": "This forward reaches this decode's own budget of {budget} new tokens, so the decode ends here.",
        "zh": "这次前向计算用完了这次解码自己的 {budget} 个新词元预算，解码就此结束。",
    },
    "tour.ending.stopped": {"en": "The decode was stopped here.", "zh": "解码在这里被停止了。"},
    # the decode ended inside the leading filled run (narration.run_account): what it cut off
    "tour.ending.cut_stop.one": {
        "en": " The stop token cuts the committing run {run}: {kept} of its {total} commit, and the {n} token after "
              "it in that run ({positions}, struck through) is dropped.",
        "zh": "停止词元截断了正在提交的已填充段 {run}：{total} 个中有 {kept} 个提交，段中它之后的 {n} 个词元"
              "（{positions}，划线显示）被丢弃。",
    },
    "tour.ending.cut_stop.many": {
        "en": " The stop token cuts the committing run {run}: {kept} of its {total} commit, and the {n} tokens after "
              "it in that run ({positions}, struck through) are dropped.",
        "zh": "停止词元截断了正在提交的已填充段 {run}：{total} 个中有 {kept} 个提交，段中它之后的 {n} 个词元"
              "（{positions}，划线显示）被丢弃。",
    },
    "tour.ending.cut_budget.one": {
        "en": " The budget cuts the committing run {run}: {kept} of its {total} commit, and the {n} token past it "
              "({positions}) is dropped.",
        "zh": "预算截断了正在提交的已填充段 {run}：{total} 个中有 {kept} 个提交，超出预算的 {n} 个词元"
              "（{positions}）被丢弃。",
    },
    "tour.ending.cut_budget.many": {
        "en": " The budget cuts the committing run {run}: {kept} of its {total} commit, and the {n} tokens past it "
              "({positions}) are dropped.",
        "zh": "预算截断了正在提交的已填充段 {run}：{total} 个中有 {kept} 个提交，超出预算的 {n} 个词元"
              "（{positions}）被丢弃。",
    },
    "tour.ending.left.one": {"en": " The {n} mask left in the window is never scored.",
                             "zh": "窗口里剩下的 {n} 个掩码不再打分。"},
    "tour.ending.left.many": {"en": " The {n} masks left in the window are never scored.",
                              "zh": "窗口里剩下的 {n} 个掩码不再打分。"},
    "tour.elsewhere": {"en": "<b>Step {step}.</b> ", "zh": "<b>第 {step} 步。</b>"},
    # a step outside the chapter's moment, whose words go on "Forward k + 1 reads …": both in one label
    "tour.elsewhere_forward": {"en": "<b>Step {step} (forward {forward}).</b> ",
                               "zh": "<b>第 {step} 步（第 {forward} 次前向计算）。</b>"},
    "tour.moment_is": {"en": " This chapter's moment is step {moment}.", "zh": "本章要讲的时刻在第 {moment} 步。"},
    # the same pointer beside a live run ("try it"): the run's own step the chapter's words were written for
    "tour.moment_is_live": {"en": " This chapter's words describe step {moment} of your run: the step that shows "
                                  "what the chapter explains. Step back there to read them beside the picture.",
                            "zh": "本章的讲解说的是你这次运行的第 {moment} 步：这一步展示了本章要讲的内容。回到那一步，就能对照图示阅读。"},
    "tour.your_run": {"en": "<b>Your run.</b> {summary}", "zh": "<b>你的运行。</b>{summary}"},
    # what the growth chart counts for AR, said the same way in chapters 1 and 6 (figs.growth draws
    # Timeline.committed_after: an AR forward commits the token it reads, the prefill's token first);
    # the reason comes before the numbers, and the written and the cached count are named apart
    "tour.ar_chart.one": {
        "en": "A token's KV enters the cache only when a forward reads it, so the token a forward predicts is "
              "committed by the next forward (the prefill's token by forward 1). The chart counts {committed} "
              "tokens: after {n} forward AR has written {written} tokens, {chart} of them "
              "in its KV cache, so its AR line is at {chart}; {newest}.",
        "zh": "一个词元的 KV 要等某次前向计算读入它时才进入缓存，所以一次前向计算预测出的词元，要由下一次前向计算来提交"
              "（预填充写出的词元由第 1 次前向计算提交）。图表统计的是{committed}的词元：{n} 次前向计算后，"
              "AR 已写出 {written} 个词元，其中 {chart} 个的 KV 已在缓存中，所以图中 AR 那条线的高度是 {chart}；"
              "{newest}。",
    },
    # the newest token: fed by the next forward, or never (the decode ended at this forward)
    "tour.ar_chart.next": {"en": "the newest enters at the next forward", "zh": "最新的那个要到下一次前向计算才进入缓存"},
    "tour.ar_chart.end": {"en": "the decode ends here, so the newest is never fed and never cached",
                          "zh": "解码到此结束，所以最新的那个不会再被读入，也不会进入缓存"},
    "tour.ar_chart.many": {
        "en": "A token's KV enters the cache only when a forward reads it, so the token a forward predicts is "
              "committed by the next forward (the prefill's token by forward 1). The chart counts {committed} "
              "tokens: after {n} forwards AR has written {written} tokens, {chart} of them "
              "in its KV cache, so its AR line is at {chart}; {newest}.",
        "zh": "一个词元的 KV 要等某次前向计算读入它时才进入缓存，所以一次前向计算预测出的词元，要由下一次前向计算来提交"
              "（预填充写出的词元由第 1 次前向计算提交）。图表统计的是{committed}的词元：{n} 次前向计算后，"
              "AR 已写出 {written} 个词元，其中 {chart} 个的 KV 已在缓存中，所以图中 AR 那条线的高度是 {chart}；"
              "{newest}。",
    },
    # a glossary link's text where a sentence uses the term's short form
    "tour.link.position_id": {"en": "position id", "zh": "位置编号"},
    "tour.link.entropy": {"en": "entropy", "zh": "熵"},
    "tour.link.mask": {"en": "mask", "zh": "掩码"},
    "tour.link.masks": {"en": "masks", "zh": "掩码"},
    "tour.link.commit": {"en": "commit", "zh": "提交"},
    "tour.link.committed": {"en": "committed", "zh": "已提交"},
    "tour.link.commits": {"en": "commits", "zh": "提交"},

    # ---------- the tour's figures (figs.py) ----------
    "tour.fig.penalty_key": {"en": "λ·d: slate strip", "zh": "λ·d：石板灰细条"},
    "tour.fig.score_axis": {"en": "score (nats)", "zh": "得分（奈特）"},
    "tour.fig.slot_axis": {"en": "mask slot (position)", "zh": "掩码槽位（位置）"},
    # over a score chart's first bar when it is a mask the axis leaves unlabelled (its fill beside it is):
    # the words name the front slot (walk 27: code's 110 and a play's 3 had no label)
    "tour.fig.front": {"en": "front {pos}", "zh": "最前 {pos}"},
    "tour.fig.score_title": {"en": "Step {step}: score = H + λ·d of each open mask",
                             "zh": "第 {step} 步：每个未填掩码的得分 = H + λ·d"},
    "tour.fig.committed_axis": {"en": "committed tokens", "zh": "已提交词元数"},
    # the axis counts forwards; its markers name each step with its forward (views.growth.marker): chapter 1 is the
    # one place that says why step k is forward k + 1
    "tour.fig.forwards_axis": {"en": "forward passes after prefill",
                               "zh": "预填充之后的前向计算次数"},
    "tour.fig.pace": {"en": "one token per forward (AR pace)", "zh": "每次前向计算一个词元（AR 的速度）"},
    "tour.fig.this_step": {"en": "this step", "zh": "当前步"},
    "tour.fig.growth_title": {"en": "Committed tokens after each forward", "zh": "每次前向计算后已提交的词元数"},
    "tour.fig.right_of": {"en": "right answers (of {total})", "zh": "答对题数（共 {total} 题）"},
    "tour.fig.hover_right": {"en": "τ = {x}: {y} right", "zh": "τ = {x}：答对 {y} 题"},
    # chapter 8's second bars: outputs whose text is not the model's own greedy (one-at-a-time) text
    "tour.fig.differs_of": {"en": "texts unlike greedy (of {total})", "zh": "与贪心文本不同（共 {total} 题）"},
    "tour.fig.hover_differs": {"en": "τ = {x}: {y} texts unlike the greedy text",
                               "zh": "τ = {x}：{y} 题的文本与贪心文本不同"},
    "tour.fig.questions_of": {"en": "questions (of {total})", "zh": "题数（共 {total} 题）"},
    "tour.fig.tpf": {"en": "tokens per forward", "zh": "每次前向计算的词元数"},
    "tour.fig.hover_tpf": {"en": "τ = {x}: {y} tokens per forward", "zh": "τ = {x}：每次前向计算 {y} 个词元"},
    "tour.fig.your_run": {"en": "your run", "zh": "你的运行"},
    "tour.fig.your_right": {"en": "{right}/{total} right", "zh": "答对 {right}/{total}"},
    # the chapter's trade (ch8.title): the speed line against both bars, texts unlike greedy's and right answers
    "tour.fig.tau_title": {"en": "τ: speed against greedy's text and right answers", "zh": "τ：速度与贪心文本、答对题数"},
    # chapter 8's chart: the τ chapters 2–7 decode at (ch7_entropy.chapter_tau), a dashed line
    "tour.fig.tour_tau": {"en": "the tour's τ = {tau}", "zh": "导览的 τ = {tau}"},
    "tour.fig.tau_axis": {"en": "threshold τ", "zh": "阈值 τ"},
    # chapter 8's bracket over a run of τ whose counts are printed once, at its left end
    "tour.fig.run_key": {"en": "bracket: the same counts at each τ under it", "zh": "括号：其下每个 τ 的计数都相同"},
    "tour.fig.right": {"en": "right answers", "zh": "答对题数"},

    # ---------- a chapter's "try it" (frame.py) ----------
    "tour.try_redecode": {"en": "**Try it:** re-decode “{prompt}” live with other knobs.",
                          "zh": "**试一试**：换一组参数，现场重新解码“{prompt}”。"},
    "tour.redecode": {"en": "Re-decode live", "zh": "现场重新解码"},
    # the bar above a chapter's views after a "try it" (frame.LiveBar)
    "tour.live.views": {"en": "<b>Your live run</b> ({knobs}): these views and words show it, not the recording.",
                        "zh": "<b>你的现场运行</b>（{knobs}）：这里的图和文字显示的是它，而不是录制。"},
    "tour.live.added": {"en": "<b>Your live run</b> ({knobs}) is marked on the recorded chart and in the words; "
                              "everything else here is the recording.",
                        "zh": "<b>你的现场运行</b>（{knobs}）已标在录制的图上和文字里；其余内容仍是录制。"},
    "tour.live.pattern": {"en": "<b>Your pattern</b> ({knobs}): this mask and these words show it, not the recorded "
                                "decode's window.",
                          "zh": "<b>你的图样</b>（{knobs}）：这里的掩码和文字显示的是它，而不是录制解码的窗口。"},
    # chapter 5: the live run replaces the second decode (its line, its panel), beside the recorded first
    "tour.live.branch": {"en": "<b>Your live run</b> ({knobs}) is the second decode here: its line, its output panel "
                               "and the words; the first decode is the recording.",
                         "zh": "<b>你的现场运行</b>（{knobs}）就是这里的第二次解码：它的折线、它的输出面板和文字；"
                               "第一次解码仍是录制。"},
    "tour.live.back": {"en": "Back to the recording", "zh": "回到录制"},
    "tour.live.no_tau": {"en": "no τ", "zh": "不设 τ"},
    "tour.live.prompt": {"en": "prompt “{prompt}”", "zh": "提示词“{prompt}”"},
    "tour.live.mask": {"en": "mask {bits}, block {block}", "zh": "掩码 {bits}，块大小 {block}"},

    # ---------- glossary (glossary.py) ----------
    "gloss.forward.term": {"en": "forward pass", "zh": "前向计算"},
    "gloss.forward.def": {
        "en": "One run of the network over the rows it is given (a row: one token fed). Decoding speed is counted in forwards: AR "
              "makes one token per forward, WeDLM can make several.",
        "zh": "网络对交给它的各行（一行：送入的一个词元）完整地运行一遍。解码速度按前向计算的次数来算：AR 每次前向计算产出一个词元，"
              "WeDLM 可以产出好几个。",
    },
    "gloss.kv-cache.term": {"en": "KV cache", "zh": "KV 缓存"},
    "gloss.kv-cache.def": {
        "en": "The keys and values (KV) each attention layer computed for earlier tokens (a token's key is what a "
              "later row's query is matched by, its value what it passes on), kept so the next "
              "forward does not recompute them. A token's KV can be kept only if it was computed exactly as an "
              "AR pass would.",
        "zh": "每个注意力层为前面的词元算出的键和值（KV；一个词元的键是后面各行的查询拿来匹配的东西，值是它传出去的内容），"
              "保存下来，下一次前向计算就不必重算。只有当一个词元的 KV "
              "与 AR 计算得到的完全一样时，才能保留它。",
    },
    "gloss.prefill.term": {"en": "prefill", "zh": "预填充"},
    "gloss.prefill.def": {
        "en": "The first forward, over the whole prompt: it fills the KV cache with the prompt's keys and values. "
              "AR's prefill also predicts the first token; WeDLM streaming's only caches the prompt, and the "
              "window's first forward fills the first slots.",
        "zh": "第一次前向计算，读入整个提示词：它把提示词的键和值存进 KV 缓存。AR 的预填充还会顺带预测出第一个词元；"
              "WeDLM 流式解码的预填充只缓存提示词，由窗口的第一次前向计算填出最前面的槽位。",
    },
    "gloss.diffusion.term": {"en": "diffusion language model / diffusion-style decoding",
                             "zh": "扩散语言模型 / 扩散式解码"},
    "gloss.diffusion.word": {"en": "diffusion", "zh": "扩散"},
    "gloss.diffusion.def": {
        "en": "A model that starts from a sequence of masks and fills them over several passes, in any order, "
              "instead of writing one token after another from left to right. WeDLM is diffusion-style (it fills "
              "masks in parallel) but keeps causal attention, so it can use a KV cache.",
        "zh": "这种模型从一串掩码出发，经过好几遍计算把它们填满，填的先后顺序不限，而不是从左到右一个接一个地写词元。"
              "WeDLM 是扩散式的（它并行填充掩码），但保留了因果注意力，所以能用 KV 缓存。",
    },
    "gloss.order.term": {"en": "logical / physical order", "zh": "逻辑顺序 / 物理顺序"},
    "gloss.order.word": {"en": "logical order", "zh": "逻辑顺序"},
    "gloss.order.def": {
        "en": "Logical order is the order in the text, given by the position ids; physical order is the order "
              "of the rows fed to the model. WeDLM moves filled slots before the masks physically while their "
              "position ids keep their logical places.",
        "zh": "逻辑顺序是词元在文本中的顺序，由位置编号给出；物理顺序是各行送进模型的先后顺序。WeDLM 在物理上把已填充的"
              "槽位挪到掩码前面，而它们的位置编号仍保留逻辑上的位置。",
    },
    "gloss.window.term": {"en": "window / W", "zh": "窗口 / W"},
    "gloss.window.word": {"en": "window", "zh": "窗口"},
    "gloss.window.def": {
        "en": "The W slots one forward decodes in parallel, after the leading filled run it commits: masks and "
              "filled slots that wait. A forward reads that run plus the window; each commit slides the window "
              "on and new masks refill it. In verified decoding (chapter 10, this explorer's own) W caps the masks "
              "instead, not the rows: a forward reads the model's next token, the drafts to check and up to W masks "
              "with drafts among them.",
        "zh": "一次前向计算并行解码的 W 个槽位，位于它要提交的开头已填充段之后：其中有掩码，也有在等待的已填充槽位。"
              "一次前向计算读入的是这一段加上窗口；每次提交都让窗口往后滑，再用新的掩码补满。在验证解码中（第 10 章，本探索器自己加的），"
              "W 限制的则是掩码数而不是行数：一次前向计算读入模型的下一词元、待检验的草稿，以及最多 W 个掩码和夹在其中的草稿。",
    },
    "gloss.position-id.term": {"en": "position id / RoPE", "zh": "位置编号 / RoPE"},
    "gloss.position-id.def": {
        "en": "The number a token carries for its place in the text. RoPE (rotary position embedding) is how "
              "the model reads it: it turns each query and key by an angle set by the position id, so an attention "
              "score depends on how far apart the two ids are, not on where the rows sit in the model's input; rows "
              "can be reordered without changing what the model computes.",
        "zh": "词元携带的一个数字，表示它在文本中的位置。RoPE（旋转位置编码）是模型读取这个数字的方式：它把每个查询和键"
              "按位置编号定下的角度转一转，所以注意力分数只取决于两个编号相隔多远，而不取决于某一行在模型输入里排第几；"
              "各行可以重排，模型算出的结果不变。",
    },
    "gloss.mask.term": {"en": "mask [M]", "zh": "掩码 [M]"},
    "gloss.mask.def": {
        "en": "A placeholder slot whose token is not known yet. WeDLM appends a window of masks after the text; "
              "one forward predicts a token for every mask. (Not the attention mask.)",
        "zh": "一个占位的槽位，它的词元还不知道。WeDLM 在文本后面追加一个由掩码组成的窗口；一次前向计算为每个掩码"
              "各预测一个词元。（不是注意力掩码。）",
    },
    "gloss.attention-mask.term": {"en": "attention mask", "zh": "注意力掩码"},
    "gloss.attention-mask.def": {
        "en": "Which rows of a forward may see which columns: the grids of chapters 3 and 9 draw it. Causal: a row "
              "sees itself and the rows before it. A different thing from a mask [M], a slot not yet written.",
        "zh": "一次前向计算里哪些行能看到哪些列：第 3 章和第 9 章的网格画的就是它。因果：一行只看到自己和它前面的行。"
              "它和掩码 [M]（尚未写出的槽位）是两回事。",
    },
    "gloss.entropy.term": {"en": "entropy (nats)", "zh": "熵（奈特）"},
    "gloss.entropy.def": {
        "en": "How unsure a prediction is: 0 nats = certain; ln 2 ≈ 0.69 nats = a coin flip between two tokens; "
              "higher = more spread out.",
        "zh": "一个预测有多不确定：0 奈特 = 完全确定；ln 2 ≈ 0.69 奈特 = 在两个词元之间抛硬币；越高 = 越分散。",
    },
    "gloss.tau.term": {"en": "τ (threshold)", "zh": "τ（阈值）"},
    "gloss.tau.def": {
        "en": "A mask is filled when its score is under τ. Larger τ fills more masks per forward (faster) but "
              "accepts less certain tokens: more texts leave the greedy one, and past some τ answers go wrong (chapter 8).",
        "zh": "掩码的得分低于 τ 时就被填充。τ 越大，每次前向计算填充的掩码越多（更快），但接受的词元也越没把握"
              "：更多文本偏离贪心解码的文本，τ 超过某个值后答案开始出错（见第 8 章）。",
    },
    "gloss.lambda.term": {"en": "λ (distance penalty)", "zh": "λ（距离惩罚）"},
    "gloss.lambda.def": {
        "en": "Added to a mask's score per slot of distance from the first open mask: score = entropy + λ·d. It "
              "pulls fills toward the front, where they can commit.",
        "zh": "掩码离第一个未填掩码每远一个槽位，得分就加上一个 λ：得分 = 熵 + λ·d。它把填充拉向前面，"
              "那里的词元才能提交。",
    },
    "gloss.distance.term": {"en": "d (distance)", "zh": "d（距离）"},
    "gloss.distance.def": {
        "en": "How many slots after the first open mask a slot is; the first open mask has d = 0.",
        "zh": "某个槽位在第一个未填掩码之后第几个槽位；第一个未填掩码的 d = 0。",
    },
    "gloss.commit.term": {"en": "commit", "zh": "提交"},
    "gloss.commit.def": {
        "en": "A filled token commits when it is in the leading filled run (no mask before it) of a forward's "
              "input: that forward computes its KV, the KV stays in the cache and the token is output. In streaming "
              "decoding a filled token is never changed (it only waits to commit); in verified "
              "decoding (chapter 10, this explorer's own) a draft can still be replaced until it commits. So a "
              "slot commits at the earliest one forward after the forward that filled it. Filled tokens behind "
              "a mask wait. A stop token that a forward only predicts at the end (AR, verified) is never fed "
              "to a forward, so it ends the text with no KV.",
        "zh": "已填充的词元出现在某次前向计算输入的开头连续已填充段里（它前面没有掩码）时，就提交："
              "这次前向计算算出它的 KV，KV 留在缓存中，词元本身被输出。在流式解码中，词元一经填充就固定下来（再也不会改，只是等待提交）；"
              "在验证解码中（第 10 章，本探索器自己加的），草稿在提交之前仍可能被替换。所以一个槽位最早在填充它的那次前向计算"
              "之后的下一次才提交。排在掩码后面的已填充词元则要等待。在结尾只是被前向计算预测出来的停止词元（AR、验证解码）"
              "不会再送入前向计算，所以它结束了文本，却没有 KV。",
    },
    "gloss.leading-run.term": {"en": "leading filled run", "zh": "开头连续的已填充段"},
    "gloss.leading-run.word": {"en": "leading filled run", "zh": "开头连续的已填充"},
    "gloss.leading-run.def": {
        "en": "The filled slots at the front of the window with no mask before them. They are the only slots "
              "that commit: a filled slot behind a mask waits.",
        "zh": "窗口最前面、前面没有任何掩码的那些已填充槽位。只有它们会提交：排在掩码后面的已填充槽位要等待。",
    },
    "gloss.token.term": {"en": "token", "zh": "词元"},
    "gloss.token.def": {
        "en": "The unit a language model reads and writes: a word, a piece of a word, a digit or a symbol. The "
              "model writes text one token (AR) or several tokens (WeDLM) per forward.",
        "zh": "语言模型读写的基本单位：一个词、词的一部分、一个数字或一个符号。模型每次前向计算写出一个词元（AR）"
              "或几个词元（WeDLM）。",
    },
    "gloss.bundled.term": {"en": "bundled model", "zh": "内置模型"},
    "gloss.bundled.def": {
        "en": "The small model that ships with this explorer (about 5 million parameters, trained by its own "
              "code on counting, sequences, arithmetic, word problems, code and plays): small enough for a CPU, so its text is often "
              "wrong or odd; what it shows is how decoding works.",
        "zh": "随本探索器一起提供的小模型（约 500 万参数，用本项目自己的代码在计数、数列、算术、应用题、代码和剧本上训练）："
              "小到能在 CPU 上跑，所以它写的文本常常出错或古怪；它展示的是解码如何工作。",
    },
    "gloss.nats.term": {"en": "nats", "zh": "奈特"},
    "gloss.nats.def": {
        "en": "The unit entropy is measured in here (it uses the natural logarithm): 0 nats = certain; "
              "ln 2 ≈ 0.69 nats = a coin flip between two tokens; higher = the guess is spread over more tokens.",
        "zh": "这里衡量熵所用的单位（用自然对数计算）：0 奈特 = 完全确定；ln 2 ≈ 0.69 奈特 = 在两个词元之间抛硬币；"
              "越高 = 猜测分散在越多的词元上。",
    },
    "gloss.glyphs.term": {"en": "· ↵ → in a token", "zh": "词元里的 · ↵ →"},
    "gloss.glyphs.def": {
        "en": "How a token's invisible characters are drawn: · is a space, ↵ a new line, → a tab.",
        "zh": "词元中看不见的字符的画法：· 表示空格，↵ 表示换行，→ 表示制表符。",
    },
    "gloss.p-cache.term": {"en": "p_cache", "zh": "p_cache（缓存保留率）"},
    "gloss.p-cache.def": {
        "en": "The share of the rows a decode computed whose KV was kept in the cache (1 = nothing was "
              "recomputed).",
        "zh": "一次解码算过的所有行中，KV 被留在缓存里的比例（1 = 没有任何重算）。",
    },
    "gloss.tpf.term": {"en": "tokens per forward", "zh": "每次前向计算的词元数"},
    "gloss.tpf.def": {
        "en": "Output tokens divided by forward passes. AR makes 1; WeDLM more where the text is predictable. "
              "Under 1: forwards that fill one slot each, minus the fills past the stop token, which are dropped (see chapter 7).",
        "zh": "输出词元数除以前向计算次数。AR 是 1；在文本容易预测的地方，WeDLM 更多。不到 1：每次前向计算只填一个槽位，"
              "停止词元之后的填充又被丢弃（见第 7 章）。",
    },
    "gloss.block.term": {"en": "block decoding", "zh": "块解码"},
    "gloss.block.def": {
        "en": "The older way to decode with masks: fill a block of masks over several forwards and commit only "
              "when the whole block is filled (stop-and-wait). WeDLM streams instead: it commits the leading "
              "filled run every forward.",
        "zh": "用掩码解码的老办法：用好几次前向计算填满一整块掩码，整块填满后才提交（停下来等）。WeDLM 则是流式的："
              "每次前向计算都提交开头连续的已填充段。",
    },
    "gloss.streaming.term": {"en": "streaming decoding", "zh": "流式解码"},
    "gloss.streaming.word": {"en": "streaming", "zh": "流式"},
    "gloss.streaming.def": {
        "en": "WeDLM's decoder, as the paper defines it: a window of W slots slides along the text. Each forward "
              "fills masks by the fill rule, commits the leading filled run, and refills the window with new "
              "masks, so the parallel work never pauses (block decoding waits until a whole block is filled).",
        "zh": "WeDLM 的解码器，即论文定义的那种：一个 W 个槽位的窗口沿着文本向前滑动。每次前向计算按填充规则"
              "填充掩码，提交开头连续的已填充段，再用新的掩码补满窗口，所以并行的工作从不停顿（块解码则要等"
              "整块都填满）。",
    },
    "gloss.greedy.term": {"en": "greedy decoding", "zh": "贪心解码"},
    "gloss.greedy.def": {
        "en": "Decoding that always takes the single most likely token (no sampling, no randomness): the same "
              "prompt always gives the same text. Every decode in the tour takes the likeliest token at each fill "
              "(temperature 0, the default; a higher temperature samples tokens at random by their probabilities, and a seed fixes that draw). "
              "“Greedy” or “the greedy text” (chapters 2, 4, 8, 10) is WeDLM's own left-to-right text, the likeliest token "
              "each time: verified decoding reproduces it exactly. Streaming, even with no τ (one slot per forward), "
              "fills out of order, so its text can differ. Chapter 1's AR model is another model, so its text can differ too.",
        "zh": "每一步总是取概率最大的那一个词元（不采样，没有随机性）的解码方式：同一个提示词总是得到同样的文本。"
              "导览里的解码每次填充都取最可能的词元（温度为 0，即默认值；温度更高时按概率随机抽取词元，种子则固定这次抽取）。"
              "“贪心”或“贪心文本”（第 2、4、8、10 章）是 WeDLM 自己从左到右、每次取最可能的词元写出的文本：验证解码一字不差地重现它。"
              "流式解码即使不设 τ（每次前向计算只填一个槽位）也是乱序填充，所以文本可能不同。"
              "第 1 章的 AR 模型是另一个模型，所以它的文本也可能不同。",
    },
    "gloss.draft.term": {"en": "draft", "zh": "草稿"},
    "gloss.draft.def": {
        "en": "A token the fill rule wrote into a mask slot before the text reaches it. Verified decoding "
              "checks each draft before it may commit.",
        "zh": "填充规则在文本写到那里之前就填进某个掩码槽位的词元。验证解码会在每个草稿提交之前先检查它。",
    },
    "gloss.verified.term": {"en": "verified decoding", "zh": "验证解码"},
    "gloss.verified.def": {
        "en": "Beyond the WeDLM paper (this explorer's own): every forward also gives the model's own "
              "next-token prediction at each row (the token it would write one at a time), and each draft in the leading filled run is checked "
              "against the prediction from the row before it. Drafts that agree commit; the first that does "
              "not is replaced by that prediction, the model's next token, so the text is exactly the model's own greedy text (lossless). The "
              "paper's algorithm, streaming, stays the default.",
        "zh": "超出 WeDLM 论文的部分（本探索器自己加的）：每次前向计算还会在每一行给出模型自己的下一词元预测（也就是它一次一个词元时会写出的词元），"
              "开头连续的已填充段里的每个草稿，都拿它前一行的预测来核对。一致的草稿提交；第一个不一致的换成这个预测，即模型的下一词元，"
              "所以写出的文本与模型自己的贪心文本完全相同（无损）。默认仍是论文的算法，即流式解码。",
    },
    "gloss.cost-window.term": {"en": "cost-aware window", "zh": "成本感知窗口"},
    "gloss.cost-window.def": {
        "en": "Beyond the WeDLM paper (this explorer's own, used only by verified decoding): before each forward "
              "the verified decoder chooses how many masks to carry, up to W, from how often its recent drafts "
              "were accepted and how much a wider forward costs on the machine running it (its rows also hold the "
              "model's next token and the drafts). When drafts keep "
              "failing it shrinks towards one row, one token per forward as in AR decoding; the text stays the same either way.",
        "zh": "超出 WeDLM 论文的部分（本探索器自己加的，只有验证解码使用）：每次前向计算之前，验证解码器根据最近的"
              "草稿被接受得多频繁，以及在运行它的机器上更宽的前向计算要多花多少时间，决定带几个掩码（最多 W 个；它的行里还有模型的下一词元和草稿）。"
              "草稿一再失败时，窗口缩小，趋向只有一行、像 AR 解码那样每次前向计算一个词元；无论大小，写出的文本都不变。",
    },
    "gloss.cached-prefix.term": {"en": "cached prefix", "zh": "已缓存的前缀"},
    "gloss.cached-prefix.def": {
        "en": "The tokens before this forward's rows whose keys and values are already in the KV cache: the "
              "prompt and every committed token. A forward does not recompute them; every row it runs sees all of "
              "them (the attention grids draw them as one first column).",
        "zh": "排在这次前向计算各行之前、键和值已经存进 KV 缓存的词元：也就是提示词和所有已提交的词元。前向计算不再"
              "重算它们；它运行的每一行都看得到它们全部（注意力网格把它们画成最前面的一列）。",
    },
    # chapter 3's check paragraph names the reference decoder and float rounding (its words are the
    # chapter's to link): a newcomer met both unexplained
    "gloss.reference.term": {"en": "reference decoder", "zh": "参考解码器"},
    "gloss.reference.def": {
        "en": "A slow, plain decoder kept only to check the fast one: the same fill rule, but it recomputes "
              "the whole text at every forward, with no KV cache and no reordering, so there is nothing clever "
              "in it to go wrong. The streaming decoder must write exactly its tokens; their entropies may "
              "differ only by float rounding.",
        "zh": "一个又慢又朴素的解码器，只用来检验快的那个：填充规则相同，但每次前向计算都把整段文本重新算一遍，"
              "不用 KV 缓存，也不做重排，所以里面没有什么巧妙的地方可能出错。流式解码器写出的词元必须与它完全相同；"
              "两者的熵只允许相差浮点舍入那么一点。",
    },
    "gloss.float-rounding.term": {"en": "float rounding", "zh": "浮点舍入"},
    "gloss.float-rounding.def": {
        "en": "A computer keeps each number to a fixed number of digits (a floating-point number, or float), so "
              "every sum is rounded a little. Adding the same numbers in another order, as a reordered forward "
              "does, rounds differently: results differ in the last digits (a few millionths of a nat), while "
              "the chosen tokens stay the same.",
        "zh": "计算机给每个数只保留固定的位数（浮点数），所以每做一次加法都会舍入一点点。换个顺序把同样的数加起来"
              "（重排后的前向计算就是这样），舍入就不同：结果只在最后几位上有差别（百万分之几奈特），选出的词元不变。",
    },
    # the words chapter 3's worked example leans on (walk 23: "layer 1, head 3 of 4" and "a value is 64
    # numbers" met a class that was never taught them)
    "gloss.layer.term": {"en": "layer / attention head", "zh": "层 / 注意力头"},
    "gloss.layer.def": {
        "en": "A transformer is a stack of layers. Each layer reads one vector (a list of numbers) per row from "
              "the layer before and writes a new one; the last layer's vector at a row gives that row's "
              "prediction. Inside a layer, attention runs as several heads side by side, each with its own "
              "weights and its own slice of the numbers; their outputs are joined again.",
        "zh": "这种语言模型是一层层叠起来的。每一层从上一层读入每一行的一个向量（一串数），再写出一个新的；"
              "最后一层在某一行的向量给出这一行的预测。在一层之内，注意力分成几个并排的头，"
              "每个头有自己的权重、负责向量的一部分数；它们的输出再拼回一起。",
    },
    "gloss.qkv.term": {"en": "query, key, value", "zh": "查询、键、值"},
    "gloss.qkv.def": {
        "en": "In an attention head every row makes three vectors: a query (what it looks for), a key (what a "
              "query is matched by) and a value (what it passes on). A row's weight on each row it sees comes "
              "from its query · that row's key (both turned by their position ids: RoPE); the weights are "
              "scaled to add up to 1, and the row's output is the weighted sum of the values.",
        "zh": "在一个注意力头里，每一行生成三个向量：查询（它要找什么）、键（查询拿来匹配的东西）和值（它传出去的内容）。"
              "一行对它看到的每一行的权重来自“它的查询 · 那一行的键”（两者都按各自的位置编号旋转：RoPE）；"
              "权重缩放到加起来等于 1，这一行的输出就是各个值的加权和。",
    },
    "gloss.forward-ratio.term": {"en": "forward_ratio", "zh": "forward_ratio（前向计算次数比）"},
    "gloss.forward-ratio.def": {
        "en": "AR's forwards divided by WeDLM's forwards on the same prompt: how many fewer forwards WeDLM "
              "needed.",
        "zh": "同一个提示词上，AR 的前向计算次数除以 WeDLM 的前向计算次数：WeDLM 少用了多少次前向计算。",
    },

    # ---------- chapter 1: AR and the KV cache ----------
    "ch1.title": {"en": "1 · One token per forward: AR and the KV cache",
                  "zh": "1 · 每次前向计算一个词元：AR 与 KV 缓存"},
    "ch1.ended": {"en": "This forward predicted nothing: the decode had ended.",
                  "zh": "这次前向计算没有预测任何词元：解码已经结束了。"},
    "ch1.p1": {
        "en": "An ordinary language model is <b>autoregressive (AR)</b>: it writes one token per {forward} (one "
              "run of the network). Each forward reads the newest token, looks back at everything before it, "
              "and predicts the next token.",
        "zh": "普通的语言模型是<b>自回归（AR）</b>的：每次{forward}（网络完整运行一遍）只写出一个词元。每次前向计算"
              "读入最新的词元，回看它之前的全部内容，然后预测下一个词元。",
    },
    "ch1.p2": {
        "en": "Attention is <b>causal</b>: a token only looks at tokens before it, matching its <i>query</i> (what "
              "it looks for) against their <i>keys</i> (what each is matched by) to weigh their <i>values</i> (what "
              "each passes on). So the keys and values (KV) computed for a token never change: the engine keeps them "
              "in a {kv_cache}, one row per forward (a row: one input position of a forward, one token fed), instead "
              "of recomputing them. Every token also carries a "
              "{position_id} (the small number under it): its place in the text, which the model's position "
              "encoding (RoPE) reads.",
        "zh": "注意力是<b>因果</b>的：一个词元只看它前面的词元，拿自己的<i>查询</i>（它要找什么）去匹配它们的<i>键</i>"
              "（各自凭什么被找到），以此给它们的<i>值</i>（各自传出去的内容）加权。所以为一个词元算出的键和值（KV）永远不会变："
              "推理引擎把它们存进 {kv_cache}，每次前向计算添上一行（一行：前向计算的一个输入位置，即送入的一个词元），"
              "而不是每次重算。每个词元还带着一个"
              "{position_id}（它下面的小数字）：表示它在文本中的位置，模型的位置编码（RoPE）读的就是它。",
    },
    # the numbering rule, said before the narration's first step number (a newcomer met "step 4" and
    # "after 59 forwards" a paragraph before the rule)
    "ch1.rule": {
        "en": "Steps count from 0, forwards from 1: step k is forward k + 1.",
        "zh": "步从 0 数起，前向计算从 1 数起：第 k 步就是第 k + 1 次前向计算。",
    },
    "ch1.p3": {
        "en": "Here, at step {step} (forward {forward_n}), the model reads {token} at position {start}, stores its KV (cache {before} → "
              "{after} tokens) and predicts {predicted} for position {pos} with {entropy} {h:.2f} nats (0 = "
              "certain). After {steps} forwards (steps 0–{last}) it has written {tokens} tokens: the first came from "
              "the <b>prefill</b> (one first forward over the whole prompt, not counted), then one per forward. WeDLM keeps "
              "this cache but writes several {tpf}.",
        "zh": "这里是第 {step} 步（第 {forward_n} 次前向计算）：模型读入位置 {start} 上的 {token}，存下它的 KV（缓存 {before} → {after} 个词元），"
              "并为位置 {pos} 预测出 {predicted}，{entropy}为 {h:.2f} 奈特（0 = 完全确定）。{steps} 次前向计算"
              "（第 0–{last} 步）之后，它写出了 {tokens} 个词元：第一个来自<b>预填充</b>（最先读入整个提示词的那次前向计算，不计数），之后每次前向计算一个。WeDLM 保留了这种缓存，"
              "但{tpf}不止一个。",
    },
    "ch1.p4": {
        "en": "Decoding stops at &lt;EOS&gt; (end of sequence).",
        "zh": "写出 &lt;EOS&gt;（序列结束）时停止。",
    },
    "ch1.lane": {"en": "autoregressive", "zh": "自回归"},
    "ch1.try": {"en": "Try it: your prompt, decoded by the AR model", "zh": "试一试：输入你的提示词，由 AR 模型解码"},
    # a walker typed a poem prompt and got a play: the tiny models know only what they were trained on
    "ch1.try_info": {"en": "the tiny models learned only counting, sequences, arithmetic, word problems, code and "
                           "plays: other prompts get odd text",
                     "zh": "这两个小模型只学过计数、数列、算术、应用题、代码和剧本：别的提示词会得到奇怪的文字"},
    "ch1.button": {"en": "Decode live", "zh": "现场解码"},
    "ch1.too_short": {"en": "the model stopped before its first forward: try a longer prompt",
                      "zh": "模型在第一次前向计算之前就停下了：换一个更长的提示词试试"},

    # ---------- chapter 2: masks and the fill rule ----------
    "ch2.title": {"en": "2 · Masks and the fill rule (τ, λ, d)", "zh": "2 · 掩码与填充规则（τ、λ、d）"},
    "ch2.full": {"en": "No mask was scored at this step: every slot of the window was filled.",
                 "zh": "这一步没有给任何掩码打分：窗口的每个槽位都已填充。"},
    # the last step, which scores no mask (ch2_fill_rule.text): the rule in one line
    "ch2.rule_recap": {"en": "The fill rule, at every step with masks: score = H + λ·d; every mask under τ fills, "
                             "else the single lowest.",
                       "zh": "填充规则，在每个有掩码的步里：得分 = H + λ·d；低于 τ 的掩码全部填充，"
                             "一个都没有就只填最低的那个。"},
    "ch2.stays": {"en": " Position {pos} stays a mask ({mask_colour} bar): {score} is not under τ {tau}.",
                  "zh": "位置 {pos} 仍是掩码（{mask_colour}柱）：{score} 不低于 τ（{tau}）。"},
    "ch2.lambda_kept": {"en": " Its entropy alone was under τ: the distance penalty kept it open.",
                        "zh": "单看它的熵是低于 τ 的：是距离惩罚让它继续留作掩码。"},
    "ch2.tau_is": {"en": "Here τ = {tau:g} (the {threshold_colour} dashed line)",
                   "zh": "这里 τ = {tau:g}（{threshold_colour}虚线）"},
    "ch2.tau_none": {"en": "Here τ = none: exactly one mask fills per forward",
                     "zh": "这里 τ = 无：每次前向计算恰好填充一个掩码"},
    "ch2.p1": {
        "en": "WeDLM appends a <b>window</b> (W = {window} slots) after the text, at "
              "first all {mask} (placeholders for tokens not written yet), and runs one forward over them. Every "
              "mask predicts its own token (its top choice), with an {entropy} H (in nats; 0 = certain, higher = unsure). The filled "
              "run at the front (no mask before it) will {commit} (its KV enters the cache; it is output); the window keeps W slots after that run, some "
              "filled (waiting: a filled token is never changed), the rest masks. So a forward reads that run plus the window, and a later step can "
              "show fewer than W masks.",
        "zh": "WeDLM 在文本后面追加一个<b>窗口</b>（W = {window} 个槽位），起初全是{mask}"
              "（为尚未写出的词元占位），然后用一次前向计算处理它们。每个掩码都预测自己的词元（模型的首选），并给出{entropy} H"
              "（单位为奈特；0 = 完全确定，越高越没把握）。最前面连续的已填充段（前面没有掩码）将会{commit}（它的 KV 进入缓存，词元被输出）；"
              "窗口在这一段之后保留 W 个槽位，有些已填充（等待中：已填充的词元不会再改），其余仍是掩码。所以一次前向计算读入的是这一段"
              "加上窗口，后面的步骤里掩码也可能少于 W 个。",
    },
    "ch2.p2": {
        "en": "<b>The fill rule.</b> Let {d} = how many slots after the first open mask a slot is (the first open "
              "mask has d = 0). Score = H + {lam}·d. Fill every mask whose score is under {tau} (&lt;, not ≤) "
              "with its token; if none is, fill the single lowest. {tau_words}, λ = {penalty:g} (the {penalty_colour} strip in the top of each "
              "bar).",
        "zh": "<b>填充规则。</b>设 {d} = 某个槽位排在第一个未填掩码之后第几个（第一个未填掩码的 d = 0）。"
              "得分 = H + {lam}·d。得分低于 {tau}（&lt;，不是 ≤）的掩码全部用各自的词元填充；一个都没有的话，就只填得分最低的那一个。"
              "{tau_words}，λ = {penalty:g}（每根柱顶部{penalty_colour}的细条）。",
    },
    # by the number of masks that fill ({n}); {open} is ch2.open_masks by the number scored
    "ch2.p3.one": {
        "en": "On this step, step {step}, {n} of {open} fills ({new_colour} bar, ✓ above it): "
              "position {pos}: {score}{verdict}{why_open}",
        "zh": "在这一步（第 {step} 步），{open}中有 {n} 个被填充（{new_colour}柱，上方有 ✓），"
              "即位置 {pos}：{score}{verdict}{why_open}",
    },
    "ch2.p3.many": {
        "en": "On this step, step {step}, {n} of {open} fill ({new_colour} bars, ✓ above each), "
              "e.g. position {pos}: {score}{verdict}{why_open}",
        "zh": "在这一步（第 {step} 步），{open}中有 {n} 个被填充（{new_colour}柱，上方各有 ✓），"
              "例如位置 {pos}：{score}{verdict}{why_open}",
    },
    "ch2.open_masks.one": {"en": "the {n} open mask", "zh": "{n} 个未填掩码"},
    "ch2.open_masks.many": {"en": "{n} open masks", "zh": "{n} 个未填掩码"},
    "ch2.under_tau": {"en": " &lt; τ.", "zh": " &lt; τ。"},
    "ch2.lowest": {"en": ", the lowest score.", "zh": "，是最低的得分。"},
    "ch2.fallback": {
        "en": " No step of it both filled several masks and left some open (the moment this chapter explains), "
              "so here is its busiest step, step {step}: {filled} of {masks} filled at once.",
        "zh": "它没有哪一步既填充了多个掩码、又留下一些未填（本章讲的正是这个时刻），所以这里显示它最忙的一步，"
              "第 {step} 步：{masks}中有 {filled} 个被同时填充。",
    },

    # ---------- chapter 3: reordering ----------
    "ch3.title": {"en": "3 · Reordering: filled tokens before masks", "zh": "3 · 重排：已填充的词元移到掩码前面"},
    "ch3.same_order": {
        "en": "No filled slot sits behind a mask in this step's input, so physical and logical order are the "
              "same here.",
        "zh": "这一步的输入里，没有排在掩码后面的已填充槽位，所以这里的物理顺序和逻辑顺序相同。",
    },
    "ch3.p1": {
        "en": "Masks are not filled left to right, so in step {step}'s input the mask at {first_mask} has "
              "filled tokens <i>after</i> it, at {waiting}: its right-hand context.",
        "zh": "掩码不是从左到右依次填充的，所以在第 {step} 步的输入中，位置 {first_mask} 的掩码<i>之后</i>就有"
              "已填充的词元，位于 {waiting}：这是它右边的上下文。",
    },
    "ch3.p2": {
        "en": "It must see them, yet attention must stay causal: then a row's keys and values (KV) depend only "
              "on the rows before it, so a committed token's KV are exactly a left-to-right pass's and stay in the {kv_cache} "
              "(two-way attention would change them at every fill). WeDLM's trick: physically move every filled token in front of every mask, keeping each token's "
              "{position_id} (the number under it): compare the window's two rows.",
        "zh": "掩码必须看到它们，可注意力又必须保持因果：这样一行的键和值（KV）只取决于它前面的各行，已提交词元的 KV "
              "与从左到右逐个计算的完全一样，可以留在 {kv_cache} 里（双向注意力每填一个掩码都会改变它们）。WeDLM 的妙招是：把每个已填充的"
              "词元在物理上挪到所有掩码前面，同时保留每个词元的{position_id}（它下面的数字）：对比窗口视图的两行。",
    },
    # why the move changes nothing, in three steps on this step's first mask (ch3_reordering.why)
    "ch3.why": {"en": "<b>Why the prediction is the same, in three steps:</b>",
                "zh": "<b>为什么预测不变，分三步看：</b>"},
    "ch3.why.physical": {
        "en": "The forward runs a plain causal triangle in <b>physical</b> order (first grid): each row sees the "
              "rows before it, {attend}. The mask at {pos} sees {seen}, after the cached prefix 0–{prefix_end}.",
        "zh": "前向计算按<b>物理</b>顺序运行一个普通的因果三角（第一个网格）：每一行看到它前面的各行，即{attend}的格子。"
              "位置 {pos} 的掩码看到的是位置 {seen}，它们排在已缓存的前缀 0–{prefix_end} 之后。",
    },
    "ch3.why.logical": {
        "en": "Read in <b>logical</b> order (second grid), its row marks the same positions; {later}, filled "
              "tokens after it, are {attend_later}. Their rows leave column {pos} blank: filled tokens sit before "
              "every mask in physical order, so they never see one.",
        "zh": "按<b>逻辑</b>顺序来读（第二个网格），它那一行标出的正是同样这些位置；其中 {later} 是文本中排在它后面的"
              "已填充词元，显示为{attend_later}。它们那几行在第 {pos} 列是空的：物理顺序中已填充词元排在所有掩码前面，"
              "所以从不看到掩码。",
    },
    "ch3.why.rope": {
        "en": "A row's attention is a weighted sum over the tokens it sees; each weight depends on the two "
              "tokens and their position ids{gap}, never on rows, and a sum is the same in any order. Same tokens, same "
              "ids: the same sum{table}, the same prediction.",
        "zh": "一行的注意力是对它看到的词元做加权求和；每个权重只取决于两个词元和它们的位置编号{gap}，与行的次序无关，"
              "而求和换个顺序结果不变。词元相同、编号相同：和相同{table}，预测也就相同。",
    },
    # only on the worked example's step: the Σ table shows on no other (walk 26 read it at step 5, the table gone)
    "ch3.why.table": {"en": " (the Σ table adds one up by hand)", "zh": "（Σ 表逐项把一个和算了出来）"},
    # ch3.why.rope's {gap}: RoPE on the worked example's token after the mask (ch3_reordering.rope_pair)
    "ch3.why.rope_gap": {"en": " ({rope}: '{token}' at {at} is {at} − {pos} = {gap} ids from the mask in both orders)",
                         "zh": "（{rope}：位置 {at} 的「{token}」在两种顺序里都相隔 {at} − {pos} = {gap}）"},
    # the worked example under the grids (ch3_reordering.example_view; tools/record_tour.py reorder_attention)
    "ch3.example.title": {
        "en": "Worked example, step {step}: the mask at {pos}, {where}.",
        "zh": "算一个例子，第 {step} 步：位置 {pos} 的掩码，{where}。",
    },
    # the title's layer and head, linked to the glossary's "layer / attention head"
    "ch3.example.where": {"en": "layer 1, head {head} of {heads}", "zh": "第 1 层，第 {head} 个注意力头（共 {heads} 个）"},
    # each head weighs on its own; the caption's numbers are the record's after_shares (wedlm.attention)
    "ch3.example.after_most": {
        "en": "Of the {heads} heads, this one gives the filled tokens after the mask ({later}) the most weight: "
              "{share} (the other heads: {others}).",
        "zh": "{heads} 个头里，这个头给掩码后面已填充的词元（{later}）的权重最多：{share}（其余的头：{others}）。",
    },
    "ch3.example.after_share": {
        "en": "This head gives the filled tokens after the mask ({later}) {share} of its weight (the others {others}).",
        "zh": "这个头给掩码后面已填充的词元（{later}）的权重是 {share}（其余的头：{others}）。",
    },
    # the caption's share split as the table shows it: the after-tokens with a row of their own, the rest
    # inside "the other n tokens together" (rounded so the two add up to the share shown)
    "ch3.example.after_split": {
        "en": " Of its {share}, {own} goes to '{token}' at {at} (a row of its own); the {k} more filled tokens after "
              "the mask ({rest_at}) get {rest}, counted inside “the other {n} tokens together”.",
        "zh": "这 {share} 里，{own} 给了位置 {at} 的「{token}」（单独一行）；掩码后面另外 {k} 个已填充词元（{rest_at}）"
              "得到 {rest}，算在“其余 {n} 个词元合计”那一行里。",
    },
    "ch3.example.after_shown": {
        "en": "The filled token after the mask, '{token}' at {at}, gets {share} of this head's weight.",
        "zh": "掩码后面的已填充词元「{token}」（位置 {at}）得到这个头 {share} 的权重。",
    },
    "ch3.example.query": {"en": "query", "zh": "查询"},   # linked to the glossary's "query, key, value"
    "ch3.example.qkv": {
        "en": "Its {query} is what it looks for; each token it sees has a <i>key</i>, what a query is matched "
              "by (query · key → a score → a <b>weight</b>; the weights add up to 1), and a <i>value</i>, what it "
              "passes on. {rope} In layer 1 query, key and value come from the token and its id "
              "alone, never its row: row order cannot change a weight.",
        "zh": "它的{query}是它要找什么；它看到的每个词元都有一个<i>键</i>，即查询拿来匹配的东西（查询 · 键 → 分数 → "
              "<b>权重</b>；权重加起来等于 1），还有一个<i>值</i>，即它传出去的内容。{rope}在第 1 层，查询、键和值只来自词元本身和它的编号，"
              "与所在的行无关：行的次序改变不了任何权重。",
    },
    # what RoPE does to a score, on the table's filled token after the mask (ch3_reordering.rope_words): the
    # two ids and their difference, numbers the grids label; without such a row, in general
    "ch3.example.rope_at": {
        "en": "{rope} turns query and key by their position ids: the mask's score for '{token}' at {at} depends "
              "on {at} − {pos} = {gap} in both orders, not on rows.",
        "zh": "{rope}按位置编号转动查询和键：掩码对位置 {at} 的「{token}」的分数在两种顺序里都取决于 "
              "{at} − {pos} = {gap}，与行无关。",
    },
    "ch3.example.rope": {
        "en": "{rope} turns query and key by an angle set by the position id, so a score depends on how far apart "
              "two ids are, not on rows.",
        "zh": "{rope}把查询和键按位置编号定下的角度转一转，所以分数只取决于两个编号相隔多远，与行无关。",
    },
    "ch3.example.col.token": {"en": "token", "zh": "词元"},
    # the grids label a row by its position id ("65:[M]"): the table names a token the same way, and where
    # it is by whether its row is above or below the mask's (never a row counted from the prompt's start):
    # fed, every token the mask sees is before it (the causal triangle); in the text, before or after it
    "ch3.example.col.pos": {"en": "position id (grid label)", "zh": "位置编号（网格里的标签）"},
    "ch3.example.col.physical": {"en": "in the text (fed: all before)",
                                 "zh": "在文本中（送入：都在之前）"},
    "ch3.example.before": {"en": "before", "zh": "之前"},
    "ch3.example.after": {"en": "after", "zh": "之后"},
    "ch3.example.col.weight": {"en": "weight, fed in physical order", "zh": "权重（按物理顺序送入）"},
    "ch3.example.col.logical_weight": {"en": "weight, fed in logical order", "zh": "权重（按逻辑顺序送入）"},
    # wedlm.attention.step_orders: the logical run sees what the reference decoder's mask (reorder.visibility) gives
    "ch3.example.logical_sees": {"en": "In logical order the {reference}'s attention mask lets it see {later}.",
                                 "zh": "按逻辑顺序送入时，{reference}的注意力掩码仍让它看到 {later}。"},
    "ch3.example.col.value": {"en": "value", "zh": "值"},
    "ch3.example.col.product": {"en": "weight × value", "zh": "权重 × 值"},
    "ch3.example.others": {"en": "the other {n} tokens together", "zh": "其余 {n} 个词元合计"},
    "ch3.example.sum_physical": {"en": "sum, fed in physical order", "zh": "总和，按物理顺序送入"},
    "ch3.example.sum_logical": {"en": "sum, fed in logical order", "zh": "总和，按逻辑顺序送入"},
    "ch3.example.sums": {
        "en": "A value is {dim} numbers; the table follows one of them (number {coord}, the largest this head outputs). "
              "Rounded. {later}: a filled token after the mask in the text, fed before it (first grid: rows {moved} "
              "above row {pos}): the same weight in both orders. Same sum, so the same input to layer 2.",
        "zh": "一个值由 {dim} 个数组成；表里跟踪其中一个（第 {coord} 个，这个头输出里绝对值最大的那个）。数字已四舍五入。"
              "{later}：文本中排在掩码后面、却在它之前送入的已填充词元（第一个网格：第 {moved} 行在第 {pos} 行上面）："
              "两种顺序里权重相同。和相同，所以第 2 层的输入相同。",
    },
    # the measured chain (ch3_reordering.layers_view; wedlm.attention.final_prediction "by_layer"): per layer,
    # the largest difference between the two orders' vectors (rounded up: "at most") and their largest number
    "ch3.example.layers.intro": {
        "en": "Why every layer: each row sees the same rows in both orders (the two grids), so every row's layer-1 output "
              "is the same; layer 2 then reads the same inputs, and the same sums repeat, layer after layer. Measured "
              "too: the mask's output after each layer ({hidden} numbers{width}), fed in each order, compared number by number:",
        "zh": "为什么每一层都一样：两种顺序下每一行看到的行相同（见两张网格），所以每一行在第 1 层的输出都相同；于是第 2 层读入的也相同，"
              "同样的加和一层接一层地重复。也实际量了：掩码在每一层之后的输出（{hidden} 个数{width}），两种顺序各送入一次，逐个数比较：",
    },
    # the layer's output beside one head's value (walk 25: "a value is 64 numbers" beside "256 numbers", never
    # reconciled)
    "ch3.example.layers.width": {"en": ", the model's width: the layer mixes its {heads} heads' values of {head_dim} into it",
                                 "zh": "，即模型的宽度：该层把 {heads} 个注意力头各 {head_dim} 个数的值混合进去"},
    "ch3.example.layers.col.layer": {"en": "after layer", "zh": "第几层之后"},
    "ch3.example.layers.col.diff": {"en": "the two orders differ by at most", "zh": "两种顺序最多相差"},
    "ch3.example.layers.col.size": {"en": "its largest number (for scale)", "zh": "其中最大的数（作比较）"},
    "ch3.example.layers.same": {
        "en": "At most {diff} apart, on numbers up to {size}: float rounding, nothing more, layer after layer up to "
              "layer {layers}, the last. What the mask then predicts, from the decoders' own forwards:",
        "zh": "最多相差 {diff}，而数本身大到 {size}：只是浮点舍入，别无其他，一层接一层，直到最后的第 {layers} 层。"
              "这时掩码的预测如下（来自两个解码器自己的前向计算）：",
    },
    "ch3.example.layers.differ": {
        "en": "Up to {diff} apart, on numbers up to {size}: more than float rounding. What the mask then predicts, "
              "from the decoders' own forwards:",
        "zh": "最多相差 {diff}，而数本身大到 {size}：超出了浮点舍入。这时掩码的预测如下（来自两个解码器自己的前向计算）：",
    },
    # an older record without the layers measured (wedlm.attention.final_prediction "by_layer"): the chain in words only
    "ch3.example.sums_short": {
        "en": "A value is {dim} numbers; the table follows one of them (number {coord}, the largest this head outputs). "
              "Rounded. {later}: a filled token after the mask in the text, fed before it (first grid: rows {moved} "
              "above row {pos}): the same weight in both orders. Same sum, so the same input to layer 2, and so on "
              "to the same prediction.",
        "zh": "一个值由 {dim} 个数组成；表里跟踪其中一个（第 {coord} 个，这个头输出里绝对值最大的那个）。数字已四舍五入。"
              "{later}：文本中排在掩码后面、却在它之前送入的已填充词元（第一个网格：第 {moved} 行在第 {pos} 行上面）："
              "两种顺序里权重相同。和相同，所以第 2 层的输入相同，一层层下去，预测也相同。",
    },
    # the end of the chain (ch3_reordering.final_view): the mask's prediction after the last layer, each order
    "ch3.example.final.col.order": {"en": "the mask at {pos}, after layer {layers} of {layers}",
                                    "zh": "位置 {pos} 的掩码，第 {layers} 层（共 {layers} 层）之后"},
    "ch3.example.final.col.token": {"en": "top token", "zh": "最可能的词元"},
    "ch3.example.final.col.probability": {"en": "its probability", "zh": "它的概率"},
    "ch3.example.final.col.entropy": {"en": "entropy ({nats})", "zh": "熵（{nats}）"},
    # each decoder linked to its glossary entry (walk 25: "streaming decoder" used before it was explained)
    "ch3.example.final.physical": {"en": "fed in physical order: the {decoder}", "zh": "按物理顺序送入：{decoder}"},
    "ch3.example.final.logical": {"en": "fed in logical order: the {decoder}", "zh": "按逻辑顺序送入：{decoder}"},
    "ch3.example.final.streaming": {"en": "streaming decoder", "zh": "流式解码器"},
    "ch3.example.final.reference": {"en": "reference decoder", "zh": "参考解码器"},
    "ch3.example.final.same": {"en": "The same prediction either way: that is what reordering must keep.",
                               "zh": "两种顺序给出同样的预测：这正是重排必须保持的。"},
    # why a mask seeing earlier masks is harmless (ch3_reordering.masks_seen; wedlm/training/objective.py
    # block_visibility is the same rule as reorder.visibility, which the reference decoder's mask uses)
    "ch3.example.masks": {
        "en": "A mask also sees the masks before it (the mask at {pos} sees {seen}). Harmless: a mask enters the "
              "model as nothing but the mask embedding at its position id, and training fed this same order "
              "(filled, then masks, causal: chapter 9), so the model learned to read earlier masks as “unknown "
              "tokens at these positions”. The reference decoder's attention mask gives a mask exactly the same set.",
        "zh": "掩码还能看到排在它前面的掩码（位置 {pos} 的掩码看得到 {seen}）。这无妨：掩码进入模型时只是掩码嵌入"
              "加上它的位置编号，而训练送入的正是同样的顺序（先已填充、再掩码，因果：见第 9 章），所以模型学会了把前面的"
              "掩码读作“这些位置上还不知道的词元”。参考解码器的注意力掩码给一个掩码的，也正是同样这一组。",
    },
    "ch3.example.scroll": {"en": "← scroll the table: the sums are in its last column →",
                           "zh": "← 左右滑动表格：总和在最后一列 →"},
    "ch3.example.open": {"en": "Σ weight × value, by hand ▾", "zh": "Σ 权重 × 值，逐项算 ▾"},
    "ch3.example.elsewhere": {
        "en": "The worked example (the attention sum of the mask at {pos}, by hand) belongs to step {step}.",
        "zh": "算例（位置 {pos} 的掩码的注意力之和，逐项列出）属于第 {step} 步。",
    },
    # the recorded proof (tools/record_tour.py reorder_check): the reference decoder, in logical order
    "ch3.check": {
        "en": "<b>Checked on this decode:</b> the {reference} ran it without reordering (logical "
              "order, no cache, an {attention_mask}): the same {tokens} tokens. Over {forwards} forwards, "
              "{slots} mask entropies differ by at most {diff} nats: {rounding}.",
        "zh": "<b>在这次解码上验证过：</b>{reference}不做重排把它重跑了一遍（按逻辑顺序，不用缓存，用一个{attention_mask}）："
              "写出的 {tokens} 个词元完全相同。在 {forwards} 次前向计算里，{slots} 个槽位的熵相差至多 {diff} 奈特："
              "{rounding}误差。",
    },
    # a step of the chapter with nothing behind a mask still says what the chapter is about
    "ch3.idea": {
        "en": "This chapter's idea: when a mask has filled tokens after it in the text, WeDLM feeds them in front "
              "of it, so causal attention still lets the mask see them.",
        "zh": "本章要讲的是：当文本里某个掩码后面有已填充的词元时，WeDLM 把它们挪到这个掩码前面送入模型，"
              "这样因果注意力仍能让掩码看到它们。",
    },
    "ch3.fallback": {
        "en": " No step of it filled a slot behind an open mask, so physical and logical order never differ.",
        "zh": "它没有哪一步填充了排在未填掩码后面的槽位，所以物理顺序和逻辑顺序始终相同。",
    },

    # ---------- chapter 4: what commits, and what waits ----------
    "ch4.title": {"en": "4 · What commits, and what waits", "zh": "4 · 哪些提交，哪些等待"},
    "ch4.all_lead": {
        "en": "Every filled slot of this step's input is in the leading run: nothing waits behind a mask.",
        "zh": "这一步输入中的每个已填充槽位都在开头连续的一段里：没有谁排在掩码后面等待。",
    },
    "ch4.none": {"en": "Nothing commits at this step: the first slot of its input is still a mask.",
                 "zh": "这一步什么也没提交：它输入的第一个槽位仍是掩码。"},
    "ch4.top_below": {"en": "Top: the input of step {step}. Below: step {next}, the next forward.",
                      "zh": "上方：第 {step} 步的输入。下方：第 {next} 步，即下一次前向计算。"},
    "ch4.top_last": {"en": "Top: the input of step {step}, the last forward. There is no next one: below shows it again.",
                     "zh": "上方：第 {step} 步的输入，也就是最后一次前向计算。没有下一次了：下方再次显示它。"},
    "ch4.later": {"en": "They commit at step {later}, once every slot before them is filled.",
                  "zh": "它们在第 {later} 步提交，那时它们前面的每个槽位都已填充。"},
    "ch4.never": {"en": "They never commit in this decode.", "zh": "在这次解码中它们始终没有提交。"},
    "ch4.delay": {
        "en": "<b>Why one forward later?</b> The forward that fills a slot reads a mask there, so the KV it "
              "computes is the mask's. The next reads the token itself, whose KV the cache keeps.",
        "zh": "<b>为什么要晚一次前向计算？</b>填充某个槽位的那次前向计算在那里读入的是掩码，算出的 KV 属于掩码。"
              "下一次读入的才是这个词元本身，缓存保留的是它的 KV。",
    },
    "ch4.delay_here": {
        "en": " Here: position {pos} was filled at step {filled} and commits now, at step {step}.",
        "zh": "本例中：位置 {pos} 在第 {filled} 步被填充，现在第 {step} 步提交。",
    },
    # {final}: tour.final, the recap's words for "final" (ch11.commit_a)
    "ch4.p1": {
        "en": "“Final” has two senses: {final}. Only there is a token's KV exactly an AR pass's: "
              "the run is first in physical order, as in logical order.",
        "zh": "“定稿”有两层意思：{final}。只有在那里，词元的 KV 才与 AR 算出的完全一样："
              "这一段在物理顺序中排在最前，在逻辑顺序中也一样。",
    },
    "ch4.p2": {
        "en": "So at step {step} positions {span} {commit} ({committed_colour}): this forward writes their KV into the cache, "
              "{before} → {after} tokens. Positions {waiting} are filled too ({filled_colour}), but wait: in the "
              "text they come after the mask at {first_mask}; in the input (physical order) they sat in front of it, so they "
              "never saw position {first_mask}'s token: {kv_waits}. {when}",
        "zh": "所以在第 {step} 步，位置 {span} {commit}了（{committed_colour}）：这次前向计算把它们的 KV 写入缓存，"
              "缓存 {before} → {after} 个词元。位置 {waiting} 也已填充（{filled_colour}），但要等待：在文本中它们排在位置 {first_mask} "
              "的掩码之后；在输入里（物理顺序）它们排在那个掩码前面，所以从没看到位置 {first_mask} 的词元："
              "{kv_waits}。{when}",
    },
    # what becomes of a waiting slot's KV (wedlm/decoders/core.py, ../shared/DESIGN.md: a filled slot
    # behind an open mask is fed again by every forward until it commits; each such forward computes its
    # KV and crops it; only the forward that commits it keeps it): chapter 4 and the recap say it in
    # these same words
    # "final" in its two senses, said alike in chapter 4 and the recap (ch11.commit_a): never changed
    # once filled; committed (output, KV kept) only in the leading filled run, a forward after its fill
    "tour.final": {
        "en": "filled, a token never changes; it {commits} (is output, its KV kept) only in the leading filled run, "
              "a forward after its fill at the earliest",
        "zh": "填上后，词元就不会再改；但它只有在开头连续的已填充段里才{commits}（被输出，KV 留在缓存中），"
              "最早在被填上后的下一次前向计算",
    },
    "tour.kv_waits": {
        "en": "each forward that reads a slot behind a mask computes its KV and drops it; the one that commits "
              "it keeps it",
        "zh": "每次前向计算读入掩码后面的槽位，都算出它的 KV 再丢弃；只有提交它的那次保留",
    },
    # chapter 4's slot life (ch4_commit.life): one slot from its first window to the cache
    "ch4.life.title": {"en": "Position {pos}'s life, one cell per forward:",
                       "zh": "位置 {pos} 的一生，每格一次前向计算："},
    "ch4.life.step": {"en": "step {k}", "zh": "第 {k} 步"},
    "ch4.life.after": {"en": "after", "zh": "之后"},
    "ch4.life.mask": {"en": "mask", "zh": "掩码"},
    "ch4.life.fills": {"en": "filled", "zh": "填充"},
    "ch4.life.waits": {"en": "waits", "zh": "等待"},
    "ch4.life.commits": {"en": "commits", "zh": "提交"},
    "ch4.life.cached": {"en": "in cache", "zh": "在缓存中"},
    "ch4.fallback": {
        "en": " No step of it left a filled slot waiting behind a mask: every filled slot committed at once. "
              "Shown: step {step}, the first that commits.",
        "zh": "它没有哪一步让已填充槽位排在掩码后面等待：每个已填充槽位都立即提交了。这里显示第 {step} 步，"
              "即第一个有提交的步。",
    },

    # ---------- chapter 5: a stall, and λ ----------
    "ch5.title": {"en": "5 · A stall, and what λ does about it", "zh": "5 · 停滞，以及 λ 如何化解"},
    # a step that is not the chapter's far fill (ch5_stall.text), said by what its first open mask does:
    # "does not stall here" read wrong at steps whose flat line commits nothing (walk 31)
    "ch5.no_stall": {
        "en": "The {streaming_colour} decode (λ = {penalty:g}) fills its first open mask here: nothing holds "
              "up the slots behind it. The {branch_colour} branch (λ = {other:g}) is shown at the same step beside it.",
        "zh": "{streaming_colour}的解码（λ = {penalty:g}）在这里填上了它的第一个空掩码：后面的槽位不再被挡住。"
              "旁边是{branch_colour}的分支（λ = {other:g}）在同一步的样子。",
    },
    "ch5.front_waits": {
        "en": "The {streaming_colour} decode (λ = {penalty:g}) leaves its first open mask, position {pos}, open "
              "here (it fills {filled}): nothing behind it can commit, the stall this chapter is about. The "
              "{branch_colour} branch (λ = {other:g}) is shown at the same step beside it.",
        "zh": "{streaming_colour}的解码（λ = {penalty:g}）在这里让第一个空掩码（位置 {pos}）继续空着（它填的是 "
              "{filled}）：后面的都无法提交，这正是本章讲的停滞。旁边是{branch_colour}的分支（λ = {other:g}）"
              "在同一步的样子。",
    },
    "ch5.fell_back": {"en": "No mask scores under τ = {tau:g}, so the rule fills the single lowest score: ",
                      "zh": "没有掩码的得分低于 τ = {tau:g}，所以规则只填得分最低的那一个："},
    "ch5.under_tau": {"en": "The rule fills what scores under τ = {tau:g}: ",
                      "zh": "规则填充得分低于 τ = {tau:g} 的掩码："},
    # what ended a decode, beside its count (a budget-cut decode is not a finished text)
    "ch5.why_stop": {"en": "ended by its stop token", "zh": "因停止词元而结束"},
    # the decode's own max_new_tokens (the tour's), not the server's limit the header gives (≤ N new tokens)
    "ch5.why_budget": {"en": "cut at its own budget of {budget} new tokens (set for this decode; the header gives the most any decode may have)",
                       "zh": "在它自己的 {budget} 个新词元预算处被截断（这个预算是为这次解码设定的；页眉给出的是任何一次解码最多能有多少）"},
    # how each run ended, as its own sentence (a walker missed it inside the counts' brackets)
    "ch5.endings": {"en": "The λ = {other:g} run was {b_why}; the λ = {penalty:g} run was {a_why}.",
                    "zh": "λ = {other:g} 的那次运行{b_why}；λ = {penalty:g} 的那次{a_why}。"},
    # both decodes under 1 token per forward (chapter 1: one-at-a-time decoding writes exactly 1)
    "ch5.under_one": {
        "en": " Both are under 1 token per forward, more forwards than one-at-a-time writing needs: λ shortens this "
              "stall, it does not make the model sure of the text.",
        "zh": "两者每次前向计算都不到 1 个词元，比一次写一个词元用的前向计算还多：λ 缩短了这次停滞，但没有让模型对这段文本更有把握。",
    },
    "ch5.p1": {
        "en": "At step {step} the first open mask (position {pos}) has entropy {h:.2f} nats: the model cannot "
              "tell what comes next. {rule}a far slot, position {far} (d = {d}, H {far_h} + λ·d "
              "{far_penalty} = {far_score}).",
        "zh": "在第 {step} 步，第一个未填掩码（位置 {pos}）的熵是 {h:.2f} 奈特：模型拿不准接下来是什么。"
              "{rule}一个远处的槽位，位置 {far}（d = {d}，H {far_h} + λ·d {far_penalty} = {far_score}）。",
    },
    # the flat stretch read from the data: from the first step of the run of forwards that commit
    # nothing (moments.flat_span), not from the chapter's step (a walker read "after step 3 the line
    # stays flat" of a line flat since step 0)
    "ch5.p2.one": {
        "en": "{committed}The first mask stays open, so nothing behind it can commit: the {streaming_colour} line "
              "(λ = {penalty:g}) is flat from step {first} to step {last}, forwards {f_first}–{f_last} on its axis ({n} forward commits nothing). Position "
              "{pos} commits only at step {was}.",
        "zh": "{committed}第一个掩码一直没填，所以它后面的什么都提交不了：{streaming_colour}线（λ = {penalty:g}）"
              "从第 {first} 步到第 {last} 步（横轴上第 {f_first}–{f_last} 次前向计算）都是平的（这 {n} 次前向计算什么都没提交）。位置 {pos} 直到第 {was} 步才提交。",
    },
    "ch5.p2.many": {
        "en": "{committed}The first mask stays open, so nothing behind it can commit: the {streaming_colour} line "
              "(λ = {penalty:g}) is flat from step {first} to step {last}, forwards {f_first}–{f_last} on its axis ({n} forwards commit nothing). Position "
              "{pos} commits only at step {was}.",
        "zh": "{committed}第一个掩码一直没填，所以它后面的什么都提交不了：{streaming_colour}线（λ = {penalty:g}）"
              "从第 {first} 步到第 {last} 步（横轴上第 {f_first}–{f_last} 次前向计算）都是平的（这 {n} 次前向计算什么都没提交）。位置 {pos} 直到第 {was} 步才提交。",
    },
    # ch5.p2's {committed} when the step's forward commits the run before the first mask
    "ch5.committed_first": {"en": "This forward commits only the run before the first mask (positions {positions}). ",
                            "zh": "这次前向计算只提交了第一个掩码之前的那一段（位置 {positions}）。"},
    "ch5.same_text": {"en": "the same text", "zh": "写出的文本相同"},
    "ch5.other_text": {"en": "a different text", "zh": "写出的文本不同"},
    "ch5.p3": {
        "en": "{lam} charges λ per slot of distance, pulling the choice toward the front. Branched from step "
              "{prev} with λ = {other:g} (the {branch_colour} line): position {pos} commits at step {now}; "
              "{b_tokens} tokens in {b_forwards} forwards ({b_tpf:.2f} per forward) against {a_tokens} "
              "in {a_forwards} ({a_tpf:.2f}), {changed}. Below, both decodes at step {step}.",
        "zh": "{lam} 按距离收费，每远一个槽位加一个 λ，把选择拉向前面。从第 {prev} 步分支出来、改用 λ = {other:g}"
              "（{branch_colour}线）：位置 {pos} 在第 {now} 步就提交了；用 {b_forwards} 次前向计算写出 {b_tokens} "
              "个词元（每次 {b_tpf:.2f} 个），原来是 {a_forwards} 次写出 {a_tokens} 个（{a_tpf:.2f}），"
              "{changed}。"
              "下方是两个解码在第 {step} 步的样子。",
    },
    "ch5.ended": {
        "en": "The {colour} decode (λ = {penalty:g}) ended at step {last} (forward {forwards}): {tokens} tokens in "
              "{forwards} forwards.{held}",
        "zh": "{colour}的解码（λ = {penalty:g}）在第 {last} 步（第 {forwards} 次前向计算）结束：用 {forwards} 次前向计算"
              "写出了 {tokens} 个词元。{held}",
    },
    "ch5.held": {"en": " Its panel holds that final state at step {step}.",
                 "zh": "到第 {step} 步，它的面板仍停在那个最终状态。"},
    "ch5.running": {"en": "The {colour} branch (λ = {penalty:g}) is still decoding: step {step} of 0–{last}.",
                    "zh": "{colour}的分支（λ = {penalty:g}）还在解码：第 {step} 步（0–{last}）。"},
    # the facts box's heading: the chapter's step and the slider's range, and the decode it counts
    "ch5.facts": {"en": "Step {step} of 0–{last}, the {colour} decode (λ = {penalty:g})",
                  "zh": "第 {step} 步（0–{last}），{colour}的解码（λ = {penalty:g}）"},
    "ch5.panel_ended": {"en": " (ended)", "zh": "（已结束）"},
    # the stepper's status line, for the decode the slider has passed the end of (its last step's line follows)
    "ch5.summary_ended": {"en": "ended at step {last}, held there. ", "zh": "已在第 {last} 步结束，停在那里。"},
    "ch5.branch_line": {"en": "λ = {penalty:g} (branch)", "zh": "λ = {penalty:g}（分支）"},
    "ch5.panel": {"en": "<b>λ = {penalty:g}</b>, step {step}", "zh": "<b>λ = {penalty:g}</b>，第 {step} 步"},
    "ch5.try": {"en": "**Try it:** branch from step {step} with another λ (live).",
                "zh": "**试一试**：换一个 λ，从第 {step} 步现场分支。"},
    "ch5.button": {"en": "Branch live", "zh": "现场分支"},
}
