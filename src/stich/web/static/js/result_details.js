// "Im Einzelnen": a finished Tarock-family deal's count and payments, line by line, written by the client from the
// result JSON in the current language and with the players' names (the server's result_lines are English and
// say "seat 0"). Doppelkopf's evaluation shows all of this in its own tables, so it has no lines here.

import { formatNumber, t } from "./i18n.js";
import { contractLabel, partyLabel } from "./labels.js";

const signed = (n) => (n > 0 ? `+${formatNumber(n)}` : formatNumber(n));

function tapp(r, name, list) {
  if (r.kind === "all_pass") return [t("detail.all_pass_again", { name: name(r.next_dealer) })];
  if (r.kind !== "game") return null;
  const talon = r.talon_taken ? t("detail.tapp.talon", { half: t(`talon.${r.talon_taken}`, {}, r.talon_taken) }) : "";
  const lines = [t("detail.by_against", { contract: contractLabel("tapp_tarock", r.contract), name: name(r.declarer), talon, others: list(r.defenders) })];
  if (r.announced?.length) lines.push(t("detail.announced", { items: r.announced.map((a) => t(`item.${a}`, {}, a)).join(", ") }));
  const p = r.points || {};
  const tr = r.tricks || {};
  lines.push(t(r.won ? "detail.tapp.points_won" : "detail.tapp.points_lost", { d: p.declarer, o: p.defenders, td: tr.declarer, to: tr.defenders }));
  for (const item of r.items || []) {
    const factor = item.factor !== 1 ? t("detail.factor", { factor: item.factor, doubling: t(`doubling.${item.doubling}`, {}, item.doubling) }) : "";
    lines.push(t("detail.tapp.item", { item: t(`item.${item.name}`, {}, item.name), value: item.value, factor, to: partyLabel(item.to === "defenders" ? "defenders" : "declarer") }));
  }
  const per = Number(r.per_defender);
  if (per > 0) lines.push(t("detail.each_defender_pays", { n: per }));
  else if (per < 0) lines.push(t("detail.declarer_pays_each", { n: -per }));
  for (const bonus of r.hand_bonuses || []) {
    const item = t(`item.${bonus.name}`, {}, bonus.name);
    lines.push(t(bonus.settlement === "holder" ? "detail.tapp.bonus_holder" : "detail.tapp.bonus_side", { item, name: name(bonus.seat), n: bonus.value }));
  }
  return lines;
}

function dobbm(r, name, list) {
  if (r.kind === "all_pass") {
    const lines = [t("detail.all_pass_next", { name: name(r.next_dealer) })];
    if (r.collector !== null && r.collector !== undefined) lines.push(t("detail.dobbm.stockerl", { name: name(r.collector), n: r.stockerl }));
    return lines;
  }
  if (r.kind !== "game") return null;
  const idle = r.idle !== null && r.idle !== undefined ? t("detail.idle", { name: name(r.idle) }) : "";
  const lines = [t("detail.by_against", { contract: contractLabel("dobbm", r.contract), name: name(r.declarer), talon: idle, others: list(r.opponents) })];
  const p = r.points || {};
  const tr = r.tricks || {};
  const laid = t(r.contract === "dobbm" ? "detail.dobbm.discards" : "detail.dobbm.dobb");
  const where = t(r.talon?.to === "declarer" ? "detail.dobbm.to_declarer" : "detail.dobbm.to_defenders");
  lines.push(t(r.talon?.points === 1 ? "detail.dobbm.points_one" : "detail.dobbm.points", { d: p.declarer, o: p.defenders, td: tr.declarer, to: tr.defenders, laid, n: r.talon?.points, where }));
  if (r.winner === null || r.winner === undefined) return [...lines, t("detail.dobbm.draw")];
  lines.push(t(r.winner === "declarer" ? "detail.dobbm.declarer_by" : "detail.dobbm.defenders_by", { margin: r.margin, base: r.base }));
  const factors = [];
  if (r.solo_factor !== 1) factors.push(t("detail.dobbm.solo_factor", { n: r.solo_factor }));
  if (r.doubles) factors.push(t("detail.dobbm.doubles", { n: r.multiplier, retours: r.doubles - 1 }));
  if (factors.length) lines.push(t("detail.dobbm.per_opponent", { factors: factors.join(" "), n: r.payment }));
  if (r.match) lines.push(t("detail.dobbm.match", { side: partyLabel(r.match) }));
  lines.push(t(r.winner === "declarer" ? "detail.each_defender_pays" : "detail.declarer_pays_each", { n: r.payment }));
  return lines;
}

