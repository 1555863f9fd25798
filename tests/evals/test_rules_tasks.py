"""The rules-comprehension tasks: the practice pool as samples (never the entry pool), lettered choices,
sections and rule areas in metadata, and the club's grader as scorer (run with ``mockllm``)."""

from __future__ import annotations

import secrets
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import inspect_ai
import pytest
from club_agentes.engine.core.rng import Rng
from club_agentes.quizzes.bank import default_bank
from club_agentes.quizzes.evaluate import export_records, practice_item
from club_agentes.quizzes.grading import grade
from club_agentes.quizzes.harness import QuizService
from club_agentes.quizzes.model import CHOICE_LETTERS, GENERATORS, Generator, Item
from club_agentes.quizzes.store import MemoryQuizStore
from club_agentes.rules_corpus import load_corpus
from inspect_ai.log import EvalLog
from inspect_ai.model import ChatMessage, ModelOutput, get_model
from inspect_ai.solver._multiple_choice import answer_character

import club_agentes
from club_agentes.evals import (
    FINAL_MARKER,
    EvalSettingError,
    context_message,
    corpus_text,
    market_fortune_rules,
    rules_samples,
    rules_task,
    se_vende_rules,
    stated_answer,
    yo_soy_el_jefe_rules,
)
from tests.evals.helpers import spanish_number, text_output

GAMES = ("market-fortune", "se-vende", "yo-soy-el-jefe")
TASKS = {"market-fortune": market_fortune_rules, "se-vende": se_vende_rules, "yo-soy-el-jefe": yo_soy_el_jefe_rules}
PRACTICE = "prueba-de-practica-eval"
SECTION = "market-fortune/cap-2/regla-8-cartas"
PER_TYPE = 3
"""Items of each answer type per game that the scored runs ask (the first ones of the pool)."""


def _practice_item(rng: Rng) -> Item:
    k = rng.below(4)
    return Item(
        "market-fortune/gen",
        "market-fortune",
        "question",
        "integer",
        f"Tienes {k} inversiones. ¿Cuántas cartas de construcción tienes en la mano?",
        str(8 - 2 * k),
        (SECTION,),
        explanation="Entre mano e inversiones siempre hay 8 cartas.",
    )


@pytest.fixture
def practice_generator() -> Iterator[Generator]:
    """A practice generator (entry=False) of Market Fortune, registered for the test's duration."""
    key = f"market-fortune/{PRACTICE}"
    GENERATORS[key] = Generator(PRACTICE, "market-fortune", "question", (SECTION,), _practice_item, entry=False)
    try:
        yield GENERATORS[key]
    finally:
        del GENERATORS[key]


# --------------------------------------------------------------------------- the dataset


@pytest.mark.parametrize("game", GAMES)
def test_the_dataset_is_the_exported_practice_pool(game: str) -> None:
    samples = TASKS[game]().dataset
    records = export_records(game, with_answers=True)
    assert [s.id for s in samples] == [r["id"] for r in records]
    assert len(samples) > 50
    for sample, record in zip(samples, records, strict=True):
        assert sample.target == record["answer"]
        assert isinstance(sample.input, str) and sample.input.startswith(record["prompt"])
        assert record["answer_format"] in sample.input and FINAL_MARKER in sample.input


def test_samples_of_practice_generators_come_in_and_entry_generators_never(practice_generator: Generator) -> None:
    entry_names = {g.name for g in default_bank().game("market-fortune").generators() if g.entry}
    assert entry_names, "the test needs entry generators to prove they are left out"
    samples = rules_samples("market-fortune", samples=4, seed=11)
    generated = [s for s in samples if s.metadata and s.metadata["parametric"]]
    practice = {g.name for g in default_bank().game("market-fortune").generators() if not g.entry}
    assert PRACTICE in practice
    assert len(generated) == 4 * len(practice)
    assert {s.metadata["generator"] for s in generated if s.metadata} == practice
    again = [s.id for s in rules_samples("market-fortune", samples=4, seed=11)]
    assert [s.id for s in samples] == again  # the same seed, the same dataset
    for sample in samples:
        practice_item(default_bank(), str(sample.id))  # refuses any entry-pool id
        if sample.metadata and sample.metadata["parametric"]:
            assert str(sample.id).split("/")[2] not in entry_names


