// The account page (#/account, issue 44): change the password, download one's own data, delete the account.
// Every form asks for the password; the server counts each try like a login attempt.

import { api, ApiError } from "../api.js";
import { h } from "../dom.js";
import { t } from "../i18n.js";
import { refusalText } from "../server_errors.js";
import { allSettings, me, setIdentity } from "../store.js";

function errorText(error) {
  if (!(error instanceof ApiError)) return t("error.generic", { message: String(error.message || error) });
  if (error.status === 0) return t("error.network");
  if (error.status === 401 && error.field !== "session") return t("account.wrong_password");
  if (error.status === 429) return t("login.too_many");
  if (error.status === 422 && error.field === "new_password") return t("login.password_rules");
  if (error.status === 409 && error.field === "tables") return t("account.still_seated");
  return refusalText(error.field, error.message, error.status);
}

function passwordInput(id, autocomplete) {
  return h("input", { id, testid: id, type: "password", autocomplete, required: true, maxlength: "256" });
}

function passwordForm() {
  const oldPassword = passwordInput("account-old-password", "current-password");
  const newPassword = passwordInput("account-new-password", "new-password");
  const message = h("p", { class: "form-error", role: "alert", testid: "password-message" });
  return h(
    "form",
    {
      class: "card-panel",
      testid: "password-form",
      onsubmit: async (event) => {
        event.preventDefault();
        message.textContent = "";
        message.classList.remove("ok");
        try {
          const answer = await api("/api/account/password", { method: "POST", body: { old_password: oldPassword.value, new_password: newPassword.value } });
          oldPassword.value = "";
          newPassword.value = "";
          message.classList.add("ok");
          message.textContent = t("account.password_changed", { count: answer.sessions_ended });
        } catch (error) {
          message.textContent = errorText(error);
        }
      },
    },
    h("h2", { text: t("account.password_title") }),
    h("label", { for: "account-old-password", text: t("account.old_password") }),
    oldPassword,
    h("label", { for: "account-new-password", text: t("account.new_password") }),
    newPassword,
    h("p", { class: "muted small", text: t("account.password_hint") }),
    message,
    h("button", { type: "submit", class: "primary", testid: "password-submit", text: t("account.password_submit") }),
  );
}

async function download() {
  const data = await api("/api/account/export");
  data.settings = allSettings(); // the table settings live in this browser, not on the server
  delete data.settings_note;
  const blob = new Blob([JSON.stringify(data, null, 1)], { type: "application/json" });
  const link = h("a", { href: URL.createObjectURL(blob), download: `stich-${data.account.name}.json` });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(link.href), 10_000);
}

function exportPanel() {
  const message = h("p", { class: "form-error", role: "alert" });
  return h(
    "section",
    { class: "card-panel" },
    h("h2", { text: t("account.export_title") }),
    h("p", { class: "muted", text: t("account.export_hint") }),
    message,
    h("button", {
      type: "button",
      testid: "export-download",
      text: t("account.export_submit"),
      onclick: () => download().catch((error) => (message.textContent = errorText(error))),
    }),
  );
}

function deleteForm() {
  const password = passwordInput("account-delete-password", "current-password");
  const confirmBox = h("input", { id: "account-delete-confirm", testid: "delete-confirm", type: "checkbox", required: true });
  const message = h("p", { class: "form-error", role: "alert", testid: "delete-message" });
  return h(
    "form",
    {
      class: "card-panel danger-zone",
      testid: "delete-form",
      onsubmit: async (event) => {
        event.preventDefault();
        message.textContent = "";
        try {
          await api("/api/account/delete", { method: "POST", body: { password: password.value } });
          setIdentity(null);
          sessionStorage.setItem("stich.accountDeleted", "1");
          location.hash = "#/login";
        } catch (error) {
          message.textContent = errorText(error);
        }
      },
    },
    h("h2", { text: t("account.delete_title") }),
    h("p", { testid: "delete-statement", text: t("account.delete_statement") }),
    h("label", { for: "account-delete-password", text: t("login.password") }),
    password,
    h("label", { class: "check" }, confirmBox, " ", t("account.delete_confirm")),
    message,
    h("button", { type: "submit", class: "danger", testid: "delete-submit", text: t("account.delete_submit") }),
  );
}

/** The #/account page; a guest or a visitor without a session is sent to log in. */
export function mount(root) {
  function render() {
    const identity = me();
    if (!identity || identity.guest) {
      root.replaceChildren(h("section", { class: "page account-page" }, h("h1", { text: t("account.title") }), h("p", { class: "notice", text: t("account.need_account") }), h("a", { class: "button", href: "#/login", text: t("nav.login") })));
      return;
    }
    root.replaceChildren(
      h(
        "section",
        { class: "page account-page" },
        h("h1", { text: t("account.title") }),
        h("p", { class: "muted", text: t("login.current_account", { name: identity.name }) }),
        h("div", { class: "account-grid" }, passwordForm(), exportPanel(), deleteForm()),
      ),
    );
  }
  render();
  return { relabel: render };
}
