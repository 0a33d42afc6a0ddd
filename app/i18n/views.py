"""The views (app/views): narration, canvases, charts and figures, the race lanes, the lens, the
lessons, the stepper's controls and the words app/static/*.js shows (views.js.*, put in the
page's CSS by app/views/script_words.py). Counts that English inflects have a `.one` and a `.many` id
(Chinese writes both the same)."""

MESSAGES = {
    # ---- shared pieces ----
    "views.list_sep": {"en": ", ", "zh": "、"},
    "views.list_more": {"en": ", …", "zh": "、…"},
    "views.period": {"en": ".", "zh": "。"},
    "views.none": {"en": "none", "zh": "无"},
    "views.nats": {"en": "nats", "zh": "奈特"},
    "views.prompt": {"en": "prompt", "zh": "提示词"},
    "views.position": {"en": "position {pos}", "zh": "位置 {pos}"},
    "views.committed_tokens": {"en": "committed tokens", "zh": "已提交的词元数"},
    "views.logical_position": {"en": "logical position", "zh": "逻辑位置"},
    "views.predicted_position": {"en": "predicted position", "zh": "预测的位置"},
    "views.next_token": {"en": "next token", "zh": "下一词元"},
    "views.tokens_per_forward": {"en": "tokens per forward", "zh": "每次前向计算的词元数"},
    "views.penalty_name": {"en": "λ·d (distance penalty)", "zh": "λ·d（距离惩罚）"},
    "views.bars.key_penalty": {"en": "λ·d (distance penalty): the slate strip inside a bar, from its top",
                               "zh": "λ·d（距离惩罚）：柱子里从顶部往下的石板灰细条"},
    "views.entropy_zero": {"en": "entropy 0", "zh": "熵 0"},
    "views.entropy_max": {"en": "{max} {nats} or more", "zh": "{max} {nats}及以上"},
    "views.nats_title": {
        "en": "nats: the unit entropy is measured in here (natural logarithm). 0 nats = certain; ln 2 ≈ 0.69 nats "
              "= a coin flip between two tokens; higher = the guess is spread over more tokens.",
        "zh": "奈特：这里衡量熵所用的单位（自然对数）。0 奈特 = 完全确定；ln 2 ≈ 0.69 奈特 = 在两个词元之间抛硬币；"
              "越高 = 猜测分散在越多的词元上。",
    },
    "views.empty": {"en": "Run a decode or load a trace.", "zh": "先运行一次解码，或载入一条轨迹。"},

    # ---- narration (app/views/narration.py) ----
    # the filled slots in a forward's input (written by earlier forwards), said apart from the masks this
    # forward fills ("newly filled" in the step line)
    "views.narr.n_filled_slots.one": {"en": "{n} already-filled slot", "zh": "{n} 个先前已填好的槽位"},
    "views.narr.n_filled_slots.many": {"en": "{n} already-filled slots", "zh": "{n} 个先前已填好的槽位"},
    "views.narr.n_masks.one": {"en": "{n} mask", "zh": "{n} 个掩码"},
    "views.narr.n_masks.many": {"en": "{n} masks", "zh": "{n} 个掩码"},
    "views.narr.n_rows.one": {"en": "{n} row", "zh": "{n} 行"},
    "views.narr.n_rows.many": {"en": "{n} rows", "zh": "{n} 行"},
    "views.narr.score": {"en": "entropy {h} + λ·d {d} = {score}", "zh": "熵 {h} + λ·d {d} = {score}"},
    # "moved" only where a filled slot really sits behind a mask (StepRecord.filled_behind_mask)
    "views.narr.fed": {
        "en": "Forward {forward} reads {first}–{last}: {filled}, {masks} ({rows}), order unchanged.",
        "zh": "第 {forward} 次前向计算读入位置 {first}–{last}：{filled}和 {masks}（共 {rows}），顺序不变。",
    },
    # as short as the sentence it replaced: longer, it pushed the Decode tab's canvas off a 1024x768 screen
    "views.narr.fed_moved": {
        "en": "Forward {forward} reads {first}–{last}: {filled} ({moved} moved in front), {masks} ({rows}).",
        "zh": "第 {forward} 次前向计算读入位置 {first}–{last}：{filled}（其中 {moved} 个被移到前面）和 {masks}（共 {rows}）。",
    },
    "views.narr.run_commits": {
        "en": "The leading filled run {positions} ({tokens}) commits: its KV stays in the cache "
              "({before} → {after} tokens).",
        "zh": "开头连续的已填充词元 {positions}（{tokens}）提交：它们的 KV 留在缓存中（{before} → {after} 个词元）。",
    },
    "views.narr.stop_commits": {
        "en": "The stop token at {pos} commits: the decode ends{dropped}",
        "zh": "位置 {pos} 的停止词元提交，解码随之结束{dropped}",
    },
    "views.narr.run_cut": {
        "en": "The leading filled run is {run} ({n} slots), but only its first {kept} ({positions}: {tokens}) "
              "commit, their KV kept ({before} → {after} tokens).",
        "zh": "开头连续的已填充段是 {run}（{n} 个槽位）；解码在这一段中结束，所以只有前 {kept} 个"
              "（{positions}：{tokens}）提交：它们的 KV 留在缓存中（{before} → {after} 个词元）。",
    },
    "views.narr.dropped_after.one": {"en": "; the {n} filled slot after it in that run ({positions}) is dropped.",
                                     "zh": "；这一段中它之后的 {n} 个已填充槽位（{positions}）被丢弃。"},
    "views.narr.dropped_after.many": {"en": "; the {n} filled slots after it in that run ({positions}) are dropped.",
                                      "zh": "；这一段中它之后的 {n} 个已填充槽位（{positions}）被丢弃。"},
    "views.narr.budget_cut.one": {"en": "The {n} filled slot of the run past the budget ({positions}) is dropped.",
                                  "zh": "这一段中超出预算的 {n} 个已填充槽位（{positions}）被丢弃。"},
    "views.narr.budget_cut.many": {"en": "The {n} filled slots of the run past the budget ({positions}) are dropped.",
                                   "zh": "这一段中超出预算的 {n} 个已填充槽位（{positions}）被丢弃。"},
    "views.narr.behind_unused.one": {"en": "The {n} filled behind the first mask ({positions}) never commits.",
                                     "zh": "第一个掩码后面的 {n} 个已填充槽位（{positions}）也不会提交。"},
    "views.narr.behind_unused.many": {"en": "The {n} filled behind the first mask ({positions}) never commit.",
                                      "zh": "第一个掩码后面的 {n} 个已填充槽位（{positions}）也不会提交。"},
    "views.narr.block_waits": {
        "en": "Nothing commits: block decoding waits until every slot of its block is filled "
              "({filled} of {window} are), so the cache stays at {before} tokens.",
        "zh": "没有提交：块解码要等块中每个槽位都填满才提交（{window} 个中已填 {filled} 个），"
              "所以缓存停在 {before} 个词元。",
    },
    "views.narr.nothing_commits": {"en": "Nothing commits; the cache stays at {before} tokens.",
                                   "zh": "没有提交；缓存停在 {before} 个词元。"},
    "views.narr.behind_waits.one": {
        "en": ", and the {n} filled slot behind it waits (recomputed next forward)",
        "zh": "，它后面的 {n} 个已填充槽位只能等待（下一次前向计算时重算）",
    },
    "views.narr.behind_waits.many": {
        "en": ", and the {n} filled slots behind it wait (recomputed next forward)",
        "zh": "，它后面的 {n} 个已填充槽位只能等待（下一次前向计算时重算）",
    },
    "views.narr.stall": {
        "en": "Nothing commits: position {pos} is still a mask, so the KV cache stays at {before} tokens{wait}.",
        "zh": "没有提交：位置 {pos} 仍是掩码，所以 KV 缓存停在 {before} 个词元{wait}。",
    },
    "views.narr.none_open": {"en": "No mask is left open after the commit.", "zh": "提交之后，没有剩下未填的掩码。"},
    "views.narr.tau_none": {
        "en": "τ = none, so only the lowest-scoring mask is filled: position {pos} with {token} ({score}).",
        "zh": "τ = 无，所以只填得分最低的掩码：位置 {pos} 填入 {token}（{score}）。",
    },
    "views.narr.fallback": {
        "en": "No mask scored under τ {tau}, so only the lowest was filled (the fallback): "
              "position {pos} with {token} ({score}).",
        "zh": "没有掩码的得分低于 τ {tau}，所以只填了得分最低的那个（兜底规则）：位置 {pos} 填入 {token}（{score}）。",
    },
    "views.narr.filled_one": {
        "en": "The mask at {pos} was filled with {token} ({score} < τ {tau}).",
        "zh": "位置 {pos} 的掩码填入了 {token}（{score} < τ {tau}）。",
    },
    "views.narr.filled_many": {
        "en": "The masks at {positions} were filled with {tokens} (scores {span} < τ {tau}).",
        "zh": "位置 {positions} 的掩码填入了 {tokens}（得分 {span} < τ {tau}）。",
    },
    "views.narr.rule_none": {"en": "τ = none fills one slot per step", "zh": "τ = 无 时每步只填一个槽位"},
    "views.narr.rule_tau": {"en": "score ≥ τ {tau}", "zh": "得分 ≥ τ {tau}"},
    "views.narr.stayed_open.one": {
        "en": "The mask at {positions} stayed open (entropy {span}, {rule}).",
        "zh": "位置 {positions} 的掩码仍未填（熵 {span}，{rule}）。",
    },
    "views.narr.stayed_open.many": {
        "en": "Masks at {positions} stayed open (entropy {span}, {rule}).",
        "zh": "位置 {positions} 的掩码仍未填（熵 {span}，{rule}）。",
    },
    "views.narr.budget_here": {"en": "The budget of {budget} new tokens is reached: the decode ends here.",
                               "zh": "已用完 {budget} 个新词元的预算：解码到此结束。"},
    "views.narr.stopped_why": {"en": "The decode was stopped here (by the user or the time limit).",
                               "zh": "解码在这里被停止（由用户或时间限制）。"},
    "views.narr.ar_reads": {
        "en": "The AR forward reads one row, the token {token} at position {pos}: its KV joins the cache "
              "({before} → {after} tokens).",
        "zh": "AR 的前向计算只读入一行，即位置 {pos} 的词元 {token}：它的 KV 加入缓存（{before} → {after} 个词元）。",
    },
    "views.narr.ar_predicts": {
        "en": "The next-token head predicts {token} for position {pos} (entropy {h} nats); it is fed to the "
              "next forward. One token per forward, however sure the model is.",
        "zh": "下一词元预测头为位置 {pos} 预测出 {token}（熵 {h} 奈特）；它会被送入下一次前向计算。"
              "不管模型多有把握，每次前向计算都只出一个词元。",
    },
    "views.narr.ar_stop": {"en": "That is the stop token: the decode ends.", "zh": "这是停止词元：解码结束。"},
    "views.narr.budget": {"en": "The budget of {budget} new tokens is reached: the decode ends.",
                          "zh": "已用完 {budget} 个新词元的预算：解码结束。"},
    "views.narr.stopped": {"en": "The decode was stopped here.", "zh": "解码在这里被停止。"},
    "views.narr.source_prefill": {"en": "prefill", "zh": "预填充"},
    "views.narr.source_previous": {"en": "the previous forward", "zh": "上一次前向计算"},
    "views.narr.first_slot": {
        "en": " Its first slot, position {pos}, holds {token}: the model's next token {source} found, so it is exact.",
        "zh": "它的第一个槽位（位置 {pos}）放的是 {token}：这是{source}得到的模型的下一词元，所以一定正确。",
    },
    "views.narr.no_drafts": {"en": "There were no drafts after it to check.", "zh": "它之后没有需要检查的草稿。"},
    "views.narr.checked_none.one": {
        "en": "The same forward also gives the model's own next-token prediction at every row. The {n} draft "
              "at {positions} was checked against it, left to right: none agreed (✓).",
        "zh": "同一次前向计算还在每一行给出模型自己的下一词元预测。位置 {positions} 的 {n} 个草稿"
              "从左到右逐一与它比对：没有一个一致（✓）。",
    },
    "views.narr.checked_none.many": {
        "en": "The same forward also gives the model's own next-token prediction at every row. The {n} drafts "
              "at {positions} were checked against it, left to right: none agreed (✓).",
        "zh": "同一次前向计算还在每一行给出模型自己的下一词元预测。位置 {positions} 的 {n} 个草稿"
              "从左到右逐一与它比对：没有一个一致（✓）。",
    },
    "views.narr.checked_some.one": {
        "en": "The same forward also gives the model's own next-token prediction at every row. The {n} draft "
              "at {positions} was checked against it, left to right: {accepted} agreed (✓): {tokens} at {agreed_at}.",
        "zh": "同一次前向计算还在每一行给出模型自己的下一词元预测。位置 {positions} 的 {n} 个草稿"
              "从左到右逐一与它比对：{accepted} 个一致（✓），即位置 {agreed_at} 的 {tokens}。",
    },
    "views.narr.checked_some.many": {
        "en": "The same forward also gives the model's own next-token prediction at every row. The {n} drafts "
              "at {positions} were checked against it, left to right: {accepted} agreed (✓): {tokens} at {agreed_at}.",
        "zh": "同一次前向计算还在每一行给出模型自己的下一词元预测。位置 {positions} 的 {n} 个草稿"
              "从左到右逐一与它比对：{accepted} 个一致（✓），即位置 {agreed_at} 的 {tokens}。",
    },
    "views.narr.dropped_unchecked.one": {
        "en": "; the {n} draft after it ({positions}) is dropped unchecked, since it was drafted after a wrong token",
        "zh": "；它之后的 {n} 个草稿（{positions}）不经检查直接丢弃，因为它是在一个错误词元之后起草的",
    },
    "views.narr.dropped_unchecked.many": {
        "en": "; the {n} drafts after it ({positions}) are dropped unchecked, since they were drafted after a "
              "wrong token",
        "zh": "；它之后的 {n} 个草稿（{positions}）不经检查直接丢弃，因为它们是在一个错误词元之后起草的",
    },
    "views.narr.rejected": {
        "en": "The draft {draft} at position {pos} was rejected (✗): the model's own next token there is {ar}, "
              "which replaces it{dropped}.",
        "zh": "位置 {pos} 的草稿 {draft} 被拒绝（✗）：模型在这里自己的下一词元是 {ar}，由它替换该草稿{dropped}。",
    },
    "views.narr.all_agreed": {
        "en": "All agreed, so the model's next token {ar} after them, at position {pos}, comes for free.",
        "zh": "全部一致，所以紧随其后、位于位置 {pos} 的模型的下一词元 {ar} 是免费得到的。",
    },
    "views.narr.kept.one": {
        "en": "Position {positions} commits ({before} → {after} tokens in the KV cache){tail}",
        "zh": "位置 {positions} 提交（KV 缓存中 {before} → {after} 个词元）{tail}",
    },
    "views.narr.kept.many": {
        "en": "Positions {positions} commit ({before} → {after} tokens in the KV cache){tail}",
        "zh": "位置 {positions} 提交（KV 缓存中 {before} → {after} 个词元）{tail}",
    },
    "views.narr.kept_stop": {
        "en": ". The stop token at position {pos} is one of them: the decode ends{end}",
        "zh": "。位置 {pos} 的停止词元也在其中：解码随之结束{end}",
    },
    "views.narr.check_not_output": {"en": " (what the check found after it is not output).",
                                    "zh": "（检查在它之后得到的内容不会输出）。"},
    "views.narr.verified_stop": {
        "en": ". The model's next token at {pos} is the stop token: the decode ends here.",
        "zh": "。位置 {pos} 上模型的下一词元是停止词元：解码到此结束。",
    },
    "views.narr.kept_next": {
        "en": ". The model's next token at {pos} becomes the first slot of the next forward.",
        "zh": "。位置 {pos} 上模型的下一词元成为下一次前向计算的第一个槽位。",
    },
    "views.narr.lossless_greedy": {
        "en": "Every token that commits is the one the model's own next-token prediction chose, so the text is "
              "exactly greedy AR decoding of this model (lossless, beyond the paper: the same text, right or wrong).",
        "zh": "每个提交的词元，都是模型自己的下一词元预测选出的那个，所以文本与这个模型的贪心 AR 解码完全相同"
              "（无损，超出论文的扩展：文本相同，无论对错）。",
    },
    "views.narr.lossless_sampling": {
        "en": "Every token that commits is the one the model's own next-token prediction chose, so the text is "
              "distributed exactly as AR sampling from this model (lossless: beyond the paper).",
        "zh": "每个提交的词元，都是模型自己的下一词元预测选出的那个，所以文本的分布与从这个模型做 AR 采样完全相同"
              "（无损：超出论文的扩展）。",
    },
    "views.narr.rode_along.one": {
        "en": "{masks} rode along; {n} was filled as a draft for the next forward to check ({positions}).",
        "zh": "{masks}随行；其中 {n} 个被填成草稿，留给下一次前向计算检查（{positions}）。",
    },
    "views.narr.rode_along.many": {
        "en": "{masks} rode along; {n} were filled as drafts for the next forward to check ({positions}).",
        "zh": "{masks}随行；其中 {n} 个被填成草稿，留给下一次前向计算检查（{positions}）。",
    },
    "views.narr.shrunk_dropped.one": {
        "en": "The window policy then shrank the next window to positions {first}–{last}, so the draft at "
              "{positions} was dropped unchecked: the output shows that slot as a mask again.",
        "zh": "随后窗口策略把下一个窗口缩小到位置 {first}–{last}，所以 {positions} 处的草稿未经检查就被丢弃了："
              "输出里那个槽位又显示为掩码。",
    },
    "views.narr.shrunk_dropped.many": {
        "en": "The window policy then shrank the next window to positions {first}–{last}, so the {n} drafts at "
              "{positions} were dropped unchecked: the output shows those slots as masks again.",
        "zh": "随后窗口策略把下一个窗口缩小到位置 {first}–{last}，所以 {positions} 处的 {n} 个草稿未经检查就被丢弃了："
              "输出里这些槽位又显示为掩码。",
    },
    "views.narr.no_masks_rode": {
        "en": "No masks rode along this forward, so it drafted nothing for the next one.",
        "zh": "这次前向计算没有掩码随行，所以没有为下一次起草任何词元。",
    },
    "views.narr.no_draft_filled": {"en": "No mask was filled as a draft for the next forward.",
                                   "zh": "没有掩码被填成草稿留给下一次前向计算。"},
}

