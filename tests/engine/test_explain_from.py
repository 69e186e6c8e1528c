"""evaluate_table(explain_from=n): explanations only from deal n on, and the same ones."""

from __future__ import annotations

from scoring.engine import evaluate_table, generate_deals

OPTIONS = {"kontra": True, "ramsch": "when_all_pass",
           "bock": {"triggers": ["sixty_sixty", "kontra_lost", "re"], "ramsch_round_after": 1}}


def test_explanations_start_at_the_deal_asked_for() -> None:
    table = {"rules": "isko", "options": OPTIONS, "players": ["Anna", "Bernd", "Clara"],
             "deals": generate_deals(40, 3, "isko", OPTIONS, seed=3)}
    full = evaluate_table(table, lang="de", explain=True)
    tail = evaluate_table(table, lang="de", explain=True, explain_from=38)
    assert [("explanation" in d) for d in tail["deals"]] == [False] * 37 + [True] * 3
    assert [d["explanation"] for d in tail["deals"][37:]] == [
        d["explanation"] for d in full["deals"][37:]]
    assert tail["totals"] == full["totals"]
