"""The terminal's words in English and German (``stich play --lang en|de``).

The web keeps its texts in ``static/i18n``; the terminal has its own small
catalogue here, because it says other things (prompts, the commands it
understands) and must not depend on the web package.  Every key exists in
both languages (a test checks it), and one language is used for a whole
sitting: the game types, the score-sheet labels, the evaluation and the
prompts, so that "normal game" and "Normalspiel" never meet on one screen.

Action texts (``play H10``, ``announce re``, ``solo damen``) are the engine's
notation, typed as they are shown, and stay the same in both languages.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Final

from stich.cli.shared_texts import SHARED

LANGUAGES: Final = ("en", "de")

_EN: dict[str, str] = {
    # seats and sitting
    "you": "You",
    "seat": "Seat {n}",
    "seat_bot": "Seat {n} ({bot})",
    "intro_seat": "You are seat {seat}; {others}. Seed {seed} (play again with --seed {seed}).",
    "intro_other": "seat {n} {bot}",
    "intro_help": "Type [bold]help[/] for help.",
    "list_over": "The list is over after {n} deals.",
    "abandoned": "Game abandoned. ",
    "game_over": "[bold]Game over.[/] ",
    "totals": "Totals: ",
    "deal": "[bold]Deal {n}[/]",
    "dealer": " — dealer: {name}",
    "evaluation": "[bold underline]Evaluation[/]",
    "trick_line": "  Trick {n}: {cards}  → [bold]{winner}[/]{eyes}",
    "game_line": "Game: {title}",
    "game_soloist": ", soloist {name}",
    "game_hochzeiter": ", wedding of {name}",
    "game_poor": ", poverty of {name}",
    "game_armut_taker": ", taken by {name}",
    "you_play": "; you play [bold]{party}[/]",
    "you_play_short": ", you play {party}",
    "your_turn_trick": "[bold]Your turn[/] (trick {n}{party})",
    "your_turn_phase": "[bold]Your turn[/] ({phase}{party})",
    "table_lead": "  Table: you lead",
    "table": "  Table: {cards}",
    "talon_half": "  Talon {half}: {cards}",
    "your_hand": "Your hand: {cards}",
    "choices": "Choices: {menu}",
    "no_cards": "(no cards)",
    "no_cards_yet": "(no cards yet)",
    "unit.eyes": "eyes",
    "unit.eyes_one": "eye",
    "unit.points": "points",
    "unit.points_one": "point",
    # input
    "empty_input": "Type a number 1–{n}, an action such as 'play H10', or help.",
    "not_allowed": "[red]Not allowed:[/] {reason}. Allowed: {allowed}",
    "no_choice": "[red]No choice {number}:[/] type a number from 1 to {n}. Allowed: {allowed}",
    "not_understood": "[red]Not understood:[/] {text} is no choice, action or command. "
    "Type 1–{n}, an action such as 'play H10' or 're', or one of: {commands}.",
    "no_trick_yet": "No trick has been completed yet.",
    "no_deal_scored": "No deal has been scored yet.",
    "help_cards": "Type the number of a choice, or an action: [bold]play H10[/] or just [bold]H10[/] "
    "(cards as they are shown, {spelling}, or suits C S H D; tarocks T1–T22),",
    "help_spelling_french": "e.g. [bold]♥10[/]",
    "help_spelling_german": "e.g. [bold]SA[/] for the Schellen ace, [bold]EO[/] for the Eichel Ober",
    "help_words": "or the last word of an action on the menu: [bold]re[/], [bold]kontra[/], [bold]damen[/] for [bold]solo damen[/], "
    "[bold]dobbm[/] for [bold]bid dobbm[/], [bold]pass[/], [bold]accept[/].",
    "help_commands": "Commands: [bold]help[/] this text, [bold]hand[/] your hand, [bold]last[/] the last trick, "
    "[bold]score[/] the score sheet, [bold]quit[/] stop playing.",
    # private card lists
    "private.armut_given": "You handed over",
    "private.armut_returned": "Cards given back to the poor hand",
    # score sheet
    "sheet.title": "Score sheet",
    "sheet.number": "#",
    "sheet.dealer": "dealer",
    "sheet.game": "game",
    # Doppelkopf game types
    "kind.normal": "normal game",
    "kind.hochzeit": "wedding (Hochzeit)",
    "kind.armut": "poverty (Armut)",
    "kind.stille_hochzeit": "silent wedding (stille Hochzeit, scored as a solo)",
    "kind.hochzeit_solo": "wedding without partner (played as a Karo solo)",
    "kind.genscher": "Genscher (the holder of both ♦K chose a partner)",
    "sheet.normal": "normal game",
    "sheet.hochzeit": "wedding of {who}",
    "sheet.stille_hochzeit": "silent wedding of {who}",
    "sheet.hochzeit_solo": "wedding without partner, {who}",
    "sheet.genscher": "Genscher: {who} with {partner}",
    "sheet.armut": "poverty of {who}, taken by {taker}",
    "sheet.lustsolo": "voluntary solo {title}, {who}",
    "sheet.pflichtsolo": "compulsory solo {title}, {who}",
    "sheet.vorfuehrung": "forced solo (Vorführung) {title}, {who}",
    "sheet.bock": "bock ×{n}: {label}",
    # Doppelkopf evaluation
    "ev.thrown": "[bold]Thrown in[/] by {who} ({reason}): the deal is redealt and scores nothing.",
    "ev.game": "[bold]Game:[/] {title} — Re: {re}; Kontra: {kontra}",
    "ev.eyes": "[bold]Eyes:[/] Re {re}, Kontra {kontra}   [bold]Tricks:[/] Re {re_tricks}, Kontra {kontra_tricks}",
    "ev.calls": "[bold]Calls:[/] Re party {re}; Kontra party {kontra}",
    "ev.call_none": "none",
    "ev.winner": "[bold]Winner:[/] {party}",
    "ev.nobody": "nobody (both parties missed their goal)",
    "ev.game_value": "[bold]Game value:[/]",
    "ev.bock": "  × {n} (bock)",
    "ev.specials": "[bold]Special points:[/]",
    "ev.trick": ", trick {n}",
    "ev.value": "[bold]Value:[/] {value} for Re{factor}",
    "ev.solo_factor": " (the soloist scores it three times)",
    "ev.scores": "[bold]Scores:[/] ",
    "ev.announced": "{party} announced {level}",
    "item.gewonnen": "won the game",
    "item.unter_90": "the other party has under 90 eyes",
    "item.unter_60": "the other party has under 60 eyes",
    "item.unter_30": "the other party has under 30 eyes",
    "item.schwarz": "the other party took no trick (schwarz)",
    "item.re_angesagt": "Re was announced",
    "item.kontra_angesagt": "Kontra was announced",
    "item.gegen_keine90": "120 eyes against a keine 90",
    "item.gegen_keine60": "90 eyes against a keine 60",
    "item.gegen_keine30": "60 eyes against a keine 30",
    "item.gegen_schwarz": "30 eyes against a schwarz",
    "item.gegen_die_alten": "Kontra won against the queens of clubs (gegen die Alten)",
    "item.doppelkopf": "Doppelkopf: a trick of 40 or more eyes",
    "item.fuchs_gefangen": "fox caught (an opponent's ♦A)",
    "item.karlchen": "Karlchen: ♣J won the last trick",
    "item.doppeltes_karlchen": "double Karlchen: both ♣J of one party in the last trick",
    "item.karlchen_gefangen": "Karlchen caught in the last trick",
    "item.fuchs_letzter_stich": "a fox (♦A) won the last trick",
    "item.dulle_gefangen": "Dulle caught: the second ♥10 beat the first",
    "item.herzstich": "Herzstich: a hearts trick nobody trumped",
    "item.geklopft": "a knock (Klopfen) raised the value",
    # stich analyse
    "analyse.header": "Analysis of seat {seat} in {game} (seed {seed}, {budget} worlds per decision)",
    "analyse.none": "No costly decision: every choice was as good as the search's within its noise.",
    "analyse.row": "#{index:<3} {where:<9} played {played:<16} better {best:<16} cost {cost:.2f} ± {stderr:.2f}{exact}",
    "analyse.exact": " (exact)",
    "analyse.solved": " (solved in card points)",
    "analyse.trick": "trick {n}",
    "analyse.before": "bidding",
    "analyse.total": "{count} costly decision(s), total cost {total:.2f} points, of {decisions} decisions analysed",
    "analyse.progress": "decision {done} of {total}",
    # stich tournament standings
    "tournament.title": "Tournament {name} ({game}), scoring: {scoring}; deals counted: {deals}",
    "tournament.scoring.ddv_list": "DDV list (points, then games won)",
    "tournament.scoring.sum": "sum of the list",
    "tournament.header": "Rank  Player                  Table Seat  Points  Won Lost  Duplicate",
    "tournament.header_sum": "Rank  Player                  Table Seat  Points  Duplicate",
}

_DE: dict[str, str] = {
    "you": "Du",
    "seat": "Platz {n}",
    "seat_bot": "Platz {n} ({bot})",
    "intro_seat": "Du sitzt auf Platz {seat}; {others}. Seed {seed} (noch einmal mit --seed {seed}).",
    "intro_other": "Platz {n} {bot}",
    "intro_help": "[bold]hilfe[/] zeigt die Hilfe.",
    "list_over": "Die Liste ist nach {n} Spielen zu Ende.",
    "abandoned": "Spiel abgebrochen. ",
    "game_over": "[bold]Spielende.[/] ",
    "totals": "Stand: ",
    "deal": "[bold]Spiel {n}[/]",
    "dealer": " — Geber: {name}",
    "evaluation": "[bold underline]Abrechnung[/]",
    "trick_line": "  Stich {n}: {cards}  → [bold]{winner}[/]{eyes}",
    "game_line": "Spiel: {title}",
    "game_soloist": ", Solospieler {name}",
    "game_hochzeiter": ", Hochzeit von {name}",
    "game_poor": ", Armut von {name}",
    "game_armut_taker": ", übernommen von {name}",
    "you_play": "; du spielst [bold]{party}[/]",
    "you_play_short": ", du spielst {party}",
    "your_turn_trick": "[bold]Du bist dran[/] (Stich {n}{party})",
    "your_turn_phase": "[bold]Du bist dran[/] ({phase}{party})",
    "table_lead": "  Tisch: du spielst aus",
    "table": "  Tisch: {cards}",
    "talon_half": "  Talon {half}: {cards}",
    "your_hand": "Deine Hand: {cards}",
    "choices": "Auswahl: {menu}",
    "no_cards": "(keine Karten)",
    "no_cards_yet": "(noch keine Karte)",
    "unit.eyes": "Augen",
    "unit.eyes_one": "Auge",
    "unit.points": "Punkte",
    "unit.points_one": "Punkt",
    "empty_input": "Gib eine Zahl von 1 bis {n} ein, eine Aktion wie 'play H10' oder hilfe.",
    "not_allowed": "[red]Nicht erlaubt:[/] {reason}. Erlaubt: {allowed}",
    "no_choice": "[red]Keine Auswahl {number}:[/] gib eine Zahl von 1 bis {n} ein. Erlaubt: {allowed}",
    "not_understood": "[red]Nicht verstanden:[/] {text} ist weder Auswahl noch Aktion noch Befehl. "
    "Gib 1 bis {n} ein, eine Aktion wie 'play H10' oder 're', oder einen Befehl: {commands}.",
    "no_trick_yet": "Noch ist kein Stich vollständig.",
    "no_deal_scored": "Noch ist kein Spiel abgerechnet.",
    "help_cards": "Gib die Nummer einer Auswahl ein oder eine Aktion: [bold]play H10[/] oder nur [bold]H10[/] "
    "(Karten so, wie sie angezeigt werden, {spelling}, oder mit den Farben C S H D; Tarock T1–T22),",
    "help_spelling_french": "z. B. [bold]♥10[/]",
    "help_spelling_german": "z. B. [bold]SA[/] für das Schellen-Ass, [bold]EO[/] für den Eichel-Ober",
    "help_words": "oder das letzte Wort einer Aktion im Menü: [bold]re[/], [bold]kontra[/], [bold]damen[/] für [bold]solo damen[/], "
    "[bold]dobbm[/] für [bold]bid dobbm[/], [bold]pass[/], [bold]accept[/].",
    "help_commands": "Befehle: [bold]hilfe[/] dieser Text, [bold]hand[/] deine Hand, [bold]letzter[/] der letzte Stich, "
    "[bold]stand[/] der Spielzettel, [bold]ende[/] aufhören (die englischen Befehle gelten auch).",
    "private.armut_given": "Du hast abgegeben",
    "private.armut_returned": "Zurückgegeben an die Armut",
    "sheet.title": "Spielzettel",
    "sheet.number": "#",
    "sheet.dealer": "Geber",
    "sheet.game": "Spiel",
    "kind.normal": "Normalspiel",
    "kind.hochzeit": "Hochzeit",
    "kind.armut": "Armut",
    "kind.stille_hochzeit": "Stille Hochzeit (zählt wie ein Solo)",
    "kind.hochzeit_solo": "Hochzeit ohne Partner (als Karo-Solo gespielt)",
    "kind.genscher": "Genscher (wer beide ♦K hält, hat einen Partner gewählt)",
    "sheet.normal": "Normalspiel",
    "sheet.hochzeit": "Hochzeit von {who}",
    "sheet.stille_hochzeit": "Stille Hochzeit von {who}",
    "sheet.hochzeit_solo": "Hochzeit ohne Partner, {who}",
    "sheet.genscher": "Genscher: {who} mit {partner}",
    "sheet.armut": "Armut von {who}, übernommen von {taker}",
    "sheet.lustsolo": "Lustsolo {title}, {who}",
    "sheet.pflichtsolo": "Pflichtsolo {title}, {who}",
    "sheet.vorfuehrung": "Vorführung {title}, {who}",
    "sheet.bock": "Bock ×{n}: {label}",
    "ev.thrown": "[bold]Geschmissen[/] von {who} ({reason}): neu geben, das Spiel zählt nicht.",
    "ev.game": "[bold]Spiel:[/] {title} — Re: {re}; Kontra: {kontra}",
    "ev.eyes": "[bold]Augen:[/] Re {re}, Kontra {kontra}   [bold]Stiche:[/] Re {re_tricks}, Kontra {kontra_tricks}",
    "ev.calls": "[bold]Ansagen:[/] Re-Partei {re}; Kontra-Partei {kontra}",
    "ev.call_none": "keine",
    "ev.winner": "[bold]Gewinner:[/] {party}",
    "ev.nobody": "niemand (beide Parteien haben ihr Ziel verfehlt)",
    "ev.game_value": "[bold]Spielwert:[/]",
    "ev.bock": "  × {n} (Bock)",
    "ev.specials": "[bold]Sonderpunkte:[/]",
    "ev.trick": ", Stich {n}",
    "ev.value": "[bold]Wert:[/] {value} für Re{factor}",
    "ev.solo_factor": " (der Solospieler bekommt ihn dreifach)",
    "ev.scores": "[bold]Punkte:[/] ",
    "ev.announced": "{party} hat {level} angesagt",
    "item.gewonnen": "gewonnen",
    "item.unter_90": "die Gegenpartei hat unter 90 Augen",
    "item.unter_60": "die Gegenpartei hat unter 60 Augen",
    "item.unter_30": "die Gegenpartei hat unter 30 Augen",
    "item.schwarz": "die Gegenpartei hat keinen Stich (schwarz)",
    "item.re_angesagt": "Re angesagt",
    "item.kontra_angesagt": "Kontra angesagt",
    "item.gegen_keine90": "120 Augen gegen keine 90",
    "item.gegen_keine60": "90 Augen gegen keine 60",
    "item.gegen_keine30": "60 Augen gegen keine 30",
    "item.gegen_schwarz": "30 Augen gegen schwarz",
    "item.gegen_die_alten": "Kontra gewinnt gegen die Alten",
    "item.doppelkopf": "Doppelkopf: ein Stich mit 40 Augen oder mehr",
    "item.fuchs_gefangen": "Fuchs gefangen (♦A der Gegenpartei)",
    "item.karlchen": "Karlchen: ♣J macht den letzten Stich",
    "item.doppeltes_karlchen": "doppeltes Karlchen: beide ♣J einer Partei im letzten Stich",
    "item.karlchen_gefangen": "Karlchen im letzten Stich gefangen",
    "item.fuchs_letzter_stich": "ein Fuchs (♦A) macht den letzten Stich",
    "item.dulle_gefangen": "Dulle gefangen: die zweite ♥10 sticht die erste",
    "item.herzstich": "Herzstich: ein Herzstich, den niemand abgestochen hat",
    "item.geklopft": "ein Klopfen hat den Wert erhöht",
    # stich analyse
    "analyse.header": "Analyse von Platz {seat} in {game} (Seed {seed}, {budget} Welten je Entscheidung)",
    "analyse.none": "Keine teure Entscheidung: jede Wahl war im Rahmen des Rauschens so gut wie die der Suche.",
    "analyse.row": "#{index:<3} {where:<9} gespielt {played:<16} besser {best:<16} Kosten {cost:.2f} ± {stderr:.2f}{exact}",
    "analyse.exact": " (exakt)",
    "analyse.solved": " (in Augen gelöst)",
    "analyse.trick": "Stich {n}",
    "analyse.before": "Reizen",
    "analyse.total": "{count} teure Entscheidung(en), zusammen {total:.2f} Punkte, von {decisions} analysierten Entscheidungen",
    "analyse.progress": "Entscheidung {done} von {total}",
    # stich tournament standings
    "tournament.title": "Turnier {name} ({game}), Wertung: {scoring}; gezählte Spiele: {deals}",
    "tournament.scoring.ddv_list": "DDV-Liste (Punkte, dann gewonnene Spiele)",
    "tournament.scoring.sum": "Summe der Liste",
    "tournament.header": "Platz Spieler                 Tisch Platz Punkte  Gew. Verl. Duplikat",
    "tournament.header_sum": "Platz Spieler                 Tisch Platz Punkte  Duplikat",
}

CATALOGUE: Final[Mapping[str, Mapping[str, str]]] = {"en": _EN, "de": _DE}

COMMAND_WORDS: Final[Mapping[str, str]] = {
    "help": "help",
    "?": "help",
    "h": "help",
    "hilfe": "help",
    "hand": "hand",
    "last": "last",
    "letzter": "last",
    "score": "score",
    "stand": "score",
    "zettel": "score",
    "quit": "quit",
    "exit": "quit",
    "q": "quit",
    "ende": "quit",
}
"""Typed command words (either language) and the command they mean."""

COMMANDS_SHOWN: Final[Mapping[str, tuple[str, ...]]] = {
    "en": ("help", "hand", "last", "score", "quit"),
    "de": ("hilfe", "hand", "letzter", "stand", "ende"),
}

PHASES_DE: Final[Mapping[str, str]] = {
    "reservation": "Vorbehalt",
    "declare": "Ansage des Spiels",
    "armut give": "Armut abgeben",
    "armut offer": "Armut angeboten",
    "armut return": "Armut zurückgeben",
    "bidding": "Reizen",
    "talon": "Talon",
    "discard": "Ablegen",
    "announce": "Ansagen",
    "kontra": "Kontra",
    "exchange": "Tausch",
    "buy": "Kaufen",
    "doubling": "Kontra und Retour",
    "solo": "Solo",
    "solo stretch": "Solo strecken",
    "dapp": "Dappen",
    "answer": "Antwort",
    "raise": "Erhöhen",
    "ulti": "Ulti",
}
"""German names of every game's phase words as the terminal shows them (``play`` and ``end`` are never shown)."""


