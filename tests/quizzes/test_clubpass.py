"""The club pass: signed, scoped, expiring, revocable, checked against its stored record; the signing key
from the environment or a private key file; every refusal says why."""

from __future__ import annotations

import base64
import json
import logging
import os
import stat
from pathlib import Path

import jwt
import pytest
from club_agentes.quizzes.clubpass import (
    AUDIENCE,
    ISSUER,
    ClubPasses,
    SecretTooShort,
    SigningKeyError,
    default_key_path,
    iso_utc,
    key_from_env,
    load_key_file,
    signing_key,
    verify_club_pass,
)
from club_agentes.quizzes.store import MemoryQuizStore

from club_agentes.errors import Refused
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


def issued_claims(office: ClubPasses, token: str) -> dict[str, object]:
    options = {"verify_aud": False, "verify_iat": False, "verify_exp": False}
    return jwt.decode(token, SECRET, algorithms=["HS256"], options=options)


def test_wrong_audience_and_issuer(office: ClubPasses) -> None:
    token, _ = office.issue("agent", ["market-fortune"])
    claims = issued_claims(office, token)
    check = office.verify(forge({**claims, "aud": "other-service"}))
    assert not check.valid
    assert check.reason == "the pass is for audience 'other-service', not club-agentes-tables"
    check = office.verify(forge({**claims, "iss": "someone"}))
    assert not check.valid and "issued by 'someone'" in check.reason
    assert office.verify(forge(claims)).valid, "the same claims signed by the same key are the same pass"


@pytest.mark.parametrize(
    ("change", "words"),
    [
        ({"games": ["market-fortune", "se-vende", "yo-soy-el-jefe"]}, "it lists market-fortune, se-vende"),
        ({"sub": "mallory"}, "it names 'mallory' but was issued to 'agent'"),
        ({"exp": "later"}, "it expires at"),
        ({"iat": "earlier"}, "it says it was issued at"),
    ],
)
def test_a_pass_reminted_on_an_existing_id_is_refused(office: ClubPasses, change: dict, words: str) -> None:
    """Whoever holds the key still cannot mint a pass the club did not issue: the record is the truth."""
    token, record = office.issue("agent", ["market-fortune"])
    claims = issued_claims(office, token)
    if change.get("exp") == "later":
        change = {"exp": int(record.expires_at) + 365 * 24 * 3600}
    if change.get("iat") == "earlier":
        change = {"iat": int(record.issued_at) - 60}
    check = office.verify(forge({**claims, **change}))
    assert not check.valid
    assert f"does not match the club's record of pass {record.jti}" in check.reason and words in check.reason
    assert "minted outside the club" in check.reason


def test_revoked_pass(office: ClubPasses) -> None:
    token, record = office.issue("agent", ["market-fortune"])
    assert office.revoke(record.jti)
    check = office.verify(token)
    assert not check.valid and check.reason == "the pass was revoked"
    assert not office.revoke("no-such-pass")


def test_unregistered_pass(office: ClubPasses) -> None:
    check = office.verify(forge(base_claims(office, "never-issued")))
    assert not check.valid and "register" in check.reason


def test_a_revocation_is_seen_at_once_by_another_office_on_the_same_store(
    office: ClubPasses, store: MemoryQuizStore, clock: FakeClock
) -> None:
    other = ClubPasses(store, clock=clock, secret=SECRET)
    token, record = office.issue("agent", ["market-fortune"])
    assert other.verify(token).valid
    office.revoke(record.jti)
    assert other.verify(token).reason == "the pass was revoked"


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


def test_key_from_the_environment(caplog: pytest.LogCaptureFixture) -> None:
    assert key_from_env({"CLUB_AGENTES_SECRET": "s" * 40}) == b"s" * 40
    assert key_from_env({}) is None
    with caplog.at_level(logging.WARNING, logger="club_agentes.passes"):
        assert key_from_env({"CLUB_SECRET": "o" * 32}) == b"o" * 32
    assert "CLUB_SECRET is deprecated; set CLUB_AGENTES_SECRET" in caplog.text
    assert key_from_env({"CLUB_AGENTES_SECRET": "n" * 32, "CLUB_SECRET": "o" * 32}) == b"n" * 32


