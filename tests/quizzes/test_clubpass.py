"""The club pass: signed, scoped, expiring, revocable; every refusal says why."""

from __future__ import annotations

import base64
import json

import jwt
import pytest
from club_agentes.quizzes.clubpass import (
    AUDIENCE,
    ISSUER,
    ClubPasses,
    SecretTooShort,
    iso_utc,
    signing_key,
    verify_club_pass,
)
from club_agentes.quizzes.store import MemoryQuizStore

from tests.quizzes.conftest import SECRET, FakeClock


@pytest.fixture
def office(store: MemoryQuizStore, clock: FakeClock) -> ClubPasses:
    return ClubPasses(store, clock=clock, secret=SECRET, ttl_seconds=3600)


def test_issue_and_verify(office: ClubPasses, store: MemoryQuizStore) -> None:
    token, record = office.issue("agent-7", ["se-vende", "market-fortune"])
    claims = jwt.decode(
        token,
        SECRET,
        algorithms=["HS256"],
        audience=AUDIENCE,
        issuer=ISSUER,
        options={"verify_exp": False, "verify_iat": False},
    )
    assert claims["sub"] == "agent-7"
    assert claims["games"] == ["market-fortune", "se-vende"]
    assert claims["exp"] - claims["iat"] == 3600
    assert claims["jti"] == record.jti and store.load_pass(record.jti) == record
    check = office.verify(token, "se-vende")
    assert check.valid
    assert (check.agent, check.games, check.expires_at) == (
        "agent-7",
        ("market-fortune", "se-vende"),
        record.expires_at,
    )
    assert office.verify(token).valid


def test_unique_ids(office: ClubPasses) -> None:
    jtis = {office.issue("a", ["market-fortune"])[1].jti for _ in range(50)}
    assert len(jtis) == 50


def test_expired_pass(office: ClubPasses, clock: FakeClock) -> None:
    token, record = office.issue("agent", ["market-fortune"])
    clock.advance(3600)
    check = office.verify(token)
    assert not check.valid
    assert check.reason == f"the pass expired at {iso_utc(record.expires_at)}"
    assert check.reason == "the pass expired at 2027-01-15T09:00:00Z"


def test_tampered_pass(office: ClubPasses) -> None:
    token, _ = office.issue("agent", ["market-fortune"])
    header, payload, signature = token.split(".")
    claims = json.loads(base64.urlsafe_b64decode(payload + "=="))
    claims["games"] = ["market-fortune", "se-vende", "yo-soy-el-jefe"]
    forged = base64.urlsafe_b64encode(json.dumps(claims).encode()).rstrip(b"=").decode()
    check = office.verify(f"{header}.{forged}.{signature}")
    assert not check.valid and "signature does not match" in check.reason
    assert check.agent is None and check.games == ()
    flipped = signature[:-2] + ("A" if signature[-2] != "A" else "B") + signature[-1]
    assert "signature does not match" in office.verify(f"{header}.{payload}.{flipped}").reason


def test_signed_by_another_key(office: ClubPasses, store: MemoryQuizStore, clock: FakeClock) -> None:
    other = ClubPasses(store, clock=clock, secret=b"z" * 32)
    token, _ = other.issue("agent", ["market-fortune"])
    assert "signature does not match" in office.verify(token).reason


def forge(claims: dict[str, object], key: bytes = SECRET, algorithm: str = "HS256") -> str:
    return jwt.encode(claims, key, algorithm=algorithm)


def base_claims(office: ClubPasses, jti: str) -> dict[str, object]:
    now = int(office.clock())
    return {
        "iss": ISSUER,
        "aud": AUDIENCE,
        "sub": "agent",
        "games": ["market-fortune"],
        "iat": now,
        "exp": now + 60,
        "jti": jti,
    }


def test_wrong_audience_and_issuer(office: ClubPasses) -> None:
    _, record = office.issue("agent", ["market-fortune"])
    claims = base_claims(office, record.jti)
    check = office.verify(forge({**claims, "aud": "other-service"}))
    assert not check.valid
    assert check.reason == "the pass is for audience 'other-service', not club-agentes-tables"
    check = office.verify(forge({**claims, "iss": "someone"}))
    assert not check.valid and "issued by 'someone'" in check.reason
    assert office.verify(forge(claims)).valid