_PLACEHOLDER = re.compile(r"\{(\w+)\}")


class Texts:
    """The terminal's texts in one language: ``texts("deal", n=3)``."""

    def __init__(self, lang: str = "en") -> None:
        if lang not in CATALOGUE:
            raise ValueError(f"unknown language {lang!r}: choose one of {', '.join(LANGUAGES)}")
        self.lang = lang
        self._table = CATALOGUE[lang]

    def __call__(self, key: str, **fields: object) -> str:
        """The text of ``key`` with ``fields`` filled in; where ``n`` is 1 and ``key_one`` exists, that singular."""
        text = self._table[key]
        if fields.get("n") == 1 and f"{key}_one" in self._table:
            text = self._table[f"{key}_one"]
        return text.format(**fields) if fields else text

    def shared(self, key: str, fallback: str | None = None, **fields: object) -> str:
        """A text of the web's catalogue (:mod:`stich.cli.shared_texts`), filled in as the web's ``t()`` does.

        A key missing in this language falls back to English, then to ``fallback``, then to the key itself;
        a placeholder without a field stays as it is.
        """
        text = SHARED[self.lang].get(key) or SHARED["en"].get(key)
        if text is None:
            text = fallback if fallback is not None else key
        return _PLACEHOLDER.sub(lambda m: str(fields[m.group(1)]) if m.group(1) in fields else m.group(0), text)

    def has(self, key: str) -> bool:
        """Whether the catalogue knows ``key``."""
        return key in self._table

    def phase(self, phase: str) -> str:
        """A phase word (``armut give``) in this language."""
        return PHASES_DE.get(phase, phase) if self.lang == "de" else phase
