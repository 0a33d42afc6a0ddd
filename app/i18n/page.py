"""The page's frame: title, header, server line, tab names, the language switch, link notices."""

MESSAGES = {
    "page.title": {"en": "WeDLM Explorer", "zh": "WeDLM 探索器"},
    "page.header": {
        "en": "# WeDLM Explorer\nWeDLM (arXiv 2512.22737): several tokens per {forward} with an autoregressive (AR) "
              "model's causal attention and {kv_cache}. {masks} (slots not yet written) fill in parallel, as in "
              "{diffusion}; filled tokens move before them, keeping {position_ids}; a token {commits} once no mask is "
              "before it, one forward after its fill at the earliest.",
        "zh": "# WeDLM 探索器\nWeDLM（arXiv 2512.22737）：每次{forward}写出多个词元，同时保留自回归（AR）模型的因果注意力和{kv_cache}。"
              "{masks}（尚未写出的槽位）像{diffusion}那样被并行填充；已填充的词元移到掩码前面，保留{position_ids}；"
              "词元在它前面没有掩码时{commits}，最早在被填充后的下一次前向计算。",
    },
    "page.position_ids": {"en": "position ids", "zh": "位置编号"},
    "page.diffusion": {"en": "diffusion", "zh": "扩散"},   # the header's links to the glossary
    "page.forward": {"en": "forward pass", "zh": "前向计算"},
    "page.masks": {"en": "Masks", "zh": "掩码"},
    "page.commits": {"en": "commits", "zh": "提交"},
    # the switch names the other language in itself, with a latin fallback: where no CJK font is
    # installed "中文" alone drew as two empty boxes
    "page.switch": {"en": "中文 · zh", "zh": "English"},
    "page.switch_title": {"en": "Read this page in Chinese (简体中文)", "zh": "Read this page in English（英文）"},
    "tab.tour": {"en": "Tour", "zh": "导览"},
    "tab.decode": {"en": "Decode", "zh": "解码"},
    "tab.race": {"en": "Race", "zh": "赛跑"},
    "tab.entropy": {"en": "Entropy explorer", "zh": "熵探索"},
    "tab.lessons": {"en": "How it works", "zh": "原理"},
    "server.ar_model": {"en": "AR baseline <b>{name}</b>", "zh": "AR 基线 <b>{name}</b>"},
    "server.ar_head": {"en": "AR baseline: the same model read left to right, one next token per forward",
                       "zh": "AR 基线：同一个模型从左往右读，每次前向计算预测下一个词元"},
    "server.limits": {"en": "limits", "zh": "限制"},
    "server.space_limits": {"en": "public Space limits", "zh": "公开 Space 的限制"},
    "server.dtype_title": {
        "en": "the number format the model computes in: float32 = 32-bit floating-point numbers; bfloat16 "
              "(\u201cbrain float\u201d, a format made for neural networks) = 16-bit ones with float32's range but "
              "fewer digits: half the memory, a little less precise",
        "zh": "模型计算所用的数字格式：float32 = 32 位浮点数；bfloat16（“brain float”，专为神经网络设计的格式）"
              "= 16 位浮点数，数值范围与 float32 相同，但有效数字更少：内存减半，精度略低",
    },
    "server.line": {
        "en": "Model <b>{model}</b> · {ar} · {device}, {dtype}, <abbr title=\"the routine that computes attention: sdpa = PyTorch's built-in scaled dot-product "
              "attention (fast, fused); eager = the same sums written out step by step; both give the same "
              "result\">"
              "{attn}</abbr> attention · {mode}: ≤ {new_tokens} new tokens, <abbr title=\"W: the window. WeDLM's streaming decoder keeps W slots (masks and filled tokens not yet "
              "committed) after the run it commits; this explorer's verified decoding carries at most W masks\">W</abbr> ≤ {window}, {seconds} s per request, {concurrency} at a time",
        "zh": "模型 <b>{model}</b> · {ar} · {device}，{dtype}，<abbr title=\"计算注意力所用的实现：sdpa 即“scaled dot-product attention”（缩放点积注意力），"
              "是框架内置的快速实现；“eager”则把同样的计算一步步写出来；两者结果相同\">{attn}</abbr> 注意力 · "
              "{mode}：新词元 ≤ {new_tokens}，<abbr title=\"W：窗口。WeDLM 的流式解码器在它要提交的那一段之后保留 W 个槽位（掩码和尚未提交的已填充词元）；本探索器的验证解码最多带 W 个掩码\">W</abbr> ≤ {window}，"
              "每个请求 {seconds} 秒，同时 {concurrency} 个",
    },
    "link.unused": {"en": "Some of this link was not used: {notes}", "zh": "此链接有部分内容未被采用：{notes}"},
}