function droggn(r, name, list) {
  if (r.kind === "thrown") return [t("detail.all_pass_again", { name: name(r.seat) })];
  if (r.kind !== "played") return null;
  const idle = r.idle !== null && r.idle !== undefined ? t("detail.idle", { name: name(r.idle) }) : "";
  const lines = [t("detail.by_against", { contract: contractLabel("droggn", r.contract), name: name(r.declarer), talon: idle, others: list(r.defenders) })];
  const p = r.card_points || {};
  const tr = r.tricks || {};
  lines.push(t(r.matsch ? "detail.droggn.points_matsch" : "detail.droggn.points", { d: p.declarer, o: p.defenders, td: tr.declarer, to: tr.defenders }));
  if (r.stopped_after_trick) lines.push(t("detail.droggn.stopped", { n: r.stopped_after_trick }));
  lines.push(t(r.winner === "declarer" ? "detail.declarer_wins" : "detail.defenders_win"));
  if (Number(r.multiplier) > 1) lines.push(t("detail.droggn.stakes", { n: r.multiplier }));
  for (const item of r.items || []) {
    const doubled = item.doubled && item.points !== item.base ? ` (${item.base} × ${r.multiplier})` : "";
    lines.push(`${item.side === "declarer" ? "+" : "−"}${formatNumber(item.points)} ${t(`item.${item.name}`, {}, item.name)}${doubled}`);
  }
  lines.push(t("detail.droggn.value", { value: signed(Number(r.value)), n: formatNumber(Number(r.value)) }));
  return lines;
}

function dappen(r, name, list) {
  if (r.kind === "thrown") return [t("detail.dappen.thrown")];
  if (r.kind === "penalty") return [t("detail.dappen.penalty", { name: name(r.seat), n: r.per_player })];
  if (r.kind !== "game") return null;
  const lines = [t("detail.dappen.game", { contract: contractLabel("dappen", r.contract), name: name(r.lone), bidders: list(r.bidders || []) })];
  if (r.seven_fives) lines.push(t("detail.dappen.seven_fives", { name: name(r.lone) }));
  else {
    const [c, f, p, tr] = ["cards", "face_points", "points", "tricks"].map((k) => r[k] || {});
    const how = t(r.counting === "pairs" ? "detail.dappen.pairs" : "detail.dappen.thirds");
    // one trick is "1 Stich", not "1 Stiche"
    lines.push(t(tr.lone === 1 ? "detail.dappen.lone_one" : "detail.dappen.lone", { tricks: tr.lone, cards: c.lone, face: f.lone, points: p.lone, how }));
    lines.push(t(tr.opponents === 1 ? "detail.dappen.opponents_one" : "detail.dappen.opponents", { tricks: tr.opponents, cards: c.opponents, face: f.opponents, points: p.opponents }));
  }
  if (r.marsch === "lone" && !r.seven_fives) lines.push(t("detail.dappen.marsch_lone"));
  else if (r.marsch === "opponents") lines.push(t("detail.dappen.marsch_opponents"));
  lines.push(t(r.winner === "lone" ? "detail.dappen.winner_lone" : "detail.dappen.winner_opponents", { n: r.losers_points }));
  if (r.diff === null || r.diff === undefined) lines.push(t("detail.dappen.value", { value: r.value, factor: r.factor, n: r.per_opponent }));
  else lines.push(t("detail.dappen.diff", { diff: r.diff, value: r.value, factor: r.factor, n: r.per_opponent }));
  if (r.liability) lines.push(t("detail.dappen.liability", { mode: t(`choice.dappen.marsch_liability.${r.liability.mode}`, {}, r.liability.mode), seats: list(r.liability.responsible || []) }));
  for (const row of r.ulti || []) lines.push(t(row.won ? "detail.dappen.ulti_won" : "detail.dappen.ulti_lost", { trump: row.trump, n: row.cents }));
  return lines;
}

const WRITERS = { tapp_tarock: tapp, dobbm, droggn, dappen };

/**
 * The deal's lines in the current language with names, or null when the client has no wording for this game or
 * result kind (then the server's English lines may be shown in English only, see `evaluationContent`).
 */
export function detailLines(gameName, result, names) {
  const writer = WRITERS[gameName];
  if (!writer || !result) return null;
  const name = (seat) => names[seat] ?? t("table.seat_n", { n: Number(seat) + 1 });
  const list = (seats) => (seats || []).map(name).join(", ");
  try {
    return writer(result, name, list);
  } catch {
    return null;
  }
}

/** The server's English lines with "seat 2" replaced by the player's name (for games the client does not word). */
export function namedServerLines(lines, names) {
  return (lines || []).map((line) => line.replace(/\b[Ss]eats? (\d+)((?:, \d+)*)/g, (_, first, more) => [first, ...more.split(", ").filter(Boolean)].map((s) => names[Number(s)] ?? s).join(", ")));
}