MESSAGES.update({
    # ---- colours (app/views/palette.py colour_word; one word per colour, as in English) ----
    "views.colour.grey": {"en": "grey", "zh": "灰色"},
    "views.colour.yellow": {"en": "yellow", "zh": "黄色"},
    "views.colour.orange": {"en": "orange", "zh": "橙色"},
    "views.colour.green": {"en": "green", "zh": "绿色"},
    "views.colour.violet": {"en": "violet", "zh": "淡紫色"},
    "views.colour.pale_grey": {"en": "pale grey", "zh": "浅灰色"},
    "views.colour.dark_grey": {"en": "dark grey", "zh": "深灰色"},
    "views.colour.blue": {"en": "blue", "zh": "蓝色"},
    "views.colour.amber": {"en": "amber", "zh": "琥珀色"},
    "views.colour.purple": {"en": "purple", "zh": "紫色"},
    "views.colour.red": {"en": "red", "zh": "红色"},
    "views.colour.slate": {"en": "slate", "zh": "石板灰"},
    "views.colour.navy": {"en": "navy", "zh": "藏青色"},
    "views.colour.bright_orange": {"en": "bright orange", "zh": "亮橙色"},
    "views.colour.pink": {"en": "pink", "zh": "粉色"},
    "views.colour.light_grey": {"en": "light grey", "zh": "银灰色"},
    "views.colour.dark_green": {"en": "dark green", "zh": "深绿色"},
    "views.colour.emerald": {"en": "emerald", "zh": "翠绿色"},
    # a role the picture draws as an outline, not a fill (the verified decoder's checks)
    "views.colour.outline": {"en": "{colour} outline", "zh": "{colour}边框"},
    "views.colour.dark_red": {"en": "dark red", "zh": "深红色"},
    "views.colour.sky_blue": {"en": "sky blue", "zh": "天蓝色"},
    "views.colour.teal": {"en": "teal", "zh": "青色"},
    "views.colour.light_green": {"en": "light green", "zh": "浅绿色"},
    # ---- token states and verified checks (wedlm/palette.py STATE_LABELS, VERIFY_LABELS) ----
    "views.state.mask": {"en": "mask", "zh": "掩码"},
    "views.state.filled": {"en": "filled, not committed", "zh": "已填充，未提交"},
    "views.state.new": {"en": "new this step", "zh": "本步新填"},
    "views.state.committed": {"en": "committed (in the KV cache)", "zh": "已提交（在 KV 缓存中）"},
    # the leading run of a forward's input: this forward writes its KV (not yet in the cache when it is fed)
    "views.state.committing": {"en": "committing (its KV enters the cache now)",
                               "zh": "正在提交（KV 此刻进入缓存）"},
    "views.state.stop": {"en": "stop token", "zh": "停止词元"},
    "views.state.dropped": {"en": "dropped (after the stop token)", "zh": "已丢弃（在停止词元之后）"},
    "views.verify.accepted": {"en": "✓ draft accepted (agrees with the model's next token)", "zh": "✓ 草稿被接受（与模型的下一词元一致）"},
    "views.verify.rejected": {"en": "✗ draft rejected", "zh": "✗ 草稿被拒绝"},
    "views.verify.ar": {"en": "the model's next token (replaces the rejected draft, or appended free)",
                        "zh": "模型的下一词元（替换被拒绝的草稿，或免费追加在后面）"},
})

