"""The bank loader refuses faulty data with the file, the item and the field."""

from __future__ import annotations

from functools import cache
from pathlib import Path

import pytest
from club_agentes.quizzes.bank import (
    Bank,
    BankError,
    UnknownBankGame,
    UnknownItem,
    load_bank,
    load_private_bank,
    parse_computed,
)
from club_agentes.quizzes.model import GENERATORS

GAME = "market-fortune"


@cache
def market_fortune_and_se_vende() -> Bank:
    return load_bank([GAME, "se-vende"])


VOCAB = """
[vocabulary.acciones]
description = "Acciones"
[[vocabulary.acciones.term]]
term = "Construir"
synonyms = ["tomar capital"]
[[vocabulary.acciones.term]]
term = "Dominar"
"""
COVERAGE = """
[[section]]
id = "market-fortune/creditos"
reason = "Credits."
"""
GOOD = """
[[item]]
id = "market-fortune/q/ocho"
type = "integer"
prompt = "¿Cuántas cartas?"
answer = 8
sections = ["market-fortune/cap-2/regla-8-cartas"]
"""
RIDDLE = """
[[item]]
id = "market-fortune/r/uno"
type = "term"
vocabulary = "acciones"
prompt = "¿Qué acción?"
answer = "Dominar"
sections = ["market-fortune/cap-2/tu-turno"]
"""


def write(
    root: Path, questions: str = GOOD, riddles: str = RIDDLE, vocab: str = VOCAB, coverage: str = COVERAGE
) -> None:
    folder = root / GAME
    folder.mkdir(parents=True, exist_ok=True)
    for name, text in (
        ("questions.toml", questions),
        ("riddles.toml", riddles),
        ("vocabularies.toml", vocab),
        ("coverage.toml", coverage),
    ):
        if text is not None:
            (folder / name).write_text(text, encoding="utf-8")


def test_good_data_loads(tmp_path: Path) -> None:
    write(tmp_path)
    bank = load_bank([GAME], root=tmp_path)
    gb = bank.game(GAME)
    assert [it.answer for it in gb.questions] == ["8"]
    assert gb.riddles[0].kind == "riddle"
    assert gb.uncovered == {"market-fortune/creditos": "Credits."}
    assert bank.item("market-fortune/q/ocho") is gb.questions[0]


def item(**fields: object) -> str:
    base: dict[str, object] = {
        "id": "market-fortune/q/x",
        "type": "integer",
        "prompt": "¿?",
        "answer": "8",
        "sections": ["market-fortune/cap-2/regla-8-cartas"],
    }
    base.update(fields)
    lines = ["[[item]]"]
    for k, v in base.items():
        if v is None:
            continue
        if isinstance(v, str):
            lines.append(f"{k} = {v!r}".replace("'", '"'))
        elif isinstance(v, list):
            lines.append(f"{k} = [{', '.join(repr(x).replace(chr(39), chr(34)) for x in v)}]")
        else:
            lines.append(f"{k} = {v}")
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize(
    ("questions", "expected"),
    [
        (item(anwser="8"), "item 'market-fortune/q/x': unknown fields ['anwser']"),
        (item(sections=["market-fortune/nope"]), "field 'sections' cites 'market-fortune/nope'"),
        (item(sections=["se-vende/resumen"]), "belongs to another game"),
        (item(sections=[]), "field 'sections' must cite at least one section"),
        (item(answer="veinte"), "field 'answer' an integer answer must be digits"),
        (item(unit="km"), "field 'unit'"),
        (item(type="choice", answer="E", options=["a", "b", "c", "d"]), "field 'answer' a choice answer"),
        (item(type="choice", answer="A", options=["a", "b", "c"]), "field 'options' a choice needs exactly 4"),
        (item(type="choice", answer="A", options=["a", "b", "c", "A."]), "two options are the same"),
        (item(type="term", answer="Arriesgar", vocabulary="acciones"), "field 'answer' 'Arriesgar' is not a term"),
        (item(type="term", answer="Dominar", vocabulary="colores"), "field 'vocabulary' 'colores' is not declared"),
        (item(type="rank"), "field 'type' must be integer, choice or term"),
        (item(id="market-fortune/r/x"), "field 'id' must be market-fortune/q/<slug>"),
        (item(id="market-fortune/q/Mayúsculas"), "field 'id' must be market-fortune/q/<slug>"),
        (item(kind="riddle"), "field 'kind' is 'riddle', but the file holds 'question' items"),
        (item(computed="club_agentes.quizzes.generators.market_fortune:no_such_function"), "field 'computed'"),
        (item(computed="no.such.module:f"), "cannot be imported"),
        (item(prompt=None), "field 'prompt' is missing"),
        (item() + item(), "field 'id' is used twice"),
        ("[[item]\n", "questions.toml"),
        ("title = 'x'\n", "unknown top-level keys ['title']"),
    ],
)
def test_faulty_questions(tmp_path: Path, questions: str, expected: str) -> None:
    write(tmp_path, questions=questions)
    with pytest.raises(BankError) as info:
        load_bank([GAME], root=tmp_path)
    message = str(info.value)
    assert expected in message
    assert message.startswith(f"{tmp_path}/{GAME}/questions.toml")


