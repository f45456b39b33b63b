"""Copy the card facts the project needs out of the reference card file (run once, by hand).

    python tools/import_card_facts.py ../shared/reference

The project never reads ``../shared`` at run time: this writes ``mtg_env/cards/data/facts.json``,
which is committed.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

FIELDS = ("name", "mana_cost", "colors", "supertypes", "types", "subtypes", "power",
          "toughness", "text", "rarity", "type_line")


def main(ref_dir: str) -> None:
    ref = Path(ref_dir)
    cards = json.loads((ref / "tenth_edition_cards.json").read_text())
    out: dict[str, dict] = {}
    for c in cards:
        if c["name"] in out:
            continue
        out[c["name"]] = {k: c.get(k) for k in FIELDS} | {"number": c["number"]}
    tokens = json.loads((ref / "tenth_edition_tokens.json").read_text())
    tok = {}
    for t in tokens:
        tok[t["name"] + " Token"] = {k: t.get(k) for k in FIELDS if k in t} | {"token": True}
    dest = Path(__file__).resolve().parent.parent / "mtg_env" / "cards" / "data"
    (dest / "facts.json").write_text(json.dumps({"cards": out, "tokens": tok}, indent=0,
                                                sort_keys=True) + "\n")
    decks = dest.parent.parent / "decks"
    decks.mkdir(exist_ok=True)
    for f in sorted((ref / "decks").glob("*.txt")):
        (decks / f.name).write_text(f.read_text())
    print(f"wrote {len(out)} cards, {len(tok)} tokens, decks to {decks}")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "../shared/reference")
