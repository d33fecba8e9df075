// The end of a deal for people: who played what, card points, winner, value items, special points,
// payments and every seat's score, built from the result JSON (and the server's result_lines).

import { h } from "./dom.js";
import { formatNumber, language, t } from "./i18n.js";
import { detailLines, namedServerLines } from "./result_details.js";
import { contractLabel, itemLabel, partyLabel } from "./labels.js";

/** Special points that belong to the whole deal, not to a trick. */
const TRICKLESS = new Set(["gegen_die_alten"]);
const signed = (n) => (typeof n === "number" && n > 0 ? `+${formatNumber(n)}` : formatNumber(n));
const seatList = (seats, names) => (seats || []).map((s) => names[s] ?? t("table.seat_n", { n: s + 1 })).join(", ");

/** The seats of the playing side (declarer, soloist, Re party, lone player) of a result. */
export function declaringSeats(result) {
  if (Array.isArray(result.re)) return result.re;
  for (const key of ["declarer", "lone", "soloist"]) if (typeof result[key] === "number") return [result[key]];
  return [];
}

/** Whether the deal was thrown in (nobody played it). */
export function thrownIn(result) {
  return Boolean(result.redeal) || ["all_pass", "thrown", "thrown_in", "schmeissen", "redeal"].includes(result.kind);
}

/**
 * Whether a finished deal counts toward the table's list.  A deal thrown in and dealt again (``redeal``: Tapp
 * Tarock, Droggn, Dobbm, Doppelkopf) does not; Dappen's deal "ins Loch" (``redeal: false``) does [dappen.md].
 */
export function countsTowardList(result) {
  if (result && typeof result.redeal === "boolean") return !result.redeal;
  return !thrownIn(result || {});
}

/**
 * The game number of deal ``number`` (0-based, counting every deal dealt) on a sheet of finished rows: "Spiel N"
 * always counts only the deals that count toward the list, so header, score sheet and evaluation agree (issue 40,
 * defect 10).  ``null`` for a deal that was thrown in and dealt again: it is no game of the list.
 */
export function gameNumber(rows, number, result) {
  if (result && !countsTowardList(result)) return null;
  return 1 + rows.filter((row) => row.number < number && countsTowardList(row.result)).length;
}

/** A short label of a finished deal for the score sheet ("Damensolo (Anna)", "Dreier (Bert) won"). */
export function dealSummary(gameName, result, names) {
  if (!result) return "";
  if (thrownIn(result)) return t("result.thrown_short");
  const contract = contractLabel(gameName, result.contract, result.kind) || t("result.game");
  const seats = declaringSeats(result);
  const who = gameName === "doppelkopf" && !result.solo ? "" : seatList(seats, names);
  return who ? t("result.summary", { contract, who }) : contract;
}

function winnerText(gameName, result) {
  if (thrownIn(result)) return t("result.thrown");
  if (gameName === "doppelkopf") {
    if (result.winner) return t("result.party_wins", { party: partyLabel(result.winner) });
    return t("result.no_winner");
  }
  if (typeof result.won === "boolean") return t(result.won ? "result.declarer_wins" : "result.declarer_loses");
  if (typeof result.winner === "string") return t(`result.wins.${result.winner}`, {}, t("result.side_wins", { side: partyLabel(result.winner) }));
  return "";
}

/** The two sides' card points as `{label, a: [side, value, tricks], b: [...]}`, when the result has them. */
function cardPoints(gameName, result) {
  const source = result.eyes || result.card_points || result.points;
  if (!source || typeof source !== "object") return null;
  const sides = Object.keys(source);
  if (sides.length !== 2) return null;
  const label = result.eyes ? t("result.eyes") : t("result.card_points");
  return { label, sides: sides.map((side) => ({ side, value: source[side], tricks: result.tricks?.[side] })) };
}

function itemRows(gameName, result, names) {
  const rows = [];
  for (const item of result.items || []) {
    const side = item.party ?? item.to ?? item.side ?? (typeof item.seat === "number" ? names[item.seat] : "");
    const value = item.points ?? item.amount ?? item.value;
    const detail = [];
    if (item.doubling && item.doubling !== "none") detail.push(t(`doubling.${item.doubling}`, {}, item.doubling));
    if (item.factor && item.factor !== 1) detail.push(`×${item.factor}`);
    if (item.base !== undefined && item.base !== value) detail.push(t("result.base", { base: item.base }));
    // An item booked to a side shows what that side gets: Tarock items carry the declarer's signed amount (issue 40, defect 6).
    const shown = side && typeof value === "number" ? Math.abs(value) : value;
    rows.push({ name: itemLabel(gameName, item.name), side: side ? partyLabel(side) : "", value: shown, detail: detail.join(" ") });
  }
  for (const item of result.specials || []) {
    // "gegen die Alten" is won by the deal, not in a trick: no trick is named for it (issue 40, defect 9)
    const detail = item.trick !== undefined && !TRICKLESS.has(item.name) ? t("result.in_trick", { trick: Number(item.trick) + 1 }) : "";
    rows.push({ name: itemLabel(gameName, item.name), side: partyLabel(item.party ?? item.to ?? ""), value: item.points ?? item.value, detail, special: true });
  }
  for (const bonus of result.hand_bonuses || []) {
    rows.push({ name: itemLabel(gameName, bonus.name), side: names[bonus.seat] ?? "", value: bonus.value, detail: t("result.hand_bonus") });
  }
  for (const ulti of result.ulti || []) {
    rows.push({ name: t("result.ulti", { trump: ulti.trump }), side: "", value: ulti.cents, detail: t(ulti.won ? "result.won" : "result.lost") });
  }
  return rows;
}

