// Login, registration and guest play (#/login); the same panel is shown in the lobby without a session.

import { api, ApiError } from "../api.js";
import { h } from "../dom.js";
import { t } from "../i18n.js";
import { refusalText } from "../server_errors.js";
import { me, setIdentity } from "../store.js";

const RETURN_KEY = "stich.returnTo";

/** Remember where to go after logging in (an invite link, a table). */
export function rememberReturn(hash) {
  sessionStorage.setItem(RETURN_KEY, hash);
}

/** Go where the player wanted to go before logging in (default: the lobby). */
export function returnAfterLogin() {
  sessionStorage.removeItem("stich.accountDeleted");
  const target = sessionStorage.getItem(RETURN_KEY);
  sessionStorage.removeItem(RETURN_KEY);
  location.hash = target && target !== "#/login" ? target : "#/";
}

function errorText(error) {
  if (!(error instanceof ApiError)) return t("error.generic", { message: String(error.message || error) });
  if (error.status === 0) return t("error.network");
  if (error.status === 401) return t("login.wrong");
  if (error.status === 429 && error.field === "accounts") return t("login.too_many_accounts");
  if (error.status === 429) return t("login.too_many");
  if (error.status === 409 && error.field === "name") return t("login.name_taken");
  if (error.status === 409 && error.field === "session") return t("login.logged_in_no_guest");
  if (error.status === 422 && error.field === "name") return t("login.name_rules");
  if (error.status === 422 && error.field === "password") return t("login.password_rules");
  return refusalText(error.field, error.message, error.status);
}

/** The login/register/guest panel; `onDone` runs after success (default: go back where the player came from). */
export function loginPanel({ onDone = returnAfterLogin } = {}) {
  const guestName = h("input", { id: "guest-name", testid: "guest-name", name: "guest", autocomplete: "nickname", minlength: "3", maxlength: "24", title: t("login.name_rules"), placeholder: t("login.guest_placeholder") });
  const guestError = h("p", { class: "form-error", role: "alert" });
  const guestForm = h(
    "form",
    {
      class: "card-panel guest-panel",
      onsubmit: async (event) => {
        event.preventDefault();
        guestError.textContent = "";
        const name = guestName.value.trim();
        try {
          setIdentity(await api("/api/auth/guest", { method: "POST", body: name ? { name } : {} }));
          onDone();
        } catch (error) {
          guestError.textContent = errorText(error);
        }
      },
    },
    h("h2", { text: t("login.guest_title") }),
    h("p", { class: "muted", text: t("login.guest_hint") }),
    h("label", { for: "guest-name", text: t("login.display_name") }),
    guestName,
    guestError,
    h("button", { type: "submit", class: "primary", testid: "guest-submit", text: t("login.guest_submit") }),
  );

  const name = h("input", { id: "login-name", testid: "login-name", name: "username", autocomplete: "username", required: true, maxlength: "24" });
  const password = h("input", { id: "login-password", testid: "login-password", name: "password", type: "password", autocomplete: "current-password", required: true, maxlength: "256" });
  const accountError = h("p", { class: "form-error", role: "alert" });
  async function submit(path) {
    accountError.textContent = "";
    if (!name.value.trim() || !password.value) {
      accountError.textContent = t("login.fill_both");
      return;
    }
    try {
      setIdentity(await api(path, { method: "POST", body: { name: name.value.trim(), password: password.value } }));
      onDone();
    } catch (error) {
      accountError.textContent = errorText(error);
    }
  }
  const accountForm = h(
    "form",
    {
      class: "card-panel account-panel",
      onsubmit: (event) => {
        event.preventDefault();
        submit("/api/auth/login");
      },
    },
    h("h2", { text: t("login.account_title") }),
    h("label", { for: "login-name", text: t("login.name") }),
    name,
    h("label", { for: "login-password", text: t("login.password") }),
    password,
    h("p", { class: "muted small", text: t("login.rules") }),
    accountError,
    h(
      "div",
      { class: "button-row" },
      h("button", { type: "submit", class: "primary", testid: "login-submit", text: t("login.submit") }),
      h("button", {
        type: "button",
        testid: "register-submit",
        text: t("login.register"),
        onclick: () => {
          password.autocomplete = "new-password";
          submit("/api/auth/register");
        },
      }),
    ),
  );
  return h("div", { class: "login-grid" }, guestForm, accountForm);
}

/** The #/login page. */
export function mount(root) {
  function render() {
    const identity = me();
    const deleted = sessionStorage.getItem("stich.accountDeleted") === "1";
    root.replaceChildren(
      h(
        "section",
        { class: "page login-page" },
        h("h1", { text: t("login.title") }),
        deleted && !identity ? h("p", { class: "notice", testid: "account-deleted", text: t("account.deleted") }) : null,
        identity ? h("p", { class: "notice", text: t(identity.guest ? "login.current_guest" : "login.current_account", { name: identity.name }) }) : null,
        loginPanel(),
      ),
    );
  }
  render();
  return { relabel: render };
}