MESSAGES.update({
    # ---- a position's story (render._tooltip; plain text, a title) ----
    "views.tip.mask": {"en": "position {pos}: mask", "zh": "位置 {pos}：掩码"},
    # the same story at every step (walk 19 read a mask's tapped entropy as the step's own): said as
    # the whole decode's, the entropy the one its slot had when filled
    "views.tip.token": {
        "en": "position {pos}, over the whole decode: {token}\n{filled}{entropy}, {committed}\n"
              "top candidates then: {candidates}",
        "zh": "位置 {pos}，整个解码中：{token}\n{filled}{entropy}，{committed}\n当时的候选词元：{candidates}",
    },
    "views.tip.entropy": {"en": " at entropy {h} nats", "zh": "，当时熵为 {h} 奈特"},
    "views.tip.filled_prefill": {"en": "filled at prefill", "zh": "在预填充时填充"},
    "views.tip.filled_step": {"en": "filled at step {step}", "zh": "在第 {step} 步填充"},
    "views.tip.committed_not_yet": {"en": "never committed", "zh": "从未提交"},
    # a fill taken back before the slot's last (Position.earlier; verified decoding's drafts)
    "views.tip.earlier": {"en": "\nearlier: {token}, filled at step {step}, taken back at step {until}",
                          "zh": "\n此前：{token}，在第 {step} 步填入，在第 {until} 步撤下"},
    "views.tip.committed_step": {"en": "committed at step {step}", "zh": "在第 {step} 步提交"},
    # ---- canvas, output, summary (app/views/render.py) ----
    "views.canvas.title": {
        "en": "Output after step {step} (the result of forward {forward}; tap a token to follow it in every view)",
        "zh": "第 {step} 步之后的输出（第 {forward} 次前向计算的结果；点一个词元，可在每个视图中跟踪它）",
    },
    "views.output.title": {"en": "Output text after step {step} (committed tokens only)",
                           "zh": "第 {step} 步之后的输出文本（只含已提交的词元）"},
    "views.output.nothing": {"en": "nothing committed yet", "zh": "还没有提交任何词元"},
    # the line's mask counts add up on the line itself (narration.mask_account): read = filled + left
    "views.summary": {
        "en": "Step {step} of 0–{last}: {masks}: {filled} newly filled, {left} left; {committed} committed, "
              "KV cache {before} to {after} tokens{end}.",
        "zh": "第 {step} 步（最后一步为第 {last} 步）：{masks}：新填充 {filled} 个，剩 {left} 个；"
              "提交 {committed} 个，KV 缓存 {before} → {after} 个词元{end}。",
    },
    # verified decoding (beyond the paper): the model's next token took a mask's slot, counted apart from the
    # masks the fill rule filled, so read = filled + taken + left on the line
    "views.summary.verified": {
        "en": "Step {step} of 0–{last}: {masks}: {filled} newly filled, {taken} taken by the model's next token, {left} left; "
              "{committed} committed, KV cache {before} to {after} tokens{end}.",
        "zh": "第 {step} 步（最后一步为第 {last} 步）：{masks}：新填充 {filled} 个，模型的下一词元占 {taken} 个，剩 {left} 个；"
              "提交 {committed} 个，KV 缓存 {before} → {after} 个词元{end}。",
    },
    # the model's next token replaced a rejected draft: it took no mask
    "views.summary.verified_replaced": {
        "en": "Step {step} of 0–{last}: {masks}: {filled} newly filled, {left} left (the model's next token replaced a "
              "draft); {committed} committed, KV cache {before} to {after} tokens{end}.",
        "zh": "第 {step} 步（最后一步为第 {last} 步）：{masks}：新填充 {filled} 个，剩 {left} 个（模型的下一词元替换了一个草稿）；"
              "提交 {committed} 个，KV 缓存 {before} → {after} 个词元{end}。",
    },
    "views.summary.verified_after": {
        "en": "Step {step} of 0–{last}: {masks}: {filled} newly filled, {left} left (the model's next token came after the "
              "window); {committed} committed, KV cache {before} to {after} tokens{end}.",
        "zh": "第 {step} 步（最后一步为第 {last} 步）：{masks}：新填充 {filled} 个，剩 {left} 个（模型的下一词元在窗口之后）；"
              "提交 {committed} 个，KV 缓存 {before} → {after} 个词元{end}。",
    },
    # a verified forward that read no mask: it only checked its drafts (the model's next token came after them)
    "views.summary.verified_checked": {
        "en": "Step {step} of 0–{last}: no masks read, this forward only checked {checks}; {committed} committed, "
              "KV cache {before} to {after} tokens{end}.",
        "zh": "第 {step} 步（最后一步为第 {last} 步）：没有读入掩码，这次前向计算只检验了{checks}；"
              "提交 {committed} 个，KV 缓存 {before} → {after} 个词元{end}。",
    },
    "views.summary.verified_ar_only": {
        "en": "Step {step} of 0–{last}: no masks read, this forward only read the model's next token; {committed} committed, "
              "KV cache {before} to {after} tokens{end}.",
        "zh": "第 {step} 步（最后一步为第 {last} 步）：没有读入掩码，这次前向计算只读入了模型的下一词元；"
              "提交 {committed} 个，KV 缓存 {before} → {after} 个词元{end}。",
    },
    "views.summary.drafts.one": {"en": "{n} draft", "zh": " {n} 个草稿"},
    "views.summary.drafts.many": {"en": "{n} drafts", "zh": " {n} 个草稿"},
    # AR reads no mask: the one token its forward wrote (narration.mask_account's written)
    "views.summary.ar": {
        "en": "Step {step} of 0–{last}: {written} token predicted, {committed} committed, KV cache {before} to "
              "{after} tokens{end}.",
        "zh": "第 {step} 步（最后一步为第 {last} 步）：预测 {written} 个词元，提交 {committed} 个，"
              "KV 缓存从 {before} 个词元变为 {after} 个{end}。",
    },
    # the masks the forward READ (its input, before it fills); the line then says how many are left
    "views.summary.masks.one": {"en": "{n} mask read", "zh": "读入 {n} 个掩码"},
    "views.summary.masks.many": {"en": "{n} masks read", "zh": "读入 {n} 个掩码"},
    "views.summary.ends": {"en": "; the decode ends", "zh": "；解码结束"},
    # the last step when it filled nothing: its masks are counted in the ending ("16 masks unscored"), so
    # the line stays one line
    "views.summary.last": {
        "en": "Step {step} of 0–{last}: {committed} committed, KV cache {before} to {after}{end}.",
        "zh": "第 {step} 步（最后一步为第 {last} 步）：提交 {committed} 个，KV 缓存从 {before} 个词元变为 {after} 个{end}。",
    },
    # the last step: what ended the decode, and that the masks still in the window are never scored
    "views.summary.ends_stop.one": {"en": "; the stop token ends the decode ({n} mask unscored)",
                                    "zh": "；停止词元结束了解码（{n} 个掩码未打分）"},
    "views.summary.ends_stop.many": {"en": "; the stop token ends the decode ({n} masks unscored)",
                                     "zh": "；停止词元结束了解码（{n} 个掩码未打分）"},
    "views.summary.ends_budget.one": {"en": "; the token budget ends the decode ({n} mask unscored)",
                                      "zh": "；新词元预算用完，解码结束（{n} 个掩码未打分）"},
    "views.summary.ends_budget.many": {"en": "; the token budget ends the decode ({n} masks unscored)",
                                       "zh": "；新词元预算用完，解码结束（{n} 个掩码未打分）"},
    # ---- the window in both orders (order_view) ----
    "views.order.logical": {"en": "logical order (the text)", "zh": "逻辑顺序（文本中的顺序）"},
    "views.order.physical": {"en": "physical order (fed to the model)", "zh": "物理顺序（送入模型的顺序）"},
    "views.orders.more": {"en": "…{n} more", "zh": "…另有 {n} 个"},
    "views.orders.title.one": {"en": "Step {step}'s input: the {n} row forward {forward} reads",
                               "zh": "第 {step} 步的输入：第 {forward} 次前向计算读入的 {n} 行"},
    "views.orders.title.many": {"en": "Step {step}'s input: the {n} rows forward {forward} reads (the leading filled run and the window)",
                                "zh": "第 {step} 步的输入：第 {forward} 次前向计算读入的 {n} 行（开头连续的已填充段和窗口）"},
    "views.orders.title_window.one": {"en": "Step {step}'s input: the {n} row forward {forward} reads (the window: no filled run leads)",
                                      "zh": "第 {step} 步的输入：第 {forward} 次前向计算读入的 {n} 行（只有窗口：开头没有连续的已填充段）"},
    "views.orders.title_window.many": {"en": "Step {step}'s input: the {n} rows forward {forward} reads (the window: no filled run leads)",
                                       "zh": "第 {step} 步的输入：第 {forward} 次前向计算读入的 {n} 行（只有窗口：开头没有连续的已填充段）"},
    "views.orders.play_title": {"en": "animate the move from logical to physical order",
                                "zh": "用动画演示从逻辑顺序到物理顺序的移动"},
    "views.orders.play": {"en": "▶ Watch the reordering", "zh": "▶ 观看重排"},
    # the KV row's blue chips: the prompt and earlier commits, read by attention, not rows of this forward
    "views.orders.cached": {"en": "in the KV cache", "zh": "已在 KV 缓存中"},
    "views.orders.kv": {"en": "KV cache: {before} → {after} tokens", "zh": "KV 缓存：{before} → {after} 个词元"},
    "views.orders.fills": {"en": "mask this forward fills", "zh": "本次前向计算要填的掩码"},
    # how a token's text is drawn (render.token_label): whitespace made visible
    "views.glyph_key": {"en": "in a token: · = space, ↵ = new line, → = tab",
                        "zh": "词元里：· = 空格，↵ = 换行，→ = 制表符"},
    "views.orders.rows": {
        "en": "Rows in this forward: {n} = {commit} in the leading filled run + {kept} kept in the window "
              "(W = {w} slots, filled or masks). ",
        "zh": "这次前向计算的行数：{n} = 开头连续已填充段的 {commit} 个 + 窗口保留的 {kept} 个（W = {w} 个槽位，已填充的或掩码）。"},
    "views.orders.rows_none": {
        "en": "Rows in this forward: {n}, the window (W = {w} slots, filled or masks). Its first slot is a mask, "
              "so no filled run leads and nothing commits: every row's KV is dropped. ",
        "zh": "这次前向计算的行数：{n}，即整个窗口（W = {w} 个槽位，已填充的或掩码）。它的第一个槽位是掩码，"
              "所以没有开头连续的已填充段，什么也不提交：每一行的 KV 都被丢弃。"},
    "views.orders.rows_end": {
        "en": "The decode ends inside that run ({positions}): {kept} of its {run} commit, the {dropped} after them "
              "({dropped_positions}) are dropped. ",
        "zh": "解码在这一段（{positions}）中结束：{run} 个中只有 {kept} 个提交，其后的 {dropped} 个"
              "（{dropped_positions}）被丢弃。"},
    "views.orders.note_ar": {
        "en": "Small numbers are position ids (what RoPE sees). AR's input is one row, the newest token: it looks "
              "back at the KV cache, and its own KV joins the cache. The two rows, logical order (the text's) and "
              "physical order (the order the model is fed), are the same for AR; WeDLM moves filled tokens before "
              "masks, so its two differ (the Tour's chapter 3).",
        "zh": "小数字是位置编号（RoPE 看到的就是它）。AR 的输入只有一行，即最新的词元：它回看 KV 缓存，"
              "它自己的 KV 也加入缓存。两行分别是逻辑顺序（文本中的顺序）和物理顺序（送入模型的顺序），对 AR 来说两者相同；"
              "WeDLM 会把已填充的词元移到掩码前面，所以它的两行不同（见导览第 3 章）。",
    },
    "views.orders.note": {
        "en": "Small numbers are position ids (what RoPE sees). Filled slots move in front of the masks but keep "
              "their ids; the leading filled run ({colour}) commits: its KV enters the cache now.",
        "zh": "小数字是位置编号（RoPE 看到的就是它）。已填充的槽位移到掩码前面，但保留各自的编号；"
              "开头连续的已填充词元（{colour}）提交：它们的 KV 此刻进入缓存。",
    },
    "views.orders.note_none": {
        "en": "Small numbers are position ids (what RoPE sees). Filled slots move in front of the masks but keep "
              "their ids.",
        "zh": "小数字是位置编号（RoPE 看到的就是它）。已填充的槽位移到掩码前面，但保留各自的编号。",
    },
    "views.verified.replaces": {"en": "replaces the rejected draft at {pos}", "zh": "替换位置 {pos} 上被拒绝的草稿"},
    "views.verified.appended": {"en": "appended after the accepted drafts, at {pos}, for free",
                                "zh": "免费追加在已接受的草稿之后，位于 {pos}"},
    "views.verified.next": {"en": "the next position, {pos}", "zh": "下一个位置 {pos}"},
    "views.verified.ar_found": {"en": "the model's next token, found by this forward ({where})",
                                "zh": "本次前向计算得到的模型的下一词元（{where}）"},
    "views.verified.title.one": {
        "en": "Step {step}'s input: the {n} row forward {forward} reads; its drafts checked ✓ / ✗",
        "zh": "第 {step} 步的输入：第 {forward} 次前向计算读入的 {n} 行；其中的草稿逐一检查 ✓ / ✗",
    },
    "views.verified.title.many": {
        "en": "Step {step}'s input: the {n} rows forward {forward} reads; its drafts checked ✓ / ✗",
        "zh": "第 {step} 步的输入：第 {forward} 次前向计算读入的 {n} 行；其中的草稿逐一检查 ✓ / ✗",
    },
    # a verified step whose input holds no draft (its record's `checked` is empty): nothing to mark ✓ / ✗
    "views.verified.title_none.one": {
        "en": "Step {step}'s input: the {n} row forward {forward} reads; no drafts to check",
        "zh": "第 {step} 步的输入：第 {forward} 次前向计算读入的 {n} 行；没有要检查的草稿",
    },
    "views.verified.title_none.many": {
        "en": "Step {step}'s input: the {n} rows forward {forward} reads; no drafts to check",
        "zh": "第 {step} 步的输入：第 {forward} 次前向计算读入的 {n} 行；没有要检查的草稿",
    },
    # a verified step's rows (narration.verified_rows_text): 1 + drafts + masks + drafts among them; W caps
    # the masks (the window policy's m), not the rows (BEYOND THE PAPER: streaming keeps W slots after its run)
    "views.verified.rows": {"en": "Rows in this forward: {n} = {parts}{cap}. ",
                            "zh": "这次前向计算的行数：{n} = {parts}{cap}。"},
    "views.verified.rows_next": {"en": "1 (the model's next token)", "zh": "1（模型的下一词元）"},
    "views.verified.rows_drafts.one": {"en": "{n} draft to check", "zh": "{n} 个待检验的草稿"},
    "views.verified.rows_drafts.many": {"en": "{n} drafts to check", "zh": "{n} 个待检验的草稿"},
    "views.verified.rows_masks.one": {"en": "{n} mask", "zh": "{n} 个掩码"},
    "views.verified.rows_masks.many": {"en": "{n} masks", "zh": "{n} 个掩码"},
    "views.verified.rows_among.one": {"en": "{n} draft after the first mask", "zh": "第一个掩码之后的 {n} 个草稿"},
    "views.verified.rows_among.many": {"en": "{n} drafts after the first mask", "zh": "第一个掩码之后的 {n} 个草稿"},
    "views.verified.rows_cap": {"en": "; verified decoding caps the masks at W = {w}, not the rows",
                                "zh": "；验证解码限制的是掩码数（最多 W = {w} 个），而不是行数"},
    "views.verified.note": {
        "en": "Verified decoding (beyond the paper): slot {slot} holds the model's next token the previous forward found; "
              "each draft after it is checked against the model's own next-token prediction from the row before "
              "it. ✓ agreed and commits (unless a stop token before it ended the decode); ✗ the first that did "
              "not: the model's next token replaces it and the drafts after it are dropped.",
        "zh": "验证解码（超出论文的扩展）：槽位 {slot} 放的是上一次前向计算得到的模型的下一词元；它之后的每个草稿，"
              "都与模型在前一行给出的下一词元预测比对。✓ 表示一致并提交（除非它前面的停止词元已结束解码）；✗ 是第一个不一致的草稿："
              "模型的下一词元替换它，它之后的草稿全部丢弃。",
    },
    # ---- the step table and the badge ----
    "views.table.step": {"en": "step", "zh": "步"},
    "views.table.rows": {"en": "rows in forward", "zh": "前向计算的行数"},
    "views.table.filled": {"en": "filled", "zh": "填充"},
    "views.table.committed": {"en": "committed", "zh": "提交"},
    "views.table.cache": {"en": "cache length", "zh": "缓存长度"},
    "views.table.ms": {"en": "ms", "zh": "毫秒"},
    "views.table.label": {"en": "every step, one row each", "zh": "每一步占一行"},
    "views.badge.tpf_title": {"en": "output tokens divided by forward passes: AR makes 1",
                              "zh": "输出词元数除以前向计算次数：AR 为 1"},
    "views.badge.tpf": {"en": "{tokens} tokens / {forwards} forwards = <b>{tpf} tokens per forward</b>",
                        "zh": "{tokens} 个词元 / {forwards} 次前向计算 = <b>每次前向计算 {tpf} 个词元</b>"},
    "views.badge.rows_title": {"en": "rows per forward: what one forward carries; more rows cost more time",
                               "zh": "每次前向计算的行数：一次前向计算承载的量；行越多，耗时越长"},
    "views.badge.rows": {"en": "{rows} rows per forward", "zh": "每次前向计算 {rows} 行"},
    "views.badge.p_cache_title": {
        "en": "p_cache: share of processed rows whose KV was kept (1 = nothing recomputed)",
        "zh": "p_cache：处理过的行中 KV 被保留的比例（1 表示没有任何重算）",
    },
    "views.badge.meaning": {
        "en": "Tokens per forward: output tokens ÷ forwards (AR: 1). Rows per forward: what one forward computes "
              "(its cost). p_cache: share of computed rows whose KV was kept.",
        "zh": "每次前向计算的词元数：输出词元数 ÷ 前向计算次数（AR 为 1）。每次前向计算的行数：一次前向计算要算的"
              "词元行数（成本随之增长）。p_cache：算过的行中 KV 被保留的比例（1 表示没有任何重算）。",
    },
    "views.badge.main": {"en": "model {model} · step {step} (forward {forward} of {forwards})",
                         "zh": "模型 {model} · 第 {step} 步（第 {forward} 次前向计算，共 {forwards} 次）"},
    "views.decoder.ar": {"en": "ar", "zh": "自回归"},
    "views.decoder.streaming": {"en": "streaming", "zh": "流式"},
    "views.decoder.block": {"en": "block", "zh": "块解码"},
    "views.decoder.reference": {"en": "reference", "zh": "参照"},
    "views.decoder.verified": {"en": "verified", "zh": "验证解码"},
    "views.decoder.reference-verified": {"en": "reference-verified", "zh": "验证解码的参照"},
    "views.narration.title": {"en": "What happened at step {step} (forward {forward})",
                              "zh": "第 {step} 步发生了什么（第 {forward} 次前向计算）"},
    # ---- attention grids ----
    "views.grid.prefix": {"en": "prefix", "zh": "前缀"},
    "views.grid.sees_later": {"en": "sees a filled token to its right", "zh": "看得到它右边的已填充词元"},
    "views.grid.physical": {"en": "physical order (what runs)", "zh": "物理顺序（实际运行的顺序）"},
    "views.grid.later": {"en": " {colour} ›: a mask sees a filled token after it in the text.",
                         "zh": "{colour} ›：掩码看得到文本中位于它之后的已填充词元。"},
    "views.grid.title": {
        "en": "Attention, {title}: a row sees a column where {colour}; the first column is the cached prefix{cached}."
              "{later}",
        "zh": "注意力，{title}：格子为{colour}，表示这一行看得到这一列；第一列是已缓存的前缀{cached}。{later}",
    },
    # the grid title's aside, which a projector leaves out (the narration says it)
    "views.grid.cached": {
        "en": " ({n} tokens whose KV is already in the cache: the prompt and the committed text)",
        "zh": "（{n} 个 KV 已在缓存中的词元：提示词和已提交的文本）",
    },
    "views.grid.label": {"en": "attention mask, {title}", "zh": "注意力掩码，{title}"},
    # a phone: a grid kept at a readable size is wider than the screen and scrolls in its box
    "views.grid.scroll_hint": {"en": "← swipe the grid sideways to see all of it →", "zh": "← 左右滑动网格，查看全部 →"},
    "views.grid.ar_logical": {"en": "Attention, logical order", "zh": "注意力，逻辑顺序"},
    "views.grid.ar_physical": {"en": "Attention, physical order", "zh": "注意力，物理顺序"},
    "views.grid.ar_note": {
        "en": "The AR forward has one row: the token at position {pos} sees the whole cached prefix ({n} tokens) "
              "and itself. Nothing is reordered, so both orders are the same.",
        "zh": "AR 的前向计算只有一行：位置 {pos} 的词元看得到全部已缓存的前缀（{n} 个词元）和它自己。"
              "没有重排，所以两种顺序完全一样。",
    },
})