def test_missing_file(tmp_path: Path) -> None:
    write(tmp_path)
    (tmp_path / GAME / "riddles.toml").unlink()
    with pytest.raises(BankError, match=r"riddles\.toml: the file is missing"):
        load_bank([GAME], root=tmp_path)


def test_riddle_id_used_in_questions_too(tmp_path: Path) -> None:
    write(tmp_path, riddles=RIDDLE)
    bank = load_bank([GAME], root=tmp_path)
    assert bank.game(GAME).riddles[0].id == "market-fortune/r/uno"


@pytest.mark.parametrize(
    ("vocab", "expected"),
    [
        (VOCAB + '[[vocabulary.acciones.term]]\nterm = "Construir!"\n', "also names the term 'Construir'"),
        ('[vocabulary.vacia]\ndescription = "x"\n', "at least one"),
        (VOCAB.replace('description = "Acciones"\n', ""), "field 'description' is missing"),
        (VOCAB + '[[vocabulary.acciones.term]]\nterm = "X"\nplural = "Xs"\n', "unknown fields ['plural']"),
    ],
)
def test_faulty_vocabularies(tmp_path: Path, vocab: str, expected: str) -> None:
    write(tmp_path, vocab=vocab)
    with pytest.raises(BankError) as info:
        load_bank([GAME], root=tmp_path)
    assert expected in str(info.value)
    assert "vocabularies.toml" in str(info.value)


@pytest.mark.parametrize(
    ("coverage", "expected"),
    [
        ('[[section]]\nid = "market-fortune/nope"\nreason = "x"\n', "names no section"),
        ('[[section]]\nid = "market-fortune/creditos"\nreason = " "\n', "field 'reason' is empty"),
        (COVERAGE + COVERAGE, "listed twice"),
        ('[[section]]\nid = "market-fortune/rulings/errata-cartas-unicas"\nreason = "x"\n', "list rulebook ones"),
    ],
)
def test_faulty_coverage(tmp_path: Path, coverage: str, expected: str) -> None:
    write(tmp_path, coverage=coverage)
    with pytest.raises(BankError) as info:
        load_bank([GAME], root=tmp_path)
    assert expected in str(info.value) and "coverage.toml" in str(info.value)


def test_item_lookup(tmp_path: Path) -> None:
    write(tmp_path)
    bank = load_bank([GAME], root=tmp_path)
    gen = next(g for g in GENERATORS.values() if g.game == GAME)
    assert bank.item(f"{GAME}/gen/{gen.name}/12") == gen.make(12)
    for bad in [f"{GAME}/gen/{gen.name}/-1", f"{GAME}/gen/{gen.name}/x", f"{GAME}/gen/nope/1", f"{GAME}/q/nope", "x"]:
        with pytest.raises(UnknownItem):
            bank.item(bad)
    with pytest.raises(UnknownItem):
        bank.item(f"{GAME}/gen/{gen.name}/{2**64}")
    with pytest.raises(UnknownBankGame, match="market-fortune"):
        bank.game("parchis")
    assert bank.citing("market-fortune/cap-2/tu-turno")[0].id == "market-fortune/r/uno"