@pytest.mark.parametrize(
    ("value", "words"), [("", "is set but empty"), ("   ", "is set but empty"), ("short", "5 bytes")]
)
def test_an_empty_or_short_secret_is_refused_with_one_sentence(value: str, words: str) -> None:
    with pytest.raises(SecretTooShort) as info:
        key_from_env({"CLUB_AGENTES_SECRET": value})
    assert isinstance(info.value, Refused) and words in str(info.value) and "\n" not in str(info.value)
    with pytest.raises(SecretTooShort):
        signing_key(None, key_file=Path("/nonexistent/never-created.key"), secret=value)


def test_the_key_file_is_made_private_once_and_reused(tmp_path: Path) -> None:
    path = tmp_path / "data" / "keys" / "club-pass.key"
    key = signing_key(None, key_file=path)
    assert len(key) == 32 and signing_key(None, key_file=path) == key
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700
    assert load_key_file(path) == key and path.read_text().strip() == key.hex()
    assert signing_key(None, key_file=path, secret="e" * 32) == b"e" * 32, "the environment wins"


def test_a_key_file_open_to_others_or_malformed_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "club-pass.key"
    path.write_text("ab" * 32)
    path.chmod(0o644)
    with pytest.raises(SigningKeyError, match=r"open to other users \(mode 0644\); make it private with chmod 600"):
        signing_key(None, key_file=path)
    path.chmod(0o600)
    assert signing_key(None, key_file=path) == bytes.fromhex("ab" * 32)
    path.write_text("not hex at all")
    with pytest.raises(SigningKeyError, match="does not hold a hex key"):
        load_key_file(path)
    path.write_text("ab" * 8)
    with pytest.raises(SecretTooShort, match="8-byte key"):
        load_key_file(path)


def test_a_key_kept_in_the_database_moves_into_the_key_file(tmp_path: Path, clock: FakeClock) -> None:
    old = MemoryQuizStore(legacy_key=b"L" * 32)
    token, _ = ClubPasses(old, clock=clock, secret=b"L" * 32).issue("agent", ["se-vende"])
    path = tmp_path / "keys" / "club-pass.key"
    key = signing_key(old, key_file=path)
    assert key == b"L" * 32 and old.legacy_key is None and load_key_file(path) == key
    assert ClubPasses(old, clock=clock, secret=key).verify(token).valid, "passes made before the move stay valid"


def test_default_key_path_sits_beside_the_database(tmp_path: Path) -> None:
    assert default_key_path(str(tmp_path / "club.sqlite3")) == tmp_path.resolve() / "keys" / "club-pass.key"
    assert default_key_path("postgresql://postgres@127.0.0.1/test").name == "club-pass.key"


def test_function_form(store: MemoryQuizStore, clock: FakeClock) -> None:
    token, _ = ClubPasses(store, clock=clock, secret=SECRET).issue("agent", ["yo-soy-el-jefe"])
    assert verify_club_pass(token, "yo-soy-el-jefe", store=store, secret=SECRET, clock=clock).valid
    check = verify_club_pass(token, "se-vende", store=store, secret=SECRET, clock=clock)
    assert not check.valid
    assert check.to_dict()["expires_at_iso"] == iso_utc(clock() + 30 * 24 * 3600)


def test_bad_configuration(store: MemoryQuizStore) -> None:
    with pytest.raises(SecretTooShort):
        ClubPasses(store, secret=b"short")
    with pytest.raises(SecretTooShort):
        ClubPasses(store, secret=b"")
    with pytest.raises(ValueError):
        ClubPasses(store, secret=SECRET, ttl_seconds=0)
    with pytest.raises(ValueError):
        ClubPasses(store, secret=SECRET).issue("agent", [])


def _create_key(path: str) -> str:
    from club_agentes.quizzes.clubpass import write_key_file

    return write_key_file(Path(path), os.urandom(32)).hex()


def test_servers_started_at_once_on_a_fresh_folder_all_get_the_one_key(tmp_path: Path) -> None:
    """An evaluation starts one server per sample on one folder: every process must end up with the same
    whole key, none may see the folder or the key file half made (that crashed servers at start)."""
    from concurrent.futures import ProcessPoolExecutor

    for round_ in range(20):
        path = tmp_path / f"run{round_}" / "keys" / "club-pass.key"
        with ProcessPoolExecutor(max_workers=8) as pool:
            keys = list(pool.map(_create_key, [str(path)] * 16))
        assert len(set(keys)) == 1 and bytes.fromhex(keys[0]) == load_key_file(path)
        assert oct(path.stat().st_mode & 0o777) == "0o600" and list(path.parent.iterdir()) == [path]
