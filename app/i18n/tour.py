"""The guided tour (app/tabs/tour/): its nav, glossary, projector mode, shared sentences and
figures (ids tour.… and gloss.…), and chapters 1–5 (ids ch1.… … ch5.…). Numbers, token text and
symbols (τ, λ, d, H, W) are placeholders or stay as they are; names (WeDLM, AR, KV, RoPE) too."""

MESSAGES = {
    # ---- nav ----
    "tour.back": {"en": "◀ Back", "zh": "◀ 上一章"},
    "tour.next": {"en": "Next ▶", "zh": "下一章 ▶"},
    "tour.glossary": {"en": "Glossary", "zh": "术语表"},
    "tour.first": {"en": "first", "zh": "第一章"},
    "tour.last": {"en": "last", "zh": "最后一章"},
    # ---- chapter titles ----
    "ch1.title": {"en": "1 · One token per forward: AR and the KV cache",
                  "zh": "1 · 每次前向计算一个词元：AR 与 KV 缓存"},
    "ch2.title": {"en": "2 · Masks and the fill rule (τ, λ, d)", "zh": "2 · 掩码与填充规则（τ、λ、d）"},
    "ch3.title": {"en": "3 · Reordering: filled tokens before masks", "zh": "3 · 重排：已填充的词元移到掩码之前"},
    "ch4.title": {"en": "4 · What commits, and what waits", "zh": "4 · 哪些提交，哪些等待"},
    "ch5.title": {"en": "5 · A stall, and what λ does about it", "zh": "5 · 停滞，以及 λ 如何化解"},
}