@pytest.mark.parametrize("game", GAMES)
def test_no_entry_paper_item_is_in_the_dataset(game: str) -> None:
    samples = rules_samples(game, samples=3, seed=5)
    ids = {str(s.id) for s in samples}
    prompts = {str(s.input) for s in samples}
    service = QuizService(default_bank(), MemoryQuizStore(), secret=secrets.token_bytes(32))
    entry_generators = {g.name for g in default_bank().game(game).generators() if g.entry}
    drawn = 0
    for seed in range(12):
        for _key, item in service.draw_entry(game, rng=Rng(seed)):
            drawn += 1
            assert item.id not in ids
            assert not any(p.startswith(item.prompt) for p in prompts)
            if item.parametric:
                assert item.id.split("/")[2] in entry_generators
    assert drawn == 48
    for sample in samples:
        sid = str(sample.id)
        assert not (sid.startswith(f"{game}/gen/") and sid.split("/")[2] in entry_generators)


@pytest.mark.parametrize("game", GAMES)
def test_choice_samples_keep_their_letters(game: str) -> None:
    records = {r["id"]: r for r in export_records(game, with_answers=True)}
    choices = [s for s in rules_samples(game) if s.metadata and s.metadata["type"] == "choice"]
    assert len(choices) > 10
    for sample in choices:
        record = records[str(sample.id)]
        assert sample.choices is not None and len(sample.choices) == len(record["options"]) == 4
        lines = str(sample.input).splitlines()
        for i, text in enumerate(sample.choices):
            letter = answer_character(i)  # how inspect letters choices
            assert record["options"][letter] == text
            assert f"{letter}) {text}" in lines
        assert sample.target in CHOICE_LETTERS
        assert sample.choices[CHOICE_LETTERS.index(str(sample.target))] == record["options"][sample.target]
    others = [s for s in rules_samples(game) if s.metadata and s.metadata["type"] != "choice"]
    assert others and all(s.choices is None for s in others)


@pytest.mark.parametrize("game", GAMES)
def test_metadata_carries_the_cited_section_and_the_rule_area(game: str) -> None:
    corpus = load_corpus()
    for sample in rules_samples(game):
        meta = sample.metadata or {}
        item = practice_item(default_bank(), str(sample.id))
        assert meta["sections"] == list(item.sections) and meta["section"] == item.sections[0]
        assert meta["section"] in corpus.sections
        area = corpus.sections[meta["rule_area"]]
        assert area.parent is None and area.game == game and meta["rule_area_title"] == area.title
        assert area.id in _ancestors(meta["section"])
        assert meta["game"] == game and meta["type"] == item.type and meta["kind"] == item.kind


def _ancestors(section_id: str) -> list[str]:
    """The section and every section above it, nearest first."""
    corpus = load_corpus()
    out = [section_id]
    while (parent := corpus.sections[out[-1]].parent) is not None:
        out.append(parent)
    return out


# --------------------------------------------------------------------------- what the model reads


def test_the_context_is_the_corpus_the_cited_sections_or_nothing() -> None:
    corpus = load_corpus()
    whole = context_message("se-vende", "corpus")
    for section in corpus.toc("se-vende"):
        assert f"## {section.id} · {section.title}" in whole
        assert section.text.strip() in whole
    assert corpus_text("se-vende") in whole
    cited = ("se-vende/resumen/fases-elegidas", "se-vende/resumen/bonus")
    some = context_message("se-vende", "sections", cited)
    assert all(corpus.sections[s].text.strip() in some for s in cited)
    assert corpus.sections["se-vende/resumen/fin"].text.strip() not in some
    none = context_message("se-vende", "none")
    assert "Se Vende" in none and "## " not in none
    with pytest.raises(EvalSettingError, match="context must be one of corpus, sections, none"):
        context_message("se-vende", "everything")  # type: ignore[arg-type]
    with pytest.raises(EvalSettingError, match="context must be one of"):
        rules_task("se-vende", context="all")  # type: ignore[arg-type]


