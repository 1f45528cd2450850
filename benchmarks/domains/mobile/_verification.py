"""How the bot verifies the account holder: PIN or date of birth, the PIN for SIM swaps."""

from __future__ import annotations

from typing import Any

from benchmarks.domains.mobile._rules import show_phone


class Verification:
    """Mixin of CorrectMobileAgent: verifying the caller before any disclosure or change."""

    s: dict[str, Any]

    def _say(self, text: str) -> None: ...
    async def _call(self, name: str, args: dict[str, Any]) -> tuple[Any, str | None]: ...

    # -- verification ----------------------------------------------------------------------

    def _pin_required(self, intent: dict[str, Any]) -> bool:
        return intent["kind"] == "sim_swap"

    async def _ensure_verified(self, intent: dict[str, Any]) -> str:
        s = self.s
        need_pin = self._pin_required(intent)
        verified = s["verified"]
        if verified and not (need_pin and verified["method"] != "account_pin"):
            return "ok"
        if s["locked"]:
            self._say(
                "I'm sorry, verification is locked after three failed attempts, so I can't make "
                "changes today. Please visit a Brightwave store with photo ID."
            )
            return "done"
        if need_pin and not s["pin"] and s["no_pin"]:
            self._say(
                "I'm sorry, I can't order a replacement SIM without your account PIN. SIM swaps "
                "are a common way to take over someone's number, so for them I must verify you "
                "with the PIN; a date of birth is not enough. You can reset your PIN in the "
                "Brightwave app (Account > Security) or in any Brightwave store with photo ID."
            )
            return "done"
        phone = (verified or {}).get("phone") or s["phone"]
        secret = s["pin"] if (s["pin"] or need_pin) else s["dob"]
        if not phone or not secret:
            self._ask_verification(intent)
            return "wait"
        return await self._verify(intent, phone)

    async def _verify(self, intent: dict[str, Any], phone: str) -> str:
        s = self.s
        args: dict[str, Any] = {"phone_number": phone}
        if s["pin"]:
            args["account_pin"] = s["pin"]
        else:
            args["date_of_birth"] = s["dob"]
        attempt = f"{phone}:{args.get('account_pin') or args.get('date_of_birth')}"
        if attempt in s["failed"]:
            # The same details failed before: the number is the likelier mistake.
            s["phone"] = None
            self._say(f"Those are the same details that didn't match the account for "
                      f"{show_phone(phone)}. Is that the right mobile number for your account?")
            self._ask_verification(intent, only="phone")
            return "wait"
        result, error = await self._call("verify_account", args)
        if error:
            s["failed"].append(attempt)
            return self._verify_failed(intent, error, phone)
        s["verified"] = {
            "customer_id": result["customer_id"], "name": result["holder_name"],
            "method": result["method"], "lines": result["lines"], "phone": phone,
        }
        s["account"] = None
        self._say(f"Thank you, {result['holder_name'].split()[0]}, you're verified.")
        return "ok"

    def _verify_failed(self, intent: dict[str, Any], error: str, phone: str) -> str:
        s = self.s
        if "locked" in error:
            s["locked"] = True
            s["queue"].clear()
            self._say(
                "I'm sorry, that's three failed attempts, so verification is now locked and I "
                "can't make changes today. Please visit a Brightwave store with photo ID."
            )
            return "done"
        if "No Brightwave line" in error:
            s["phone"] = None
            self._say(f"I can't find a Brightwave line with the number {show_phone(phone)}.")
            self._ask_verification(intent, only="phone")
        elif "PIN" in error:
            s["pin"] = None
            self._say(f"That PIN doesn't match the account for {show_phone(phone)}.")
            self._ask_verification(intent, only="pin")
        else:
            s["dob"] = None
            self._say(f"That date of birth doesn't match our records for {show_phone(phone)}.")
            self._ask_verification(intent, only="dob")
        return "wait"

    def _ask_verification(self, intent: dict[str, Any] | None, only: str | None = None) -> None:
        s = self.s
        need_pin = bool(intent) and self._pin_required(intent or {})
        has_phone = bool(s["phone"] or s["verified"])
        s["asked"] = "pin" if need_pin else "verify"
        if only == "phone" or not has_phone:
            s["asked"] = "verify"
            if only == "phone":
                self._say("Could you check the mobile number on the account?")
                return
            if need_pin:
                self._say(
                    "I can help with that. First I need to verify you as the account holder: "
                    "what's the mobile number on the account, and your 4-digit account PIN? For "
                    "replacement SIMs I need the PIN itself; a date of birth isn't enough."
                )
            else:
                self._say(
                    "I can help with that. First I need to verify you as the account holder: "
                    "what's the mobile number on the account, and your 4-digit account PIN? If "
                    "you don't have the PIN, your date of birth will do."
                )
        elif need_pin:
            self._say(
                "For a replacement SIM I need to verify you with your 4-digit account PIN (a "
                "date of birth isn't enough for SIM changes). What's your PIN?"
            )
        elif s["no_pin"] and not s["dob"]:
            s["asked"] = "verify"
            self._say("No problem, your date of birth will do instead. What is it?")
        elif only == "dob":
            self._say("Could you check your date of birth, or give me your account PIN instead?")
        elif only == "pin":
            self._say("Could you check it? If you don't have it, your date of birth will do.")
        else:
            self._say("Thanks. And your 4-digit account PIN, or your date of birth?")