MESSAGES.update({
    # ---- SVG charts (app/views/charts.py) and their Plotly twins (figures.py) ----
    "views.bars.title_ar": {
        "en": "AR: next-token entropy of the last forwards up to step {step} (orange = this step)",
        "zh": "AR：截至第 {step} 步、最近几次前向计算的下一词元熵（橙色 = 本步）",
    },
    "views.bars.title_masks": {
        "en": "Step {step}: open masks, score = H + λ·d (orange = filled, grey = stays a mask)",
        "zh": "第 {step} 步：未填的掩码，得分 = H + λ·d（橙色 = 已填充，灰色 = 仍是掩码）",
    },
    "views.bars.why_stop": {"en": "the stop token committed", "zh": "停止词元已提交"},
    "views.bars.why_budget": {"en": "the budget or a stop ended it", "zh": "预算用完或被停止"},
    "views.bars.title_ended": {
        "en": "Step {step}: the decode ended here ({why}); no mask is scored, and the masks still shown are "
              "never filled",
        "zh": "第 {step} 步：解码在此结束（{why}）；不再给掩码打分，仍显示的掩码永远不会被填充",
    },
    "views.bars.title_full": {"en": "Step {step}: every slot of the window is filled; no mask was left to score",
                              "zh": "第 {step} 步：窗口的每个槽位都已填充；没有剩下要打分的掩码"},
    "views.bars.none": {"en": "No bars at this step.", "zh": "这一步没有柱子。"},
    "views.bars.tip": {"en": "position {pos}: H {h} nats", "zh": "位置 {pos}：H {h} 奈特"},
    # the "⋯" between two bars whose positions are not neighbours (charts.entropy_bars): its tooltip
    "views.bars.gap.one": {"en": "{n} filled position here: no longer a mask, so no bar",
                           "zh": "这里有 {n} 个已填充的位置：不再是掩码，所以没有条形"},
    "views.bars.gap.many": {"en": "{n} filled positions here: no longer masks, so no bars",
                            "zh": "这里有 {n} 个已填充的位置：不再是掩码，所以没有条形"},
    "views.bars.xlabel": {"en": "mask slot (logical position); ✓ = filled", "zh": "掩码槽位（逻辑位置）；✓ = 已填充"},
    "views.bars.key_filled": {"en": "filled (✓)", "zh": "已填充（✓）"},
    "views.bars.key_mask": {"en": "stays a mask", "zh": "仍是掩码"},
    "views.growth.xlabel": {"en": "forward passes after prefill (1 to {n})", "zh": "预填充之后的前向计算（第 1 到 {n} 次）"},
    # a growth chart's marker: the step with its forward (the x axis counts forwards), so no reader adds one
    "views.growth.marker": {"en": "step {step} (forward {forward})", "zh": "第 {step} 步（第 {forward} 次前向计算）"},
    "views.growth.title": {
        "en": "Committed prefix growth (red marker: this step; dotted: AR pace, one token per forward)",
        "zh": "已提交前缀的增长（红色标记：本步；点线：AR 的速度，每次前向计算一个词元）",
    },
    "views.growth.label": {"en": "Committed tokens after each forward pass", "zh": "每次前向计算之后的已提交词元数"},
    "views.heat.title": {
        "en": "Entropy of every open mask, step by step (a row per step; scale fixed at 0–{max} nats; "
              "outlined: this step)",
        "zh": "每个未填掩码的熵，逐步展示（每步一行；色标固定为 0–{max} 奈特；描边：本步）",
    },
    "views.heat.title_ar": {"en": "AR: the next-token head's entropy at every position (outlined: this step)",
                            "zh": "AR：下一词元预测头在每个位置的熵（描边：本步）"},
    "views.heat.none": {"en": "No mask was ever scored.", "zh": "从未给任何掩码打分。"},
    "views.heat.ylabel": {"en": "step 0 (top) to {last}", "zh": "第 0 步（顶部）到第 {last} 步"},
    "views.heat.label": {"en": "Entropy of every open mask at every step", "zh": "每一步每个未填掩码的熵"},
})

