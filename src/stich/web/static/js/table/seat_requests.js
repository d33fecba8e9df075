// Taking and leaving a seat at an open table and seating bots: the requests, and the controls in the felt's centre.

import { api } from "../api.js";
import { h } from "../dom.js";
import { t } from "../i18n.js";
import { gameNameOf } from "../cards.js";
import { botSeconds, botStrongest, botTitle } from "../games.js";
import { me, refreshIdentity } from "../store.js";
import { showToast } from "../toast.js";
import { apiErrorText } from "../server_errors.js";
import { rememberJoin } from "../pages/lobby.js";
import { rememberReturn } from "../pages/login.js";

const errorMessage = apiErrorText;

/** Joining, leaving and seating bots at one table page's table. */
export function createSeatRequests(ctx) {
  const { s, tableId, invite, mySeat, seatsInfo, loadSummary, connect, render } = ctx;
  async function joinSeat(seat) {
    if (!me()) {
      rememberJoin(tableId, seat, invite);
      rememberReturn(location.hash);
      location.hash = "#/login";
      return;
    }
    try {
      await api(`/api/tables/${encodeURIComponent(tableId)}/join`, { method: "POST", body: invite ? { seat, invite } : { seat } });
      await refreshIdentity();
      await loadSummary();
      connect();
      render();
    } catch (error) {
      showToast(errorMessage(error), "error");
    }
  }

  async function leaveSeat() {
    try {
      await api(`/api/tables/${encodeURIComponent(tableId)}/leave`, { method: "POST" });
      await loadSummary();
      connect();
      render();
    } catch (error) {
      showToast(errorMessage(error), "error");
    }
  }

  async function addBots(spec) {
    try {
      await api(`/api/tables/${encodeURIComponent(tableId)}/bots`, { method: "POST", body: { bot: spec } });
      await loadSummary();
      render();
    } catch (error) {
      showToast(errorMessage(error), "error");
    }
  }

  function openTableControls() {
    const box = h("div", { class: "open-controls" }, h("p", { text: t("table.waiting_players") }));
    const mine = mySeat() !== null;
    const maySeatBots = mine || s.summary?.creator;
    if (maySeatBots) {
      const select = h(
        "select",
        { testid: "bot-select", "aria-label": t("table.bot_strength"), onchange: (e) => { s.botChoice = e.target.value; } },
        s.bots.map((b) => h("option", { value: b.spec, selected: b.spec === s.botChoice, text: botTitle(b.spec, b.label) + botSeconds(b.seconds) + botStrongest(b, s.summary?.game_name || gameNameOf(s.summary?.game)) })),
      );
      box.append(
        h("label", { class: "small", text: t("table.bot_strength") }),
        h("div", { class: "button-row" }, select, h("button", { type: "button", class: "primary", testid: "add-bots", text: t("table.add_bots"), onclick: () => addBots(select.value) })),
      );
    }
    if (mine && me() && !me().guest) box.append(friendInvite());
    if (mine) box.append(h("button", { type: "button", class: "ghost small", text: t("table.leave_seat"), onclick: leaveSeat }));
    if (!mine && !seatsInfo().some((x) => x.kind === "empty")) box.append(h("p", { class: "muted small", text: t("table.full") }));
    return box;
  }

  /** Invite a friend to this open table (issue 44): their lobby shows a notice that takes them to a free seat. */
  function friendInvite() {
    if (s.friends === undefined) {
      s.friends = null;
      api("/api/friends")
        .then((data) => {
          s.friends = data.friends;
          render();
        })
        .catch(() => {
          s.friends = [];
        });
    }
    const friends = s.friends || [];
    if (!friends.length) return null;
    const select = h("select", { testid: "invite-friend-select", "aria-label": t("people.invite") }, friends.map((f) => h("option", { value: f.name, text: f.online ? t("people.friend_online", { name: f.name }) : f.name })));
    const send = async () => {
      try {
        await api(`/api/tables/${encodeURIComponent(tableId)}/invite`, { method: "POST", body: { name: select.value } });
        showToast(t("people.invite_sent", { name: select.value }));
      } catch (error) {
        showToast(errorMessage(error), "error");
      }
    };
    return h("div", { class: "button-row friend-invite" }, select, h("button", { type: "button", testid: "invite-friend", text: t("people.invite"), onclick: send }));
  }

  return { joinSeat, openTableControls };
}
