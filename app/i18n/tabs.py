"""The tabs other than the tour: Decode, Race, Entropy explorer, How it works; the knobs' labels
and help (DecodeConfig's metadata, by field name: knob.<name>.label / .help); a link's notices;
the page's frame around an error."""

MESSAGES = {
    # -- the Decode tab ----------------------------------------------------------------------------
    "decode.choice.streaming": {"en": "WeDLM streaming", "zh": "WeDLM 流式解码"},
    "decode.choice.block": {"en": "block (stop-and-wait)", "zh": "块解码（停等式）"},
    "decode.choice.reference": {"en": "reference (no cache)", "zh": "参考实现（无缓存）"},
    "decode.choice.ar": {"en": "autoregressive", "zh": "自回归"},
    "decode.choice.verified": {"en": "WeDLM verified (lossless, beyond the paper)",
                               "zh": "WeDLM 验证解码（无损，超出论文）"},
    "decode.model_card": {
        "en": """**The bundled model is tiny** (about 5.5 M parameters, 6 layers, a 4096-token vocabulary),
trained on this machine by the project's own code: first as an ordinary next-token model, then with
WeDLM's masked training, then fine-tuned on generated arithmetic. Its data: generated counting and
sequences (letters, times tables, copied lists), arithmetic questions worked column by column,
grade-school maths word problems, Shakespeare speeches and short Python functions.
**What to expect:** counting and sequences come out right and fast (many tokens per forward);
arithmetic like `What is (23 + 58) - 17?` is right about 9 times in 10 for one operation and 7 in
10 for two, at 7–8 tokens per forward, and a larger τ trades accuracy for speed; free-form maths
word problems get the right shape but wrong numbers; prose and code are fluent-looking nonsense,
decoded close to one token per forward. Odd output for
your own prompt is expected from a model this small: the decoder, not the model, is what this
explorer shows.""",
        "zh": """**自带的模型很小**（约 5.5 M 参数，6 层，词表 4096 个词元），由本项目自己的代码在这台机器上训练：
先训练成普通的下一词元模型，再做 WeDLM 的掩码训练，最后用生成的算术题微调。训练数据包括：生成的计数和序列
（字母、乘法表、照抄的列表）、按位竖式计算的算术题、小学数学应用题、莎士比亚的台词，以及简短的 Python 函数。
**可以期待什么：**计数和序列又对又快（每次前向计算产出很多词元）；像 `What is (23 + 58) - 17?` 这样的算术，
一步运算大约十次对九次，两步运算十次对七次，每次前向计算 7–8 个词元，τ 调大则以准确率换速度；
开放式的数学应用题格式像样但数字不对；散文和代码读起来通顺却毫无意义，解码速度接近每次前向计算一个词元。
这么小的模型对你自己的提示词给出奇怪的输出是正常的：本探索器要展示的是解码器，而不是模型。""",
    },
    "decode.verified_note": {
        "en": '<div class="verified-note"><b>streaming</b> is the paper\'s algorithm and the default. '
              '<b>verified</b> goes beyond the paper: the same forward checks each draft against the '
              'model\'s own next-token prediction (✓ kept, ✗ replaced), so its text is exactly greedy AR.</div>',
        "zh": '<div class="verified-note"><b>流式解码</b>是论文的算法，也是默认选项。'
              '<b>验证解码</b>超出了论文：在同一次前向计算中，把每个草稿词元与模型自己的下一词元预测对照'
              '（✓ 保留，✗ 替换），因此它的文本与贪心自回归解码完全一致。</div>',
    },
    "decode.link_field": {
        "en": '<input type="text" readonly class="link-url" aria-label="link to this step" '
              'placeholder="the copied link shows here">',
        "zh": '<input type="text" readonly class="link-url" aria-label="指向这一步的链接" '
              'placeholder="复制的链接显示在这里">',
    },
    "decode.prompt": {"en": "Prompt", "zh": "提示词"},
    "decode.run": {"en": "Run", "zh": "运行"},
    "decode.stop": {"en": "Stop", "zh": "停止"},
    "decode.examples": {"en": "Examples, from very low to high entropy", "zh": "示例（熵从很低到很高）"},
    "decode.decoder": {"en": "Decoder", "zh": "解码器"},
    "decode.fill_rule": {
        "en": "**Fill rule:** every mask whose entropy + λ·d is under τ is filled "
              "(d = slots after the first open mask); if none is, the single lowest. "
              "The leading filled run commits to the KV cache.",
        "zh": "**填充规则：**熵 + λ·d 低于 τ 的掩码全部填充（d 为第一个未填掩码之后的槽位数）；"
              "若一个都没有，就只填分数最低的那一个。开头连续的已填充词元提交进 KV 缓存。",
    },
    "decode.advanced": {"en": "Advanced: sampling, seed, block size", "zh": "高级：采样、随机种子、块大小"},
    "decode.copy_link": {"en": "Copy link to this step", "zh": "复制指向这一步的链接"},
    "decode.colour_by": {"en": "Colour tokens by", "zh": "词元着色依据"},
    "decode.colour.state": {"en": "state", "zh": "状态"},
    "decode.colour.entropy": {"en": "entropy", "zh": "熵"},
    "decode.colour.step": {"en": "step", "zh": "步"},
    "decode.branch_fold": {"en": "Branch: re-run from the current step with other knobs",
                           "zh": "分支：从当前这一步起换一组参数重新解码"},
    "decode.new_tau": {"en": "New threshold τ", "zh": "新的阈值 τ"},
    "decode.new_penalty": {"en": "New penalty λ", "zh": "新的距离惩罚 λ"},
    "decode.force_pos": {"en": "Force: position (optional)", "zh": "强制：位置（可选）"},
    "decode.force_pos_hint": {"en": "e.g. 12", "zh": "例如 12"},
    "decode.force_tok": {"en": "Force: token text", "zh": "强制：词元文本"},
    "decode.veto_pos": {"en": "Veto: a position filled at this step (optional)",
                        "zh": "否决：这一步填充的某个位置（可选）"},
    "decode.veto_pos_hint": {"en": "e.g. 14", "zh": "例如 14"},
    "decode.branch_btn": {"en": "Branch from this step", "zh": "从这一步分支"},
    "decode.both": {"en": "Both trajectories", "zh": "两条轨迹"},
    "decode.export_fold": {"en": "Export", "zh": "导出"},
    "decode.export_btn": {"en": "Export this step's views and a self-contained HTML replay",
                          "zh": "导出这一步的各个视图，以及一个独立的 HTML 回放"},
    "decode.exports": {"en": "Exports", "zh": "导出的文件"},
    "decode.slides_btn": {"en": "Export slides: every step as an animated GIF (and MP4)",
                          "zh": "导出幻灯片：把每一步做成 GIF 动画（以及 MP4）"},
    "decode.slides": {"en": "Slides", "zh": "幻灯片"},
    "decode.slides_note": {"en": "{note}", "zh": "幻灯片：{note}"},
    "decode.recorded": {"en": "Recorded example traces", "zh": "录制好的示例轨迹"},
    "decode.upload": {"en": "Load a trace (JSON)", "zh": "载入一条轨迹（JSON）"},
    "decode.download": {"en": "Download this trace (JSON)", "zh": "下载这条轨迹（JSON）"},
    "decode.model_fold": {"en": "About the model: what a tiny model can and cannot do",
                          "zh": "关于模型：一个小模型能做什么、不能做什么"},
    "decode.bad_step": {"en": "step must be a whole number, got {value}", "zh": "步数必须是整数，收到的是 {value}"},
    "decode.first": {"en": "run a decode (or load a trace) first", "zh": "请先运行一次解码（或载入一条轨迹）"},
    "decode.unknown_example": {"en": "unknown example trace", "zh": "没有这条示例轨迹"},
    "decode.force_position": {"en": "force position", "zh": "强制位置"},
    "decode.veto_position": {"en": "veto position", "zh": "否决位置"},
    "decode.bad_position": {"en": "{name} must be a whole number (a logical position) or empty, got {value}",
                            "zh": "{name}必须是整数（一个逻辑位置）或留空，收到的是 {value}"},
    "decode.force_one_token": {"en": "force needs text that is exactly one token; {text} is {n}",
                               "zh": "强制填入的文本必须恰好是一个词元；{text} 是 {n} 个"},
    "decode.branch_same": {"en": "the two trajectories are the same", "zh": "两条轨迹完全相同"},
    "decode.branch_diverge": {"en": "they diverge at step {step}", "zh": "它们在第 {step} 步分开"},
    "decode.text_same": {"en": "<b>The output text is the same</b>", "zh": "<b>输出文本没有变</b>"},
    "decode.text_changed": {"en": "<b>The output text changed</b>", "zh": "<b>输出文本变了</b>"},
    "decode.branch_summary": {
        "en": "<div class='badge'>Branched after step {step}: {where}. {text}. "
              "Original: {a_tokens} tokens in {a_forwards} forwards; "
              "branch: {b_tokens} tokens in {b_forwards} forwards "
              "({b_rate} per forward).</div>",
        "zh": "<div class='badge'>在第 {step} 步之后分支：{where}。{text}。"
              "原轨迹：{a_forwards} 次前向计算产出 {a_tokens} 个词元；"
              "分支：{b_forwards} 次前向计算产出 {b_tokens} 个词元"
              "（每次前向计算 {b_rate} 个）。</div>",
    },
    "decode.trace_gone": {"en": "the uploaded trace is no longer on the server; upload it again",
                          "zh": "上传的轨迹已不在服务器上，请重新上传"},
    "decode.trace_too_big": {"en": "trace file is larger than {mb} MB", "zh": "轨迹文件超过 {mb} MB"},
    "decode.trace_invalid": {"en": "not a valid WeDLM trace: {error}", "zh": "不是有效的 WeDLM 轨迹：{error}"},
    "decode.original": {"en": "original", "zh": "原轨迹"},
    "decode.branch": {"en": "branch", "zh": "分支"},

    # -- the Race tab ------------------------------------------------------------------------------
    "race.ar.parent": {"en": "AR parent model", "zh": "AR 母模型"},
    "race.ar.same": {"en": "the same WeDLM model read left to right: each forward predicts the one next token "
                           "(its next-token head: the part of the model that predicts the token after the text)",
                     "zh": "同一个 WeDLM 模型从左往右读：每次前向计算预测下一个词元（用它的下一词元预测头，"
                           "即模型中负责预测文本下一个词元的那一部分）"},
    "race.speed.slow": {"en": "slow (2 ticks/s)", "zh": "慢（每秒 2 拍）"},
    "race.speed.normal": {"en": "normal (4 ticks/s)", "zh": "正常（每秒 4 拍）"},
    "race.speed.fast": {"en": "fast (10 ticks/s)", "zh": "快（每秒 10 拍）"},
    "race.mode.forward": {"en": "one forward per tick", "zh": "每拍一次前向计算"},
    "race.mode.wall": {"en": "wall clock", "zh": "真实耗时"},
    "race.intro": {
        "en": "The same prompt decoded by **AR**, **WeDLM streaming**, **block decoding** and "
              "**WeDLM verified**, replayed side by side: one forward pass per tick (AR commits one "
              "token per forward, WeDLM several), or on the wall clock each decode really took. "
              "**Tokens per forward** = output tokens ÷ forward passes (AR: 1). *Verified* goes "
              "**beyond the paper**: the same forward checks WeDLM's drafts against the model's own "
              "next-token prediction, so its text is exactly greedy AR decoding of the WeDLM model "
              "(not of the AR lane's parent model); `streaming` is the paper's algorithm.",
        "zh": "同一个提示词分别由 **AR**、**WeDLM 流式解码**、**块解码**和 **WeDLM 验证解码**解码，"
              "并排回放：每拍一次前向计算（AR 每次前向计算提交一个词元，WeDLM 提交好几个），"
              "或者按每次解码的真实耗时回放。**每次前向计算的词元数** = 输出词元数 ÷ 前向计算次数（AR 为 1）。"
              "*验证解码*是**超出论文**的做法：在同一次前向计算中把 WeDLM 的草稿与模型自己的下一词元预测对照，"
              "因此它的文本与 WeDLM 模型的贪心自回归解码完全一致（而不是 AR 赛道所用母模型的结果）；"
              "流式解码才是论文的算法。",
    },
    "race.prompt": {"en": "Prompt", "zh": "提示词"},
    "race.ar_lane": {"en": "AR lane model", "zh": "AR 赛道的模型"},
    "race.replay": {"en": "Replay", "zh": "回放方式"},
    "race.speed": {"en": "Replay speed", "zh": "回放速度"},
    "race.advanced": {"en": "Advanced: block size", "zh": "高级：块大小"},
    "race.run": {"en": "Race", "zh": "开赛"},
    "race.chart": {"en": "Committed tokens against forwards", "zh": "已提交词元数随前向计算次数的变化"},

    # -- the Entropy explorer tab ------------------------------------------------------------------
    "entropy.your_decode": {"en": "your decode ({decoder}, τ = {tau})", "zh": "你的解码（{decoder}，τ = {tau}）"},
    "entropy.recorded": {
        "en": "Recorded on the bundled models when this app was built (τ = {tau}, "
              "at most {max_new} new tokens). “Run the suite” measures it again live, row by row.",
        "zh": "构建本应用时在自带模型上录制（τ = {tau}，最多 {max_new} 个新词元）。"
              "点“运行测试集”会现场逐行重新测量。",
    },
    "entropy.live": {"en": "“Run the suite” measures it live, row by row.",
                     "zh": "点“运行测试集”会现场逐行测量。"},
    "entropy.columns": {
        "en": " Columns: *entropy*, the mean entropy of WeDLM's slots when they were filled, in nats (0 nats = certain; "
              "ln 2 ≈ 0.69 nats = a coin flip between two tokens); "
              "*tokens_per_forward*, output tokens per forward pass; *speedup_tokens_per_s*, WeDLM's tokens per "
              "second divided by AR's; *forward_ratio*, AR's decode forward passes divided by WeDLM's on the same "
              "prompt (each stops at its own stop token, so the two may write texts of different lengths; 0 = AR "
              "stopped at once: the first token it chose, from the prompt's own forward, was the stop token); "
              "*text*, the start of WeDLM's output. The bundled tiny model learned answers that end with the "
              "answer marker “#### number”; on a prompt it barely knows (code) it may write just that marker.",
        "zh": "各列：*熵*，WeDLM 各槽位被填充时的平均熵，单位是奈特（0 奈特 = 完全确定；ln 2 ≈ 0.69 奈特 = 在两个词元之间抛硬币）；*每次前向词元数*，每次前向计算产出的词元数；"
              "*每秒词元加速比*，WeDLM 每秒产出的词元数除以 AR 的；*前向次数比*，同一提示词上 AR 解码的前向计算次数"
              "除以 WeDLM 的（两者各自在自己的停止词元处停下，写出的文本长度可能不同；0 表示 AR 一开始就停了："
              "它由提示词本身那次前向计算选出的第一个词元就是停止词元）；*文本*，WeDLM 输出的开头。内置的小模型学过的"
              "答案都以答案标记“#### 数字”结尾；遇到它几乎不会的提示词（代码），它可能只写出这个标记。",
    },
    "entropy.intro": {
        "en": "WeDLM's speedup follows **output entropy**: where the next tokens are nearly "
              "certain (counting, sequences), many masks fall under τ at once; where they are "
              "not (plays), decoding is close to one token per forward. A low *mean* entropy is not "
              "enough, though: what counts is how many masks fall under τ together (code, see the note under the chart). "
              "Your own decode (Decode tab) and the swept prompt are drawn as stars.",
        "zh": "WeDLM 的加速取决于**输出的熵**：接下来的词元几乎确定时（计数、序列），很多掩码同时低于 τ；"
              "不确定时（剧本台词），解码接近每次前向计算一个词元。不过，*平均*熵低还不够："
              "关键是有多少掩码同时落到 τ 以下（代码就是例子，见图下的说明）。你自己的解码（“解码”页）和扫描的提示词"
              "画成星形。",
    },
    "entropy.max_new": {"en": "Max new tokens", "zh": "最多新词元数"},
    "entropy.run_suite": {"en": "Run the suite", "zh": "运行测试集"},
    "entropy.law": {"en": "Entropy against tokens per forward", "zh": "熵与每次前向词元数的关系"},
    "entropy.per_prompt": {"en": "Per prompt", "zh": "逐个提示词"},
    "entropy.sweep_title": {"en": "#### τ sweep for one prompt: speed against faithfulness",
                            "zh": "#### 对一个提示词扫描 τ：速度与忠实度的取舍"},
    "entropy.sweep_intro": {
        "en": "The sweep decodes one prompt at several τ and at **τ = none**: no threshold, so each forward "
              "fills only the single mask with the lowest score (entropy + λ·distance), the slowest and most "
              "cautious setting. **Faithfulness** here means a τ writes the same text as τ = none: speed is "
              "tokens per forward, and a τ whose output differs has traded faithfulness for it.\n\n"
              "Beside WeDLM streaming (the paper's algorithm), the dotted line is **WeDLM verified**, "
              "which goes **beyond the paper**: the same forward checks the drafts against the model's "
              "own next-token prediction, so its output never changes with τ (it is the model's greedy "
              "AR text); τ only changes how fast it gets there.",
        "zh": "扫描在几个 τ 下、以及在 **τ = 无** 时解码同一个提示词。τ = 无 就是不设阈值：每次前向计算只填得分"
              "（熵 + λ·距离）最低的那一个掩码，最慢也最稳妥。这里的**忠实度**指某个 τ 写出的文本与 τ = 无 时相同："
              "速度看每次前向计算的词元数，输出与之不同的 τ，就是拿忠实度换了速度。\n\n"
              "在 WeDLM 流式解码（论文的算法）旁边，虚线是 **WeDLM 验证解码**，它**超出了论文**："
              "在同一次前向计算中把草稿与模型自己的下一词元预测对照，所以它的输出从不随 τ 改变"
              "（就是模型贪心自回归解码的文本）；τ 只改变到达那里的快慢。",
    },
    "entropy.prompt": {"en": "Prompt", "zh": "提示词"},
    "entropy.sweep": {"en": "Sweep τ", "zh": "扫描 τ"},
    "entropy.sweep_plot": {"en": "τ sweep", "zh": "τ 扫描"},
    "entropy.decode_first": {"en": "run a decode in the Decode tab first", "zh": "请先在“解码”页运行一次解码"},
    "entropy.lens_intro": {
        "en": "#### Entropy lens: where inside a text parallel decoding pays\n"
              "Paste a prompt and a continuation. The streaming decoder runs on it **held to your text**: "
              "the model picks which slots to fill and how many (entropy + λ·distance under τ), "
              "but every fill takes the text's token, not the model's own choice. Each box is one commit group: the tokens one "
              "forward commits together. Counting gives long boxes; prose mostly short ones, with a long box where a "
              "phrase is easy.",
        "zh": "#### 熵透镜：在一段文本的哪些地方，并行解码划算\n"
              "粘贴一个提示词和一段续写。流式解码器在上面运行，但**必须照着你的文本写**：由模型决定填哪些槽位、"
              "填几个（熵 + λ·距离 低于 τ），但每次填充都取文本中的词元，而不是模型自己选的。每个方框是一个提交组，"
              "即一次前向计算一起提交的词元。计数得到长方框；散文多是短方框，只在容易的短语处出现长方框。",
    },
    "entropy.prompt_a": {"en": "Prompt A", "zh": "提示词 A"},
    "entropy.text_a": {"en": "Text A (the continuation)", "zh": "文本 A（续写）"},
    "entropy.use_decode": {"en": "Use the Decode tab's last decode as A", "zh": "把“解码”页最近一次解码用作 A"},
    "entropy.prompt_b": {"en": "Prompt B", "zh": "提示词 B"},
    "entropy.text_b": {"en": "Text B (optional)", "zh": "文本 B（可选）"},
    "entropy.lens_tau": {"en": "Threshold τ (re-groups live)", "zh": "阈值 τ（实时重新分组）"},
    "entropy.lens_no_tau": {"en": "No τ (one slot per step)", "zh": "不设 τ（每步一个槽位）"},
    "entropy.colour_by": {"en": "Colour by", "zh": "着色依据"},
    "entropy.show_lens": {"en": "Show the lens", "zh": "显示熵透镜"},
    "entropy.lens_prefix": {"en": "{title}: ", "zh": "{title}："},

    # the suite's and the sweep's tables (app/serving/context.py rows_frame): column names, worded values
    "entropy.column.id": {"en": "id", "zh": "编号"},
    "entropy.column.class": {"en": "class", "zh": "类别"},
    "entropy.column.entropy": {"en": "entropy", "zh": "熵"},
    "entropy.column.tokens_per_forward": {"en": "tokens_per_forward", "zh": "每次前向词元数"},
    "entropy.column.speedup_tokens_per_s": {"en": "speedup_tokens_per_s", "zh": "每秒词元加速比"},
    "entropy.column.forward_ratio": {"en": "forward_ratio", "zh": "前向次数比"},
    "entropy.column.text": {"en": "text", "zh": "文本"},
    "entropy.column.threshold": {"en": "threshold", "zh": "阈值 τ"},
    "entropy.column.output_changed": {"en": "output_changed", "zh": "输出有变化"},
    "entropy.column.mean_fill_entropy": {"en": "mean_fill_entropy", "zh": "填充时平均熵"},
    "entropy.column.verified_tokens_per_forward": {"en": "verified_tokens_per_forward",
                                                   "zh": "验证解码每次前向词元数"},
    "entropy.column.verified_output_changed": {"en": "verified_output_changed", "zh": "验证解码输出有变化"},
    "entropy.value.none": {"en": "none", "zh": "无"},
    "entropy.value.counting": {"en": "counting", "zh": "计数"},
    "entropy.value.sequence": {"en": "sequence", "zh": "序列"},
    "entropy.value.code": {"en": "code", "zh": "代码"},
    "entropy.value.math": {"en": "math", "zh": "数学"},
    "entropy.value.plays": {"en": "plays", "zh": "剧本台词"},
    "entropy.yes": {"en": "true", "zh": "是"},
    "entropy.no": {"en": "false", "zh": "否"},

    # -- the How-it-works tab ----------------------------------------------------------------------
    "lessons.window_size": {"en": "Window size", "zh": "窗口大小"},
    "lessons.filled": {"en": "Filled slots (window index)", "zh": "已填充的槽位（窗口内序号）"},
    "lessons.length": {"en": "Sequence length L", "zh": "序列长度 L"},
    "lessons.block": {"en": "Block size", "zh": "块大小"},
    "lessons.pattern": {"en": "Mask pattern (1 = masked in xt)", "zh": "掩码模式（1 = 在 xt 中被掩码）"},
    "lessons.training_mask": {"en": "Training mask", "zh": "训练用的注意力掩码"},

    # -- the knobs (wedlm/config.py DecodeConfig metadata; English is the library's own text) --------
    "knob.no_tau": {"en": "no τ: tick to fill only the single lowest score each step (still out of order)",
                    "zh": "不设 τ：勾选后每步只填得分最低的那一个（仍是乱序）"},
    "knob.window.label": {"en": "Window W", "zh": "窗口 W"},
    "knob.window.help": {"en": "uncommitted slots kept in the window", "zh": "窗口中保留的未提交槽位数"},
    "knob.threshold.label": {"en": "Threshold τ", "zh": "阈值 τ"},
    "knob.threshold.help": {
        "en": "fill every mask whose entropy + λ·d is under τ (else the single lowest); "
              "none = one slot per step, still out of order",
        "zh": "熵 + λ·d 低于 τ 的掩码全部填充（若一个都没有，就只填分数最低的那个）；不设 τ = 每步只填一个槽位，仍是乱序",
    },
    "knob.penalty.label": {"en": "Penalty λ", "zh": "距离惩罚 λ"},
    "knob.penalty.help": {"en": "score = entropy + λ·d, d = slots after the first mask",
                          "zh": "分数 = 熵 + λ·d，d 为第一个掩码之后的槽位数"},
    "knob.temperature.label": {"en": "Temperature", "zh": "温度"},
    "knob.temperature.help": {"en": "0 = greedy (argmax), else at least {min_temperature}",
                              "zh": "0 = 贪心（取概率最大者），否则至少为 {min_temperature}"},
    "knob.top_k.label": {"en": "Top-k", "zh": "前 k 采样"},
    "knob.top_k.help": {"en": "sample among the k likeliest tokens; 0 = off", "zh": "只在最可能的 k 个词元中采样；0 = 关闭"},
    "knob.top_p.label": {"en": "Top-p", "zh": "核采样 p"},
    "knob.top_p.help": {"en": "sample within this probability mass; 1 = off", "zh": "只在累计概率达到该值的词元中采样；1 = 关闭"},
    "knob.seed.label": {"en": "Seed", "zh": "随机种子"},
    "knob.seed.help": {"en": "random seed for sampling", "zh": "采样用的随机种子"},
    "knob.max_new_tokens.label": {"en": "Max new tokens", "zh": "最多新词元数"},
    "knob.max_new_tokens.help": {"en": "tokens a decode may commit at most", "zh": "一次解码最多提交的词元数"},
    "knob.block_size.label": {"en": "Block size", "zh": "块大小"},
    "knob.block_size.help": {"en": "block decoder only: masks decoded before a commit",
                             "zh": "仅用于块解码器：每次提交前要解码的掩码数"},
    "knob.top_candidates.label": {"en": "Top candidates", "zh": "候选数"},
    "knob.top_candidates.help": {"en": "candidates recorded per filled slot in the trace",
                                 "zh": "轨迹中为每个已填充槽位记录的候选词元数"},
    "knob.adaptive_window.label": {"en": "Adaptive window (beyond the paper)", "zh": "自适应窗口（超出论文）"},
    "knob.adaptive_window.help": {
        "en": "size W from the last step's fills: toward W while steps fill many slots, toward the "
              "minimum while they fill one (a CPU pays for every row; the paper's engine keeps W)",
        "zh": "根据上一步的填充数调整窗口：每步填充很多槽位时向 W 增大，只填一个时向最小值缩小"
              "（CPU 要为每一行付出计算；论文的引擎保持 W 不变）",
    },
    "knob.min_window.label": {"en": "Minimum window", "zh": "最小窗口"},
    "knob.min_window.help": {"en": "adaptive window only: the fewest uncommitted slots",
                             "zh": "仅用于自适应窗口：未提交槽位的最少数目"},

    # -- a link to a moment (app/links.py): what it could not restore --------------------------------
    "link.bad_whole_from": {"en": "the link's {name} must be a whole number from {low}, got {value}; showing the default",
                            "zh": "链接中的 {name} 必须是不小于 {low} 的整数，收到的是 {value}；显示默认值"},
    "link.bad_whole_range": {"en": "the link's {name} must be a whole number from {low} to {high}, got {value}; "
                                   "showing the default",
                             "zh": "链接中的 {name} 必须是从 {low} 到 {high} 的整数，收到的是 {value}；显示默认值"},
    "link.bad_tab": {"en": "the link's tab {value} is not one of {tabs}", "zh": "链接中的页面 {value} 不在 {tabs} 之中"},
    "link.bad_example": {"en": "the link's example {value} is not a recorded example; showing the first one",
                         "zh": "链接中的示例 {value} 不是录制好的示例；显示第一个"},
    "link.long_prompt": {"en": "the prompt is {n} characters; the prompt box takes at most {chars}",
                         "zh": "提示词有 {n} 个字符；提示词框最多容纳 {chars} 个"},
    "link.bad_prompt": {"en": "the link's prompt was not used: {error}", "zh": "链接中的提示词未被采用：{error}"},
    "link.bad_decoder": {"en": "the link's decoder {value} is not one of {decoders}; using streaming",
                         "zh": "链接中的解码器 {value} 不在 {decoders} 之中；改用流式解码"},
    "link.long_knob": {"en": "{name} is {n} characters long", "zh": "{name} 长达 {n} 个字符"},
    "link.bad_knob": {"en": "the link's {name} was not used ({error}); using the default",
                      "zh": "链接中的 {name} 未被采用（{error}）；使用默认值"},
    "link.bad_knobs": {"en": "the link's knobs were not used ({error}); using the defaults",
                       "zh": "链接中的各项参数未被采用（{error}）；使用默认值"},
    "link.separator": {"en": ", ", "zh": "、"},

    # -- the page's frame around an error (app/serving/errors.py) -------------------------------------
    "error.framed": {"en": "{message}", "zh": "出错了：{message}"},

    # -- ZeroGPU's refusals, reworded for a visitor (app/serving/gpu.plain_words) ---------------------
    "gpu.quota": {
        "en": "The GPU time this Space may use for you is used up for now (on ZeroGPU everyone behind one "
              "network, a classroom for example, shares one quota). Replays cost no GPU time: pick the "
              "recorded example {example} (or another) under 'Recorded example traces' on the Decode tab, "
              "or follow the Tour; try a live decode again later.",
        "zh": "这个 Space 暂时能为你使用的 GPU 时间已经用完（在 ZeroGPU 上，同一网络后的所有人——比如一间教室——"
              "共用一份配额）。回放不花 GPU 时间：在“解码”标签页的“录制好的示例轨迹”中选择录制好的示例 {example}"
              "（或其他示例），或者跟着“导览”走；稍后再试实时解码。"},
    "gpu.quota_title": {"en": "GPU quota used up", "zh": "GPU 配额已用完"},
    "gpu.no_gpu": {
        "en": "No GPU was free in time for this decode. Replays cost no GPU time: pick the recorded example "
              "{example} (or another) under 'Recorded example traces' on the Decode tab, or follow the Tour; "
              "try a live decode again later.",
        "zh": "这次解码没能及时等到空闲的 GPU。回放不花 GPU 时间：在“解码”标签页的“录制好的示例轨迹”中选择录制好的"
              "示例 {example}（或其他示例），或者跟着“导览”走；稍后再试实时解码。"},
    "gpu.no_gpu_title": {"en": "No GPU free", "zh": "没有空闲的 GPU"},
}