MESSAGES.update({
    # ---- Plotly figures (app/views/figures.py): %{...} are Plotly's hover fields, not ours ----
    "views.fig.mask_hover": {"en": "%{y} sees %{x}: %{z}<extra></extra>", "zh": "%{y} 看得到 %{x}：%{z}<extra></extra>"},
    "views.fig.mask_title": {"en": "Dual-stream training mask (L = {length}, training blocks of {block})",
                             "zh": "双流训练掩码（L = {length}，每个训练块 {block} 个）"},
    "views.fig.mask_every": {"en": "labelled every {every} positions · masked in xt: {masked}",
                             "zh": "每隔 {every} 个位置标注一次 · xt 中被掩码的位置：{masked}"},
    "views.fig.entropy_h": {"en": "entropy H", "zh": "熵 H"},
    "views.fig.h_hover": {"en": "position %{x}<br>H = %{y:.3f} nats<extra></extra>",
                          "zh": "位置 %{x}<br>H = %{y:.3f} 奈特<extra></extra>"},
    "views.fig.penalty_hover": {"en": "position %{x}<br>λ·d = %{y:.3f}<extra></extra>",
                                "zh": "位置 %{x}<br>λ·d = %{y:.3f}<extra></extra>"},
    "views.fig.no_masks": {"en": "Step {step}: no open masks", "zh": "第 {step} 步：没有未填的掩码"},
    "views.fig.mask_slot": {"en": "mask slot (logical position)", "zh": "掩码槽位（逻辑位置）"},
    "views.fig.next_entropy": {"en": "next-token entropy", "zh": "下一词元熵"},
    "views.fig.ar_title": {"en": "AR: next-token entropy up to step {step} (orange = this step)",
                           "zh": "AR：截至第 {step} 步的下一词元熵（橙色 = 本步）"},
    "views.fig.entropy_nats": {"en": "entropy (nats)", "zh": "熵（奈特）"},
    "views.fig.hz_hover": {"en": "position %{x}<br>H = %{z:.2f} nats<extra></extra>",
                           "zh": "位置 %{x}<br>H = %{z:.2f} 奈特<extra></extra>"},
    "views.fig.heat_ar_title": {"en": "AR: the next-token head's entropy at every position",
                                "zh": "AR：下一词元预测头在每个位置的熵"},
    "views.fig.step_hover": {"en": "step %{y}, position %{x}<br>H = %{z:.2f} nats<extra></extra>",
                             "zh": "第 %{y} 步，位置 %{x}<br>H = %{z:.2f} 奈特<extra></extra>"},
    "views.fig.heat_title": {"en": "Entropy of every open mask, step by step (scale fixed at 0–{max} nats)",
                             "zh": "每个未填掩码的熵，逐步展示（色标固定为 0–{max} 奈特）"},
    "views.fig.growth_hover": {"en": "step %{customdata} (forward %{x}): %{y} committed",
                               "zh": "第 %{customdata} 步（第 %{x} 次前向计算）：已提交 %{y} 个"},
    "views.fig.pace": {"en": "one token per forward (AR pace)", "zh": "每次前向计算一个词元（AR 的速度）"},
    "views.fig.growth_title": {"en": "Committed prefix growth (dashed line: this step)",
                               "zh": "已提交前缀的增长（虚线：本步）"},
    "views.fig.growth_title_plain": {"en": "Committed prefix growth", "zh": "已提交前缀的增长"},
    "views.fig.growth_x": {"en": "forward passes after prefill", "zh": "预填充之后的前向计算次数"},
})