/** What the score sheet books for each defender when all of them book the same (``null`` otherwise, or unknown). */
function defenderBooking(result) {
  const defenders = Array.isArray(result.defenders) ? result.defenders : [];
  const scores = result.scores || [];
  const booked = defenders.map((seat) => scores[seat]);
  if (!booked.length || booked.some((n) => typeof n !== "number" || n !== booked[0])) return null;
  return booked[0];
}

function facts(gameName, result) {
  const out = [];
  const add = (label, value) => {
    if (value !== undefined && value !== null && value !== "") out.push([label, value]);
  };
  if (gameName === "doppelkopf") {
    if (result.calls) {
      const calls = Object.entries(result.calls).filter(([, v]) => v && v !== "none").map(([party, v]) => (v === "re_kontra" ? partyLabel(party) : `${partyLabel(party)}: ${t(`call.${v}`, {}, v)}`)); // "Re", not "Re: Re und Kontra"
      add(t("result.calls"), calls.join(" · "));
    }
    if (result.multiplier && result.multiplier !== 1) add(t("result.multiplier"), `×${result.multiplier}`);
    add(t("result.value"), typeof result.value === "number" ? formatNumber(Math.abs(result.value)) + (result.solo ? ` ${t("result.solo_triple")}` : "") : undefined);
    return out;
  }
  if (result.talon_taken) add(t("result.talon"), t(`talon.${result.talon_taken}`, {}, result.talon_taken));
  if (Array.isArray(result.announced) && result.announced.length) add(t("result.announced"), result.announced.map((a) => itemLabel(gameName, a)).join(", "));
  if (result.talon && typeof result.talon === "object" && "points" in result.talon) add(t("result.talon_points"), `${result.talon.points} → ${partyLabel(result.talon.to)}`);
  if (result.margin !== undefined) add(t("result.margin"), result.margin);
  if (result.multiplier && result.multiplier !== 1) add(t("result.multiplier"), `×${result.multiplier}`);
  if (result.doubles) add(t("result.doubles"), result.doubles);
  // What each defender pays or receives, as a positive amount: a winner's points never read negative.  It is what the
  // score sheet books for each defender; where hand bonuses move it off the game's amount, both parts are named
  // ("bekommt 6 (Spiel +7, Handboni −1)", issue 40, defect 9).
  if (typeof result.per_defender === "number") {
    const booked = defenderBooking(result);
    const amount = booked ?? -result.per_defender;
    let split = "";
    if (booked !== null && booked !== -result.per_defender) split = ` ${t("result.defender_split", { game: signed(-result.per_defender), bonus: signed(booked + result.per_defender) })}`;
    else if (booked === null && (result.hand_bonuses || []).length) split = ` ${t("result.defender_game_only")}`;
    if (amount || split) add(t(amount > 0 ? "result.each_defender_gets" : "result.each_defender_pays"), formatNumber(Math.abs(amount)) + split);
  }
  if (result.payment !== undefined) add(t("result.payment"), formatNumber(result.payment));
  // Dappen's Ultis are paid apart from the game [dappen.md §8.1: multipliers never apply to Ultis]: say so when the
  // sheet's amounts hold them too (issue 40, defect 9)
  if (result.per_opponent !== undefined) add(t("result.per_opponent"), formatNumber(result.per_opponent) + ((result.ulti || []).length ? ` ${t("result.game_without_ulti")}` : ""));
  if (typeof result.value === "number") {
    // A declarer's value below zero is the other side's win: shown as what it is worth, and for whom.  A result that
    // names its winner (Dappen books an unsigned value) is worth it for that side (issue 40, defect 9).
    const lone = typeof result.lone === "number";
    const bySign = result.value >= 0 ? (lone ? "lone" : "declarer") : lone ? "opponents" : "defenders";
    const side = partyLabel(typeof result.winner === "string" ? result.winner : bySign);
    add(t("result.value"), result.value ? t("result.value_for", { value: formatNumber(Math.abs(result.value)), side }) : formatNumber(0));
  }
  return out;
}

