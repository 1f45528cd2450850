"""Reading a guest's last name out of what they write ("HL20481, Costa", "surname is de Vries")."""

from __future__ import annotations

import re

from benchmarks.domains.hotel._parse import EMAIL, NEGATIVE, REF

_STOP = set(
    "hi hello hey dear yes yeah yep sure ok okay thanks thank you please my the it it's its is and "
    "or but booking reference ref last name surname family first i i'm im this that here good "
    "morning afternoon evening mr mrs ms miss dr number code harbourline hotel lisbon porto dublin "
    "email date birth born of on at for under a an to me we our us no not sorry actually just "
    "reservation confirmation well so oh um right correct that's would be with in from as name's "
    "sure, also can could you need want like have has do does did will shall should there "
    "january february march april may june july august september october november december "
    "monday tuesday wednesday thursday friday saturday sunday breakfast late checkout check "
    "cancel upgrade room suite superior family standard cot baby dates stay night nights guest "
    "guests new phone mobile address request change move add please here".split()
)
_PARTICLES = set(
    "de da das do dos van von der den del della di du la le mac mc st ten ter y bin al el".split()
)
_TOKEN = re.compile(r"[^\W\d_][\w'’-]*|[^\w\s]")
_CONTRACTION = re.compile(r"^[a-z]+['’](?:d|ll|ve|re|m|s|t)$")
_CUE_SURNAME = re.compile(
    r"\b(?:last|family|sur)[\s-]?name\b(?:\s*['’]s|\s+(?:is|it'?s|would be))?"
)
_CUE_SELF = re.compile(r"\b(?:my name is|my name's|i am|i'm|this is)\b")
_CUE_NAME = re.compile(r"\b(?:under|in) the name(?: of)?\b|\bname\b(?:\s+is|'s|:)?")
_CUE_ITS = re.compile(r"\bit'?s\b|\bit is\b")


def _skip(low: str) -> bool:
    return low in _STOP or bool(_CONTRACTION.match(low))


def _run(tokens: list[str], *, any_case: bool, lead: int = 2) -> list[str]:
    """The name at the start of `tokens` (up to three words), after at most `lead` fillers."""
    out: list[str] = []
    skipped = 0
    for i, tok in enumerate(tokens):
        low = tok.lower()
        nxt = tokens[i + 1] if i + 1 < len(tokens) else ""
        if low in _PARTICLES and nxt[:1].isupper():
            out.append(tok)
        elif (
            len(tok) > 1
            and tok[:1].isalpha()
            and not _skip(low)
            and (tok[:1].isupper() or any_case)
        ):
            out.append(tok)
        elif out:
            break
        else:
            skipped += 1
            if skipped > lead:
                break
        if len(out) >= 3:
            break
    return out


def last_name(text: str, *, asked: bool) -> str | None:
    """The last name a guest gives ("surname is de Vries", "HL20481, Costa", "I'm Ana Costa")."""
    no_mail = EMAIL.sub(" ", text)
    clean = re.sub(r"\d[\d/.:-]*", " ", REF.sub(" ", no_mail))
    cues = [(_CUE_SURNAME, True), (_CUE_SELF, False), (_CUE_NAME, asked)]
    if asked:
        cues.append((_CUE_ITS, True))
    for cue, any_case in cues:
        m = cue.search(clean.lower())
        run = _run(_TOKEN.findall(clean[m.end() :]), any_case=any_case) if m else []
        if run and cue is _CUE_SELF and len(run) >= 2 and run[0].lower() not in _PARTICLES:
            run = run[1:]  # "I'm Ana Costa": the first name comes first
        if run:
            return " ".join(run)
    ref = REF.search(no_mail)
    after = re.split(r"[.!?;]", no_mail[ref.end() : ref.end() + 40])[0] if ref else ""
    run = _run(_TOKEN.findall(after), any_case=False)  # "HL20533, Reis" / "HL31022 Becker"
    here = re.search(r"\b((?:[A-Z][\w'’-]+\s+)?[A-Z][\w'’-]+)\s+here\b", clean)  # "Ana Costa here"
    if not run and here:
        run = _run(_TOKEN.findall(here[1]), any_case=False)[-1:]
    if run:
        return " ".join(run)
    if not asked:
        return None
    tokens = _TOKEN.findall(clean)
    runs: list[list[str]] = []
    i = 0
    while i < len(tokens):
        run = _run(tokens[i:], any_case=False, lead=0) if _namelike(tokens, i) else []
        runs += [run] if run else []
        i += len(run) or 1
    if runs:
        return " ".join(runs[-1])
    alpha = [t for t in tokens if t[:1].isalpha()]
    words = [t for t in alpha if not _skip(t.lower())]
    if len(alpha) <= 3 and len(words) == 1 and not NEGATIVE.search(words[0].lower()):
        return words[0]
    return None


def _namelike(tokens: list[str], i: int) -> bool:
    tok, nxt = tokens[i], tokens[i + 1] if i + 1 < len(tokens) else ""
    if tok.lower() in _PARTICLES:
        return nxt[:1].isupper()
    return tok[:1].isupper() and not _skip(tok.lower())