MESSAGES.update({
    # ---- the entropy lens (app/views/lens.py) ----
    "views.lens.by_fill": {"en": "entropy when filled", "zh": "填充时的熵"},
    "views.lens.by_frontier": {"en": "as the first open mask (all text before it known)",
                               "zh": "作为第一个未填掩码时（它之前的文本全部已知）"},
    "views.lens.by_head": {"en": "next-token head (AR)", "zh": "下一词元预测头（AR）"},
    # the Colour by radio's info: the one option a newcomer could not read
    "views.lens.by_info": {
        "en": "next-token head: the model's own guess at each token from the text before it alone, as AR "
              "decoding reads it (the part of the model that predicts the next token)",
        "zh": "下一词元预测头：模型只根据前面的文本对每个词元作出的猜测，就像 AR 解码那样读"
              "（模型中负责预测下一个词元的那一部分）",
    },
    "views.lens.note_table": {
        "en": "Re-grouped from the recorded entropies, no model: exact here, because every step filled a leading "
              "run of masks, so every mask saw exactly the text before it, the context the entropies were "
              "recorded in.",
        "zh": "由记录下的熵重新分组，不调用模型：这里是精确的，因为每一步都填充了开头连续的一段掩码，"
              "所以每个掩码看到的恰好是它之前的文本，也就是记录这些熵时的上下文。",
    },
    "views.lens.note_rerun": {
        "en": "Re-run with the model: at this τ and λ a step fills a slot behind a still-open mask, so later masks "
              "see a token to their right that the recorded entropies never saw; re-grouping from them would not "
              "be exact.",
        "zh": "用模型重新运行：在这个 τ 和 λ 下，某一步会填充位于未填掩码之后的槽位，于是后面的掩码会看到"
              "右边的一个词元，而记录下的熵从未见过它；用记录的熵重新分组就不精确了。",
    },
    "views.lens.note_decode": {
        "en": "A forced streaming decode of this text (the model picks the slots, the text gives the tokens).",
        "zh": "对这段文本做一次强制的流式解码（由模型挑选槽位，由文本给出词元）。",
    },
    "views.lens.box": {"en": "one box = committed by one forward", "zh": "一个框 = 一次前向计算提交的词元"},
    "views.lens.tip": {
        "en": "token {k}: {token}\nfilled at step {fill}, committed at step {commit}\nentropy when filled {entropy} "
              "nats\nas the first open mask {frontier}, next-token head {head}",
        "zh": "词元 {k}：{token}\n在第 {fill} 步填充，在第 {commit} 步提交\n填充时的熵 {entropy} 奈特\n"
              "作为第一个未填掩码时 {frontier}，下一词元预测头 {head}",
    },
    "views.lens.head": {
        "en": '{n} tokens in {forwards} forwards: <b class="tpf">{tpf}</b> tokens per forward at τ = {tau}, '
              'λ = {penalty}; longest group {longest}; mean entropy when filled {mean} nats',
        "zh": '{n} 个词元，{forwards} 次前向计算：τ = {tau}、λ = {penalty} 时每次前向计算 <b class="tpf">{tpf}</b> '
              '个词元；最长的一组 {longest} 个；填充时的平均熵 {mean} 奈特',
    },
    "views.lens.limits": {
        "en": "At most {chars} characters each for prompt and text (checked before tokenizing) and {tokens} text "
              "tokens: the lens runs one forward per token.",
        "zh": "提示词和文本各最多 {chars} 个字符（在分词前检查），文本最多 {tokens} 个词元：熵透镜每个词元运行一次前向计算。",
    },
    # ---- the race (app/views/lanes.py) ----
    "views.lane.ar": {"en": "Autoregressive", "zh": "自回归"},
    "views.lane.streaming": {"en": "WeDLM streaming", "zh": "WeDLM 流式"},
    "views.lane.block": {"en": "Block (stop-and-wait)", "zh": "块解码（停等）"},
    "views.lane.verified": {"en": "WeDLM verified (lossless, beyond the paper)",
                            "zh": "WeDLM 验证解码（无损，超出论文的扩展）"},
    "views.lane.speedup": {"en": " · {x}× AR tokens/s", "zh": " · 每秒词元数为 AR 的 {x}×"},
    "views.lane.finished": {"en": "finished", "zh": "已完成"},
    "views.lane.paused": {"en": "paused", "zh": "已暂停"},
    "views.lane.decoding": {"en": "decoding…", "zh": "解码中…"},
    "views.lane.final": {"en": "finished: {tpf} tokens per forward, {speed} tokens/s on the wall clock{speedup}",
                         "zh": "已完成：每次前向计算 {tpf} 个词元，按挂钟时间每秒 {speed} 个词元{speedup}"},
    # "written": what the lane's text shows (AR's newest prediction too, one forward before it commits;
    # walk 29 read AR's lane "6 tokens" against chapter 6's "committed tokens: AR 5")
    "views.lane.counts.one": {"en": "{forwards} forward · {n} tokens written{prefill} · {tpf} tokens per forward",
                              "zh": "{forwards} 次前向计算 · 已写出 {n} 个词元{prefill} · 每次前向计算 {tpf} 个词元"},
    "views.lane.counts.many": {"en": "{forwards} forwards · {n} tokens written{prefill} · {tpf} tokens per forward",
                               "zh": "{forwards} 次前向计算 · 已写出 {n} 个词元{prefill} · 每次前向计算 {tpf} 个词元"},
    # the prefill's token: written before the first forward, so not counted per forward (as chapter 1 counts)
    # why the lanes differ: AR's prefill and verified decoding's (the Race tab's fourth lane) predict the first
    # token; streaming's and block decoding's only cache the prompt, and their first forward over the masks
    # fills the first slots. No word of verified decoding here: chapter 6 shows it four chapters before
    # chapter 10 explains it (a newcomer met it there unexplained)
    "views.lane.prefill": {"en": " ({n} of them from the prefill, not counted per forward: this prefill predicts the "
                                 "first token as it caches the prompt)",
                           "zh": "（其中 {n} 个来自预填充，不计入每次前向计算：这里的预填充在缓存提示词的同时预测出第一个词元）"},
    "views.lane.no_prefill": {"en": " (the prefill wrote none of them: here it only caches the prompt, and the first "
                                    "forward over the masks fills the first slots; all are counted per forward)",
                              "zh": "（预填充没有写出其中任何一个：这里它只缓存提示词，由对掩码的第一次前向计算填出最前面的槽位；"
                                    "全部计入每次前向计算）"},
    "views.lane.cost_note": {
        "en": "<b>Why the wall-clock speedup ({measured}×) differs from the tokens-per-forward ratio ({tpf}×):"
              "</b> a streaming forward carried {rows} rows on average and took {st_ms} ms on average; an AR forward "
              "carries 1 row and took {ar_ms} ms on average here, so one streaming forward cost {st_ms} ÷ {ar_ms} ≈ "
              "{cost}× an AR forward on this machine (a cost per forward, not the wall-clock speedup). "
              "From the forwards alone streaming would be {tpf} ÷ {cost} ≈ {forwards_only}× as fast; the measured "
              "{measured}× also counts the prefill and the work between forwards. (Measured on these lanes: they "
              "take turns, one forward each, after one untimed warm-up decode; a busy machine moves every "
              "figure.)",
        "zh": "<b>为什么挂钟时间上的加速比（{measured}×）不同于每次前向计算词元数之比（{tpf}×）：</b>"
              "流式解码的一次前向计算平均承载 {rows} 行，平均耗时 {st_ms} 毫秒；AR 的一次前向计算只有 1 行，"
              "在这里平均耗时 {ar_ms} 毫秒，所以在这台机器上，一次流式前向计算的成本是 AR 的 {st_ms} ÷ {ar_ms} ≈ {cost}×"
              "（这是每次前向计算的成本之比，不是挂钟时间上的加速比）。"
              "只看前向计算，流式解码的速度约为 AR 的 {tpf} ÷ {cost} ≈ {forwards_only}×；实测的 {measured}× "
              "还计入了预填充和前向计算之间的工作。（在这几条赛道上测得：各赛道轮流、每次做一次前向计算，"
              "此前都做过一次不计时的预热解码；机器繁忙时每个数字都会变。）",
    },
})

