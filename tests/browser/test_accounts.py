"""Issue 44, "Accounts people can trust", in the browser: a password change logs out the other browser, and an account deletion.

Erika registers in one browser and logs in in a second one; on the account
page (#/account) she changes her password, after which the second browser
is logged out and only the new password logs in.  Then she deletes the
account: the page states what happens to her finished deals before she
confirms, and afterwards the account is gone (the name no longer logs in).
In German at 1366×768 and in English at 390×844.
"""

from __future__ import annotations

import json
from pathlib import Path

from playwright.sync_api import expect

from .flows import GERMAN_LAPTOP_AND_ENGLISH_PHONE, LAPTOP, ContextFactory, Screenshot, person
from .ui import client_text, submit_account, tid

OLD = "correct horse battery"
NEW = "a new and longer secret"


@GERMAN_LAPTOP_AND_ENGLISH_PHONE
def test_password_change_logs_out_the_other_browser_and_the_account_can_be_deleted(
    make_context: ContextFactory, screenshot: Screenshot, lang: str, viewport: dict[str, int]
) -> None:
    name = f"Erika {lang}"
    first = person(make_context, lang, viewport)
    second = person(make_context, lang, viewport)
    submit_account(first, name, OLD, register=True)
    expect(first.locator(tid("user-name"))).to_have_text(name)
    submit_account(second, name, OLD, register=False)
    expect(second.locator(tid("user-name"))).to_have_text(name)

    first.locator(tid("account-link")).click()
    first.wait_for_url("**/#/account")
    first.locator(tid("account-old-password")).fill("not my password")
    first.locator(tid("account-new-password")).fill(NEW)
    first.locator(tid("password-submit")).click()
    expect(first.locator(tid("password-message"))).to_have_text(client_text(first, "account.wrong_password"))

    first.locator(tid("account-old-password")).fill(OLD)
    first.locator(tid("account-new-password")).fill(NEW)
    first.locator(tid("password-submit")).click()
    expect(first.locator(tid("password-message"))).to_have_text(client_text(first, "account.password_changed").replace("{count}", "1"))
    screenshot(first, "password-changed")

    second.reload()  # the second browser's session has ended
    expect(second.locator(tid("user-name"))).to_have_text("")
    submit_account(second, name, OLD, register=False)
    expect(second.locator(".account-panel .form-error")).to_have_text(client_text(second, "login.wrong"))

    first.reload()  # this browser got a fresh session and stays logged in
    expect(first.locator(tid("user-name"))).to_have_text(name)
    with first.expect_download() as download:
        first.locator(tid("export-download")).click()
    exported = json.loads(Path(download.value.path()).read_text(encoding="utf-8"))
    assert exported["format"] == "stich-account-export/1" and exported["account"]["name"] == name
    assert exported["settings"]["germanSuits"] is False and "settings_note" not in exported  # this browser's settings, added
    assert exported["tables"] == [] and exported["deals"] == []
    statement = first.locator(tid("delete-statement"))
    expect(statement).to_have_text(client_text(first, "account.delete_statement"))
    expect(statement).to_contain_text("gelöschter Spieler" if lang == "de" else "deleted player")
    screenshot(first, "delete-form")
    first.locator(tid("account-delete-password")).fill(NEW)
    first.locator(tid("delete-submit")).click()  # the confirmation box is not ticked: the browser refuses the form
    expect(first.locator(tid("user-name"))).to_have_text(name)
    first.locator(tid("delete-confirm")).check()
    first.locator(tid("delete-submit")).click()
    first.wait_for_url("**/#/login")
    expect(first.locator(tid("account-deleted"))).to_have_text(client_text(first, "account.deleted"))
    expect(first.locator(tid("user-name"))).to_have_text("")
    screenshot(first, "deleted")

    submit_account(second, name, NEW, register=False)
    expect(second.locator(".account-panel .form-error")).to_have_text(client_text(second, "login.wrong"))


def test_a_friend_is_seen_online_and_invited_to_a_table(make_context: ContextFactory, screenshot: Screenshot) -> None:
    """Ada adds Bert by name, sees him online (his page pings), opens a table and invites him; Bert accepts the notice and sits down."""
    ada = person(make_context, "de", LAPTOP)
    bert = person(make_context, "en", LAPTOP)
    submit_account(ada, "Ada Lobby", OLD, register=True)
    expect(ada.locator(tid("user-name"))).to_have_text("Ada Lobby")
    submit_account(bert, "Bert Lobby", OLD, register=True)
    expect(bert.locator(tid("user-name"))).to_have_text("Bert Lobby")
    bert.goto("/#/")

    ada.goto("/#/")
    ada.locator(tid("friend-name")).fill("bert lobby")
    ada.locator(tid("friend-add")).click()
    friend = ada.locator(f'{tid("friend")}[data-name="Bert Lobby"]')
    expect(friend).to_have_attribute("data-online", "true")
    expect(friend.locator(tid("friend-status"))).to_have_text(client_text(ada, "people.online"))
    expect(ada.locator(tid("online-line"))).to_contain_text("Bert Lobby")

    made = ada.request.post("/api/tables", data={"game": "doppelkopf", "kind": "free", "deals": 1, "private": True})
    assert made.status == 201, made.text()
    table_id = made.json()["id"]
    expect(friend.locator(tid("friend-table"))).to_have_count(0)  # Bert sits at no table yet
    invite = friend.locator(tid("friend-invite"))
    expect(invite).to_be_visible()
    screenshot(ada, "friend-online")
    invite.click()

    notice = bert.locator(tid("invite-notice"))
    expect(notice).to_contain_text("Ada Lobby")
    screenshot(bert, "invite-notice")
    bert.locator(tid("invite-accept")).click()
    bert.wait_for_url(f"**/#/table/{table_id}")
    expect(bert.locator(f'{tid("seat")}[data-seat="1"]')).to_have_attribute("data-occupant", "Bert Lobby")
    # now he sits at her table, which she may see
    expect(ada.locator(f'{tid("friend")}[data-name="Bert Lobby"] {tid("friend-table")}')).to_have_count(1)

    # the table page offers the same invite while the table waits for players
    ada.goto(f"/#/table/{table_id}")
    choice = ada.locator(tid("invite-friend-select"))
    expect(choice.locator("option")).to_have_text([client_text(ada, "people.friend_online").replace("{name}", "Bert Lobby")])
    ada.locator(tid("invite-friend")).click()
    expect(ada.locator("#toast")).to_have_text(client_text(ada, "people.invite_sent").replace("{name}", "Bert Lobby"))