def test_revoked_pass(office: ClubPasses) -> None:
    token, record = office.issue("agent", ["market-fortune"])
    assert office.revoke(record.jti)
    check = office.verify(token)
    assert not check.valid and check.reason == "the pass was revoked"
    assert not office.revoke("no-such-pass")


def test_unregistered_pass(office: ClubPasses) -> None:
    check = office.verify(forge(base_claims(office, "never-issued")))
    assert not check.valid and "register" in check.reason


def test_pass_does_not_cover_game(office: ClubPasses) -> None:
    token, _ = office.issue("agent", ["market-fortune"])
    check = office.verify(token, "se-vende")
    assert not check.valid
    assert check.reason == "the pass does not cover se-vende; it covers market-fortune"


@pytest.mark.parametrize(
    ("token", "words"),
    [
        ("", "empty"),
        ("not a token", "well-formed"),
        ("a.b.c", "well-formed"),
        ("x" * 9000, "longer than"),
    ],
)
def test_garbage(office: ClubPasses, token: str, words: str) -> None:
    check = office.verify(token)
    assert not check.valid and words in check.reason


def test_other_algorithms_are_refused(office: ClubPasses) -> None:
    _, record = office.issue("agent", ["market-fortune"])
    header = base64.urlsafe_b64encode(b'{"alg":"none","typ":"JWT"}').rstrip(b"=").decode()
    body = base64.urlsafe_b64encode(json.dumps(base_claims(office, record.jti)).encode()).rstrip(b"=").decode()
    check = office.verify(f"{header}.{body}.")
    assert not check.valid and "only HS256" in check.reason
    hs512 = forge(base_claims(office, record.jti), key=SECRET * 2, algorithm="HS512")
    assert "only HS256" in office.verify(hs512).reason


def test_missing_claims(office: ClubPasses) -> None:
    claims = base_claims(office, "x")
    del claims["games"]
    check = office.verify(forge(claims))
    assert not check.valid and "lacks the claims games" in check.reason


def test_key_from_the_environment(store: MemoryQuizStore) -> None:
    assert signing_key(store, {"CLUB_SECRET": "s" * 40}) == b"s" * 40
    with pytest.raises(SecretTooShort):
        signing_key(store, {"CLUB_SECRET": "short"})
    generated = signing_key(store, {})
    assert len(generated) == 32 and signing_key(store, {}) == generated == store.key


def test_environment_key_is_used_by_default(
    store: MemoryQuizStore, clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CLUB_SECRET", "e" * 32)
    token, _ = ClubPasses(store, clock=clock).issue("agent", ["market-fortune"])
    assert jwt.decode(
        token, b"e" * 32, algorithms=["HS256"], audience=AUDIENCE, options={"verify_exp": False, "verify_iat": False}
    )
    monkeypatch.setenv("CLUB_SECRET", "tiny")
    with pytest.raises(SecretTooShort):
        ClubPasses(store, clock=clock)


def test_function_form(store: MemoryQuizStore, clock: FakeClock) -> None:
    token, _ = ClubPasses(store, clock=clock, secret=SECRET).issue("agent", ["yo-soy-el-jefe"])
    assert verify_club_pass(token, "yo-soy-el-jefe", store=store, secret=SECRET, clock=clock).valid
    check = verify_club_pass(token, "se-vende", store=store, secret=SECRET, clock=clock)
    assert not check.valid
    assert check.to_dict()["expires_at_iso"] == iso_utc(clock() + 30 * 24 * 3600)


def test_bad_configuration(store: MemoryQuizStore) -> None:
    with pytest.raises(SecretTooShort):
        ClubPasses(store, secret=b"short")
    with pytest.raises(ValueError):
        ClubPasses(store, secret=SECRET, ttl_seconds=0)
    with pytest.raises(ValueError):
        ClubPasses(store, secret=SECRET).issue("agent", [])