MESSAGES.update({
    # ---- the entropy explorer (app/views/entropy.py) ----
    "views.class.counting": {"en": "counting", "zh": "计数"},
    "views.class.arithmetic": {"en": "arithmetic", "zh": "算术"},
    "views.class.sequence": {"en": "sequence", "zh": "数列"},
    "views.class.code": {"en": "code", "zh": "代码"},
    "views.class.math": {"en": "math", "zh": "数学"},
    "views.class.plays": {"en": "plays", "zh": "剧本"},
    "views.law.hover": {
        "en": "%{text}<br>entropy %{customdata[1]:.2f} nats<br>TPF %{y:.2f}<br>speedup vs AR %{customdata[0]}×<extra></extra>",
        "zh": "%{text}<br>熵 %{customdata[1]:.2f} 奈特<br>每次前向计算的词元数 %{y:.2f}<br>相对 AR 的加速 %{customdata[0]}×"
              "<extra></extra>",
    },
    "views.law.hover_yours": {"en": "%{text}<br>entropy %{x:.2f} nats<br>TPF %{y:.2f}<extra></extra>",
                              "zh": "%{text}<br>熵 %{x:.2f} 奈特<br>每次前向计算的词元数 %{y:.2f}<extra></extra>"},
    # a dot drawn beside its place (entropy.spread_x: dots that would lie on top of each other), on hover
    "views.law.spread": {"en": "<br>(one of {n} dots at one place, drawn side by side)",
                         "zh": "<br>（同一位置的 {n} 个圆点之一，并排画出）"},
    # each slot's entropy as it was at its fill (walk 26: the axis seemed to measure what the score bars do, per
    # forward): a slot counts once, when it has become the one to fill, so the mean runs low
    "views.law.x": {"en": "mean entropy of filled slots, each at its fill (nats)", "zh": "已填充槽位的平均熵，各取填上时的值（奈特）"},
    # the line is at a mean equal to τ, a reference: τ itself is held to each mask's own score (chapter 7
    # and the recap say so; a walker read a τ line on a mean axis as the rule)
    "views.law.cliff": {
        "en": " a reference, not the rule: mean = τ = {tau}.<br> τ itself judges each mask:<br> filled in parallel when its own entropy<br> (+ λ·distance) "
              "is under τ. Decodes whose<br> mean is past the line made about 1 token<br> per forward (the cliff). Left of it "
              "is<br> not always fast: see below the chart.",
        "zh": " 参考线，不是规则：平均值 = τ = {tau}。<br> τ 本身判的是每个掩码：<br> 掩码自己的熵（+ λ·距离）低于 τ 才并行填充。<br>"
              " 平均值越过这条线的解码，每次前向计算<br> 约 1 个词元（悬崖）。线的左边<br> 也不一定快：见图下的说明。",
    },
    # as chapter 7 says it (ch7.idle): a forward that commits nothing delays its fills, it loses none
    "views.law.why": {
        "en": "<b>Why is {id} ({cls}) slow, though its mean entropy is low?</b> Mean entropy {h:.2f} nats, yet "
              "{tpf:.2f} tokens per forward (AR makes 1). The mean counts every filled slot, and easy ones (stop "
              "tokens past the end, indentation) fill at nearly zero entropy: it hides the slots that stay unsure, "
              "so few masks fall under τ together and most forwards fill one slot. A forward whose <b>front</b> "
              "slot is still a mask commits nothing, but its fills commit later; lost are the fills past the stop "
              "token, thrown away. The tour's chapter 7 counts it in a recorded code decode.",
        "zh": "<b>{id}（{cls}）的平均熵不高，为什么还是慢？</b>平均熵 {h:.2f} 奈特，每次前向计算却只有 {tpf:.2f} "
              "个词元（AR 每次 1 个）。平均熵把每个已填充的槽位都算进去，而容易的槽位（结尾之后的停止词元、缩进）熵几乎为零："
              "它掩盖了那些一直没把握的槽位，所以很少有多个掩码同时落到 τ 以下，多数前向计算只填一个槽位。"
              "<b>最前面</b>的槽位还是掩码的前向计算什么都不提交，但它填的槽位稍后会提交；损失的是停止词元之后的填充，"
              "它们被丢弃。导览的第 7 章用一次录制好的代码解码数出了这一点。",
    },
    "views.law.empty": {"en": "Run the suite to measure it", "zh": "运行测试集来测量"},
    "views.law.title": {"en": "Mean entropy and tokens per forward (a low mean entropy is not always fast)",
                        "zh": "平均熵与每次前向计算的词元数（平均熵低不一定快）"},
    "views.sweep.ends": {"en": "(ends here)", "zh": "（到此结束）"},
    "views.sweep.nothing_more": {"en": "(nothing more)", "zh": "（没有更多）"},
    "views.sweep.item": {
        "en": "<li><b>τ = {tau}</b>: <code>{lead}<mark>{ours}</mark></code> where τ = none wrote "
              "<code>{theirs}</code></li>",
        "zh": "<li><b>τ = {tau}</b>：<code>{lead}<mark>{ours}</mark></code>，而 τ = 无 时这里写的是 "
              "<code>{theirs}</code></li>",
    },
    "views.sweep.same": {"en": "Every τ wrote the same output as τ = none.", "zh": "每个 τ 写出的输出都与 τ = 无 时相同。"},
    "views.sweep.differ": {
        "en": "<b>Where the outputs differ from τ = none</b> (from the first different character)<ul>{items}</ul>",
        "zh": "<b>输出与 τ = 无 时不同的地方</b>（从第一个不同的字符起）<ul>{items}</ul>",
    },
    "views.sweep.point": {"en": "swept prompt (τ = {tau})", "zh": "扫描的提示词（τ = {tau}）"},
    "views.sweep.streaming": {"en": "WeDLM streaming (the paper)", "zh": "WeDLM 流式（论文）"},
    "views.sweep.differs": {"en": "output differs from τ = none", "zh": "输出与 τ = 无 时不同"},
    "views.sweep.same_output": {"en": "same output as τ = none", "zh": "输出与 τ = 无 时相同"},
    "views.sweep.hover": {"en": "τ = %{x}<br>TPF %{y:.2f}<br>%{customdata[0]}",
                          "zh": "τ = %{x}<br>每次前向计算的词元数 %{y:.2f}<br>%{customdata[0]}"},
    "views.sweep.title": {"en": "τ sweep (red ✕: output differs from τ = none; green ●: the same)",
                          "zh": "τ 扫描（红色 ✕：输出与 τ = 无 时不同；绿色 ●：相同）"},
    # the sweep's chart before a run (entropy.sweep_placeholder): what it will draw, which button draws it
    "views.sweep.empty": {
        "en": "Nothing swept yet. Press <b>{button}</b> to decode<br>the prompt above at {n} values of τ:<br>"
              "none (one mask per forward) and {lo} to {hi}.<br>"
              "Then this chart draws tokens per forward against τ<br>for {streaming}, a solid line,<br>"
              "and {verified}, a dotted one:<br>"
              "a red ✕ where the output differs from τ = none's,<br>a green ● where it is the same.",
        "zh": "还没有扫描。按 <b>{button}</b>，<br>用 {n} 个 τ 值解码上面的提示词：<br>"
              "无（每次前向计算只填一个掩码），以及 {lo} 到 {hi}。<br>"
              "之后这张图画出每次前向计算的词元数随 τ 的变化：<br>{streaming}为实线，<br>{verified}为虚线；<br>"
              "输出与 τ = 无 时不同处画红色 ✕，<br>相同处画绿色 ●。",
    },
    "views.sweep.x": {"en": "threshold τ", "zh": "阈值 τ"},
    "views.sweep.dip": {"en": "tokens per forward fell from {a} at τ = {ta} to {b} at τ = {tb}",
                        "zh": "每次前向计算的词元数从 τ = {ta} 时的 {a} 降到了 τ = {tb} 时的 {b}"},
    "views.sweep.back": {"en": "the output changed at τ = {ta} but is τ = none's again at τ = {tb}",
                         "zh": "输出在 τ = {ta} 时变了，到 τ = {tb} 时却又和 τ = 无 时一样"},
    "views.sweep.and": {"en": "; ", "zh": "；"},
    "views.sweep.why": {
        "en": "<b>Why not step by step?</b> Here {seen}, though τ only rose. One prompt's decode is one path: a "
              "different early fill changes the text after it, so every later step sees different context, and "
              "tokens per forward need not rise step by step as τ rises. The trend shows across many prompts.",
        "zh": "<b>为什么不是一步步变化？</b>这里{seen}，而 τ 只是在增大。一个提示词的解码只是一条路径："
              "早先某一步填得不同，后面的文本就跟着变，之后每一步看到的上下文都不一样，所以每次前向计算的词元数"
              "不一定随 τ 增大而一步步上升。趋势要在许多提示词上才看得出来。",
    },
    "views.trend.head": {
        "en": "<b>The trend over {n} questions</b>: the same sweep, recorded on the bundled model for the tour's "
              "chapter 8 ({n} arithmetic questions, up to {max_new} new tokens): per τ, the mean tokens per forward "
              "and how many answers were right.",
        "zh": "<b>{n} 道题上的趋势</b>：同样的扫描，为导览第 8 章用内置模型录制（{n} 道算术题，最多 {max_new} 个新词元）："
              "每个 τ 下每次前向计算的平均词元数，以及答对了几道。",
    },
    "views.trend.rising": {"en": " Averaged over the questions, tokens per forward never falls as τ rises.",
                           "zh": "对这些题取平均后，每次前向计算的词元数从不随 τ 增大而下降。"},
    "views.trend.tpf": {"en": "mean tokens per forward", "zh": "每次前向计算的平均词元数"},
    "views.trend.right": {"en": "right answers", "zh": "答对"},
})