def test_the_stated_answer_is_read_from_the_last_marker() -> None:
    reasoning = "Repaso las reglas. " * 40
    assert stated_answer(f"{reasoning}\nRespuesta final: B") == "Respuesta final: B"
    assert stated_answer("Answer: 3\nNo, mejor...\nRespuesta final: 4") == "Respuesta final: 4"
    assert stated_answer("FINAL ANSWER: Dominar") == "FINAL ANSWER: Dominar"
    assert stated_answer("Creo que es la C") == "Creo que es la C"
    assert stated_answer(f"{reasoning}\n\nEs la C.\n") == "Es la C."
    assert stated_answer("") == ""


# --------------------------------------------------------------------------- scored runs with mockllm


def _chosen(game: str) -> list[dict[str, Any]]:
    records = export_records(game, with_answers=True)
    out: list[dict[str, Any]] = []
    for kind in ("integer", "choice", "term"):
        out += [r for r in records if r["type"] == kind][:PER_TYPE]
    return out


def _right(record: dict[str, Any]) -> str:
    reasoning = "Leo las secciones citadas y cuento con cuidado lo que dice el reglamento. " * 8
    return f"{reasoning}\n{FINAL_MARKER} {record['answer']}"


def _spanish(record: dict[str, Any]) -> str:
    """A right answer worded in Spanish: numbers in words with their unit, a choice by its text, a synonym."""
    if record["type"] == "integer":
        words = spanish_number(int(record["answer"]))
        unit = {"M": " millones", "%": " por ciento"}.get(record["unit"], "")
        return f"Según el reglamento son {words}{unit}.\n{FINAL_MARKER} {words}{unit}"
    if record["type"] == "choice":
        return f"{FINAL_MARKER} {record['options'][record['answer']]}"
    item = practice_item(default_bank(), record["id"])
    vocabulary = default_bank().vocabulary(item)
    assert vocabulary is not None
    term = vocabulary.find(item.answer)
    assert term is not None and term.synonyms, f"{record['id']}: the test needs a term with a synonym"
    return f"Creo que es {term.synonyms[0].lower()}."


def _wrong(record: dict[str, Any]) -> str:
    if record["type"] == "integer":
        return f"{FINAL_MARKER} {int(record['answer']) + 1}"
    if record["type"] == "choice":
        letters = list(record["options"])
        return f"{FINAL_MARKER} {letters[(letters.index(record['answer']) + 1) % len(letters)]}"
    terms = record["terms"]
    return f"{FINAL_MARKER} {terms[(terms.index(record['answer']) + 1) % len(terms)]}"


def _mock(records: list[dict[str, Any]], reply: Callable[[dict[str, Any]], str]) -> Any:
    """A ``mockllm`` model answering each record's sample (found by its prompt) with ``reply(record)``."""

    def respond(messages: list[ChatMessage], *_: Any) -> ModelOutput:
        asked = messages[-1].text
        (record,) = [r for r in records if asked.startswith(r["prompt"] + "\n")]
        return text_output(reply(record))

    return get_model("mockllm/model", custom_outputs=respond)


def _run(reply: Callable[[dict[str, Any]], str], tmp_path: Path) -> tuple[list[dict[str, Any]], list[EvalLog]]:
    chosen = {g: _chosen(g) for g in GAMES}
    records = [r for rs in chosen.values() for r in rs]
    logs = inspect_ai.eval(
        [TASKS[g]() for g in GAMES],
        model=_mock(records, reply),
        sample_id=[r["id"] for r in records],
        log_dir=str(tmp_path),
        display="none",
    )
    assert [log.status for log in logs] == ["success"] * 3
    return records, logs


