"""The arithmetic family (forms A, B, C): right answers, a held-out split that training never
draws, and a training mix that keeps the families that teach stopping."""
import ast
import operator
import random
import re

from wedlm.training.corpus import (ARITHMETIC_FORMS, MIXES, WORD_TEMPLATES, SampleStream,
                                   arithmetic, arithmetic_pieces, encode_answer, final_answer,
                                   held_out_questions, is_held_out)

OPS = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul}


def evaluate_expression(text: str) -> int:
    """An independent oracle: the value of `a op b` or `(a op b) op c` read from the question."""
    def value(node):
        if isinstance(node, ast.Constant):
            return node.value
        return OPS[type(node.op)](value(node.left), value(node.right))
    return value(ast.parse(text, mode="eval").body)


FORM_A = re.compile(r"Question: What is (\d+) ([-+*]) (\d+)\?\nAnswer:")
FORM_B = re.compile(r"Question: What is \((\d+) ([-+*]) (\d+)\) ([-+*]) (\d+)\?\nAnswer:")


def template_patterns():
    """Each word template as a regex whose groups are its numbers {n0}, {n1}, {n2} in order."""
    out = []
    for template, _ in WORD_TEMPLATES:
        pattern = re.escape(template)
        pattern = re.sub(r"\\\{n\d\\\}", r"(\\d+)", pattern)
        pattern = re.sub(r"\\\{\w+\\\}", r".+?", pattern)
        out.append(re.compile(f"Question: {pattern}\nAnswer:"))
    return out


def question_key(prompt: str, patterns) -> tuple:
    """The held-out key of a question, recovered from its text alone."""
    if m := FORM_A.fullmatch(prompt):
        return ("A", int(m[1]), m[2], int(m[3]))
    if m := FORM_B.fullmatch(prompt):
        return ("B", int(m[1]), m[2], int(m[3]), m[4], int(m[5]))
    matches = [(i, m) for i, p in enumerate(patterns) if (m := p.fullmatch(prompt))]
    assert len(matches) == 1, prompt
    index, m = matches[0]
    return ("C", index, *map(int, m.groups()))


def test_every_step_of_every_worked_solution_is_true_and_the_answer_is_the_questions_value():
    rng = random.Random(5)
    for _ in range(1500):
        s = arithmetic(rng)
        final = final_answer(s.answer)
        if m := (FORM_A.fullmatch(s.prompt) or FORM_B.fullmatch(s.prompt)):
            expression = s.prompt[len("Question: What is "):-len("?\nAnswer:")]
            assert final == str(evaluate_expression(expression)), (s.prompt, s.answer)
        # every `p op q (op r) = v` in the solution holds; the last one is the final answer
        equations = re.findall(r"(\d+(?: [-+*] \d+)+) = (\d+)", s.answer)
        assert equations and all(evaluate_expression(lhs) == int(rhs) for lhs, rhs in equations), s.answer
        assert equations[-1][1] == final
        assert 0 <= int(final) <= 999


def test_form_ranges_follow_the_issue():
    rng = random.Random(8)
    for _ in range(2000):
        _, question, ops = ARITHMETIC_FORMS["A"](rng)
        (a, op, b), = ops
        assert (2 <= a <= 12 and 2 <= b <= 12) if op == "*" else (0 <= a <= 99 and 0 <= b <= 99 and a - b >= 0 if op == "-" else True)
        _, question, ops = ARITHMETIC_FORMS["B"](rng)
        (inner, op2, c) = ops[1]
        assert (2 <= inner <= 99 and 2 <= c <= 12) if op2 == "*" else 0 <= c <= 99


def test_word_problems_recompute_from_their_text():
    """Form C: the numbers in the question, in order, are the operands of the solution's steps."""
    rng = random.Random(9)
    seen = set()
    for _ in range(1000):
        key, question, ops = ARITHMETIC_FORMS["C"](rng)
        seen.add(key[1])
        numbers = [int(n) for n in re.findall(r"\d+", question)]
        assert numbers == list(key[2:])
        assert ops[0][0] == numbers[0] and ops[0][2] == numbers[1]
        if len(ops) == 2:
            assert ops[1][2] == numbers[2]
    assert seen == set(range(len(WORD_TEMPLATES))) and len(WORD_TEMPLATES) >= 8


