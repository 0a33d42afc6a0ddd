"""Chapter 11 of the tour: what to remember (app/tabs/tour/ch11_recap.py)."""

MESSAGES = {
    "ch11.title": {"en": "11 · What to remember", "zh": "11 · 要记住的五件事"},
    # presenting shows one answer at a time (present.js: a click hides the one shown before; walk 29
    # read "hides or shows" against an answer that closed when another opened)
    "ch11.p1": {
        "en": "Five questions to ask your class, each answered with the numbers its chapter recorded. A click on a "
              "question hides or shows its answer (presenting, one answer at a time: the one you click).",
        "zh": "五个可以问全班的问题，每个答案都附有对应章节录下的数字。点一下问题即可收起或展开答案"
              "（演示模式下一次只显示一个答案：你点的那个）。",
    },
    "ch11.p2": {
        "en": "Each card links back to its chapter. This is the tour's last chapter: the other tabs ({tabs}) let you "
              "run your own prompts.",
        "zh": "每张卡片都链接回对应的章节。这是导览的最后一章：其他标签页（{tabs}）可以运行你自己的提示词。",
    },
    "ch11.see": {"en": "→ chapter {chapter}", "zh": "→ 第 {chapter} 章"},
    "ch11.fill_q": {"en": "Which masks get filled at a step?", "zh": "每一步填充哪些掩码？"},
    "ch11.fill_a": {
        "en": "Every mask whose score H + λ·d is under τ: H is the mask's {entropy} (how unsure the model is), d how "
              "many slots it sits after the first open mask. If none is under τ, the single lowest score is "
              "filled, so every streaming forward (WeDLM's) that scores its masks fills at least one (a decode's last forward scores none: it ends the decode, at a stop token or at the budget). λ makes far slots wait.",
        "zh": "得分 H + λ·d 低于 τ 的掩码全部填充：H 是这个掩码的{entropy}（模型有多没把握），d 是它排在第一个未填掩码之后第几个。"
              "一个都不低于 τ 时，只填得分最低的那一个，所以每次给掩码打分的流式前向计算（WeDLM 的）至少填一个（一次解码的最后一次前向计算不打分：它在停止词元处或用完预算时结束解码）。λ 让远处的槽位晚一些再填。",
    },
    "ch11.fill_numbers": {
        "en": "Chapter 2, step {step}: {filled} of {open} open masks filled at τ = {tau:g}, λ = {penalty:g}.",
        "zh": "第 2 章第 {step} 步：在 τ = {tau:g}、λ = {penalty:g} 下，{open} 个未填掩码中有 {filled} 个被填充。",
    },
    "ch11.order_q": {
        "en": "How can a mask see tokens after it in the text while attention stays causal?",
        "zh": "注意力保持因果，掩码怎么还能看到文本中排在它后面的词元？",
    },
    "ch11.order_a": {
        "en": "The input is reordered: every filled token moves in front of every mask (physical order) but keeps its "
              "{position_id} (its place in the text, logical order). Under causal attention in physical order, a "
              "mask sees every filled token, also those after it in the text. The attention is the AR model's "
              "own, so the {kv_cache} works as in AR decoding.",
        "zh": "输入被重排：每个已填充的词元都移到所有掩码前面（物理顺序），但保留自己的{position_id}（它在文本中的位置，"
              "即逻辑顺序）。在物理顺序上做因果注意力，掩码就能看到每个已填充的词元，包括文本中排在它后面的。"
              "注意力仍是 AR 模型自己的注意力，所以{kv_cache}和 AR 解码时一样可用。",
    },
    "ch11.order_numbers": {
        "en": "Chapter 3, step {step}: the mask at {first_mask} sees the filled tokens at {waiting}, moved in front of it.{layers}",
        "zh": "第 3 章第 {step} 步：位置 {first_mask} 的掩码看得到位于 {waiting} 的已填充词元，它们被移到了它前面。{layers}",
    },
    # chapter 3's measured chain (ch3_reordering.layers_agree): said only when every layer is float rounding
    "ch11.order_layers": {
        "en": " In all {layers} layers its output is the same in both orders, at most {diff} apart (float rounding).",
        "zh": "在全部 {layers} 层里，它在两种顺序下的输出都相同，最多相差 {diff}（浮点舍入）。",
    },
    "ch11.commit_q": {
        "en": "Which tokens become final, and when does a token's KV enter the cache?",
        "zh": "哪些词元成为定稿？词元的 KV 何时进入缓存？",
    },
    # "final" in its two senses (walk: readers tripped on it), in chapter 4's own words (tour.final);
    # scoped to WeDLM: chapter 10's verified decoding can still replace a draft
    "ch11.commit_a": {
        "en": "In WeDLM (chapters 2–9) “final” has two senses: {final}; {kv_waits}.",
        "zh": "在 WeDLM 中（第 2–9 章），“定稿”有两层意思：{final}；{kv_waits}。",
    },
    "ch11.commit_numbers": {
        "en": "Chapter 4, step {step}: positions {span} commit (cache {before} → {after}); {waiting} wait.",
        "zh": "第 4 章第 {step} 步：位置 {span} 提交（缓存 {before} → {after}）；{waiting} 等待。",
    },
    # the stop token's KV side by side (words.stop_kv on chapters 2 and 10's recorded endings)
    "ch11.stops": {"en": "Stop tokens: {said}.", "zh": "停止词元：{said}。"},
    "ch11.stop_read": {"en": "{whose} was read at step {read} (KV cached)",
                       "zh": "{whose}在第 {read} 步被读入（KV 进入缓存）"},
    "ch11.stop_unread": {"en": "{whose} never (no KV)",
                         "zh": "{whose}从没被读入（没有 KV）"},
    "ch11.stop_whose": {"en": "chapter {chapter}'s", "zh": "第 {chapter} 章的"},
    # chapter 10's decoder is the explorer's own (walk 27 read this card's answer as resting on it)
    "ch11.stop_whose_beyond": {"en": "chapter {chapter}'s (verified, beyond the paper)",
                               "zh": "第 {chapter} 章的（验证解码，超出论文）"},
    "ch11.speed_q": {
        "en": "Why is counting fast while prose (here: play scripts) and code are slow?",
        "zh": "为什么计数快，而散文（这里是剧本台词）和代码慢？",
    },
    # chapter 7's account (ch7.code, ch7.idle): speed is fills per forward; a held front slot delays
    # commits, it does not lose fills; the fills past the stop token are what is lost
    "ch11.speed_a": {
        "en": "Mean entropy is not enough: speed is how many masks fall under τ at once, and τ is held to each "
              "mask's own score, never to a mean. Counting is nearly certain "
              "everywhere, so many masks fill and commit together. Prose is unsure almost everywhere, so a forward "
              "fills about one slot. Code's mean entropy is far below prose's, yet in most of its forwards no mask "
              "scores under τ, so it too fills about one per forward (a hard token at the front only delays commits). Fills "
              "past the stop token are thrown away, so both end under 1 token per forward.",
        "zh": "只看平均熵不够：速度取决于同时有多少掩码落到 τ 以下，而 τ 比的是每个掩码自己的得分，从来不是平均值。计数处处几乎毫无悬念，许多掩码一起填充、一起提交。"
              "散文几乎处处没有把握，每次前向计算只填约一个槽位。代码的平均熵远低于散文，可它的大多数前向计算里没有一个掩码的得分低于 τ，所以"
              "它也是每次约填一个（最前面一个难的词元只会推迟提交）。停止词元之后的填充被丢弃，所以两者最终都不到每次 1 个词元。",
    },
    # the means said to be means of the chart's dots, as chapter 7 says them (ch7.p2); then {split}:
    # chapter 7's sentence on its dots' means about τ's value, an observation (ch7.split*; no τ line: walk 25)
    "ch11.speed_numbers": {
        "en": "Chapter 7: the {count_n} counting dots average {count_h:.2f} nats and {count_tpf:.2f} tokens per forward; "
              "the {plays_n} play dots, {plays_h:.2f} nats and {plays_tpf:.2f}; its code decode: in {none} of its {scored} forwards "
              "with masks, none scored under τ. {split}",
        "zh": "第 7 章：{count_n} 个计数圆点平均 {count_h:.2f} 奈特、每次前向计算 {count_tpf:.2f} 个词元；"
              "{plays_n} 个剧本圆点平均 {plays_h:.2f} 奈特、{plays_tpf:.2f} 个；它的代码解码：在给掩码打分的 {scored} 次前向计算中，"
              "有 {none} 次没有一个掩码的得分低于 τ。{split}",
    },
    "ch11.tau_q": {"en": "What does the threshold τ trade?", "zh": "阈值 τ 在取舍什么？"},
    "ch11.tau_a": {
        "en": "Speed against staying greedy's text and, past some τ, right answers. A larger τ fills more masks per forward (fewer "
              "forwards), more of them out of order and less sure; at any τ some texts differ from greedy's.",
        "zh": "速度与贴近贪心文本，τ 再大还有正确答案。τ 越大，每次前向计算填的掩码越多（前向计算次数越少），"
              "其中更多是乱序、更没把握地填上的；在任何 τ 下都有些文本与贪心文本不同。",
    },
    "ch11.tau_numbers": {
        "en": "Chapter 8, {total} arithmetic questions: τ = {lo_tau:g}, {lo_tpf:.2f} tokens per forward, "
              "{lo_right} of {total} right;{safe} τ = {hi_tau:g}, {hi_tpf:.2f} per forward, {hi_right} of {total} right.",
        "zh": "第 8 章，{total} 道算术题：τ = {lo_tau:g} 时每次前向计算 {lo_tpf:.2f} 个词元，答对 {lo_right} 道；{safe}"
              "τ = {hi_tau:g} 时每次 {hi_tpf:.2f} 个，答对 {hi_right} 道。",
    },
    "ch11.tau_safe": {
        "en": " all right up to τ = {tau:g} ({tpf:.2f} per forward);",
        "zh": "直到 τ = {tau:g} 都全对（每次 {tpf:.2f} 个）；",
    },
}