def test_parse_computed() -> None:
    fn, args = parse_computed("club_agentes.quizzes.generators.market_fortune.answers:least_fourth_value(8, 6, 5)")
    assert fn(*args) == 6
    fn, args = parse_computed("club_agentes.quizzes.generators.market_fortune.answers.combined_extremes")
    assert args == () and fn() == 12
    for bad in [
        "",
        "no_module",
        "club_agentes.quizzes.generators.market_fortune.answers:least_fourth_value(os.system('x'))",
        "a b:c",
    ]:
        with pytest.raises(ValueError):
            parse_computed(bad)


# --------------------------------------------------------------------------- the private bank

PRIVATE = """
[[item]]
id = "market-fortune/q/privada-ocho"
game = "market-fortune"
kind = "question"
type = "integer"
prompt = "Un jugador privado quiere saber el total fijo de su regla: ¿cuántas cartas de construcción suma siempre?"
answer = "8"
sections = ["market-fortune/cap-2/regla-8-cartas"]

[[item]]
id = "se-vende/r/privado-fases"
game = "se-vende"
kind = "riddle"
type = "integer"
prompt = "Somos las que se eligen en secreto al comienzo de cada ronda: ¿cuántas somos?"
answer = "5"
sections = ["se-vende/resumen"]
computed = "builtins:abs(5)"
"""


def private_item(**fields: object) -> str:
    base = {"game": GAME, "kind": "question", "id": "market-fortune/q/privada", "prompt": "¿Cuántas, en privado?"}
    return item(**{**base, **fields})


def test_a_private_bank_loads_for_several_games(tmp_path: Path) -> None:
    path = tmp_path / "private.toml"
    path.write_text(PRIVATE, encoding="utf-8")
    private = load_private_bank(path, market_fortune_and_se_vende())
    assert len(private) == 2
    assert [it.id for it in private.items(GAME, "question")] == ["market-fortune/q/privada-ocho"]
    assert private.items(GAME, "riddle") == [] and private.items("se-vende", "riddle")[0].answer == "5"
    assert private.get("se-vende/r/privado-fases") is not None and private.get("se-vende/r/otra") is None


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("", "holds no [[item]]"),
        ("x = 1\n", "unknown top-level keys ['x']"),
        (private_item(game="parchis"), "field 'game' must be one of"),
        (private_item(kind="acertijo"), "field 'kind' must be 'question' or 'riddle'"),
        (private_item(id="market-fortune/r/privada"), "field 'id' must be market-fortune/q/<slug>"),
        (private_item(answer="9"), "field 'answer' the number 9 does not appear in the cited sections"),
        (private_item(sections=["market-fortune/nope"]), "field 'sections' cites 'market-fortune/nope'"),
        (private_item(id="market-fortune/q/regla-de-las-ocho"), "used twice (in this file or in the public bank)"),
        (private_item() + private_item(), "used twice"),
        (private_item(prompt="¿Son 8 cartas?"), "field 'prompt' the prompt's own words are accepted"),
    ],
)
def test_a_faulty_private_bank_is_refused_naming_the_item(tmp_path: Path, text: str, expected: str) -> None:
    path = tmp_path / "private.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(BankError) as info:
        load_private_bank(path, market_fortune_and_se_vende())
    assert expected in str(info.value) and str(path) in str(info.value)


def test_a_missing_private_bank_is_refused(tmp_path: Path) -> None:
    with pytest.raises(BankError, match="the file is missing"):
        load_private_bank(tmp_path / "nope.toml", market_fortune_and_se_vende())