def _scores(logs: list[EvalLog]) -> dict[str, Any]:
    out = {}
    for log in logs:
        for sample in log.samples or []:
            assert sample.scores is not None
            out[str(sample.id)] = sample.scores["club_grader"]
    return out


def test_right_answers_score_correct_and_accuracy_is_grouped_by_rule_area(tmp_path: Path) -> None:
    records, logs = _run(_right, tmp_path)
    scores = _scores(logs)
    assert set(scores) == {r["id"] for r in records} and len(scores) == 3 * 3 * PER_TYPE
    for record in records:
        score = scores[record["id"]]
        assert score.value == "C", (record["id"], score.explanation)
        assert score.answer == record["answer"]
    for log, game in zip(logs, GAMES, strict=True):
        assert log.results is not None
        metrics = {name: m.value for name, m in log.results.scores[0].metrics.items()}
        areas = {r["rule_area"] for r in records if r["game"] == game}
        assert metrics["accuracy"] == 1.0
        assert {a: 1.0 for a in areas}.items() <= metrics.items()


def test_right_answers_worded_in_spanish_score_correct(tmp_path: Path) -> None:
    records, logs = _run(_spanish, tmp_path)
    scores = _scores(logs)
    for record in records:
        score = scores[record["id"]]
        assert score.value == "C", (record["id"], score.metadata, score.explanation)
        assert score.answer == record["answer"]


def test_wrong_answers_score_incorrect_with_the_graders_reason(tmp_path: Path) -> None:
    records, logs = _run(_wrong, tmp_path)
    scores = _scores(logs)
    for record in records:
        score = scores[record["id"]]
        assert score.value == "I", record["id"]
        assert score.explanation and score.explanation != "right"
        assert str(record["answer"]) not in score.explanation.split()  # the reason never gives the answer away
    for log in logs:
        assert log.results is not None
        assert log.results.scores[0].metrics["accuracy"].value == 0.0


def test_the_task_runs_from_its_file_as_documented(tmp_path: Path) -> None:
    """``inspect eval club_agentes/evals.py@yo_soy_el_jefe_rules -T context=sections`` in the API's form."""
    path = Path(club_agentes.__file__).parent / "evals.py"
    records = _chosen("yo-soy-el-jefe")
    (log,) = inspect_ai.eval(
        f"{path}@yo_soy_el_jefe_rules",
        task_args={"context": "sections"},
        model=_mock(records, _right),
        sample_id=[r["id"] for r in records[:4]],
        log_dir=str(tmp_path),
        display="none",
    )
    assert log.status == "success" and log.eval.task.endswith("yo_soy_el_jefe_rules")
    assert log.samples and len(log.samples) == 4
    corpus = load_corpus()
    for sample in log.samples:
        system = sample.messages[0]
        assert system.role == "system"
        cited = (sample.metadata or {})["sections"]
        assert all(corpus.sections[s].text.strip() in system.text for s in cited)
        assert sample.scores is not None and sample.scores["club_grader"].value == "C"


def test_every_sample_grades_its_target_right_and_a_wrong_answer_wrong() -> None:
    """Over the whole pool of each game: the scorer's reading (last marker, then the grader) of a reply
    stating the target is right, and of a reply stating a wrong answer is wrong."""
    bank = default_bank()
    for game in GAMES:
        records = {r["id"]: r for r in export_records(game, with_answers=True)}
        for sample in rules_samples(game):
            item = practice_item(bank, str(sample.id))
            vocabulary = bank.vocabulary(item)
            assert item.answer == sample.target
            record = records[str(sample.id)]
            assert grade(item, stated_answer(_right(record)), vocabulary).correct, sample.id
            assert not grade(item, stated_answer(_wrong(record)), vocabulary).correct, sample.id