MESSAGES.update({
    # ---- the lessons (app/views/lessons.py; Markdown) ----
    "views.lesson.causal": {"en": ('### 1. Causal attention and the KV cache\n'
              'An autoregressive model attends **causally**: token *i* sees tokens 0…*i*. So the keys and values\n'
              '(KV) of a token never change once computed, and an engine keeps them in a **KV cache**: each new\n'
              'step only computes the new rows. Bidirectional diffusion models let every token see every other\n'
              'one, so any change anywhere changes every KV: nothing can be cached. WeDLM keeps causal attention\n'
              'so it keeps the cache.'),
        "zh": ('### 1. 因果注意力与 KV 缓存\n'
              '自回归模型的注意力是**因果**的：词元 *i* 只看得到词元 0…*i*。所以一个词元的键和值（KV）一旦算出就不会再变，'
              '推理引擎把它们存进 **KV 缓存**：每一步只需计算新的行。双向的扩散模型让每个词元看到所有其他词元，'
              '任何地方一有改动，所有的 KV 都跟着变：什么都缓存不了。WeDLM 保留因果注意力，所以保住了缓存。')},
    "views.lesson.reorder": {"en": ('### 2. Topological reordering\n'
              '*Topological* order: each item after everything it depends on, like steps in a recipe. Here it\n'
              'means putting every slot a mask must see (the filled tokens) before the masks.\n'
              'RoPE sees only the **position ids** we pass, not where a token sits in the model\'s input rows. So WeDLM\n'
              "physically moves every filled (observed) token in front of every mask, keeping each token's\n"
              'logical position id. Under the plain causal mask, each mask now sees **all** filled tokens of the\n'
              'window, even those logically to its right, and the masks before it. Filled tokens see only the\n'
              'prefix and earlier filled tokens: when the leading filled run is contiguous in logical order, its\n'
              'KV is exactly what an AR pass would have made, so the forward that is fed it **commits** it: its KV\n'
              'stays in the cache. A slot filled by one forward is fed, and so can commit, at the next one.\n'
              "Try it below: toggle which slots are filled; the drawing is the next forward's input."),
        "zh": ('### 2. 拓扑重排\n'
              '*拓扑*顺序：每一项都排在它所依赖的一切之后，就像菜谱里的步骤。在这里，它指的是把掩码需要看到的槽位（已填充的词元）'
              '都排到掩码前面。\n'
              'RoPE 只看我们传入的**位置编号**，不管词元在模型输入的第几行。于是 WeDLM 在物理上把每个已填充（已观测）的词元移到所有掩码前面，'
              '同时保留每个词元的逻辑位置编号。在普通的因果掩码下，每个掩码现在能看到窗口里**所有**已填充的词元，'
              '连逻辑上在它右边的也能看到，还能看到它前面的掩码。已填充的词元只看得到前缀和更早的已填充词元：当开头连续的已填充词元在逻辑顺序上是连续的，'
              '它们的 KV 就与 AR 计算出的完全一样，所以读入它们的那次前向计算会把它们**提交**：它们的 KV 留在缓存中。'
              '某次前向计算填充的槽位，要到下一次前向计算才被读入，也才可能提交。'
              '在下面试一试：点选哪些槽位已填充；下面画的就是下一次前向计算的输入。')},
    "views.lesson.streaming": {"en": ('### 3. Streaming vs block decoding\n'
              '**Block decoding** fills a block of B masks (B: the block\'s size) and waits until the whole block is filled before\n'
              'committing it and starting the next one: the slots that are already sure wait for the unsure\n'
              'ones (a pipeline bubble: slots that sit idle, doing no new work, until the block is done), and filled tokens are recomputed at every step. **Streaming decoding**\n'
              'commits the leading filled run at every step and refills the window with as many new masks, so\n'
              'W slots are always in flight. Compare them in the Race tab.'),
        "zh": ('### 3. 流式解码与块解码\n'
              '**块解码**填充一个含 B 个掩码的块（B 是块的大小），要等整个块都填满，才提交它并开始下一块：已经有把握的槽位要等没把握的（流水线气泡：在整块完成之前，这些槽位闲着，做不了新的工作），'
              '而且已填充的词元每一步都要重算。**流式解码**每一步都提交开头连续的已填充词元，并用同样多的新掩码补满窗口，'
              '所以始终有 W 个槽位在处理中。到“赛跑”标签页里比较它们。')},
    "views.lesson.training": {"en": ('### 4. Dual-stream training\n'
              'Training feeds `[clean copy x0 ‖ masked copy xt]`, both at logical positions 0…L−1. xt is cut\n'
              'into blocks; each block masks a random fraction γ of its non-prompt tokens and (in effect) moves\n'
              'its observed tokens in front of its masks. x0 is plainly causal; an xt block sees the clean x0 of\n'
              'all earlier blocks and itself in reordered causal order. The loss at a masked slot is the\n'
              "cross-entropy (minus the log of the probability the model gave the right token); a mask predicts\n"
              "its own token (no shift: an AR row predicts the next slot's). Each block's loss is weighted 1/γ,\n"
              'so a block with few masks counts as much as one with many, and averaged with the ordinary\n'
              "next-token loss on x0. The mask below is built by the project's training code."),
        "zh": ('### 4. 双流训练\n'
              '训练时输入 `[干净副本 x0 ‖ 掩码副本 xt]`，两者的逻辑位置都是 0…L−1。xt 被切成若干块；'
              '每块随机掩盖其非提示词词元中比例为 γ 的一部分，并（在效果上）把已观测的词元移到掩码前面。x0 是普通的因果注意力；'
              'xt 的一个块看得到所有更早块的干净 x0，以及按重排后因果顺序排列的自己。掩码槽位上的损失是交叉熵'
              '（模型给正确词元的概率取对数再取负）；掩码预测它自己的词元（不做移位：AR 的一行预测的是下一个槽位的词元）。'
              '每块的损失按 1/γ 加权，让掩码少的块和掩码多的块分量相同，再与 x0 上普通的下一词元损失取平均。'
              '下面的掩码由本项目的训练代码生成。')},
    # the playground's window is the input of the forward after the one that filled its slots: that
    # forward commits its leading filled run (a slot commits one forward after it is filled, as chapter 4 says)
    "views.lesson.playground": {
        "en": "Position ids in physical order: {ids}. The filled slots you chose are fed at the next forward; {commit} "
              "The other filled slots wait behind a mask and are recomputed; masks are predicted at their own slot.",
        "zh": "物理顺序下的位置编号：{ids}。你选的已填充槽位在下一次前向计算中被读入；{commit}"
              "其余已填充槽位排在掩码后面等待，会被重算；掩码在各自的槽位上被预测。",
    },
    "views.lesson.commit.none": {
        "en": "no filled slot leads the window (a mask comes first), so that forward commits nothing.",
        "zh": "窗口开头没有已填充的槽位（最前面是掩码），所以那次前向计算什么也不提交。",
    },
    "views.lesson.commit.one": {
        "en": "that forward commits its 1 leading filled slot: its KV stays in the cache (green).",
        "zh": "那次前向计算提交开头的 1 个已填充槽位：它的 KV 留在缓存中（绿色）。",
    },
    "views.lesson.commit.many": {
        "en": "that forward commits its {n} leading filled slots: their KV stays in the cache (green).",
        "zh": "那次前向计算提交开头的 {n} 个已填充槽位：它们的 KV 留在缓存中（绿色）。",
    },
})

MESSAGES.update({
    # ---- the offline replay (app/views/export.py) ----
    "views.export.summary": {"en": "{tokens} tokens in {forwards} forwards, {tpf} per forward",
                             "zh": "{forwards} 次前向计算生成 {tokens} 个词元，每次前向计算 {tpf} 个"},
    "views.export.unfinished": {"en": "unfinished decode", "zh": "未完成的解码"},
    "views.export.title": {"en": "WeDLM trace replay", "zh": "WeDLM 轨迹回放"},
    "views.export.heading": {"en": "WeDLM trace replay: {decoder} on {model}",
                             "zh": "WeDLM 轨迹回放：{decoder}，模型 {model}"},
    "views.export.made_by": {"en": "{summary}. Made by WeDLM Explorer; works offline.",
                             "zh": "{summary}。由 WeDLM 探索器生成；无需联网即可打开。"},
    # ---- the stepper's controls (app/views/stepper.py) ----
    "views.stepper.capped": {
        "en": "This trace has {total} steps; the page holds the first {count} (a page holds at most {max_steps} "
              "steps or {mb} MB of views). Download the trace (JSON) to keep every step.",
        "zh": "这条轨迹共有 {total} 步；页面只载入了前 {count} 步（一个页面最多载入 {max_steps} 步或 {mb} MB 的视图）。"
              "下载轨迹（JSON）即可保留每一步。",
    },
    "views.stepper.keys": {
        "en": "Keys: ← → step · Space play/pause · Home/End first/last (not while typing in a box)",
        "zh": "按键：← → 单步 · 空格键 播放/暂停 · Home/End 第一步/最后一步（在输入框里打字时无效）",
    },
    "views.stepper.group": {"en": "step through the trace", "zh": "逐步浏览轨迹"},
    "views.stepper.first_title": {"en": "first step (Home)", "zh": "第一步（Home）"},
    "views.stepper.first": {"en": "« first", "zh": "« 第一步"},
    "views.stepper.prev_title": {"en": "previous step (←)", "zh": "上一步（←）"},
    "views.stepper.prev": {"en": "◀ step", "zh": "◀ 上一步"},
    "views.stepper.play_title": {"en": "play / pause (Space)", "zh": "播放 / 暂停（空格键）"},
    "views.stepper.next_title": {"en": "next step (→)", "zh": "下一步（→）"},
    "views.stepper.next": {"en": "step ▶", "zh": "下一步 ▶"},
    "views.stepper.last_title": {"en": "last step (End)", "zh": "最后一步（End）"},
    # the tour's steppers (keys="present"): only projector mode's keys step them (app/static/present.js)
    "views.stepper.first_title_present": {"en": "first step", "zh": "第一步"},
    "views.stepper.prev_title_present": {"en": "previous step (↑ or , while presenting)",
                                         "zh": "上一步（演示时按 ↑ 或 ,）"},
    "views.stepper.play_title_present": {"en": "play / pause", "zh": "播放 / 暂停"},
    "views.stepper.next_title_present": {"en": "next step (↓ or . while presenting)",
                                         "zh": "下一步（演示时按 ↓ 或 .）"},
    "views.stepper.last_title_present": {"en": "last step", "zh": "最后一步"},
    "views.stepper.last": {"en": "last »", "zh": "最后一步 »"},
    "views.stepper.step": {"en": "step", "zh": "步"},
    # the step's forward beside it (step k is forward k + 1, chapter 1), as the step lines name it
    "views.stepper.range": {"en": "step {input} of 0–{last} · forward {forward}",
                            "zh": "第 {input} 步（0–{last}）· 第 {forward} 次前向计算"},
    "views.stepper.copy_link": {"en": "Copy link to this step", "zh": "复制这一步的链接"},
    "views.stepper.link_label": {"en": "link to this step", "zh": "这一步的链接"},
    # ---- words app/static/stepper.js and present.js show (app/views/script_words.py) ----
    # no icon in the words: the style draws the play button's ▶ / ❚❚ (Debian's fonts have no ⏸)
    "views.js.play": {"en": "Play", "zh": "播放"},
    "views.js.pause": {"en": "Pause", "zh": "暂停"},
    "views.js.waiting": {"en": "(shown when the decode finishes)", "zh": "（解码完成后显示）"},
    "views.js.copied": {"en": "copied to the clipboard", "zh": "已复制到剪贴板"},
    "views.js.refused": {"en": "the clipboard is not allowed here: copy the link from this box",
                         "zh": "这里不允许使用剪贴板：请从这个框里复制链接"},
    # projector mode's step keys (app/static/present.js), after the badge's tour.presenting_badge
    "views.present.step_keys": {"en": " · ↓/↑: steps", "zh": " · ↓/↑：单步"},
    # the badge's key for the pane switch (views.js.pane_picture / pane_words), shown only where the
    # picture and the narration take the screen one at a time (a narrow or 4:3 screen: present.js)
    "views.present.pane_key": {"en": " · W: picture/narration", "zh": " · W：图示/讲解"},
    "views.present.pane_key_title": {"en": " · W: the picture or the narration (a narrow or 4:3 screen shows one at a time)",
                                     "zh": " · W：切换图示与讲解（窄屏或 4:3 屏幕上二者分开显示）"},
    "views.js.present": {"en": "Present ▣", "zh": "演示 ▣"},
    "views.js.stop_presenting": {"en": "Stop presenting (Esc)", "zh": "退出演示（Esc）"},
    # the same, short: a laptop or a 1024 px projector (present.js: .present-compact), where the long one wrapped to two lines
    "views.js.stop_short": {"en": "Stop (Esc)", "zh": "退出（Esc）"},
    # a narrow or 4:3 projector shows the chapter's picture and its narration one at a time (present.js)
    "views.js.pane_picture": {"en": "Picture", "zh": "图示"},
    "views.js.pane_words": {"en": "Narration", "zh": "讲解"},
    "views.js.pane_title": {"en": "Picture and narration one at a time on this screen: W (or this button) switches",
                            "zh": "此屏幕上图示与讲解分开显示：按 W（或点此按钮）切换"},
})