/**
 * The evaluation of a finished deal.
 * @param {object} result the result JSON (record format)
 * @param {{gameName: string, names: string[], mySeat: number|null, lines?: string[], totals?: number[]}} ctx
 */
export function evaluationContent(result, { gameName, names, mySeat, lines = [], totals = null }) {
  const contract = thrownIn(result) ? "" : contractLabel(gameName, result.contract, result.kind);
  const playing = declaringSeats(result);
  const headline = h(
    "div",
    { class: "eval-head" },
    contract ? h("div", { class: "eval-contract" }, contract, playing.length && (gameName !== "doppelkopf" || result.solo) ? h("span", { class: "muted", text: ` · ${seatList(playing, names)}` }) : null) : null,
    h("div", { class: ["eval-winner", winnerClass(result, mySeat)], text: winnerText(gameName, result) }),
  );
  const parts = [headline];

  if (gameName === "doppelkopf" && Array.isArray(result.re)) {
    parts.push(
      h("div", { class: "eval-parties" },
        h("span", { class: "party re" }, h("b", { text: partyLabel("re") }), ` ${seatList(result.re, names)}`),
        h("span", { class: "party kontra" }, h("b", { text: partyLabel("kontra") }), ` ${seatList(result.kontra, names)}`),
      ),
    );
  }
  const points = cardPoints(gameName, result);
  if (points) {
    parts.push(
      h("div", { class: "eval-points", "aria-label": points.label },
        points.sides.map((s) =>
          h("div", { class: ["eval-side", sideWon(result, s.side) && "winner"] },
            h("span", { class: "side-name", text: partyLabel(s.side) }),
            h("span", { class: "side-value", text: formatNumber(s.value) }),
            h("span", { class: "muted small", text: s.tricks !== undefined ? t(s.tricks === 1 ? "result.tricks_one" : "result.tricks_n", { n: s.tricks }) : points.label }),
          ),
        ),
      ),
    );
  }
  const rows = itemRows(gameName, result, names);
  if (rows.length) {
    parts.push(
      h("table", { class: "eval-items" },
        h("caption", { class: "sr-only", text: t("result.items") }),
        h("thead", {}, h("tr", {}, h("th", { text: t("result.item") }), h("th", { text: t("result.side") }), h("th", { class: "num", text: t("result.points") }))),
        h("tbody", {}, rows.map((r) => h("tr", { class: r.special ? "special" : "" }, h("td", {}, r.name, r.detail ? h("span", { class: "muted small", text: ` ${r.detail}` }) : null), h("td", { text: r.side }), h("td", { class: "num", text: formatNumber(r.value) })))),
      ),
    );
  }
  const list = facts(gameName, result);
  if (list.length) parts.push(h("dl", { class: "eval-facts" }, list.map(([k, v]) => [h("dt", { text: k }), h("dd", { text: v })])));
  parts.push(
    h("table", { class: "eval-scores" },
      h("caption", { class: "sr-only", text: t("result.scores") }),
      h("thead", {}, h("tr", {}, h("th", { text: t("result.player") }), h("th", { class: "num", text: t("result.score") }), totals ? h("th", { class: "num", text: t("result.total") }) : null)),
      h("tbody", {},
        (result.scores || []).map((score, seat) =>
          h("tr", { class: [seat === mySeat && "me", score > 0 && "plus", score < 0 && "minus"] },
            h("td", { text: names[seat] ?? t("table.seat_n", { n: seat + 1 }) }),
            h("td", { class: "num", text: signed(score) }),
            totals ? h("td", { class: "num", text: formatNumber(totals[seat]) }) : null,
          ),
        ),
      ),
    ),
  );
  // "Im Einzelnen": the client's own wording with names; for a game it does not word, the server's English lines
  // (names put in) in English only, except a bare "key: value" listing that says nothing new.
  const own = detailLines(gameName, result, names);
  if (own) lines = own;
  else if (language() === "en") lines = namedServerLines(lines, names).filter((line) => !/^[a-z][a-z_ ]*: \S+$/.test(line));
  else lines = [];
  if (lines.length) {
    parts.push(h("details", { class: "eval-lines" }, h("summary", { text: t("result.details") }), h("ul", {}, lines.map((line) => h("li", { text: line })))));
  }
  return parts;
}

/** Whether `side` of the card points won the deal. */
function sideWon(result, side) {
  if (typeof result.winner === "string") return result.winner === side;
  if (typeof result.won === "boolean") return side === "declarer" ? result.won : !result.won;
  return false;
}

function winnerClass(result, mySeat) {
  if (mySeat === null || mySeat === undefined || !Array.isArray(result.scores)) return "";
  const mine = result.scores[mySeat];
  return mine > 0 ? "good" : mine < 0 ? "bad" : "";
}
