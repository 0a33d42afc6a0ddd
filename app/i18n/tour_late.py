"""The tour's chapters 6-10: the race against AR, entropy, τ, training, verified decoding (beyond
the paper). Narration templates carry their numbers as named placeholders (with their format:
{tpf:.2f}); colour words, glossary links and tokens arrive already drawn (words.py). In the
Chinese texts, English model text is marked translate="no" (a prompt's name as <code>, an
arithmetic question in “quotes”): it is what the model read, not words of the page."""

MESSAGES = {
    # both counts committed (the growth chart's lines): walk 25 read AR's written count (its newest
    # prediction, not yet cached) beside WeDLM's committed one as unlike things compared; "tokens" once,
    # before the numbers (walk 29: "AR 1 tokens")
    "ch6.summary.one": {"en": "After {n} forward, committed tokens: AR {ar}, WeDLM {wedlm}.",
                        "zh": "{n} 次前向计算后，已提交：AR {ar} 个词元，WeDLM {wedlm} 个。"},
    "ch6.summary.many": {"en": "After {n} forwards, committed tokens: AR {ar}, WeDLM {wedlm}.",
                         "zh": "{n} 次前向计算后，已提交：AR {ar} 个词元，WeDLM {wedlm} 个。"},
    # ---------- chapter 6: the race against AR ----------
    "ch6.title": {"en": "6 · The race against AR", "zh": "6 · 与 AR 赛跑"},
    "ch6.p1": {
        "en": "One prompt, {prompt}, for both decoders, one forward pass per tick. The AR model (the model WeDLM was "
              "trained from, the {ar_colour} lane) writes one token per forward; WeDLM (the "
              "{wd_colour} lane) commits the whole leading filled run each forward.",
        "zh": "两个解码器用同一个提示词 {prompt}，每一拍各做一次前向计算。AR 模型（{ar_colour}赛道）是 WeDLM "
              "训练所用的原模型；它每次前向计算只写出一个词元。WeDLM（{wd_colour}赛道）每次前向计算都把"
              "开头连续的已填充词元整段提交。",
    },
    "ch6.p2": {
        "en": "After <b>{tick}</b> {forwards_word} (through step {step}), committed tokens: AR {n_ar}, WeDLM {n_wd}.{prefill} "
              "WeDLM's tokens too commit one forward after their fill (forward 1 filled "
              "{first_filled}, committed {first_committed}){sums}. Over the whole decode WeDLM makes {tpf_wd:.2f} {tpf} (AR {tpf_ar:.2f}).",
        "zh": "做完 <b>{tick}</b> 次{forwards_word}后（到第 {step} 步为止），已提交：AR {n_ar} 个词元，WeDLM {n_wd} 个。{prefill}"
              "WeDLM 的词元同样在填充后的下一次前向计算才提交（第 1 次前向计算填了 {first_filled} 个，提交了 "
              "{first_committed} 个）{sums}。整个解码下来，WeDLM 平均{tpf}是 {tpf_wd:.2f}（AR 是 {tpf_ar:.2f}）。",
    },
    # WeDLM's count forward by forward, the growth chart's steps (walk 28 redid "60 after 5 forwards"
    # by hand): each forward commits what the one before it filled, up to the stop token
    "ch6.sums": {"en": "; forward by forward its commits add up: {terms} = {total}",
                 "zh": "；逐次前向计算的提交加起来：{terms} = {total}"},
    # AR's prefill token: the lanes and the words count it as written before the first forward; the
    # growth chart (committed tokens) counts it once forward 1 commits it (tour.ar_chart)
    "ch6.prefill": {
        "en": " AR's first token came from the prefill, before the first forward. {chart}",
        "zh": "AR 的第一个词元来自预填充，在第一次前向计算之前。{chart}",
    },
    "ch6.forward_one": {"en": "forward", "zh": "前向计算"},
    "ch6.forward_many": {"en": "forwards", "zh": "前向计算"},
    "ch6.p3": {
        "en": "{clock}: a WeDLM forward carries the leading filled run and the window ({rows:.1f} rows on average) "
              "while an AR forward carries one{rows_cost}. {block_words}",
        "zh": "{clock}：WeDLM 的一次前向计算要处理开头连续的已填充段和整个窗口"
              "（平均 {rows:.1f} 行），而 AR 的一次前向计算只处理一行{rows_cost}。{block_words}",
    },
    # block decoding beside WeDLM: on the clock it can match WeDLM where rows cost time (the general
    # case, and a run whose measured rows cost time), not where this run's rows were nearly free
    "ch6.block_cost": {
        "en": "(The Race tab's {block} fills a block of masks over several forwards and commits it only when all of it "
              "is filled: WeDLM beats it in tokens per forward, and so also in time where extra rows cost almost nothing (on a GPU). On a CPU rows are not free: its "
              "forward carries {block_rows} rows ({commit_rows} when it commits a block) against WeDLM's {rows:.1f} here, "
              "so on the clock it can match or beat WeDLM.)",
        "zh": "（“赛跑”标签页的{block}用几次前向计算填一块掩码，整块填满后才提交：WeDLM 在每次前向计算的词元数上胜过它，所以在行数几乎不花时间的地方（GPU）用时也更少。"
              "但在 CPU 上行数并不免费：块解码的一次前向计算处理 {block_rows} 行"
              "（提交一整块时为 {commit_rows} 行），而这里 WeDLM 平均处理 {rows:.1f} 行，所以按实际用时它可能追平甚至超过 WeDLM。）",
    },
    "ch6.block_free": {
        "en": "(The Race tab adds {block}, which fills a block of masks over several forwards and commits it only when "
              "all of it is filled: WeDLM improves on it in forwards, so in "
              "tokens per forward, and where a forward's rows are nearly free, as in this run, in time too. Where rows "
              "cost time, a block forward's {block_rows} rows ({commit_rows} when it commits a finished block) against "
              "WeDLM's {rows:.1f} here can let block decoding match or beat WeDLM on the clock.)",
        "zh": "（“赛跑”标签页里还有{block}，它用几次前向计算填一块掩码，整块填满后才提交：WeDLM 在前向计算次数上、因而在每次前向计算的词元数上胜过它；"
              "在一次前向计算多几行几乎不花时间的地方（比如这次运行），用时也更少。在行数费时间的地方，块解码的一次前向计算处理 "
              "{block_rows} 行（提交一整块时为 {commit_rows} 行），而这里 WeDLM 平均处理 {rows:.1f} 行，"
              "所以按实际用时，块解码可能追平甚至超过 WeDLM。）",
    },
    # whether this run's rows cost time, from the measured cost of one WeDLM forward in AR forwards
    # (ch6_race.rows_words; the Race lanes' cost note shows the same {cost})
    "ch6.rows_cost": {"en": ", and rows cost time: here one WeDLM forward cost {cost}× an AR forward",
                      "zh": "，行数越多越费时间：这里 WeDLM 的一次前向计算耗时是 AR 的 {cost}×"},
    # the reader's division (tokens per forward ÷ the cost of a forward) against the measured tokens/s:
    # the prefill both pay once weighs more in WeDLM's short decode (lanes' recorded prefill_s, decode_s)
    "ch6.rows_gap": {"en": ", so forwards alone give {tpf} ÷ {cost} ≈ {alone}×; counting the prefill, paid once by "
                           "each ({p_wd}% of WeDLM's time, {p_ar}% of AR's), and the work between forwards: {wall}×",
                     "zh": "，只看前向计算应是 {tpf} ÷ {cost} ≈ {alone}×；两者都要做一次的预填充"
                           "（占 WeDLM 用时的 {p_wd}%，AR 的 {p_ar}%）和前向计算之间的工作把它压到 {wall}×"},
    "ch6.rows_free": {"en": "; in this run the extra rows were nearly free (one WeDLM forward cost {cost}× an AR "
                            "forward), so the wall-clock gain follows the gain per forward ({tpf}× AR's tokens per "
                            "forward; the prefill and the work between forwards take the rest)",
                      "zh": "；这次运行里多出的行几乎不花时间（WeDLM 的一次前向计算耗时是 AR 的 {cost}×），"
                            "所以实际用时上的提升跟着每次前向计算的提升走（每次前向计算的词元数是 AR 的 {tpf}×；"
                            "差的那部分花在预填充和前向计算之间的工作上）"},
    # the wall clock beside the forwards: a smaller gain, or (a high τ, a slow prompt) a loss
    "ch6.clock_gain": {"en": "On the wall clock the gain is smaller ({wall}× AR's tokens per second)",
                       "zh": "按实际用时算，提升要小一些（每秒词元数是 AR 的 {wall}×）"},
    "ch6.clock_loss": {"en": "On the wall clock WeDLM is slower than AR here ({wall}× AR's tokens per second)",
                       "zh": "按实际用时算，这里 WeDLM 比 AR 还慢（每秒词元数只有 AR 的 {wall}×）"},
    "ch6.try": {
        "en": "**Try it:** race both decoders live with another τ; the race then plays out one forward per tick.",
        "zh": "**试一试**：换一个 τ，让两个解码器现场赛跑；赛跑随后按每拍一次前向计算的节奏回放。",
    },
    "ch6.button": {"en": "Race live", "zh": "现场赛跑"},

    # ---------- chapter 7: entropy and speed (how many masks fill at once) ----------
    "ch7.title": {"en": "7 · Entropy and speed: how many masks fill at once", "zh": "7 · 熵与速度：一次能填几个掩码"},
    # then {split}: how the dots lie about the τ line (ch7.split*), one sentence read from the record
    "ch7.p1": {
        "en": "Each dot: a decoded prompt; colour = kind (sequence: a pattern to continue; arithmetic: a sum; math: a word problem). {split}",
        "zh": "每个圆点是一个解码过的提示词；颜色表示类别（数列：接着写下去的规律；算术：一道算式；数学：一道应用题）。{split}",
    },
    # the dots by their means against τ's value (entropy.tau_split): an observation, never the rule (the
    # rule holds each mask's own score to τ, ch7.code; walk 25 read a τ line on the mean axis as the rule,
    # so the chart draws none). A clean split says each side's bound; else each side's range, or that
    # all lie on one side (a record not seen yet may not split)
    "ch7.split": {
        "en": "Mean under {tau:g} nats: {left_dots}, each ≥ {left_lo:.2f} {tpf}; "
              "the other {right}, each ≤ {right_hi:.2f}.",
        "zh": "平均熵低于 {tau:g} 奈特：{left_dots}，{tpf}都 ≥ {left_lo:.2f}；"
              "其余 {right} 个圆点，都 ≤ {right_hi:.2f}。",
    },
    "ch7.split_mixed": {
        "en": "Mean under {tau:g} nats: {left_dots}, {left_range} {tpf}; "
              "the other {right_dots}, {right_range}; the mean does not sort them.",
        "zh": "平均熵低于 {tau:g} 奈特：{left_dots}，{tpf} {left_range}；"
              "其余 {right_dots}，{right_range}；平均熵并没有把它们分开。",
    },
    "ch7.split_left": {
        "en": "Every dot ({n}) has a mean under {tau:g} nats, at {range} {tpf}.",
        "zh": "全部 {n} 个圆点的平均熵都低于 {tau:g} 奈特，{tpf} {range}。",
    },
    "ch7.split_right": {
        "en": "Every dot ({n}) has a mean of {tau:g} nats or more, at {range} {tpf}.",
        "zh": "全部 {n} 个圆点的平均熵都不低于 {tau:g} 奈特，{tpf} {range}。",
    },
    "ch7.dots": {"en": "{n} dots", "zh": "{n} 个圆点"},
    "ch7.dot": {"en": "1 dot", "zh": "1 个圆点"},
    # the chart's title (its aside on a line of its own: ≤ ~40 characters on a phone): no τ line on a
    # mean axis, τ is drawn where it judges, on the score charts below (walk 25). Not "no τ line" as a
    # rule: the Entropy explorer draws mean = τ as a labelled reference (walk 31 read the two as a contradiction)
    "ch7.law_title": {"en": "Mean entropy and tokens per forward (τ judges each mask, below, not a mean)",
                      "zh": "平均熵与每次前向计算的词元数（τ 判的是每个掩码，见下图，不是平均值）"},
    # the diamonds (the table's decodes, named by their prompts) with the numbers their marks and rows
    # say, then the dots of that kind, named and their mean said to be a mean (a walker read the mean
    # 13.7 beside the diamond's 12.00); "plays" are prose, here play scripts (a speaker's name as prompt)
    "ch7.p2": {
        "en": "Counting is nearly certain, so many masks fall under τ at once: {count_decode} (the diamond) makes "
              "{count_tpf_d} tokens per forward; the {count_n} counting dots ({count_ids}, drawn side by side) average "
              "{count_h:.2f} nats and {count_tpf:.2f}. Prose (here: play scripts) is unsure: "
              "{play_decode} (the diamond) makes {play_tpf_d}; the {plays_n} play dots ({plays_ids}) average "
              "{plays_h:.2f} nats and {plays_tpf:.2f}.",
        "zh": "计数几乎毫无悬念，许多掩码同时落到 τ 以下：{count_decode}（菱形）每次前向计算产出 {count_tpf_d} 个词元；"
              "{count_n} 个计数圆点（{count_ids}，并排画出）平均 {count_h:.2f} 奈特、{count_tpf:.2f} 个。"
              "散文（这里是剧本台词）没有把握：{play_decode}（菱形）只有 {play_tpf_d} 个；{plays_n} 个剧本圆点"
              "（{plays_ids}）平均 {plays_h:.2f} 奈特、{plays_tpf:.2f} 个。",
    },
    # the paper's own measurement (its abstract): the same pattern at full size, so a class does not rest on one tiny model
    "ch7.paper": {
        "en": "<b>At full size</b> the paper reports ~3× AR's speed on reasoning, up to 10× on low-entropy text.",
        "zh": "<b>在完整规模的模型和 GPU 上</b>，论文报告：困难推理任务上接近 AR 速度的 3 倍，低熵文本上最多 10 倍。",
    },
    "ch7.p3": {
        "en": "<b>Under 1 token per forward?</b> The prompt {id} makes {tpf:.2f} tokens per forward at a mean entropy of {h:.2f} nats. A slot "
              "commits one forward after it is filled (its KV needs its own token as input), so a forward that "
              "fills only the front slot commits less than one token.",
        "zh": "<b>每次不到 1 个词元？</b>提示词 {id} 的平均熵是 {h:.2f} 奈特，每次前向计算却只产出 "
              "{tpf:.2f} 个词元。槽位要在被填上后的下一次前向计算才能提交（它的 KV 需要以它自己的词元为输入），"
              "所以只填了最前面那个槽位的前向计算，提交不到一个词元。",
    },
    # the example as it is (the code it writes before its stop token) and why it is slow: its masks seldom
    # score under τ together, counted per forward (entropy.under_tau; walk 20: a mean entropy against a
    # per-mask τ was slippery), beside the play's and counting's counts; its unsure token held the
    # commits back, not the fills (entropy.front_wait "burst")
    "ch7.code": {
        "en": "<b>Why is code slow?</b> {code_decode} (the diamond “{code_name}”: {code_tpf:.2f} per forward at "
              "{code_h:.2f} nats) writes {written} code tokens, then its stop token. {mean}τ judges "
              "each mask's own score: in {none} of its {scored} forwards with masks, none scored under τ = {tau:g}, so only the lowest "
              "filled, as in a play ({play_none} of {play_scored}). {front} stays a mask for {held} forwards, which fill "
              "{after} slots after it: all commit ({burst}) the forward after it fills.",
        "zh": "<b>代码为什么慢？</b>{code_decode}（标着“{code_name}”的菱形：每次前向计算 {code_tpf:.2f} 个词元，"
              "平均熵 {code_h:.2f} 奈特）写出 {written} 个代码词元，然后是停止词元。"
              "{mean}τ 比的是每个掩码自己的得分：在给它的掩码打分的 "
              "{scored} 次前向计算中，有 {none} 次没有一个掩码的得分低于 τ = {tau:g}，于是只填得分最低的那个，"
              "和剧本一样（{play_scored} 次中 {play_none} 次）。"
              "{front}连续 {held} 次前向计算都还是掩码，这些前向计算在它后面填了 {after} "
              "个槽位：它填上后的下一次前向计算把它们一次全部提交（{burst} 个）。",
    },
    # ch7.code's {mean}: said only where the record has code's mean entropy under the play's (walk 28: "low"
    # read against the split at τ's value, where code's 0.92 is on the slow side)
    "ch7.code_mean": {"en": "Its mean is far below a play's, but ", "zh": "它的平均熵远低于剧本，但 "},
    # ch7.code's {front}: the hard slot as code's chart draws it, its score at the chart's step (walk 27 read
    # "5.46 nats at its fill" against the chart's bar of 5.15 at step 3, and found the slot unlabelled)
    "ch7.code_front": {"en": "Its front slot {pos} ({token}: {score:.2f} nats at step {step}, the chart’s first bar)",
                       "zh": "最前面的槽位 {pos}（{token}：第 {step} 步得分 {score:.2f} 奈特，即图中第一根柱）"},
    # without code's chart (no stall forward): the hard token and its entropy at its fill
    "ch7.code_token": {"en": "Its unsure token {token} ({h:.2f} nats at its fill)",
                       "zh": "没把握的词元 {token}（填上时 {h:.2f} 奈特）"},
    # where a decode's fills go (entropy.fill_account; wedlm/decoders/core.py: every streaming forward
    # but the last fills a slot, no fill is undone, and a filled slot commits once no mask is before
    # it): a forward that commits nothing delays tokens, it does not lose them; fills past the stop
    # token are thrown away (walk 18: "the rate would be about 1 if every fill committed")
    "ch7.idle": {
        "en": "<b>Why under 1?</b> Every forward but the last fills a slot, and no fill is undone. A forward whose "
              "front slot is fed a mask commits nothing ({shares}: {mask_colour} in the table) but loses nothing: "
              "its fills commit later, together ({committed_colour}: up to {most} at once in counting). Lost: "
              "fills past the stop token ({losses}). So {slow} end under 1 token per forward: slower than AR (exactly 1).",
        "zh": "<b>为什么不到 1？</b>除了最后一次，每次前向计算都至少填一个槽位，填好的不会撤销。最前面的槽位送进去时"
              "还是掩码的前向计算什么都不提交（{shares}：表中{mask_colour}），但也没有损失：它填的槽位稍后一起提交"
              "（{committed_colour}：计数一次最多提交 {most} 个）。损失的是停止词元之后的填充，它们被丢弃（{losses}）。"
              "所以{slow}最终每次前向计算不到 1 个词元：比 AR（正好 1 个）还慢。",
    },
    # one decode's fills in ch7.idle's {losses}: fills - thrown away = tokens (entropy.fill_account)
    "ch7.loss": {"en": "{name}: {fills} fills − {lost} = {tokens} tokens in {forwards} forwards",
                 "zh": "{name}：{fills} 次填充 − {lost} = {tokens} 个词元，用了 {forwards} 次前向计算"},
    # one decode's share of forwards that commit nothing, in ch7.idle's "({shares}: grey in the table)"
    "ch7.idle_share": {"en": "{share} % of {name}’s", "zh": "{name}的 {share}%"},
    "ch7.idle_and": {"en": " and ", "zh": "、"},
    "ch7.name_low": {"en": "counting", "zh": "计数"},
    "ch7.name_high": {"en": "a play", "zh": "剧本"},
    "ch7.name_code": {"en": "code", "zh": "代码"},
    # a bar is a share of its own row's forwards (walk 21 compared bar lengths across rows)
    "ch7.table_title": {"en": "One decode of each kind: its forwards by the tokens each committed (a bar: share of its row)",
                        "zh": "每类各取一次解码：按每次提交的词元数统计前向计算（柱长：占本行的比例）"},
    "ch7.table_corner": {"en": "tokens committed:", "zh": "提交词元数："},
    # a table row's name: the kind and the prompt of the one decode it counts (not the chart's prompts)
    "ch7.table_name": {"en": "{name} ({prompt})", "zh": "{name}（“{prompt}”）"},
    # the row's sum, checkable at a glance: tokens ÷ forwards = the tokens per forward its diamond on the chart sits at
    "ch7.table_row": {"en": "{tokens} tokens ÷ {forwards} forwards = {tpf}", "zh": "{tokens} 个词元 ÷ {forwards} 次前向计算 = {tpf}"},
    # the "0" column's head: a forward that commits nothing is what ch7.idle calls idle
    "ch7.table_idle": {"en": "0 (idle)", "zh": "0（空转）"},
    # each small chart on its own scale (walk 21: on the play's 0–7 nats counting's bars were ~0 and
    # their ✓s sat on the τ line); read against τ, which is the rule's line. More than one fill in a
    # forward means every fill scored under τ (else the rule fills the single lowest)
    "ch7.p4": {
        "en": "Counting’s step {low_step} fills {filled} masks at once "
              "({new_colour} ✓, all under τ); a play’s step {high_step} fills only the lowest, {stay} stay masks "
              "({mask_colour}, above τ).",
        "zh": "计数的第 {low_step} 步一次填了 {filled} 个掩码"
              "（{new_colour} ✓，全都低于 τ）；剧本的第 {high_step} 步只填得分最低的那个，其余 {stay} 个仍是掩码"
              "（{mask_colour}，高于 τ）。",
    },
    # ch7.p4 with code's chart beside (a forward whose front slot is its unsure token, still a mask, and
    # no mask under τ: entropy.front_stall): the play and code alike fill only the lowest; code's front
    # slot, named by ch7.code and marked on its chart (walk 25: code's stall could only be read, not seen);
    # the colour names the masks that stay (walk 30 read "the lowest (grey: above τ)" against its orange bar)
    "ch7.p4_code": {
        "en": "Counting’s step {low_step} fills {filled} masks ({new_colour} ✓, all under τ); a play’s step "
              "{high_step} and code’s step {code_step} fill only the lowest (the rest {mask_colour}: above τ).",
        "zh": "计数的第 {low_step} 步一次填了 {filled} 个掩码（{new_colour} ✓，全都低于 τ）；剧本的第 {high_step} 步和"
              "代码的第 {code_step} 步都只填得分最低的那个（其余{mask_colour}：高于 τ）。",
    },
    "ch7.yours": {
        "en": "<b>Your prompt</b>: mean entropy {entropy:.2f} nats, {tpf:.2f} tokens per forward (the star).",
        "zh": "<b>你的提示词</b>：平均熵 {entropy:.2f} 奈特，每次前向计算 {tpf:.2f} 个词元（图中的星号）。",
    },
    "ch7.your_prompt": {"en": "your prompt", "zh": "你的提示词"},
    # the legend's one key for the table's decodes on the chart; each diamond is marked "{name}: {tpf}"
    "ch7.table_points": {"en": "the table's decodes", "zh": "表中的解码"},
    "ch7.point_mark": {"en": "{name}: {tpf}", "zh": "{name}：{tpf}"},
    "ch7.bars_low": {"en": "Counting, step {step} (own scale)", "zh": "计数，第 {step} 步（单独刻度）"},
    "ch7.bars_high": {"en": "A play, step {step} (own scale)", "zh": "剧本，第 {step} 步（单独刻度）"},
    "ch7.bars_code": {"en": "Code, step {step} (own scale)", "zh": "代码，第 {step} 步（单独刻度）"},
    "ch7.try": {"en": "Try it: where does your prompt land?", "zh": "试一试：你的提示词落在哪里？"},
    "ch7.button": {"en": "Decode live", "zh": "现场解码"},

    # ---------- chapter 8: what τ trades ----------
    "ch8.try_info": {"en": "fill every mask whose entropy + λ·d is under τ (else the single lowest); a larger τ "
                            "fills more per forward",
                     "zh": "熵 + λ·d 低于 τ 的掩码全部填充（若一个都没有，就只填分数最低的那个）；τ 越大，每次前向计算填得越多"},
    "ch8.title": {"en": "8 · What τ trades: speed against greedy's text", "zh": "8 · τ 的取舍：速度与贪心文本"},
    "ch8.all_right": {"en": "<b>τ = {tau:g}</b>: every answer right.", "zh": "<b>τ = {tau:g}</b>：全部答对。"},
    "ch8.no_answer": {"en": "no answer", "zh": "没有答案"},
    "ch8.wrong_item": {
        "en": "<li>{question} → <b>{got}</b> (right: {answer})</li>",
        "zh": "<li>“<span translate=\"no\">{question}</span>” → <b>{got}</b>（正确答案：{answer}）</li>",
    },
    "ch8.wrong": {"en": "<b>Wrong at τ = {tau:g}</b><ul>{items}</ul>",
                  "zh": "<b>τ = {tau:g} 时答错的题</b><ul>{items}</ul>"},
    # walk 25: "accepts tokens the model is less sure of" alone hid the other source (3 of 30 texts differ at
    # τ = 0.1): a text leaves greedy's where a slot fills before the slots to its left, at any τ (the rule
    # still fills the single lowest when no mask is under τ); a larger τ fills more of them, less sure
    "ch8.p1": {
        "en": "{tau} is the knob a user turns: a larger τ fills more masks per forward, so it is faster, but more of "
              "them are filled before the slots to their left, and less sure, so more texts leave {greedy}'s (WeDLM's own "
              "left-to-right text, the likeliest token each time); some leave it at any τ.",
        "zh": "{tau} 是用户可以调的旋钮：τ 越大，每次前向计算填的掩码越多，速度越快，但也有更多掩码抢在左边的槽位之前、"
              "在更没把握时被填上，所以更多文本会偏离{greedy}文本（WeDLM 自己从左到右、每次取最可能的词元写出的文本）；"
              "有些文本在任何 τ 下都会偏离。",
    },
    "ch8.p2": {
        "en": "Here the bundled model answers the same {total} held-out arithmetic questions (never in its "
              "training) at each τ. The {line_colour} line is speed ({tpf}); the {bar_colour} bars count "
              "right answers (the final number after the marker ####, checked against the answer key); "
              "the {changed_colour} bars count texts not identical to greedy's, right or wrong: a different measure.",
        "zh": "这里，内置模型在每个 τ 下回答同样的 {total} 道留出的算术题（训练中从未出现）。{line_colour}折线是速度（{tpf}）；"
              "{bar_colour}柱子是答对的题数（标记 #### 之后的最终数字，与标准答案比对）；"
              "{changed_colour}柱子是写出的文本与贪心文本不完全相同的题数，不论对错：这是另一种度量。",
    },
    # ch8.p2 without the second bars (a record made before outputs were compared with the greedy text)
    "ch8.p2_right": {
        "en": "Here the bundled model answers the same {total} held-out arithmetic questions (never in its "
              "training) at each τ. The {line_colour} line is speed ({tpf}); the {bar_colour} bars count "
              "right answers (an answer ends with the marker #### and then the final number, which is checked).",
        "zh": "这里，内置模型在每个 τ 下回答同样的 {total} 道留出的算术题（训练中从未出现）。{line_colour}折线是速度（{tpf}）；"
              "{bar_colour}柱子是答对的题数（每个答案以标记 #### 加最终数字结尾，核对的就是这个数字）。",
    },
    "ch8.table": {
        "en": "These {total} questions are a sample, not a guarantee, and the times table is not one of them: "
              "chapters 2–4's times table, decoded at τ = {tau:g}, writes <code translate=\"no\">{line}</code>, "
              "though the right product is {right}.",
        "zh": "这 {total} 道题只是样本，不是保证，乘法表也不在其中：第 2–4 章的乘法表在 τ = {tau:g} 下解码，写出了 "
              "<code translate=\"no\">{line}</code>，而正确的积是 {right}。",
    },
    "ch8.table_own": {
        "en": "These {total} questions are a sample, not a guarantee, and the times table is not one of them: "
              "chapters 2–4's times table, decoded at τ = {tau:g}, writes <code translate=\"no\">{line}</code>; "
              "greedy says {own}.",
        "zh": "这 {total} 道题只是样本，不是保证，乘法表也不在其中：第 2–4 章的乘法表在 τ = {tau:g} 下解码，写出了 "
              "<code translate=\"no\">{line}</code>；贪心文本写的是 {own}。",
    },
    # no τ keeps every answer right: up to which τ as many stay right as at the smallest (speed for free)
    "ch8.kept": {"en": " Up to τ = {tau:g} as many stay right ({right} of {total}), at {tpf:.2f} per forward",
                 "zh": "直到 τ = {tau:g}，答对的题数不变（{total} 道答对 {right} 道），此时每次前向计算 {tpf:.2f} 个词元"},
    "ch8.kept_default": {"en": "; the tour's τ = {tau:g} makes {tpf:.2f}", "zh": "；导览默认的 τ = {tau:g} 为 {tpf:.2f} 个"},
    "ch8.kept_end": {"en": ".", "zh": "。"},
    "ch8.safe": {
        "en": " Up to τ = {tau:g} all {total} questions stay right, at {tpf:.2f} per forward.",
        "zh": "直到 τ = {tau:g}，这 {total} 道题都还是对的，此时每次前向计算 {tpf:.2f} 个词元。",
    },
    # why the right answers hold flat (walk: readers saw 27 of 30 from τ = 0.1 to 0.6 and not why): up to
    # which τ as few texts differ from greedy's as at the smallest (ch8_tau.same_words), from the record
    # why the right answers hold flat (walk: readers saw 27 of 30 from τ = 0.1 to 0.6 and not why): up to
    # which τ as few texts differ from greedy's as at the smallest (ch8_tau.same_words), from the record;
    # {differ}: ch8.same_differ (the same questions at each τ there, from the outputs) or ch8.few_differ.
    # Walk 25: "a mask that sure gets greedy's token" was not why: those few differ at every τ, out of order
    "ch8.same": {"en": " Up to τ = {tau:g}, {same} of {total} texts are greedy's word for word; {differ}{above}.",
                 "zh": "直到 τ = {tau:g}，{total} 题中有 {same} 题的文本与贪心文本一字不差；{differ}{above}。"},
    # the same, where that τ is the one ch8.kept just named
    "ch8.same_there": {"en": " In that range {same} of {total} texts are greedy's word for word; {differ}{above}.",
                       "zh": "在这个范围内，{total} 题中有 {same} 题的文本与贪心文本一字不差；{differ}{above}。"},
    "ch8.same_differ": {"en": "the same {n} differ at each τ, filled out of order (no mask under τ: the single "
                               "lowest fills)",
                        "zh": "每个 τ 下都是同样的 {n} 题不同，因为乱序填充：没有掩码低于 τ 时，仍会填分数最低的那一个"},
    "ch8.few_differ": {"en": "at most {n} differ, filled out of order (no mask under τ: the single lowest fills)",
                       "zh": "最多 {n} 题不同，因为乱序填充：没有掩码低于 τ 时，仍会填分数最低的那一个"},
    # what τ trades, from the record (ch8_tau.trade_words): {past}: ch8.trade_past where right answers drop
    "ch8.trade": {"en": " So τ trades speed against texts like greedy's{past}.",
                  "zh": "所以 τ 是拿与贪心文本的一致来换速度{past}。"},
    "ch8.trade_past": {"en": " and, past τ = {tau:g}, right answers", "zh": "，过了 τ = {tau:g} 还要拿正确答案来换"},
    "ch8.same_above": {"en": "; above it more differ{wrong}", "zh": "；τ 再大，不同的文本就更多{wrong}"},
    "ch8.same_wrong": {"en": " and answers go wrong", "zh": "，答案也会出错"},
    "ch8.p3": {
        "en": "At τ = {low_tau:g}: {low_tpf:.2f} tokens per forward, {low_right} of {total} right{low_differs}.{safe} "
              "At τ = {worst_tau:g}: {worst_tpf:.2f} per forward but only {worst_right} of {total} right{worst_differs}: "
              "an unsure digit stays as filled: streaming never changes a filled token.",
        "zh": "τ = {low_tau:g} 时：每次前向计算 {low_tpf:.2f} 个词元，{total} 道题答对 {low_right} 道{low_differs}。{safe}"
              "τ = {worst_tau:g} 时：每次前向计算 {worst_tpf:.2f} 个，但 {total} 道题只答对 {worst_right} 道{worst_differs}："
              "没把握的数字一经填充就固定下来：流式解码从不修改已填充的词元。",
    },
    "ch8.greedy_word": {"en": "greedy", "zh": "贪心"},
    # why the smallest τ gets fewer right than greedy: its texts that differ from greedy's, from the record
    # (ch8_tau.low_why). The slot story is held-C-3's at τ = 0.1: re-decoding it (the recorded text, exactly)
    # shows the slot of its first differing digit still a mask while every slot after it filled, then filled last
    "ch8.low_why": {"en": "<b>Why {right}, not greedy's {greedy}?</b> The {n} texts unlike greedy's at τ = {tau:g}: {items}.",
                    "zh": "<b>为什么是 {right} 道，而不是贪心的 {greedy} 道？</b>τ = {tau:g} 时与贪心文本不同的 {n} 题：{items}。"},
    "ch8.low_lost": {
        "en": "{question} parts from it at <code translate=\"no\">{line}</code> (greedy: <code translate=\"no\">{own}</code>) "
              "and ends {got}, not {answer}: out of order, its digit's slot was filled last, after the text "
              "beyond it",
        "zh": "{question}在 <code translate=\"no\">{line}</code> 处与贪心文本分开（贪心：<code translate=\"no\">{own}</code>），"
              "最后答成 {got}，而不是 {answer}：乱序填充，那个数字的槽位在它后面的文本填好之后才最后被填上"},
    "ch8.low_both": {"en": "{question} is wrong either way (greedy {own}, here {got}; right: {answer})",
                     "zh": "{question}怎么都是错的（贪心 {own}，这里 {got}；正确答案：{answer}）"},
    "ch8.low_kept": {"en": "{question} still ends {got}", "zh": "{question}最后仍是 {got}"},
    # a text unlike greedy's that ends on greedy's own wrong answer: its count is not why (walk 21 asked)
    "ch8.low_same": {"en": "{question} differs only in its working: both end {got} (right: {answer})",
                     "zh": "{question}只是中间步骤不同：两者最后都是 {got}（正确答案：{answer}）"},
    # a question is the model's input, quoted as it is (its words are not the page's: "10 red oranges" names no colour)
    "ch8.quote": {"en": "“<span translate=\"no\">{q}</span>”", "zh": "题目“<span translate=\"no\">{q}</span>”"},
    # the yardstick after ch8.p2: the greedy texts' right answers (a wrong one there is the model's, not τ's)
    "ch8.greedy_right": {"en": "Greedy, the model itself gets {right} of {total} right.",
                         "zh": "贪心解码时，模型自己答对 {total} 道中的 {right} 道。"},
    # ch8.p3's count of texts unlike the greedy text at a τ ("" when the record has none)
    "ch8.differs": {"en": ", {n} texts unlike the greedy one", "zh": "，{n} 题的文本与贪心文本不同"},
    "ch8.yours": {
        "en": "<b>Your run</b> at τ = {tau:g}: {right} of {total} right, {tpf:.2f} tokens per forward (the star).",
        "zh": "<b>你的运行</b>（τ = {tau:g}）：{total} 道题答对 {right} 道，每次前向计算 {tpf:.2f} 个词元（图中的星号）。",
    },
    # the box says where it starts and why (ch8_tau.try_start): not the tour's τ the chapter names
    "ch8.try": {"en": "Try it: answer the questions live at a τ you choose (it starts at {tau:g}, the record's worst: "
                      "its wrong answers are listed under the chart)",
                "zh": "试一试：用你选的 τ 现场答题（初始值 {tau:g} 是录制中答对最少的 τ：它答错的题列在图下方）"},
    "ch8.try_tour": {"en": "Try it: answer the questions live at a τ you choose (it starts at the tour's τ = {tau:g})",
                     "zh": "试一试：用你选的 τ 现场答题（初始值是导览所用的 τ = {tau:g}）"},
    "ch8.button": {"en": "Answer live", "zh": "现场答题"},

    # ---------- chapter 9: training with the dual-stream mask ----------
    "ch9.title": {"en": "9 · Training: the dual-stream mask", "zh": "9 · 训练：双流掩码"},
    "ch9.p1": {
        "en": "How does a model learn to fill masks it can see past? WeDLM is trained from an AR model "
              "with <b>two copies</b> of each text side by side: a clean copy <b>x0</b> (memory) and a "
              "masked copy <b>xt</b> (prediction), both at the same positions.",
        "zh": "模型怎样学会填那些它能“看到后面”的掩码？WeDLM 从一个 AR 模型训练而来，每段文本都并排放<b>两份</b>："
              "干净的一份 <b>x0</b>（记忆）和加了掩码的一份 <b>xt</b>（预测），两份占用相同的位置编号。",
    },
    "ch9.p2": {
        "en": "xt is cut into <b>training blocks</b> of {block} (a unit of training only, unlike chapter 6's "
              "{block_decoding}: WeDLM decodes in a window of W = {window} slots, chapter 2); "
              "in each training block some tokens are masked, and inside it the observed tokens sit in front of "
              "the masks, like the reordered window. "
              "x0 is plainly causal; an xt training block sees the clean x0 of all earlier training blocks "
              "(decoding sees only what is filled so far) and itself in reordered causal order. Each mask is "
              "trained to predict its own token.",
        "zh": "xt 被切成若干<b>训练块</b>，每个训练块 {block} 个词元（这只是训练的单位，与第 6 章的{block_decoding}无关："
              "WeDLM 解码用的是 W = {window} 个槽位的窗口，见第 2 章）；每个训练块里有一些词元被掩码，训练块内已知的词元排在掩码前面，就像重排后的窗口。"
              "x0 用普通的因果注意力；xt 的一个训练块能看到之前所有训练块的干净 x0（解码时只看得到已经填好的部分），"
              "以及按重排后因果顺序排列的它自己。每个掩码都被训练去预测它自己位置上的词元。",
    },
    "ch9.p3": {
        "en": "The mask pattern here ({masked} of {slots} masked) is {source}. The grid is built by "
              "the code that trained the bundled model: L = {slots} is the text's length, so the grid is 2L × 2L (x0's L "
              "rows, then xt's); {attend_colour} = row sees column.",
        "zh": "这里的掩码模式（{slots} 个中 {masked} 个被掩码）是{source}。网格由训练内置模型的那段代码生成："
              "L = {slots} 是文本的长度，所以网格是 2L × 2L（先是 x0 的 L 行，再是 xt 的 L 行）；"
              "{attend_colour} = 该行能看到该列。",
    },
    # the closing caveat: said in short sentences (a teacher found one long parenthesis too dense)
    "ch9.source_ch3": {
        "en": "that of step {step}'s input in chapters 2–4's times-table decode ({slots} slots: the leading filled "
              "run and the window; 1 = mask). In one training block a mask sits before observed tokens; reordered, "
              "they move in front of it, so its xt row sees them (above the diagonal). Unlike that step, a later "
              "training block sees the true tokens (x0) even where the decode still had a mask",
        "zh": "第 2–4 章乘法表解码第 {step} 步输入的模式（{slots} 个槽位：开头连续的已填充段加上窗口；1 = 掩码）。"
              "其中一个训练块里，掩码排在已知词元前面；重排后这些词元移到它前面，所以它的 xt 行能看到它们（对角线上方）。"
              "和那一步不同，后面的训练块看到的是真实词元（x0），哪怕解码那一步那里还是掩码",
    },
    "ch9.source_yours": {"en": "yours", "zh": "你输入的"},
    "ch9.try": {"en": "Try it: a mask pattern (1 = masked in xt), up to 32 slots",
                "zh": "试一试：输入一个掩码模式（1 = 在 xt 中被掩码），最多 32 个槽位"},
    "ch9.block": {"en": "Training block size", "zh": "训练块大小"},
    "ch9.button": {"en": "Draw the mask", "zh": "画出掩码"},
    "ch9.too_short": {"en": "type at least two 0/1 characters", "zh": "请至少输入两个 0/1 字符"},

    # ---------- chapter 10 (beyond the paper): verified decoding ----------
    # the title says what lossless means before the picture shows the model writing '13 x 2 = 22'
    # "the greedy text" (one token at a time, the most likely each time), not "AR's": chapter 1's AR
    # model is another model (a walker read it as that one)
    "ch10.title": {"en": "10 · Beyond the paper: the greedy text, right or wrong",
                   "zh": "10 · 超出论文：与逐词元解码一字不差，对错皆然"},
    # streaming scoped to chapters 2–9 (walk 27: chapter 4's "filled, a token never changes" against a
    # draft this chapter replaces)
    "ch10.beyond": {
        "en": "<b>Beyond the paper:</b> WeDLM's <i>streaming</i> (chapters 2–9) keeps every fill unchecked: "
              "at τ = {tau:g}, {n} of chapter 8's {total} texts differ from greedy's.",
        "zh": "<b>超出论文的部分：</b>本章的检验是我们加的。WeDLM 的<i>流式</i>解码器（第 2–9 章）不检验就保留每个填充："
              "τ = {tau:g} 时，第 8 章 {total} 道题中有 {n} 道与贪心文本不同。",
    },
    # the same without a recorded count (a record made before chapter 8 compared texts)
    "ch10.beyond_plain": {
        "en": "<b>Beyond the paper:</b> this check is the explorer's own, not WeDLM's. WeDLM's <i>streaming</i> "
              "decoder is not lossless: at any τ, its text can leave the greedy text.",
        "zh": "<b>超出论文的部分：</b>本章的检验是探索器自己加的，不属于 WeDLM。WeDLM 的<i>流式</i>解码器并不无损："
              "在任何 τ 下，它写出的文本都可能偏离贪心文本。",
    },
    "ch10.not_rejected": {"en": "No draft was rejected at this step. {what}",
                          "zh": "这一步没有草稿被拒绝。{what}"},
    # counts of the drafts the view marks ✓ / ✗ (render.verify_marks); .one / .many by words.plural
    "ch10.agreed.one": {"en": "the {n} draft at {span} agreed ✓ ({colour})", "zh": "{span} 处的 {n} 个一致 ✓（{colour}）"},
    "ch10.agreed.many": {"en": "the {n} at {span} agreed ✓ ({colour})", "zh": "{span} 处的 {n} 个一致 ✓（{colour}）"},
    "ch10.none_agreed": {"en": "none agreed", "zh": "没有一个一致"},
    "ch10.dropped.one": {"en": "; the {n} draft after it ({span}) is dropped unchecked",
                         "zh": "；它后面的 {n} 个草稿（{span}）未经检验就被丢弃"},
    "ch10.dropped.many": {"en": "; the {n} drafts after it ({span}) are dropped unchecked",
                          "zh": "；它后面的 {n} 个草稿（{span}）未经检验就被丢弃"},
    "ch10.drafts.one": {"en": "Draft checked", "zh": "草稿"},
    "ch10.drafts.many": {"en": "Drafts checked", "zh": "草稿"},
    "ch10.ends": {"en": "; the stop token at {pos} ends the decode", "zh": "；{pos} 处的停止词元结束了解码"},
    "ch10.verified_word": {"en": "Verified decoding", "zh": "验证解码"},
    "ch10.forward_word": {"en": "forward pass", "zh": "前向计算"},
    "ch10.commit_word": {"en": "commit", "zh": "提交"},
    "ch10.commit_word_one": {"en": "commits", "zh": "提交"},
    "ch10.positions_one": {"en": "Position", "zh": "位置"},
    "ch10.positions_many": {"en": "Positions", "zh": "位置"},
    "ch10.p3_one": {
        "en": "So the text is exactly what this WeDLM model "
              "writes one token at a time, {greedy} (lossless; chapter 1's AR model is another model). No draft agreed here, so "
              "this forward commits 1 token, as AR would: a draft that fails costs a wider forward, never a wrong token. Top: the input of step {step}, drafts marked "
              "✓ / ✗; below: the output after it.",
        "zh": "所以文本与这个 WeDLM 模型一次一个词元、{greedy}地写出的完全相同："
              "并行填充没有丢掉任何东西（无损；第 1 章的 AR 模型是另一个模型）。这里没有草稿一致，"
              "所以这次前向计算只提交 1 个词元，和 AR 一样：失败的草稿只让前向计算多带几行，绝不会写出错误的词元。"
              "上方：第 {step} 步的输入，草稿标有 ✓ / ✗；下方：这一步之后的输出。",
    },
    "ch10.greedy_word": {"en": "greedily", "zh": "贪心"},
    # a verified forward that filled no mask (narration.mask_account): its counts are the step line's
    # ("0 newly filled", "1 taken by the AR token", "N left"); "may leave every mask open", not "cannot
    # fill": other verified forwards of the same decode fill drafts
    "ch10.none_filled": {
        "en": "This forward filled none of its {read} masks{taken}: a verified one may leave every mask open "
              "(a streaming one fills at least one unless it ends the decode).",
        "zh": "这次前向计算读入的 {read} 个掩码一个也没填{taken}：验证前向计算可能让所有掩码都空着（流式的至少填一个，结束解码的那次除外）。",
    },
    "ch10.none_filled_taken": {"en": " (the model's next token took {taken}; {left} masks stay open)",
                               "zh": "（模型的下一词元占了 {taken} 个，{left} 个掩码仍空着）"},
    "ch10.p1": {
        "en": "The fill rule can write a wrong {draft}. {verified} checks "
              "each one with no extra forward: every row of a {forward} also predicts the "
              "model's own next token, as an AR decoder would, so each draft in the leading filled run is checked "
              "against the row before it.",
        "zh": "填充规则可能写出错误的{draft}。{verified}不需要额外的前向计算就能逐个检验它们：{forward}的每一行"
              "同时也像 AR 解码器那样预测模型自己的下一词元，所以开头连续的已填充段里的每个草稿，都拿它前一行的预测来核对。",
    },
    # the commit rule of verified decoding, said where chapter 10 first shows a commit (after ch10.p2)
    "ch10.rule": {
        "en": " Output now: the drafts that agree, then the model's next token; the drafts' KV enters the cache now, "
              "the next token's at the next forward.",
        "zh": "此刻输出的是：一致的草稿，然后是模型的下一词元；草稿的 KV 此刻进入缓存，下一词元的在下一次前向计算。",
    },
    "ch10.p2": {
        "en": "At step {step} the window starts at {start} with {first}, the previous "
              "forward's next token. {drafts}: {checked_n}, at {checked}; {agreed}. The draft "
              "{draft} at {rejected} was rejected ✗ ({rejected_colour}): the model's "
              "own next token there is {ar} ({ar_colour}), which replaces it"
              "{dropped}. {positions} {kept} {commit}: the {kv} grows "
              "{before} → {after}{ends}.",
        "zh": "第 {step} 步，窗口从 {start} 开始，第一个是 {first}，即上一次前向计算给出的模型的下一词元。"
              "{checked} 处共检验了 {checked_n} 个{drafts}：{agreed}。{rejected} 处的草稿 {draft} 被拒绝 ✗"
              "（{rejected_colour}）：模型在那里自己的下一词元是 {ar}（{ar_colour}），由它替换草稿{dropped}。"
              "{positions} {kept} 被{commit}：{kv}增长 {before} → {after}{ends}。",
    },
    # W in verified decoding (this explorer's own) caps the masks, not the rows (wedlm/decoders/verified.py:
    # slot 0 + the drafts to check + m <= W masks, with the drafts kept among them; window_policy.shape_window);
    # WeDLM's streaming window keeps W slots after the run it commits (chapter 2). {parts}: the step's own sum
    # (narration.verified_rows_text, as the order view's caption says it)
    "ch10.window": {
        "en": "Why do windows here carry fewer masks than W = {w}? WeDLM's streaming window keeps W slots after "
              "the run it commits (chapter 2). This explorer's verified decoding (<b>beyond the paper</b>) counts W in "
              "masks, not rows: a forward reads the model's next token, the drafts to check, then up to W masks with "
              "drafts among them (step {step}'s {rows} rows: {parts}). Its cost-aware window carries fewer masks when drafting does not pay "
              "({small} of this decode's {forwards} forwards: {lo}–{hi} masks): it weighs how often drafts have been "
              "agreeing against what a wider forward costs on the machine that ran it, so after rejected drafts it "
              "shrinks towards one row (one token per forward, as in AR decoding).",
        "zh": "为什么这里的窗口带的掩码比 W = {w} 少？WeDLM 的流式窗口在它要提交的那一段之后保留 W 个槽位（第 2 章）。"
              "本探索器自己加的验证解码（<b>超出了论文</b>）用掩码数而不是行数来算 W：一次前向计算读入模型的下一词元、"
              "待检验的草稿，再加最多 W 个掩码以及夹在其中的草稿（第 {step} 步的 {rows} 行：{parts}）。它的成本感知窗口在起草不划算时少带掩码"
              "（这次解码的 {forwards} 次前向计算中有 {small} 次：{lo}–{hi} 个掩码）：它权衡草稿最近的一致程度，"
              "以及在运行它的机器上更宽的前向计算要多花多少；所以草稿被拒绝之后，窗口会缩小，趋向只有一行"
              "（像 AR 解码那样每次前向计算一个词元）。",
    },
    # the chapter's own step: why fewer masks than chapter 2's "the window keeps W slots" (a newcomer read
    # "W caps the masks, not the rows" as a contradiction): W is a most, the cost-aware window picks the
    # count (window_policy.CostAwareWindow: expected tokens, from the drafts' agreement, per unit of row
    # cost). Chapter 10 is at presenting mode's narration limit at 1024: keep it this short
    "ch10.window_short": {
        "en": "Here {masks} masks, fewer than chapter 2's W = {w} slots: our verified decoding (<b>beyond the paper</b>) "
              "carries at most W masks, as many as its cost-aware window expects agreeing drafts to pay for.",
        "zh": "这里带 {masks} 个掩码，少于第 2 章的 W = {w} 个槽位：我们的验证解码（<b>超出了论文</b>）最多带 W 个掩码，"
              "具体带几个，由成本感知窗口按一致的草稿预计能抵多少开销来定。",
    },
    "ch10.p3": {
        "en": "So the text is exactly what this WeDLM model "
              "writes one token at a time, {greedy} (lossless; chapter 1's AR model is another model). Yet this "
              "forward committed {n} tokens where AR commits 1.",
        "zh": "所以文本与这个 WeDLM 模型一次一个词元、{greedy}地写出的完全相同："
              "并行填充没有丢掉任何东西（无损；第 1 章的 AR 模型是另一个模型）。可这一次前向计算提交了 "
              "{n} 个词元，而 AR 只提交 1 个。",
    },
    "ch10.wrote": {
        "en": "It ends {text}: lossless means this model's greedy text, not a right answer (chapter 8).",
        "zh": "它的结尾是 {text}：无损指的是与这个模型的贪心 AR 文本相同，而不是答案一定正确（这个小模型也会答错，见第 8 章）。",
    },
    # a times table with a wrong line (ch8_tau.wrong_products): that line, not the last one, is quoted
    "ch10.wrote_wrong": {
        "en": "It writes {text}, though {a} × {b} = {right}: lossless means this model's greedy text, not a right "
              "answer (chapter 8).",
        "zh": "它写出了 {text}，而 {a} × {b} = {right}：无损指的是与这个模型的贪心 AR 文本相同，而不是答案一定正确"
              "（这个小模型也会答错，见第 8 章）。",
    },
    "ch10.run_accepted": {
        "en": "Over the whole decode {n} drafts were accepted ✓ in {forwards} forwards.",
        "zh": "整个解码中，{forwards} 次前向计算共接受了 {n} 个草稿 ✓。",
    },
    "ch10.run_none_accepted": {
        "en": "No draft here was ever accepted ✓: all {forwards} forwards committed 1 token, as AR. The Decode "
              "tab's verified example shows drafts accepted.",
        "zh": "这里没有一个草稿被接受 ✓：{forwards} 次前向计算都只提交 1 个词元，和 AR 一样。解码页的验证解码示例"
              "能看到草稿被接受。",
    },
    "ch10.fallback": {
        "en": "<b>Your run.</b> {summary} Its checks never rejected a draft: every draft agreed "
              "with the model's own next-token prediction. It opened at its last step, {step}.",
        "zh": "<b>你的运行。</b>{summary}检验从未拒绝任何草稿：每个草稿都与模型自己的下一词元预测一致。"
              "它打开时停在最后一步，即第 {step} 步。",
    },
}