def test_held_out_questions_never_occur_in_the_training_stream(tiny_corpora):
    patterns = template_patterns()
    held_out = {p for form in "ABC" for p, _, _ in held_out_questions(form, 40)}
    for form in "ABC":  # the evaluation's questions are held out by the rule, read back from their text
        assert all(is_held_out(question_key(p, patterns)) for p, _, _ in held_out_questions(form, 40))
    stream = SampleStream(tiny_corpora, seed=3, mix="arithmetic")
    drawn = [s for s in (stream.next() for _ in range(8000)) if s.family == "arithmetic"]
    assert len(drawn) > 4000
    assert not any(s.prompt in held_out for s in drawn)
    assert not any(is_held_out(question_key(s.prompt, patterns)) for s in drawn)


def test_the_held_out_share_is_about_one_in_ten_of_each_form():
    rng = random.Random(1)
    for form, draw in ARITHMETIC_FORMS.items():
        share = sum(is_held_out(draw(rng)[0]) for _ in range(3000)) / 3000
        assert 0.07 < share < 0.13, (form, share)


def test_the_arithmetic_mix_keeps_the_families_that_teach_stopping(tiny_corpora):
    mix = MIXES["arithmetic"]
    assert abs(sum(mix.values()) - 1) < 1e-9
    # counting runs (stops at B) at 4x the 5 % that lost the stop in a trial fine-tune
    assert mix["counting"] >= 0.2 and mix["sequence"] > 0 and mix["copy"] > 0
    stream = SampleStream(tiny_corpora, seed=4, mix="arithmetic")
    families = [stream.next().family for _ in range(5000)]
    assert families.count("counting") / len(families) > 0.2


def test_long_numbers_in_arithmetic_answers_are_one_digit_per_token():
    from transformers import AutoTokenizer

    from wedlm.paths import BUNDLED_MODEL
    tok = AutoTokenizer.from_pretrained(str(BUNDLED_MODEL))
    rng = random.Random(2)
    for _ in range(300):
        s = arithmetic(rng)
        ids = encode_answer(tok, s)
        assert tok.decode(ids) == s.answer
        tokens = tok.convert_ids_to_tokens(ids)
        assert not any(t.isdigit() and len(t) > 2 for t in tokens)   # never '852', '123' ...
    assert arithmetic_pieces(" 98 = 198.") == [(" 98 = ", False), ("198", True), (".", False)]


def test_the_bench_suites_arithmetic_prompts_are_held_out_and_their_answers_right():
    from wedlm.bench import accuracy, is_correct
    from wedlm.suite import read_prompts
    rows = [p for p in read_prompts() if p["class"] == "arithmetic"]
    held_out = {p: v for form in "ABC" for p, _, v in held_out_questions(form, 5, seed=7)}
    assert len(rows) >= 6
    for r in rows:
        assert held_out[r["prompt"]] == r["answer"]
        if m := (FORM_A.fullmatch(r["prompt"]) or FORM_B.fullmatch(r["prompt"])):
            assert evaluate_expression(r["prompt"][len("Question: What is "):-len("?\nAnswer:")]) == r["answer"]
    row = rows[0]
    assert is_correct(row, f" steps.\n#### {row['answer']}") and not is_correct(row, f" {row['answer']}")
    assert is_correct({"prompt": "Count from 1 to 3:"}, " 1, 2, 3") is None
    assert accuracy([True, False, None, True]) == round(2 / 3, 3) and accuracy([None]) is None


def test_every_mix_is_described_in_the_model_card():
    from dataclasses import asdict

    from wedlm.training.card import data_mix
    from wedlm.training.train import TrainConfig
    for mix in MIXES:
        text = data_mix(asdict(TrainConfig(ar_mix="stop", wedlm_mix=mix)))
        assert f"`{mix}` mix" in text
    assert "arithmetic" in data_mix(asdict(TrainConfig(wedlm_mix="arithmetic")))
